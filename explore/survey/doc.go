// Package survey runs one game family over many parameters: a survey file
// is a job file with `survey:` in place of `sections:`, whose family
// parameters may be lists or inclusive ranges "A..B" (see SPEC.md,
// "Surveys"). Every combination is one variant, checked with the job
// file's own errors before any work starts and analysed as a job section
// would be.
//
// Results are kept in an SQLite database (Store), one row per variant,
// committed as each variant finishes, so that an interrupted survey
// resumes where it stopped. Shards of a survey run on several machines
// (Slurm job arrays: Script, Submit, Wait) and their databases merge into
// the database a single machine would have written (Merge).
//
// Other packages may add what they know of a variant beside its results
// (RegisterAnnotation): package census compares octal codes with the
// published tables. Annotations go under "annotations" in the JSON report
// and into the CSV columns; they are computed when a report is written,
// from the stored results, so a database needs no recomputing when they
// change.
package survey
