package heap

import (
	"fmt"
	"math/bits"
)

// The sparse-space sweep (Winning Ways ch. 4, "Sparse space spells speed";
// A. Flammenkamp's tables of octal games are computed this way). Under a
// split of the values into rare and common ones (SparseSpace), a split of
// a heap into two parts has a common value only when exactly one part is
// rare, so the common values among the options of n come from the few
// rare positions: C, the least common value that no option has, costs
// O(rare positions). The mex is C unless a rare value below C is missing
// from the options; those are looked for among all the splits, a scan that
// stops as soon as every rare value below C has been seen, which for a
// common position is after a few hundred splits. Only at the rare
// positions themselves does the scan run to the end. The result is exact
// whatever the split: a poor one is merely slow.

const (
	// sparseFrom is where the sweep takes over: the values up to it come
	// from the plain sweep, and they choose the split.
	sparseFrom = 4096
	// sparseShare is the largest share of rare positions below sparseFrom
	// for which the sparse sweep is used: past it, it would not be faster.
	sparseShare = 8
)

// sparseSplit classifies values under a SparseSpace: whether a position
// is rare (in the sparse set), and whether a value v at heap n would make
// n common.
type sparseSplit struct {
	mask   uint64
	domain bool
	t      int
}

func (s sparseSplit) parity(v uint64) int { return bits.OnesCount64(v&^s.mask) & 1 }

// common reports whether value v at heap n puts n in the common set.
func (s sparseSplit) common(n int, v uint64) bool {
	if !s.domain {
		return s.parity(v) == 1
	}
	return s.parity(v) != (n-s.t)&1
}

// sparseValues extends prefix = g(0..len(prefix)−1) to g(0..upto) with the
// sparse-space sweep under sp. The code must not split into three heaps;
// under the domain type, its only split digit must be sp.T.
func (c *code) sparseValues(g Game, prefix []uint64, sp SparseSpace, upto int, lim Limits) ([]uint64, error) {
	if c.parts() > 2 {
		return nil, fmt.Errorf("heap: %v: the sparse-space sweep handles splits into two heaps only", g)
	}
	s := sparseSplit{mask: sp.Mask, domain: sp.Domain, t: sp.T}
	var splits []int // the k whose digit splits a heap
	for k := 0; k <= c.last(); k++ {
		if c.Digit(k)&leaveTwo != 0 {
			splits = append(splits, k)
		}
	}
	if s.domain && (len(splits) != 1 || splits[0] != s.t) {
		return nil, fmt.Errorf("heap: %v: a domain-type split needs the only split digit at t = %d", g, s.t)
	}
	vs := make([]uint64, upto+1)
	copy(vs, prefix)
	var rare []int // rare positions ≥ 1 (parts of a split are non-empty)
	for n := 1; n < len(prefix) && n <= upto; n++ {
		if !s.common(n, vs[n]) {
			rare = append(rare, n)
		}
	}
	// seen[v] == stamp marks the option values found for the current heap;
	// need[v] == stamp the rare values below C still to be found.
	var seen, need []int32
	grow := func(v uint64) {
		if v >= uint64(len(seen)) {
			size := max(2*int(v)+2, 256)
			seen = append(seen, make([]int32, size-len(seen))...)
			need = append(need, make([]int32, size-len(need))...)
		}
	}
	grow(0)
	for _, v := range prefix {
		grow(v)
	}
	var steps int64
	prog := lim.progress(g.String(), upto+1)
	for n := len(prefix); n <= upto; n++ {
		if n&0xff == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
			prog.Set(int64(n))
			if steps > lim.steps() {
				return nil, fmt.Errorf("heap: %v: stopped at heap %d after %d steps, the limit: %w (lower upto, or raise the limit)",
					g, n, steps, ErrTooManySteps)
			}
		}
		stamp := int32(n)
		mark := func(v uint64) {
			grow(v)
			seen[v] = stamp
		}
		// Single heaps, and the splits with a rare part: every option
		// value that can be common, and some rare ones.
		for k := 1; k <= c.last() && k <= n; k++ {
			d := c.digit[k]
			if d&leaveNone != 0 && k == n {
				mark(0)
			}
			if d&leaveOne != 0 && k < n {
				mark(vs[n-k])
			}
		}
		for _, k := range splits {
			m := n - k
			for _, r := range rare {
				if r >= m {
					break
				}
				mark(vs[r] ^ vs[m-r])
			}
			steps += int64(len(rare))
		}
		// C: the least common value missing; the rare values below it
		// that are missing too are looked for among all the splits.
		var cand uint64
		for cand = 0; ; cand++ {
			grow(cand)
			if seen[cand] != stamp && s.common(n, cand) {
				break
			}
		}
		missing := 0
		for v := uint64(0); v < cand; v++ {
			if seen[v] != stamp {
				need[v] = stamp
				missing++
			}
		}
		for _, k := range splits {
			m := n - k
			for a := 1; missing > 0 && a <= m-a; a++ {
				v := vs[a] ^ vs[m-a]
				if v < cand && need[v] == stamp {
					need[v] = 0
					missing--
				}
				steps++
			}
		}
		vs[n] = cand
		if missing > 0 {
			for v := uint64(0); v < cand; v++ {
				if need[v] == stamp {
					vs[n] = v
					break
				}
			}
		}
		grow(vs[n])
		if !s.common(n, vs[n]) {
			rare = append(rare, n)
		}
	}
	return vs, nil
}
