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
// On an even × even board the second player answers every move by its
// image under the half-turn about the centre (it never meets itself: a
// domino and its image would share a cell only across the centre, which
// no cell straddles), so the value is 0; the tests check the solver against
// it rather than use it.
package cram
