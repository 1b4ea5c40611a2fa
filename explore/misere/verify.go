package misere

import (
	"container/heap"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// verify proves that m predicts the misère outcome of every position of
// the heaps 1..n, or returns a position (as a word) it predicts wrongly,
// with least, the size (sum of the heaps) below which every prediction of
// m is right.
//
// The proof: give a position X the pair (x, S), x its element and S the
// set of the elements of its options. Adding a heap h gives (x·h,
// S·h ∪ x·O(h)), O(h) the elements of h's options, so the pairs of all
// positions are the states reachable from (1, ∅), a finite set found by a
// search. If every reachable pair has x in P exactly when S is not empty
// and misses P, then by induction on positions (options before the
// position) every prediction is right: a position is a misère P-position
// exactly when it has a move and all its moves lead to N-positions. The
// search is Dijkstra's, a heap of h weighing h, so the first pair that
// fails is reached by a position of least size: all smaller positions
// pass the check, and so are predicted right.
func (l *learner) verify(m *monoid, explain bool) (bad []int, least int, err error) {
	k := len(m.mul)
	words := (k + 63) / 64
	optEls := make([][]int32, l.n+1)
	for h := 1; h <= l.n; h++ {
		seen := map[int32]bool{}
		for _, o := range l.opts[h] {
			x := int32(0)
			for _, part := range o {
				x = m.mul[x][m.phi[part]]
			}
			if !seen[x] {
				seen[x] = true
				optEls[h] = append(optEls[h], x)
			}
		}
	}
	type node struct {
		q      int32
		parent int32
		heap   int32
		dist   int
		done   bool
	}
	pmask := make([]uint64, words)
	for i, p := range m.inP {
		if p {
			pmask[i/64] |= 1 << (i % 64)
		}
	}
	// The pairs' sets lie end to end in one slice, found through a table
	// of their hashes: no allocation a transition, which is most of the
	// work of a proof.
	var sets []uint64
	setOf := func(i int32) []uint64 { return sets[int(i)*words : (int(i)+1)*words] }
	var nodes []node
	st := newStateTable()
	find := func(q int32, set []uint64) (int32, bool) {
		h := stateHash(q, set)
		return st.find(h, func(i int32) bool { return nodes[i].q == q && slices.Equal(setOf(i), set) })
	}
	// Each pair takes its set, its node and its place in the table; the
	// monoid's table is held too.
	held := l.held
	defer func() { l.held = held }()
	perNode := int64(8*words + 64)
	l.held += 4 * int64(k) * int64(k)
	sets = make([]uint64, words)
	nodes = append(nodes, node{q: 0, parent: -1})
	st.insert(stateHash(0, sets), 0)
	set := make([]uint64, words)
	pq := &distQueue{{0, 0}}
	for pq.Len() > 0 {
		it := heap.Pop(pq).(distItem)
		i := it.node
		if nodes[i].done || it.dist != nodes[i].dist {
			continue
		}
		nodes[i].done = true
		nd := nodes[i]
		empty, hitsP := true, false
		for w, b := range setOf(i) {
			if b != 0 {
				empty = false
			}
			if b&pmask[w] != 0 {
				hitsP = true
			}
		}
		if m.inP[nd.q] != (!empty && !hitsP) {
			var word []int
			for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
				word = append(word, int(nodes[j].heap))
			}
			if !explain {
				return word, nd.dist, nil
			}
			bad, err := l.wrongPrediction(m, word)
			return bad, nd.dist, err
		}
		for h := 1; h <= l.n; h++ {
			if err := l.tick(); err != nil {
				return nil, 0, err
			}
			ph := m.phi[h]
			clear(set)
			for w, b := range setOf(i) {
				for b != 0 {
					j := 64*w + bits.TrailingZeros64(b)
					b &= b - 1
					y := m.mul[j][ph]
					set[y/64] |= 1 << (y % 64)
				}
			}
			for _, o := range optEls[h] {
				y := m.mul[nd.q][o]
				set[y/64] |= 1 << (y % 64)
			}
			q := m.mul[nd.q][ph]
			d := nd.dist + h
			j, ok := find(q, set)
			if !ok {
				j = int32(len(nodes))
				st.insert(stateHash(q, set), j)
				sets = append(sets, set...)
				nodes = append(nodes, node{q: q, parent: i, heap: int32(h), dist: d})
				l.held += perNode
				heap.Push(pq, distItem{d, j})
			} else if !nodes[j].done && d < nodes[j].dist {
				nodes[j].dist, nodes[j].parent, nodes[j].heap = d, i, int32(h)
				heap.Push(pq, distItem{d, j})
			}
		}
	}
	return nil, math.MaxInt, nil
}

// stateHash mixes a pair (x, S) into 64 bits.
func stateHash(q int32, set []uint64) uint64 {
	h := uint64(q)*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
	for _, w := range set {
		h ^= w
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h
}

// stateTable finds pairs by their hashes: open addressing with linear
// probing, each slot a pair's index and its hash.
type stateTable struct {
	slots []stateSlot
	count int
}

type stateSlot struct {
	hash uint64
	idx  int32 // -1 when empty
}

func newStateTable() *stateTable {
	t := &stateTable{slots: make([]stateSlot, 1024)}
	for i := range t.slots {
		t.slots[i].idx = -1
	}
	return t
}

// find returns the index of the pair of hash h for which same is true.
func (t *stateTable) find(h uint64, same func(int32) bool) (int32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.idx < 0 {
			return 0, false
		}
		if s.hash == h && same(s.idx) {
			return s.idx, true
		}
	}
}

func (t *stateTable) insert(h uint64, idx int32) {
	if 2*(t.count+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]stateSlot, 2*len(old))
		for i := range t.slots {
			t.slots[i].idx = -1
		}
		for _, s := range old {
			if s.idx >= 0 {
				t.put(s)
			}
		}
	}
	t.put(stateSlot{h, idx})
	t.count++
}

func (t *stateTable) put(s stateSlot) {
	mask := uint64(len(t.slots) - 1)
	i := s.hash & mask
	for t.slots[i].idx >= 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

type distItem struct {
	dist int
	node int32
}

type distQueue []distItem

func (q distQueue) Len() int           { return len(q) }
func (q distQueue) Less(i, j int) bool { return q[i].dist < q[j].dist }
func (q distQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *distQueue) Push(x any)        { *q = append(*q, x.(distItem)) }
func (q *distQueue) Pop() any          { old := *q; x := old[len(old)-1]; *q = old[:len(old)-1]; return x }

// predict is m's outcome of a position.
func (m *monoid) predict(pos []int) bool {
	x := int32(0)
	for h := 1; h < len(pos); h++ {
		for range pos[h] {
			x = m.mul[x][m.phi[h]]
		}
	}
	return m.inP[x]
}

// wrongPrediction returns the position of word or one of its options that
// m predicts wrongly: one of them must be, since the local check failed.
func (l *learner) wrongPrediction(m *monoid, word []int) ([]int, error) {
	pos := wordPos(word, l.size)
	truth, err := l.outcome(pos)
	if err != nil {
		return nil, err
	}
	if m.predict(pos) != truth {
		return word, nil
	}
	for h := 1; h <= l.n; h++ {
		if pos[h] == 0 {
			continue
		}
		for _, o := range l.opts[h] {
			q := append([]int(nil), pos...)
			q[h]--
			for _, part := range o {
				q[part]++
			}
			t, err := l.outcome(q)
			if err != nil {
				return nil, err
			}
			if m.predict(q) != t {
				return posWord(q), nil
			}
		}
	}
	return nil, fmt.Errorf("misere: %v: internal error: no wrong prediction under %v", l.g, word)
}

// posWord lists a position's heaps, largest first.
func posWord(pos []int) []int {
	var w []int
	for h := len(pos) - 1; h >= 1; h-- {
		for range pos[h] {
			w = append(w, h)
		}
	}
	return w
}
