package nodekayles

import (
	"context"
	"fmt"
	"math/bits"
	"sort"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/cellgame"
)

// smallMax is the largest component keyed by its canonical labelling.
const smallMax = 8

// general is the solver of graphs that are not grids: positions are vertex
// sets, split into components by flood fill.
type general struct {
	g      *Graph
	fold   bool
	memo   map[string]uint16 // component (vertex set) → value
	raw    map[uint64]uint16 // small component, labelled as in g → value
	canon  map[uint64]uint16 // small component, canonically labelled → value
	solved int64
	max    int64
	ctx    context.Context
	prog   *budget.Progress
}

// generalEntryBytes estimates a memo entry: the key's bytes, a string
// header, the value and the map's slack.
func generalEntryBytes(n int) int64 { return 2 * (int64(n+7)/8 + 16 + 8) }

func (s *general) entries() int64 { return int64(len(s.memo) + len(s.raw) + len(s.canon)) }

// value is the nim-sum of the values of the components of set.
func (s *general) value(set Set) (uint16, error) {
	rest := append(Set(nil), set...)
	var total uint16
	for {
		v := lowest(rest)
		if v < 0 {
			return total, nil
		}
		comp := s.component(rest, v)
		for i := range rest {
			rest[i] &^= comp[i]
		}
		x, err := s.componentValue(comp)
		if err != nil {
			return 0, err
		}
		total ^= x
	}
}

func lowest(s Set) int {
	for i, w := range s {
		if w != 0 {
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

func count(s Set) int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// component is the connected component of set holding v.
func (s *general) component(set Set, v int) Set {
	comp := newSet(s.g.N)
	comp.add(v)
	frontier := newSet(s.g.N)
	frontier.add(v)
	next := newSet(s.g.N)
	for {
		for i := range next {
			next[i] = 0
		}
		for i, w := range frontier {
			for ; w != 0; w &= w - 1 {
				u := i*64 + bits.TrailingZeros64(w)
				for j, a := range s.g.Adj[u] {
					next[j] |= a
				}
			}
		}
		grew := false
		for i := range next {
			next[i] &= set[i] &^ comp[i]
			comp[i] |= next[i]
			grew = grew || next[i] != 0
		}
		if !grew {
			return comp
		}
		frontier, next = next, frontier
	}
}

func (s *general) componentValue(comp Set) (uint16, error) {
	small := s.fold && count(comp) <= smallMax
	var rawCode uint64
	var key string
	if small {
		rawCode = s.code(members(comp), nil)
		if v, ok := s.raw[rawCode]; ok {
			return v, nil
		}
	} else {
		key = comp.key()
		if v, ok := s.memo[key]; ok {
			return v, nil
		}
	}
	var canonCode uint64
	if small {
		canonCode = s.canonical(members(comp))
		if v, ok := s.canon[canonCode]; ok {
			s.raw[rawCode] = v
			return v, nil
		}
	}
	var seen [4]uint64
	var more map[uint16]bool
	for w := range comp {
		for x := comp[w]; x != 0; x &= x - 1 {
			v := w*64 + bits.TrailingZeros64(x)
			opt := make(Set, len(comp))
			for i := range opt {
				opt[i] = comp[i] &^ s.g.Adj[v][i]
			}
			opt[v>>6] &^= 1 << uint(v&63)
			g, err := s.value(opt)
			if err != nil {
				return 0, err
			}
			if g < 256 {
				seen[g>>6] |= 1 << (g & 63)
			} else {
				if more == nil {
					more = map[uint16]bool{}
				}
				more[g] = true
			}
		}
	}
	var g uint16
	for g < 256 && seen[g>>6]>>(g&63)&1 == 1 {
		g++
	}
	for more[g] {
		g++
	}
	if s.max > 0 && s.entries() >= s.max {
		return 0, fmt.Errorf("%w: %d entries, the memory limit's share", cellgame.ErrMemoFull, s.max)
	}
	if small {
		s.canon[canonCode] = g
		s.raw[rawCode] = g
	} else {
		s.memo[key] = g
	}
	s.solved++
	if s.solved%1024 == 0 {
		s.prog.Add(1024)
		if s.ctx.Err() != nil {
			return 0, fmt.Errorf("nodekayles: %w", budget.Err(s.ctx))
		}
	}
	return g, nil
}

func members(comp Set) []int {
	var vs []int
	for w := range comp {
		for x := comp[w]; x != 0; x &= x - 1 {
			vs = append(vs, w*64+bits.TrailingZeros64(x))
		}
	}
	return vs
}

// code is the adjacency of vs[p[0]], vs[p[1]], … as bits over the pairs
// i < j, with the number of vertices in the top byte (p nil: the order of
// vs).
func (s *general) code(vs []int, p []int) uint64 {
	k := len(vs)
	c := uint64(k) << 56
	bit := 0
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			a, b := i, j
			if p != nil {
				a, b = p[i], p[j]
			}
			if s.g.Adj[vs[a]].has(vs[b]) {
				c |= 1 << uint(bit)
			}
			bit++
		}
	}
	return c
}

// canonical is the least code of the component over the orders of its
// vertices that sort them by degree (in the component): degree is kept by
// isomorphisms, so only vertices of equal degree are permuted.
func (s *general) canonical(vs []int) uint64 {
	k := len(vs)
	deg := make([]int, k)
	for i := range vs {
		for j := range vs {
			if i != j && s.g.Adj[vs[i]].has(vs[j]) {
				deg[i]++
			}
		}
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return deg[order[a]] < deg[order[b]] })
	// blocks of equal degree, each permuted in turn (odometer of Heap's
	// permutations would do; the blocks are small, so plain recursion).
	best := ^uint64(0)
	p := append([]int(nil), order...)
	var rec func(start int)
	rec = func(start int) {
		if start == k {
			if c := s.code(vs, p); c < best {
				best = c
			}
			return
		}
		end := start
		for end < k && deg[p[end]] == deg[p[start]] {
			end++
		}
		permute(p[start:end], 0, func() { rec(end) })
	}
	rec(0)
	return best
}

// permute calls f with every order of a (in place, restored after).
func permute(a []int, i int, f func()) {
	if i >= len(a)-1 {
		f()
		return
	}
	for j := i; j < len(a); j++ {
		a[i], a[j] = a[j], a[i]
		permute(a, i+1, f)
		a[i], a[j] = a[j], a[i]
	}
}
