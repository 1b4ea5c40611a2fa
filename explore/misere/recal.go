package misere

import (
	"container/heap"
	"fmt"
	"slices"
)

// Recalibration (doc.go, Method): one candidate quotient of the heaps
// 1..n is proven by verify or refuted by a least wrong position X; the
// next candidate frees some heaps of X from the relations the candidate
// gave them (each becomes a generator of its own, with powers up to the
// count of it in X), rebuilds the monoid from that presentation, and is
// kept when it gets X right. Plambeck and Siegel describe this, and
// Siegel's MisereSolver works so.

// cyclic is the monoid of the powers of one generator z with
// z^(index+period) = z^index: 1, z, ..., z^(index+period-1).
type cyclic struct{ index, period int32 }

func (c cyclic) order() int32 { return c.index + c.period }

func (c cyclic) mul(i, j int32) int32 {
	s := i + j
	if s >= c.order() {
		s = c.index + (s-c.index)%c.period
	}
	return s
}

// draft is a candidate before its P-portion and its reduction: the direct
// sum of base (the submonoid the kept heaps generate in the last
// candidate) and one cyclic monoid for each freed heap. An element is
// encoded as b + |base|·(e1 + o1·(e2 + ...)), b its base part and ei its
// power of the i-th free generator.
type draft struct {
	base  *monoid
	cyc   []cyclic
	order int
	phi   []int32 // element of each heap 0..n
}

func (d *draft) mul(a, b int32) int32 {
	nb := int32(len(d.base.mul))
	out := d.base.mul[a%nb][b%nb]
	a, b = a/nb, b/nb
	stride := nb
	for _, c := range d.cyc {
		o := c.order()
		out += stride * c.mul(a%o, b%o)
		a, b = a/o, b/o
		stride *= o
	}
	return out
}

// maxDraft bounds the elements of a draft (its tables take about
// 4·(n+18) bytes an element) and maxOrder the order of a candidate (its
// multiplication table takes 4·order² bytes): 16 MiB or so each, so that
// one allocation does not overshoot a memory limit between the
// watchdog's looks. The quotients reached (Q_30 of 0.07, order 360)
// need far less.
const (
	maxDraft = 1 << 17
	maxOrder = 2048
)

// keyItem orders positions by size, then by more heaps first: a move
// leaves a smaller position or splits a heap into more heaps of the same
// total (octal digits with 4 at place 0), so options come first.
type keyItem struct {
	size, heaps int
	node        int32
}

type keyQueue []keyItem

func (q keyQueue) Len() int { return len(q) }
func (q keyQueue) Less(i, j int) bool {
	if q[i].size != q[j].size {
		return q[i].size < q[j].size
	}
	return q[i].heaps > q[j].heaps
}
func (q keyQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *keyQueue) Push(x any)   { *q = append(*q, x.(keyItem)) }
func (q *keyQueue) Pop() any     { old := *q; x := old[len(old)-1]; *q = old[:len(old)-1]; return x }

// build turns a draft into a candidate: the P-portion is worked out, for
// each element, from the options of its least position (options come
// first, so their elements are known), and the monoid is reduced by
// indistinguishability. nil when the draft or the candidate is too large.
func (l *learner) build(d *draft) (*monoid, error) {
	if d.order > maxDraft {
		return nil, nil
	}
	n := len(d.phi) - 1
	held := l.held
	defer func() { l.held = held }()
	// The transitions, least positions and classes: about 4(n+18) bytes
	// an element.
	l.held += int64(d.order) * int64(4*n+72)
	if err := l.memory(); err != nil {
		return nil, err
	}
	optEl := make([][]int32, n+1)
	for h := 1; h <= n; h++ {
		for _, o := range l.opts[h] {
			y := int32(0)
			for _, part := range o {
				y = d.mul(y, d.phi[part])
			}
			if !slices.Contains(optEl[h], y) {
				optEl[h] = append(optEl[h], y)
			}
		}
	}
	// The generators: the distinct elements of the heaps.
	var gens []int32
	genOf := make([]int, n+1) // heap -> index in gens
	for h := 1; h <= n; h++ {
		i := slices.Index(gens, d.phi[h])
		if i < 0 {
			i = len(gens)
			gens = append(gens, d.phi[h])
		}
		genOf[h] = i
	}
	ng := len(gens)
	trans := make([]int32, d.order*ng)
	for x := range int32(d.order) {
		if err := l.tick(); err != nil {
			return nil, err
		}
		for i, g := range gens {
			trans[int(x)*ng+i] = d.mul(x, g)
		}
	}
	// Least positions: Dijkstra's search by (size, more heaps first).
	type rep struct {
		size, heaps int
		parent      int32
		heap        int32
		done        bool
	}
	reps := make([]rep, d.order)
	for i := range reps {
		reps[i].size = -1
	}
	reps[0] = rep{parent: -1}
	order := make([]int32, 0, d.order)
	inP := make([]bool, d.order)
	pq := &keyQueue{{0, 0, 0}}
	var word []int32
	var path []int32
	for pq.Len() > 0 {
		it := heap.Pop(pq).(keyItem)
		x := it.node
		if reps[x].done || it.size != reps[x].size || it.heaps != reps[x].heaps {
			continue
		}
		reps[x].done = true
		order = append(order, x)
		// The options of the least position of x: one heap h of it
		// replaced by an option of h.
		word = word[:0]
		for y := x; reps[y].parent >= 0; y = reps[y].parent {
			word = append(word, reps[y].heap)
		}
		slices.Reverse(word)
		// path[i] is the element of word[:i], suffix products give the rest.
		path = append(path[:0], 0)
		for _, h := range word {
			path = append(path, trans[int(path[len(path)-1])*ng+genOf[h]])
		}
		suf := int32(0)
		moved, p := false, true
		for i := len(word) - 1; i >= 0 && p; i-- {
			h := word[i]
			if !slices.Contains(word[:i], h) {
				rest := d.mul(path[i], suf)
				for _, o := range optEl[h] {
					if err := l.tick(); err != nil {
						return nil, err
					}
					moved = true
					y := d.mul(rest, o)
					if !reps[y].done {
						return nil, fmt.Errorf("misere: %v: internal error: an option's element comes after its position's", l.g)
					}
					if inP[y] {
						p = false
						break
					}
				}
			}
			suf = trans[int(suf)*ng+genOf[h]]
		}
		inP[x] = moved && p
		for h := 1; h <= n; h++ {
			y := trans[int(x)*ng+genOf[h]]
			s, k := it.size+h, it.heaps+1
			r := &reps[y]
			if !r.done && (r.size < 0 || s < r.size || (s == r.size && k > r.heaps)) {
				r.size, r.heaps, r.parent, r.heap = s, k, x, int32(h)
				heap.Push(pq, keyItem{s, k, y})
			}
		}
	}
	if len(order) != d.order {
		return nil, fmt.Errorf("misere: %v: internal error: the heaps generate %d of %d elements", l.g, len(order), d.order)
	}
	class, count, err := l.refine(inP, trans, ng)
	if err != nil || count > maxOrder {
		return nil, err
	}
	l.held += 4 * int64(count) * int64(count)
	if err := l.memory(); err != nil {
		return nil, err
	}
	// Number the classes in the order of their least positions, so that
	// the identity is 0.
	renum := make([]int32, count)
	for i := range renum {
		renum[i] = -1
	}
	first := make([]int32, 0, count)
	for _, x := range order {
		if c := class[x]; renum[c] < 0 {
			renum[c] = int32(len(first))
			first = append(first, x)
		}
	}
	m := &monoid{mul: make([][]int32, count), inP: make([]bool, count), phi: make([]int32, n+1)}
	for a, x := range first {
		if err := l.tick(); err != nil {
			return nil, err
		}
		m.mul[a] = make([]int32, count)
		m.inP[a] = inP[x]
		for b, y := range first {
			m.mul[a][b] = renum[class[d.mul(x, y)]]
		}
	}
	for h := 1; h <= n; h++ {
		m.phi[h] = renum[class[d.phi[h]]]
	}
	return m, nil
}

// refine returns the coarsest partition of the elements that separates
// label from the rest and is kept by the transitions (ng of them an
// element, in trans): Moore's refinement. For a monoid generated by the
// transitions' elements these are the classes of indistinguishable
// elements.
func (l *learner) refine(label []bool, trans []int32, ng int) ([]int32, int, error) {
	k := len(label)
	class := make([]int32, k)
	count := 1
	for x, p := range label {
		if p {
			class[x] = 1
			count = 2
		}
	}
	if count == 2 && !slices.Contains(label, false) {
		count = 1
		clear(class)
	}
	key := make([]int32, ng+1)
	for {
		sig := make(map[string]int32, count)
		next := make([]int32, k)
		for x := range k {
			if err := l.tick(); err != nil {
				return nil, 0, err
			}
			key[0] = class[x]
			for i := range ng {
				key[i+1] = class[trans[x*ng+i]]
			}
			next[x] = classOf(sig, key)
		}
		class = next
		if len(sig) == count {
			return class, count, nil
		}
		count = len(sig)
	}
}

// powerIndex is the index of x in m: the least i with x^i = x^(i+p) for
// some p >= 1.
func powerIndex(m *monoid, x int32) int32 {
	seen := map[int32]int32{}
	y := int32(0)
	for i := int32(0); ; i++ {
		if j, ok := seen[y]; ok {
			return j
		}
		seen[y] = i
		y = m.mul[y][x]
	}
}

// freeHeaps returns the draft of m (a candidate for the heaps 1..n) with
// the heaps free taken out of its relations: the submonoid the other
// heaps generate, plus one cyclic monoid for each heap of free, whose
// index lets it count the copies of it in the failing position bad and
// is at least that of its element in m.
func (l *learner) freeHeaps(m *monoid, n int, free []int, bad []int) (*draft, error) {
	isFree := make([]bool, n+1)
	for _, h := range free {
		isFree[h] = true
	}
	index := map[int32]int32{0: 0}
	elems := []int32{0}
	for i := 0; i < len(elems); i++ {
		for h := 1; h <= n; h++ {
			if isFree[h] {
				continue
			}
			y := m.mul[elems[i]][m.phi[h]]
			if _, ok := index[y]; !ok {
				index[y] = int32(len(elems))
				elems = append(elems, y)
			}
		}
	}
	k := len(elems)
	base := &monoid{mul: make([][]int32, k), inP: make([]bool, k)}
	for a, x := range elems {
		if err := l.tick(); err != nil {
			return nil, err
		}
		base.mul[a] = make([]int32, k)
		base.inP[a] = m.inP[x]
		for b, y := range elems {
			base.mul[a][b] = index[m.mul[x][y]]
		}
	}
	d := &draft{base: base, order: k, phi: make([]int32, n+1)}
	stride := int32(k)
	for _, h := range free {
		copies := int32(0)
		for _, g := range bad {
			if g == h {
				copies++
			}
		}
		c := cyclic{index: max(powerIndex(m, m.phi[h]), copies-1), period: 2}
		// Checked before the product, which could pass int32.
		if int64(d.order)*int64(c.order()) > maxDraft {
			d.order = maxDraft + 1
			return d, nil
		}
		d.cyc = append(d.cyc, c)
		d.phi[h] = stride
		stride *= c.order()
		d.order *= int(c.order())
	}
	for h := 1; h <= n; h++ {
		if !isFree[h] {
			d.phi[h] = index[m.phi[h]]
		}
	}
	return d, nil
}

// maxRecalibrations bounds the candidates tried for one heap.
const maxRecalibrations = 2000

// recalibrate computes the quotient of the heaps 1..n from prev, that of
// the heaps 1..n-1, when n is not an element of prev: the first candidate
// adjoins a generator z for n with z^4 = z^2; each refuted one is
// recalibrated on its least wrong position X, freeing the fewest heaps of
// X (the smallest first) that put X right. It returns nil when no
// recalibration puts X right or the candidates grow too large.
func (l *learner) recalibrate(n int, prev *monoid) (*monoid, error) {
	d := &draft{base: prev, cyc: []cyclic{{2, 2}}, order: 4 * len(prev.mul), phi: make([]int32, n+1)}
	copy(d.phi, prev.phi)
	d.phi[n] = int32(len(prev.mul))
	m, err := l.build(d)
	if err != nil || m == nil {
		return nil, err
	}
	strict := l.strictOptions(n)
	held := l.held
	defer func() { l.held = held }()
	for range maxRecalibrations {
		l.held = held + 4*int64(len(m.mul))*int64(len(m.mul))
		bad, least, err := l.verify(m, false)
		if err != nil {
			return nil, err
		}
		if bad == nil {
			return m, nil
		}
		l.certify(m, least)
		if !strict {
			// A move may keep the size: the wrong position may be an
			// option of the one verify stopped at.
			if bad, err = l.wrongPrediction(m, bad); err != nil {
				return nil, err
			}
		}
		truth := !m.predict(wordPos(bad, l.size))
		next, err := l.recalibrateOn(m, n, bad, truth)
		if err != nil || next == nil {
			return nil, err
		}
		m = next
	}
	return nil, nil
}

// recalibrateOn returns the first candidate, freeing subsets of the heaps
// of bad by size then in heap order, that says truth for bad; nil when
// none does.
func (l *learner) recalibrateOn(m *monoid, n int, bad []int, truth bool) (*monoid, error) {
	var heaps []int
	for _, h := range bad {
		if len(l.opts[h]) > 0 && !slices.Contains(heaps, h) {
			heaps = append(heaps, h)
		}
	}
	slices.Sort(heaps)
	pos := wordPos(bad, l.size)
	for size := 1; size <= len(heaps); size++ {
		var found *monoid
		err := subsets(heaps, size, func(free []int) (bool, error) {
			d, err := l.freeHeaps(m, n, free, bad)
			if err != nil {
				return true, err
			}
			next, err := l.build(d)
			if err != nil || next == nil {
				return err != nil, err
			}
			if next.predict(pos) == truth {
				found = next
				return true, nil
			}
			return false, nil
		})
		if err != nil || found != nil {
			return found, err
		}
	}
	return nil, nil
}

// subsets calls f with every subset of size k of s, in lexicographic
// order, until f returns true or an error.
func subsets(s []int, k int, f func([]int) (bool, error)) error {
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	sub := make([]int, k)
	for {
		for i, j := range idx {
			sub[i] = s[j]
		}
		if stop, err := f(sub); stop || err != nil {
			return err
		}
		i := k - 1
		for i >= 0 && idx[i] == len(s)-k+i {
			i--
		}
		if i < 0 {
			return nil
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// strictOptions says whether every move from the heaps 1..n leaves a
// smaller total: then verify's least failing position is itself predicted
// wrongly.
func (l *learner) strictOptions(n int) bool {
	for h := 1; h <= n; h++ {
		for _, o := range l.opts[h] {
			s := 0
			for _, part := range o {
				s += part
			}
			if s >= h {
				return false
			}
		}
	}
	return true
}
