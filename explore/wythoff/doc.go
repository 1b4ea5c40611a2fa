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
// NewTable fills a Grundy table keeping, for every row, column and
// diagonal, a bitset of the values seen so far and a summary of its full
// words; the mex of a cell is the first zero bit of the OR of its three
// sets, looked for in the words no set has full, a few word operations
// where the definition scans a + b + min(a, b) options. The cells are
// filled by tiles of many lines and 64 cells, so that the sets of a tile
// stay in the cache, and the tile rows are shared by the workers
// (Options.Workers, GOMAXPROCS by default), each a tile behind the one
// above. The values are
// stored in the smallest unsigned type that holds a + b + min(a, b) for
// the last cell (Table.ValueBits): 16 bits for an 8192 × 8192 table.
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
