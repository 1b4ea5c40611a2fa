// Package coins computes coin-turning games and their tartan products: the
// value of a single head on each coin, the value of a row, its moves and
// winning moves, and the same for grids of two or three dimensions.
//
// Conventions (MATH.md, "Coin-turning games" and "Products of coin
// games"): coins lie in a row, heads or tails; a move turns over a set of
// coins the rule allows, and the rightmost turned coin must go from heads
// to tails. The rules are AtMost r coins, Exactly r coins and Ruler (any
// run of consecutive coins). The Grundy value of a row is the nim-sum of
// the values f(n) of its heads.
//
// Numbering: coins are numbered from first, 1 as in the seeds or 0 as in
// Winning Ways; a Game keeps it (First) and every head is given and
// returned as a coin number in that numbering. The sequence of values
// does not depend on the numbering for AtMost and Exactly, only the labels
// do; Ruler's values come from the numbers (the largest power of 2
// dividing n), so it needs first = 1.
//
// Values of AtMost r ≥ 2 are the lexicode of minimum distance r + 1
// (lexicode.go): about r/2 bitsets of the nim-sums of a few earlier
// values, updated word-parallel, and a lazy search for the next value.
// They are not bounded by the 64 coins of the bitmask rows: ValuesBelow
// streams every value below a bound (2^32 for r ≥ 6 in minutes), with its
// memory estimated and checked before it starts, and WriteBFile writes them
// as an OEIS b-file. Values of Exactly r are found by a 0/1 knapsack over
// the earlier coins' values, with one bitset per number of coins. The
// bitsets hold the span of the values, [0, 2^k), so their size, bounded by
// Limits.MaxMemory, grows with the values' bit-length. Everything else
// whose size is known in advance (moves to enumerate, table cells,
// positions the generic solver may visit under misère play) is checked
// against Limits before the work starts; the error wraps ErrLimit and
// names the limit.
//
// Positions are sorted lists of heads, and lists of positions are sorted
// lexicographically. For the generic solver of package game, rows of up to
// 64 coins and grids of up to 64 cells are also bitmasks (Mask, Heads,
// Mover); every fast formula here is tested against that solver.
//
// In a Product, a head at (a, b) is worth f₁(a) ⊗ f₂(b), the nim-product
// of package nimber; rows of a table belong to the first factor.
package coins
