// Package chomp solves Chomp on Young diagrams: rows of lengths p ≥ q ≥ r
// ≥ … (row 0 at the bottom holds the poisoned corner, cell (0, 0)); a move
// takes a cell and every cell above and right of it (rows at or above, at
// or right of its column). Taking the poisoned cell loses, so a position
// is played as the game without it: the corner alone, (1, 0, …, 0), is the
// terminal position, worth 0, and a move never takes cell (0, 0).
//
// Positions are row-length tuples, non-increasing, first row ≥ 1. Value
// computes Grundy values by dynamic programming over every position below
// the start (they are its ideals, ranked in an array). PPositions lists the
// P-positions with k rows and first row at most n by the classic
// observation that for each tail (the rows but the first) at most one first
// row gives a P-position, since shortening the first row alone (not below
// the second) is a move: tails are taken in increasing order and each gets
// the least first row no move from which reaches a P-position, found from
// the first rows the tails below it have (Brouwer's cubic method for three
// rows, in any number of rows).
package chomp
