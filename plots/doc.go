// Package plots draws nimbook's figures with gonum/plot: value sequences
// (dots, with a proven period shaded; a log axis when the values span
// decades), rare and common values of a heap game (a scatter, rare values
// in black), 2-D heat maps of Grundy and nimber tables with P-positions
// marked, bar charts of weight distributions, and figures across the
// variants of a survey (periods, values a row per variant, a map of the
// periods over two parameters).
//
// Figures are meant for paper first. Line and dot figures are grey-scale,
// P-positions marked with a symbol (×) rather than a colour. Heat maps
// are coloured along one perceptual map (colour.go) whose lightness grows
// with the value, from the black of 0 to a pale yellow short of the
// paper's white, so that they still read in a grey print; each carries
// its colour scale. The SVG form is the default because it prints
// sharply. SVG output has deterministic bytes (same data, same bytes), so
// figures can be pinned by golden files. PNG is available on request.
//
// The package takes plain numbers and the engine's result types
// (explore/job) and nothing else; the words on the axes come from the
// caller, which chooses the language.
package plots
