package code

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
)

// MaxCoins is the largest number of coins a Code accepts: a row is one
// uint64 bit mask.
const MaxCoins = 64

// Method names the algorithm an analysis ran.
type Method string

// The methods reported in results.
const (
	// Enumeration visits every one of the 2^n rows in Gray-code order.
	Enumeration Method = "enumeration"
	// LinearAlgebra works from a basis of the code (2^k codewords) and a
	// dynamic programme over the group of values.
	LinearAlgebra Method = "linear-algebra"
	// Codewords lists the minimum-weight words by walking the 2^k codewords.
	Codewords Method = "codewords"
	// Subsets lists the minimum-weight words by walking the d-subsets of
	// coins, used when 2^k is too large.
	Subsets Method = "subsets"
	// StabiliserChain is the automorphism group computation (see doc.go).
	StabiliserChain Method = "stabiliser-chain"
)

// Limits bound the work and memory of one analysis. A zero field takes its
// default from DefaultLimits.
type Limits struct {
	// MaxRows bounds the steps of every walk: rows (2^n), codewords (2^k),
	// coin subsets, and the refinement steps of Automorphisms.
	MaxRows uint64
	// MaxCells bounds the counters held in memory at once: the
	// (weight, value) tables, (n+1)·2^rank per worker, and the t-subsets
	// listed by Design.
	MaxCells uint64
}

// DefaultLimits are the limits used for zero fields of a Limits.
var DefaultLimits = Limits{MaxRows: 100_000_000, MaxCells: 1 << 24}

func (l Limits) withDefaults() Limits {
	if l.MaxRows == 0 {
		l.MaxRows = DefaultLimits.MaxRows
	}
	if l.MaxCells == 0 {
		l.MaxCells = DefaultLimits.MaxCells
	}
	return l
}

// ErrLimit is wrapped by every error that refuses work beyond a Limits field.
var ErrLimit = errors.New("limit exceeded")

// Code is the binary linear code of P-positions of a coin-turning game: the
// rows x of n coins with ⊕_{x_i=1} v_i = 0, where v_i is the value of a
// single head on coin i. Rows and codewords are bit masks: bit i is the
// coin values[i] (0-based, whatever numbering the game uses). A Code is
// immutable and safe for concurrent use.
type Code struct {
	n      int
	values []uint64

	// span of the values: fully reduced echelon basis, pivots ascending.
	span   []uint64
	pivots []int
	// coord[i] is values[i] in coordinates over span (bit j ↔ span[j]).
	coord []uint64

	// basis of the code (generator matrix), fully reduced on the leading
	// (highest) coin, sorted by leading coin ascending.
	basis []uint64
}

// FromValues returns the code of P-positions of the game whose single
// heads have the given values, one per coin (1 ≤ n ≤ MaxCoins).
func FromValues(values []uint64) (*Code, error) {
	n := len(values)
	if n == 0 {
		return nil, errors.New("code: no coins")
	}
	if n > MaxCoins {
		return nil, fmt.Errorf("code: %d coins, at most %d supported", n, MaxCoins)
	}
	c := &Code{n: n, values: append([]uint64(nil), values...)}

	// Tagged elimination: each reduced value carries the set of coins it
	// is the XOR of; a value reducing to 0 gives a kernel vector whose
	// highest coin is the current one, so the kernel vectors found are
	// independent.
	var pivVal, pivTag [64]uint64
	var has [64]bool
	for i, v := range values {
		t := uint64(1) << i
		for v != 0 {
			b := 63 - bits.LeadingZeros64(v)
			if !has[b] {
				break
			}
			v ^= pivVal[b]
			t ^= pivTag[b]
		}
		if v == 0 {
			c.basis = append(c.basis, t)
			continue
		}
		b := 63 - bits.LeadingZeros64(v)
		has[b], pivVal[b], pivTag[b] = true, v, t
	}
	c.basis = reduce(c.basis)

	var sp []uint64
	for b := 0; b < 64; b++ {
		if has[b] {
			sp = append(sp, pivVal[b])
		}
	}
	c.span = reduce(sp)
	for _, s := range c.span {
		c.pivots = append(c.pivots, 63-bits.LeadingZeros64(s))
	}
	c.coord = make([]uint64, n)
	for i, v := range values {
		c.coord[i] = c.coordOf(v)
	}
	return c, nil
}

// reduce returns the fully reduced row echelon form of independent vectors:
// each leading (highest) bit appears in exactly one vector; sorted by
// leading bit ascending.
func reduce(vs []uint64) []uint64 {
	out := append([]uint64(nil), vs...)
	// Insertion sort by leading bit (few vectors, distinct leading bits).
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && lead(out[j]) < lead(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	for i := range out {
		p := uint64(1) << lead(out[i])
		for j := range out {
			if j != i && out[j]&p != 0 {
				out[j] ^= out[i]
			}
		}
	}
	return out
}

func lead(v uint64) int { return 63 - bits.LeadingZeros64(v) }

// coordOf gives v (an element of the span) in coordinates: bit j is bit
// pivots[j] of v, because only span[j] has that bit. With pivots
// ascending, coordinates compare as the values do.
func (c *Code) coordOf(v uint64) uint64 {
	var x uint64
	for j, p := range c.pivots {
		x |= (v >> p & 1) << j
	}
	return x
}

// valueOf is the inverse of coordOf.
func (c *Code) valueOf(x uint64) uint64 {
	var v uint64
	for ; x != 0; x &= x - 1 {
		v ^= c.span[bits.TrailingZeros64(x)]
	}
	return v
}

// N returns the number of coins (the length of the code).
func (c *Code) N() int { return c.n }

// Dim returns the dimension k of the code: there are 2^k P-positions.
func (c *Code) Dim() int { return len(c.basis) }

// Rank returns the dimension of the span of the values, n − k: the Grundy
// values of the rows form a group of 2^Rank elements.
func (c *Code) Rank() int { return len(c.span) }

// Values returns a copy of the coin values.
func (c *Code) Values() []uint64 { return append([]uint64(nil), c.values...) }

// Basis returns a copy of the generator matrix: k codewords, fully reduced
// on their highest coin and sorted by it.
func (c *Code) Basis() []uint64 { return append([]uint64(nil), c.basis...) }

// Count returns the number of P-positions, 2^k.
func (c *Code) Count() *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(c.Dim())) }

// Value returns the Grundy value of a row: the XOR of the values of its
// heads. Bits at or above N are ignored.
func (c *Code) Value(row uint64) uint64 {
	row &= c.mask()
	var v uint64
	for ; row != 0; row &= row - 1 {
		v ^= c.values[bits.TrailingZeros64(row)]
	}
	return v
}

// Contains reports whether a row (bits below N) is a P-position.
func (c *Code) Contains(row uint64) bool {
	return row&^c.mask() == 0 && c.Value(row) == 0
}

func (c *Code) mask() uint64 {
	if c.n == 64 {
		return ^uint64(0)
	}
	return uint64(1)<<c.n - 1
}

// dualValues returns, for each coin, its column of the generator matrix:
// the dual code is the kernel of these values (a row is orthogonal to every
// basis word iff the XOR of the columns of its heads is 0).
func (c *Code) dualValues() []uint64 {
	u := make([]uint64, c.n)
	for j, b := range c.basis {
		for ; b != 0; b &= b - 1 {
			u[bits.TrailingZeros64(b)] |= 1 << j
		}
	}
	return u
}
