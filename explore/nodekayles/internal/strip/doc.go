// Package strip is a Node Kayles engine for positions of the 3 × n grid
// (n ≤ MaxCols), written apart from explore/cellgame so that each term of
// 3 × n it computes is a second, independent computation.
//
// A position is three row words (bit c of row r is cell (r, c)). The
// solver splits a position into its connected components by a flood fill
// over the three rows, crops each to its columns and keys it by the least
// of its four images under the strip's symmetries (columns reversed, rows
// flipped), after moving it up so that its top row is row 0. Components at
// most smallCols wide skip the canonical form: their cropped cells index a
// table of 2^18 values (1 MiB, which stays in the cache); the others go
// to an open-addressing memo of two words an entry, the key (the three
// rows, 96 bits) and the value packed in, in shards that grow by a quarter
// when 13/16 full, so an entry costs 16 bytes in a table between 65 % and
// 81 % full: 20 to 25 bytes. Lookups take no lock (the table of a shard
// is swapped whole when it grows, and an entry's key word is written
// last), so two workers read the memo without waiting for each other.
//
// The memo's bytes are counted as it grows; a solver given Options.MaxBytes
// stops with ErrFull before a growth would pass it, never evicting, so
// every value it returns was computed in full.
package strip
