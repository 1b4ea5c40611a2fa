package heap

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
)

// NoDomain is the t of FindSparseSpace for a game without a single split
// digit: only range-type splits are searched.
const NoDomain = -1

// MaxSparseBits caps the bit length k of the largest value that
// FindSparseSpace accepts: it compares all 2^k masks and keeps two tables
// of 2^k counters (16 MiB at 20 bits). Values of 2^20 or more are refused
// with ErrTooManyBits rather than searched partly.
const MaxSparseBits = 20

// ErrTooManyBits is wrapped by the error of FindSparseSpace for values
// with more than MaxSparseBits bits.
var ErrTooManyBits = errors.New("values too large for the rare-value search")

// SparseSpace splits the values g(0..CheckedTo) of a heap game into rare
// and common ones (Winning Ways ch. 4, "Sparse space spells speed"). The
// bits of Mask are ignored; of the other bits, a value with an even number
// of ones is rare and one with an odd number is common. Since the parity
// of the ones is additive under ⊕, rare ⊕ rare and common ⊕ common are
// rare, and a common value only arises as rare ⊕ common: when few
// positions are rare, few splits have a common value, and the sequence
// becomes periodic if the rare positions die out.
//
// Range type (Domain false): position n is rare when g(n) is rare.
// Domain type (Domain true), for codes with exactly one split digit d_T:
// n is in the sparse set when the parity of g(n) (bits of Mask ignored)
// equals the parity of n − T. Rare lists the positions n ≤ CheckedTo
// that are rare (range) or in the sparse set (domain), ascending.
type SparseSpace struct {
	Mask   uint64
	Domain bool
	// T is the index of the split digit for the domain type, 0 for the
	// range type.
	T         int
	Rare      []int
	CheckedTo int
}

// Type returns "range" or "domain".
func (s SparseSpace) Type() string {
	if s.Domain {
		return "domain"
	}
	return "range"
}

// IsRare reports whether position n of value g is rare (range type) or in
// the sparse set (domain type) under s's split.
func (s SparseSpace) IsRare(n int, g uint64) bool {
	odd := bits.OnesCount64(g&^s.Mask)&1 == 1
	if !s.Domain {
		return !odd
	}
	return odd == ((n-s.T)&1 == 1) // & 1 is the parity for negative n−T too
}

// String describes the split, e.g. "domain type (t = 2), mask 0: 7 rare
// positions in 0..200, the last 37".
func (s SparseSpace) String() string {
	kind := "range type"
	if s.Domain {
		kind = fmt.Sprintf("domain type (t = %d)", s.T)
	}
	out := fmt.Sprintf("%s, mask %s: %d rare positions in 0..%d", kind, strconv.FormatUint(s.Mask, 2), len(s.Rare), s.CheckedTo)
	if len(s.Rare) > 0 {
		out += fmt.Sprintf(", the last %d", s.Rare[len(s.Rare)-1])
	}
	return out
}

// SplitDigit returns t, the index of the only digit d_t of the code that
// splits a heap (d_t > 3: bit 4, or 8 in hexadecimal); ok is false when no
// digit or more than one splits. Such codes have a domain-type split: the
// parts a, b (, c) of a split of n sum to n − t, so the parity of n − t
// ties the parities of the parts' values to the parity of the value of the
// split.
func (c *code) SplitDigit() (t int, ok bool) {
	t = -1
	for k, d := range c.digit {
		if d&(leaveTwo|leaveThree) == 0 {
			continue
		}
		if t >= 0 {
			return 0, false
		}
		t = k
	}
	if t < 0 {
		return 0, false
	}
	return t, true
}

// SingleSplitter is a game whose only splitting move takes t tokens:
// octal and hexadecimal codes with one split digit d_t (code.SplitDigit),
// and Grundy's game (t = 0). The parts of a split of n sum to n − t, which
// ties the parity of n − t to the parities of the parts' values, so its
// values also have domain-type sparse spaces. ok is false when no move or
// more than one kind of move splits.
type SingleSplitter interface {
	SplitDigit() (t int, ok bool)
}

// SparseSpaceOf finds the rare values of values = g(0..upto) of g with
// FindSparseSpace, searching the domain type too when g has a single split
// (SingleSplitter).
func SparseSpaceOf(g Game, values []uint64) (SparseSpace, error) {
	t := NoDomain
	if s, ok := g.(SingleSplitter); ok {
		if d, ok := s.SplitDigit(); ok {
			t = d
		}
	}
	s, err := findSparse(values, t)
	if err != nil {
		return s, fmt.Errorf("heap: %v: %w", g, err)
	}
	return s, nil
}

// FindSparseSpace searches every mask b < 2^k, k the bit length of the
// largest value, for the split of values = g(0..N) with the fewest rare
// positions: range type, and domain type with split digit t unless t < 0
// (NoDomain). Ties go to the range type, then to the smaller mask; masks
// with bits at or above k split the values as their low k bits do, so the
// smallest is reported. The result is deterministic.
//
// All masks are counted at once by a Walsh–Hadamard transform of the
// values' signed counts, in about 2k·2^k steps; values with more than
// MaxSparseBits bits are refused with ErrTooManyBits.
func FindSparseSpace(values []uint64, t int) (SparseSpace, error) {
	s, err := findSparse(values, t)
	if err != nil {
		return s, fmt.Errorf("heap: %w", err)
	}
	return s, nil
}

func findSparse[V uint32 | uint64](values []V, t int) (SparseSpace, error) {
	best, count, err := bestSparse(values, t)
	if err != nil {
		return best, err
	}
	best.Rare = make([]int, 0, count)
	for n, v := range values {
		if best.IsRare(n, uint64(v)) {
			best.Rare = append(best.Rare, n)
		}
	}
	return best, nil
}

// bestSparse is findSparse without the list of rare positions: the split
// and its count of rare positions.
func bestSparse[V uint32 | uint64](values []V, t int) (SparseSpace, int64, error) {
	if len(values) == 0 {
		return SparseSpace{}, 0, errors.New("rare values: no values")
	}
	var top uint64
	for _, v := range values {
		top |= uint64(v)
	}
	k := bits.Len64(top)
	if k > MaxSparseBits {
		return SparseSpace{}, 0, fmt.Errorf("rare values: a value has %d bits, so 2^%d masks to compare, more than the limit of 2^%d: %w (lower upto)", k, k, MaxSparseBits, ErrTooManyBits)
	}
	size := 1 << k
	// rng[v] and dom[v] sum ±1 over the n with g(n) = v: the sign of n's
	// term in Σ_n (−1)^[n not rare]. After the transform, entry b is that
	// sum for mask b, so the count of rare positions is (N+1 + sum)/2.
	rng := make([]int64, size)
	var dom []int64
	if t >= 0 {
		dom = make([]int64, size)
	}
	for n, v := range values {
		sign := int64(1 - 2*(bits.OnesCount64(uint64(v))&1))
		rng[v] += sign
		if dom != nil {
			if (n-t)&1 == 1 {
				dom[v] -= sign
			} else {
				dom[v] += sign
			}
		}
	}
	walsh(rng)
	if dom != nil {
		walsh(dom)
	}
	m := int64(len(values))
	best := SparseSpace{CheckedTo: len(values) - 1}
	bestCount := m + 1
	for b, sum := range rng {
		if c := (m + sum) / 2; c < bestCount {
			best.Mask, bestCount = uint64(b), c
		}
	}
	for b, sum := range dom {
		if c := (m + sum) / 2; c < bestCount {
			best.Mask, best.Domain, best.T, bestCount = uint64(b), true, t, c
		}
	}
	return best, bestCount, nil
}

// walsh replaces a (of length a power of two) by its Walsh–Hadamard
// transform: a'[b] = Σ_v a[v]·(−1)^popcount(v & b).
func walsh(a []int64) {
	for h := 1; h < len(a); h <<= 1 {
		for i := 0; i < len(a); i += 2 * h {
			for j := i; j < i+h; j++ {
				x, y := a[j], a[j+h]
				a[j], a[j+h] = x+y, x-y
			}
		}
	}
}
