// Package cellgame solves impartial games played on a set of cells of the
// square grid where a move removes cells, so that a position is the sum of
// its connected components (Node Kayles on grid graphs, Cram).
//
// A position is a bitboard (Bits, column-major: cell (r, c) of a frame of
// h rows is bit c·h + r). The solver splits a position into its
// 4-connected components by flood fill, crops each to its bounding box,
// and keys its memo by the component's shape alone: the value of a
// component depends only on the graph its cells induce, which translation
// and the eight symmetries of the square (rotations, reflections) keep.
// With Options.Fold the key is the least of the symmetric images, so a
// 3 × n strip is solved once for its four images; without it only
// translation is folded (the check of the folding, and a second method for
// every new term).
//
// Values of components are nim-summed (Sprague–Grundy); one Solver keeps
// its memo across calls, so 3 × 24 reuses every component of 3 × 23. Value
// spreads the moves of a position over Options.Workers goroutines sharing
// the memo (sharded, locked per shard).
//
// The memo is bounded by Options.MaxEntries (from the memory limit): when
// it is full the solver stops with ErrMemoFull, it never evicts, so every
// value it returns was computed in full. The context is looked at every
// 1024 components solved (well under a millisecond), so cancellation stops
// a run within a second.
//
// A memo may be kept in a file (Keep): loaded at the start, saved after
// each game. Processes may share the file (a Slurm array): each save
// locks it, merges what the others wrote since with its own memo, and
// renames the union into place (see Kept for the limits of the lock).
package cellgame
