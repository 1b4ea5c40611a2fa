package misere

import (
	"container/heap"
	"math/bits"
	"slices"
)

// maxPower is the largest number of copies of a new heap that tryAdjoin
// tells apart before it folds them with period 2.
const maxPower = 4

// reps returns, for each element of m (heaps 1..n), a least position
// mapped to it (by size), as a word whose prefixes are the words of other
// elements: a Dijkstra search over the heaps.
func reps(m *monoid, n int) [][]int {
	k := len(m.mul)
	dist := make([]int, k)
	word := make([][]int, k)
	done := make([]bool, k)
	for i := range dist {
		dist[i] = -1
	}
	dist[0] = 0
	pq := &distQueue{{0, 0}}
	for pq.Len() > 0 {
		it := heap.Pop(pq).(distItem)
		x := it.node
		if done[x] || it.dist != dist[x] {
			continue
		}
		done[x] = true
		for h := 1; h <= n; h++ {
			y := m.mul[x][m.phi[h]]
			d := it.dist + h
			if dist[y] < 0 || d < dist[y] {
				dist[y] = d
				word[y] = append(slices.Clone(word[x]), h)
				heap.Push(pq, distItem{d, y})
			}
		}
	}
	return word
}

// tryAdjoin tries the quotient of heaps 1..n in which the heaps below n
// keep their elements of prev and the heap of n is a new generator z with
// z^(p+1) = z^(p-1): elements (y, j), j copies of n, j <= p. The P-portion
// of (y, j) is the outcome of r(y) plus j heaps of n, r(y) the least
// position of y, worked out from its options in the same monoid (options
// of r(y) are smaller than r(y), and the moves in a heap of n leave j-1 of
// them). The monoid is reduced by indistinguishability and kept only when
// verify proves it; nil otherwise.
func (l *learner) tryAdjoin(n int, prev *monoid, p int) (*monoid, error) {
	k := len(prev.mul)
	if k*(p+1) > maxPairs {
		return nil, nil // its table would pass 64 MiB
	}
	r := reps(prev, n-1)
	// Elements in the order of their least positions, by size.
	order := make([]int32, k)
	size := make([]int, k)
	for x := range k {
		order[x] = int32(x)
		for _, h := range r[x] {
			size[x] += h
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int { return size[a] - size[b] })
	// Elements of the options of each least position.
	opt := make([][]int32, k)
	for x := range k {
		w := r[x]
		for i, h := range w {
			if i > 0 && slices.Contains(w[:i], h) {
				continue
			}
			rest := int32(0)
			for j, g := range w {
				if j != i {
					rest = prev.mul[rest][prev.phi[g]]
				}
			}
			for _, o := range l.opts[h] {
				y := rest
				for _, part := range o {
					y = prev.mul[y][prev.phi[part]]
				}
				opt[x] = append(opt[x], y)
			}
		}
	}
	nOpt := make([]int32, 0, len(l.opts[n]))
	for _, o := range l.opts[n] {
		y := int32(0)
		for _, part := range o {
			y = prev.mul[y][prev.phi[part]]
		}
		nOpt = append(nOpt, y)
	}
	idx := func(y int32, j int) int32 { return y*int32(p+1) + int32(j) }
	fold := func(j int) int {
		for j > p {
			j -= 2
		}
		return j
	}
	size2 := k * (p + 1)
	inP := make([]bool, size2)
	for x := range k {
		inP[idx(int32(x), 0)] = prev.inP[x]
	}
	for j := 1; j <= p; j++ {
		for _, x := range order {
			if err := l.tick(); err != nil {
				return nil, err
			}
			pp := true
			for _, y := range opt[x] {
				if inP[idx(y, j)] {
					pp = false
					break
				}
			}
			for _, o := range nOpt {
				if !pp {
					break
				}
				if inP[idx(prev.mul[x][o], j-1)] {
					pp = false
				}
			}
			// A heap of n always has a move when it has options.
			inP[idx(x, j)] = pp && (len(nOpt) > 0 || len(opt[x]) > 0)
		}
	}
	mul := make([][]int32, size2)
	for a := range size2 {
		if err := l.tick(); err != nil {
			return nil, err
		}
		mul[a] = make([]int32, size2)
		ya, ja := int32(a/(p+1)), a%(p+1)
		for b := range size2 {
			yb, jb := int32(b/(p+1)), b%(p+1)
			mul[a][b] = idx(prev.mul[ya][yb], fold(ja+jb))
		}
	}
	phi := make([]int32, n+1)
	for h := 1; h < n; h++ {
		phi[h] = idx(prev.phi[h], 0)
	}
	phi[n] = idx(0, 1)
	m := reduce(&monoid{mul: mul, inP: inP, phi: phi})
	bad, least, err := l.verify(m, false)
	if err != nil {
		return nil, err
	}
	if bad != nil {
		// Still right below least: the learner's oracle may use it.
		l.certify(m, least)
		if least > l.bestSize {
			l.best, l.bestSize = m, least
		}
		return nil, nil
	}
	return m, nil
}

// reduce merges the elements no element tells apart (x and y with
// x·z in P exactly when y·z is, for every z): the coarsest partition
// that separates P from the rest and is kept by multiplying by the heaps'
// elements, which generate the monoid. The identity stays 0.
func reduce(m *monoid) *monoid {
	label := make([]int32, len(m.mul))
	for x, p := range m.inP {
		if p {
			label[x] = 1
		}
	}
	return reduceBy(m, label)
}

// reduceBy merges the elements that have the same label and whose
// products by every heap's element stay so: the coarsest congruence
// finer than the labels.
func reduceBy(m *monoid, label []int32) *monoid {
	k := len(m.mul)
	class := append([]int32(nil), label...)
	gens := []int32{}
	for _, g := range m.phi[1:] {
		if !slices.Contains(gens, g) {
			gens = append(gens, g)
		}
	}
	count := -1
	for {
		sig := map[string]int32{}
		next := make([]int32, k)
		for x := range k {
			key := make([]int32, 0, len(gens)+1)
			key = append(key, class[x])
			for _, g := range gens {
				key = append(key, class[m.mul[x][g]])
			}
			next[x] = classOf(sig, key)
		}
		class = next
		if len(sig) == count {
			break
		}
		count = len(sig)
	}
	// Renumber so that the identity's class is 0, then by first element.
	renum := make([]int32, count)
	for i := range renum {
		renum[i] = -1
	}
	renum[class[0]] = 0
	nextID := int32(1)
	rep := make([]int, count)
	rep[0] = 0
	for x := range k {
		if renum[class[x]] < 0 {
			renum[class[x]] = nextID
			rep[nextID] = x
			nextID++
		}
	}
	out := &monoid{mul: make([][]int32, count), inP: make([]bool, count), phi: make([]int32, len(m.phi))}
	for c := range count {
		out.mul[c] = make([]int32, count)
		for d := range count {
			out.mul[c][d] = renum[class[m.mul[rep[c]][rep[d]]]]
		}
		out.inP[c] = m.inP[rep[c]]
	}
	for h, x := range m.phi {
		out.phi[h] = renum[class[x]]
	}
	return out
}

func int32Bytes(v []int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	}
	return b
}

// reseed makes the learner's states the elements of prev (their least
// positions) and its tests the least positions of all elements, which
// tell every two elements apart since prev is reduced.
func (l *learner) reseed(prev *monoid) error {
	r := reps(prev, l.n-1)
	l.access = l.access[:0]
	l.pos = l.pos[:0]
	l.tests = [][]int{{}}
	for _, w := range r {
		l.access = append(l.access, w)
		l.pos = append(l.pos, wordPos(w, l.size))
		if len(w) > 0 {
			l.tests = append(l.tests, w)
		}
	}
	l.rows = l.rows[:0]
	if err := l.refresh(0); err != nil {
		return err
	}
	l.trans = make([][]int32, len(l.pos))
	for i := range l.trans {
		l.trans[i] = make([]int32, l.n)
		for h := 1; h < l.n; h++ {
			l.trans[i][h] = prev.mul[i][prev.phi[h]]
		}
	}
	l.sync = true
	return nil
}

// pairMonoid is the monoid of the pairs (x, S) of verify for the heaps
// 1..n of m, x a position's element and S its options' elements:
// (x, S)(y, T) = (xy, S·y ∪ x·T). It maps onto m and tells apart more
// positions, which tryAdjoin needs when the new heap splits old elements.
// nil when it has more than limit elements.
func (l *learner) pairMonoid(m *monoid, n, limit int) (*monoid, error) {
	k := len(m.mul)
	words := (k + 63) / 64
	type pair struct {
		x   int32
		set []uint64
	}
	keyOf := func(x int32, set []uint64) string {
		b := make([]byte, 4+8*len(set))
		b[0], b[1], b[2], b[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
		for i, w := range set {
			for j := range 8 {
				b[4+8*i+j] = byte(w >> (8 * j))
			}
		}
		return string(b)
	}
	optEls := make([][]int32, n+1)
	for h := 1; h <= n; h++ {
		for _, o := range l.opts[h] {
			y := int32(0)
			for _, part := range o {
				y = m.mul[y][m.phi[part]]
			}
			if !slices.Contains(optEls[h], y) {
				optEls[h] = append(optEls[h], y)
			}
		}
	}
	mulSet := func(set []uint64, y int32) []uint64 {
		out := make([]uint64, words)
		for w, b := range set {
			for b != 0 {
				j := 64*w + bits.TrailingZeros64(b)
				b &= b - 1
				z := m.mul[j][y]
				out[z/64] |= 1 << (z % 64)
			}
		}
		return out
	}
	pairs := []pair{{0, make([]uint64, words)}}
	index := map[string]int32{keyOf(0, pairs[0].set): 0}
	phi := make([]int32, n+1)
	var trans [][]int32
	for i := 0; i < len(pairs); i++ {
		if len(pairs) > limit {
			return nil, nil
		}
		p := pairs[i]
		t := make([]int32, n+1)
		for h := 1; h <= n; h++ {
			set := mulSet(p.set, m.phi[h])
			for _, o := range optEls[h] {
				z := m.mul[p.x][o]
				set[z/64] |= 1 << (z % 64)
			}
			x := m.mul[p.x][m.phi[h]]
			key := keyOf(x, set)
			j, ok := index[key]
			if !ok {
				j = int32(len(pairs))
				index[key] = j
				pairs = append(pairs, pair{x, set})
			}
			t[h] = j
		}
		trans = append(trans, t)
	}
	for h := 1; h <= n; h++ {
		phi[h] = trans[0][h]
	}
	kk := len(pairs)
	out := &monoid{mul: make([][]int32, kk), inP: make([]bool, kk), phi: phi, label: make([]int32, kk)}
	pmask := make([]uint64, words)
	for i, p := range m.inP {
		if p {
			pmask[i/64] |= 1 << (i % 64)
		}
	}
	for a := range kk {
		if err := l.tick(); err != nil {
			return nil, err
		}
		out.mul[a] = make([]int32, kk)
		out.inP[a] = m.inP[pairs[a].x]
		hits := int32(0)
		for w, b := range pairs[a].set {
			if b&pmask[w] != 0 {
				hits = 1
			}
		}
		out.label[a] = 2*pairs[a].x + hits
		for b := range kk {
			x := m.mul[pairs[a].x][pairs[b].x]
			set := mulSet(pairs[a].set, pairs[b].x)
			t := mulSet(pairs[b].set, pairs[a].x)
			for w := range set {
				set[w] |= t[w]
			}
			j, ok := index[keyOf(x, set)]
			if !ok {
				return nil, nil // not closed: cannot happen for pairs of positions
			}
			out.mul[a][b] = j
		}
	}
	return out, nil
}

// maxPairs bounds the pair monoid tryAdjoin builds.
const maxPairs = 4096

// restrict is the submonoid of m generated by the heaps 1..n-1, as a
// monoid of its own: the part of a refuted candidate for heap n that the
// next candidates build on.
func restrict(m *monoid, n int) *monoid {
	index := map[int32]int32{0: 0}
	elems := []int32{0}
	for i := 0; i < len(elems); i++ {
		for h := 1; h < n; h++ {
			y := m.mul[elems[i]][m.phi[h]]
			if _, ok := index[y]; !ok {
				index[y] = int32(len(elems))
				elems = append(elems, y)
			}
		}
	}
	k := len(elems)
	out := &monoid{mul: make([][]int32, k), inP: make([]bool, k), phi: make([]int32, n)}
	for a, x := range elems {
		out.mul[a] = make([]int32, k)
		out.inP[a] = m.inP[x]
		for b, y := range elems {
			out.mul[a][b] = index[m.mul[x][y]]
		}
	}
	for h := 1; h < n; h++ {
		out.phi[h] = index[m.phi[h]]
	}
	return out
}

// maxRounds bounds the rounds of candidates built on refuted ones.
const maxRounds = 6

// maxDepth bounds the depth of the types tryAdjoin builds on.
const maxDepth = 4

// classOf numbers the signatures of a refinement: the class of key, a new
// one (the next number) when it is new.
func classOf(sig map[string]int32, key []int32) int32 {
	s := string(int32Bytes(key))
	c, ok := sig[s]
	if !ok {
		c = int32(len(sig))
		sig[s] = c
	}
	return c
}
