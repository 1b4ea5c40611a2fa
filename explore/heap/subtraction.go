package heap

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxSubtract bounds the members of a subtraction set, so that the octal
// code of a subtraction game stays a reasonable string.
const maxSubtract = 1 << 16

// Subtraction is a subtraction game: from a heap of n take s tokens, s in a
// finite set S (s ≤ n), or, for an "all-but" game, any positive s not in S.
type Subtraction struct {
	set    []int // sorted, distinct, positive
	allBut bool
}

// NewSubtraction returns the subtraction game with the finite set S.
func NewSubtraction(set []int) (*Subtraction, error) {
	s, err := newSubtraction(set, false)
	if err != nil {
		return nil, err
	}
	if len(s.set) == 0 {
		return nil, fmt.Errorf("heap: subtraction: the set is empty (want at least one positive integer)")
	}
	return s, nil
}

// NewAllBut returns the subtraction game where any positive number of
// tokens not in set may be taken (all-but S; an empty S is Nim).
func NewAllBut(set []int) (*Subtraction, error) {
	return newSubtraction(set, true)
}

func newSubtraction(set []int, allBut bool) (*Subtraction, error) {
	s := slices.Clone(set)
	slices.Sort(s)
	s = slices.Compact(s)
	for _, v := range s {
		if v <= 0 || v > maxSubtract {
			return nil, fmt.Errorf("heap: subtraction: %d is not allowed in the set (want integers from 1 to %d)", v, maxSubtract)
		}
	}
	return &Subtraction{set: s, allBut: allBut}, nil
}

// Set returns S, sorted.
func (g *Subtraction) Set() []int { return slices.Clone(g.set) }

// AllBut reports whether S lists the numbers that may not be taken.
func (g *Subtraction) AllBut() bool { return g.allBut }

// String returns e.g. "subtraction {1,3,4}" or "subtraction all-but {1,2}".
func (g *Subtraction) String() string {
	parts := make([]string, len(g.set))
	for i, v := range g.set {
		parts[i] = strconv.Itoa(v)
	}
	set := "{" + strings.Join(parts, ",") + "}"
	if g.allBut {
		return "subtraction all-but " + set
	}
	return "subtraction " + set
}

// allowed reports whether s tokens may be taken (from a large enough heap).
func (g *Subtraction) allowed(s int) bool {
	_, in := slices.BinarySearch(g.set, s)
	return s > 0 && in != g.allBut
}

// Options lists the heaps n may become, smallest first.
func (g *Subtraction) Options(n int) [][]int {
	var out [][]int
	for m := 0; m < n; m++ {
		if g.allowed(n - m) {
			if m == 0 {
				out = append(out, []int{})
			} else {
				out = append(out, []int{m})
			}
		}
	}
	return out
}

// Octal returns the octal game with digit 3 at each member of a finite S,
// the same game written as a code (MATH.md).
func (g *Subtraction) Octal() (*Octal, error) {
	if g.allBut {
		return nil, fmt.Errorf("heap: %v: an all-but game has no finite octal code", g)
	}
	d := make([]byte, g.set[len(g.set)-1])
	for i := range d {
		d[i] = '0'
	}
	for _, s := range g.set {
		d[s-1] = '3'
	}
	return ParseOctal("0." + string(d))
}

// Values returns g(0..upto). A finite S costs |S| steps per heap; an
// all-but game keeps counts of the values so far, and a heap's options are
// those counts less the few heaps n − s, s ∈ S, so it costs |S|² per heap.
func (g *Subtraction) Values(upto int, lim Limits) ([]uint64, error) {
	if err := lim.checkUpto(g, upto); err != nil {
		return nil, err
	}
	k := float64(len(g.set))
	if g.allBut {
		k = k*k + 1
	}
	if err := lim.checkSteps(g, upto, float64(upto+1)*k); err != nil {
		return nil, err
	}
	if g.allBut {
		return g.allButValues(upto, lim)
	}
	vs := make([]uint64, upto+1)
	var m mexer
	for n := range vs {
		if n&0xffff == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		m.reset(len(g.set))
		for _, s := range g.set {
			if s > n {
				break
			}
			m.add(vs[n-s])
		}
		vs[n] = m.mex()
	}
	return vs, nil
}

func (g *Subtraction) allButValues(upto int, lim Limits) ([]uint64, error) {
	vs := make([]uint64, upto+1)
	var count []int // count[v] = number of heaps m < n with g(m) = v
	var prefixMex uint64
	excluded := make(map[uint64]int, len(g.set))
	for n := range vs {
		if n&0xffff == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		// A value v < prefixMex is missing from the options exactly when
		// every heap holding it is one of the excluded n − s.
		clear(excluded)
		for _, s := range g.set {
			if s > n {
				break
			}
			excluded[vs[n-s]]++
		}
		best := prefixMex
		for v, e := range excluded {
			if v < best && count[v] == e {
				best = v
			}
		}
		vs[n] = best
		for uint64(len(count)) <= best {
			count = append(count, 0)
		}
		count[best]++
		for prefixMex < uint64(len(count)) && count[prefixMex] > 0 {
			prefixMex++
		}
	}
	return vs, nil
}
