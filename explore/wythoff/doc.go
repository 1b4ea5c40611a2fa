// Package wythoff solves Wythoff's game: two heaps (a, b); a move takes any
// number of tokens from one heap, or the same number from both.
//
// Conventions (see MATH.md, "Wythoff's game"): positions are [2]int{a, b}
// with a, b ≥ 0; tables are indexed table[a][b] with 0 ≤ a < rows and
// 0 ≤ b < cols. g(a, b) is the normal-play Grundy value, the mex of the
// values in the same row to the left, the same column above and the same
// diagonal up and to the left. The P-positions of normal play are the Beatty
// pairs (⌊kφ⌋, ⌊kφ²⌋) and their mirrors, φ the golden ratio; PPairs computes
// them with integer arithmetic only.
//
// NewTable fills a Grundy table in row-major order keeping, for every row,
// column and diagonal, a bitset of the values seen so far from which the
// words already full have been dropped; the mex of a cell starts at the
// largest of the three full prefixes, so a cell costs a few word operations
// instead of a scan of its a + b + min(a, b) options.
//
// Each row is additively periodic (Dress, Flammenkamp and Pink, 1999):
// g(x, y + p) = g(x, y) + p for y ≥ y₀. RowPeriods reports (p, y₀) as seen
// in a finite table: observed, not proven.
//
// Normal-play outcomes and winning moves need no table: a row, a column and
// a diagonal each hold one P-position, found from the Beatty pairs, so a
// position near 2^40 is answered at once. Misère outcomes and winning moves
// are solved on the whole game graph of the position (no nim-sum rule holds
// under misère play), within Options' cell and memory budgets, as is every
// table; MovesOptions and NewMover refuse positions whose a + b + min(a, b)
// options would not fit. Everything here is
// tested against the generic solver of package game on all small positions.
package wythoff
