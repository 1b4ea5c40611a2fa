// Package plots draws nimbook's figures with gonum/plot: value sequences
// (with a proven period shaded), rare and common values of a heap game
// (a scatter, rare values in black), 2-D heat maps of Grundy and nimber tables
// with P-positions marked, and bar charts of weight distributions.
//
// Figures are meant for paper first: they are grey-scale, P-positions are
// marked with a symbol (×) rather than a colour, and the SVG form is the
// default because it prints sharply. SVG output has deterministic bytes
// (same data, same bytes), so figures can be pinned by golden files. PNG
// is available on request.
//
// The package takes plain numbers and the engine's result types
// (explore/job) and nothing else; the words on the axes come from the
// caller, which chooses the language.
package plots
