// Package reports turns the results of a nimbook job (explore/job.Report)
// into documents: Markdown for the terminal, a self-contained printable
// HTML handout (goldmark, inline SVG figures, A4 print stylesheet), an A4
// PDF made in pure Go (fpdf, embedded DejaVu fonts, figures as PNG), an
// executed Jupyter notebook (nbformat 4.5), the stable JSON form of
// SPEC.md, and export files for other tools (CSV, OEIS b-files, DOT).
//
// Each section cites its source (the job file's source key) below its
// first table. Value sequences are compared with a small offline table of
// OEIS sequences (OEIS): the report names the one it matches, or says at
// which n it parts from one it follows for at least eight terms.
//
// All renderers share one document model built from the results, so the
// forms say the same thing; the words come from package templates (English
// or French, overridable from a directory) and the numbers never depend on
// the language. P-positions are marked without colour (bold values, ×
// marks on figures) so that handouts survive black-and-white printing.
// Long sequences wrap in rows of 10 (or Options.Wrap) labelled by their
// range of n, as in the source documents; tables and lists past the
// Options limits are cut with a note that says so, never silently.
//
// Notebook cells display through the same renderers: Bundler turns a
// cell's result into a Jupyter MIME bundle, and NotebookMarkdown,
// NotebookHTML and NotebookPDF print an executed notebook as a report.
//
// Output is deterministic: no dates unless Options.Date is set, no map
// iteration, and gonum/plot's SVG is byte-stable.
package reports
