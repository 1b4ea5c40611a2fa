// Package census compares nimbook's results on octal games with the
// published tables: the census of every code with at most three digits
// (issue 20; examples/surveys/octal-three-digits.yaml).
//
// The published results are bundled as data (published.yaml, embedded):
// one entry per standard form (heap.Octal.Standard, T. Czajka's lookup
// tables) with its status, preperiod and period, its first values when the
// source prints them, its rare-value statistics, who first solved it and
// the sources, each cited (Guy and Smith 1956, Winning Ways, Gangolli and
// Plambeck 1989, Flammenkamp's tables, Czajka's octal-games), and the two
// corrections Czajka found in them (0.27 is 0.26 in Winning Ways' locator,
// not 0.06; 0.161 is not 0.36, they differ at heap 519).
//
// Compare reads one code's period result (a survey variant's) against the
// entry of its standard form, its values moved by the shift, and says
// whether they agree, disagree (with the first heap where the values
// differ, when the published values are known), or whether the result is
// new (a period proven where the tables know none), or the published proof
// needs more heaps than were computed. Registered as a survey annotation
// (survey.RegisterAnnotation), the verdict goes beside each variant's
// results in a survey's JSON and CSV reports; reports/ draws it as the
// census section of the documents.
package census
