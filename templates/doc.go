// Package templates holds every fixed text of nimbook's reports and
// handouts, in English and French, and the handout's page skeleton and
// print stylesheet.
//
// The texts are Go text/template definitions, one {{define "key"}} per
// message, in en.tmpl and fr.tmpl; they are embedded with go:embed so that
// the binary needs no files. Load reads the same files from a directory
// (the --templates flag) and lets any definition found there replace the
// embedded one, so a user can reword a single message without copying the
// rest. Messages take their numbers already formatted: the renderers decide
// how numbers look, the templates only decide the words around them. The
// exception is a heap rule's description (Set.Format runs the rule's own
// Describe; a message game.RULE replaces it), which takes the rule's
// parameters as they are and formats them with the functions tuple, set,
// inc and name that every message may call.
//
// A message writes subscripts and superscripts as mathematics is typed in
// plain text, f_r(n), 2^{{.N}}, M_24, x_{max}; the reports set them as
// <sub> and <sup> in HTML, smaller and lowered or raised in the PDF, and in
// Unicode in the Markdown read in a terminal. French messages follow French
// typography: a no-break space before ; ! ? (U+202F) and : (U+00A0), and
// inside « » (U+202F), and ’ for the apostrophe (TestFrenchTypography).
//
// Vocabulary follows MATH.md: French texts say « position P (gagnante pour
// le joueur qui vient de jouer) » and « position N », never « perdante » or
// « gagnante » alone, since the source documents disagree on those words.
package templates
