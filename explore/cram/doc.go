// Package cram solves Cram, the impartial domino game: on an m × n board a
// move covers two free adjacent cells (a domino, either way); the player
// who cannot move loses (normal play).
//
// Positions are bitboards of the free cells, solved by explore/cellgame:
// split into connected components, each keyed by its shape folded under
// the square's eight symmetries (Cram on a set of cells depends only on the
// graph the cells induce), one memo shared by every board of a range. A
// free cell with no free neighbour can never be covered, so a component of
// one cell is worth 0 and costs one memo entry.
//
// Value reaches boards whose full memo of values would not fit (7 × 7):
// explore/cellgame's pruning search finds the least v such that the board
// plus a nim heap of v is a P-position, searching outcomes with an early
// cut and folding the parts of a split board into the heap by their
// values (Lemoine and Viennot's method, as in Beling's igs). It is a plain
// function of the board's sides, for the family to call on boards too
// big for the Solver.
//
// On an even × even board the second player answers every move by its
// image under the half-turn about the centre (it never meets itself: a
// domino and its image would share a cell only across the centre, which
// no cell straddles), so the value is 0; the tests check the solver against
// it rather than use it.
package cram
