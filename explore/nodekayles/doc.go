// Package nodekayles solves Node Kayles on any finite simple graph: a move
// takes a vertex and removes it with its neighbours; the player who cannot
// move loses (normal play). On a path of n vertices it is Dawson's chess,
// heap n of octal 0.137 (an end vertex takes two, an inner one three).
//
// A graph is a grid (m × n), a path, a cycle, a complete graph, or read
// from a file: DOT (gonum's graph/encoding/dot) or an edge list ("u v" a
// line, # comments). Grids and paths go to the bitboard solver of
// explore/cellgame, which splits positions into connected components and
// folds the eight symmetries of the square grid. Other graphs go to the
// general solver of this package: positions are vertex sets in words, split
// by flood fill over adjacency bit sets, the memo keyed by a component's
// vertex set, and by its canonical labelling (brute force over the
// permutations of its vertices) when it has at most eight vertices, so
// isomorphic small components share one entry.
//
// Both solvers keep one memo across calls (a range of grids reuses it), are
// bounded by a number of memo entries derived from the memory limit (they
// stop, never evict), look at their context every 1024 components solved,
// and count components solved and memo entries (Stats). Estimate samples
// the smaller graphs of a family before a run and extrapolates the memo's
// growth.
package nodekayles
