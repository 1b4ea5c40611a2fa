package heap

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The paired sweep: the sparse-space sweep on two cores, for rules with a
// single split digit that ask for it (Grundy's game, sweepMoves.paired).
//
// Heap j needs the value of heap j − 1 for one option only: the split
// (1, j − 1) when the split digit is 0, or the heap j − 1 left by taking
// one token. Everything else it looks at (the splits with a rare part,
// the splits a + (j − k − a) with a ≥ 2) is known once heap j − 2 is. So
// two workers take the heaps in turn, even and odd: while one finishes
// heap j − 1, the other marks the rare parts of heap j and looks at its
// splits from a = 2 on (the prescan), noting where each value first
// appears. When g(j − 1) is published it adds that option, finds C, and
// needs the prescan only to say at which a the last rare value below C
// appeared, or to go on from where it stopped. Each heap is thus done
// about half on the other's time, and its steps are counted as the plain
// sweep counts them, so that estimates and projections do not depend on
// the timing.
//
// A worker that waits long (stealSplits splits looked at) for the other,
// which the operating system may have set aside, takes the other's heap
// and goes on alone to the end of the segment; the sweep then runs the
// next segments on one worker, 1, 2, 4, … up to pairBackoffMax of them
// while it goes on happening, so that a busy machine costs little. It
// does the same after a segment that rare values stopped early. Segments
// (pairSegment heaps) end at every point where the plain sweep checks
// cancellation, projects its cost or chooses a new split; a rare value or
// one as wide as the tables stops a segment early, and the sweep updates
// its tables before the next one. On two cores of an AMD EPYC (KVM),
// Grundy's game to 2^24 took 35 to 42 s paired, 51 s on one worker.

const (
	// pairSegment is the most heaps the two workers compute together
	// (about 20 ms of work past 2^20), the projection's period.
	pairSegment = sparseCheck
	// pairFrom is the first heap of the paired sweep: below it heaps are
	// too cheap to share.
	pairFrom = 1 << 12
	// pairChunk is how many splits the prescan looks at between two looks
	// at the other worker's progress.
	pairChunk = 64
	// stealSplits is how long a worker waits for the other, in splits
	// looked at (about 60 µs), before it takes the other's heap: some
	// fifty times the usual wait, longer than the other's deepest scans.
	stealSplits = 1 << 17
	// startWait is how long a worker waits for the other in the first
	// pairWarm heaps of a segment before it takes the other's heap: the
	// thread woken for the second worker may first share the core of the
	// first (Linux places a woken thread near its waker) for up to a few
	// hundred µs, until one of them moves to the idle core.
	startWait = 1 << 21
	pairWarm  = 16
	// pairBackoffMax is the most segments run on one worker after a
	// worker waited too long.
	pairBackoffMax = 64
	// pairMinRun is the fewest heaps a segment stopped by a rare value
	// must have computed for the next one to be paired too: where rare
	// values are dense (Grundy's game below 82 860) starting the second
	// worker costs more than it saves.
	pairMinRun = 1 << 10
)

// pairState is what the two workers of a segment share.
type pairState struct {
	published atomic.Int64 // every heap up to it has its value in vs
	claimed   atomic.Int64 // the last heap a worker writes the value of
	stop      atomic.Bool  // a value is rare or past w: the tables change
	solo      atomic.Bool  // one worker computes every heap left
	warm      int64        // waits are long only once heaps up to it are published
}

// pairWorker is the state of one worker: the stamps of the options of
// its heap (seen: the rare parts and the options of one heap; pseen and
// first: the values of the prescan, and the smallest part a where each
// first appeared), of the rare values still looked for (need), a scratch
// for heaps computed alone, and its steps.
type pairWorker struct {
	seen, pseen, first, need []uint32
	sc                       scratch
	steps                    int64
	steal                    int // stealSplits, lowered by tests
	steals                   int // heaps taken from the other
}

// canPair reports whether heap n starts a paired segment.
func (w *sweep) canPair(n int) bool {
	if !w.paired || len(w.splits) != 1 || n < w.pairFrom || runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	for _, k := range w.nones {
		if k >= n {
			return false
		}
	}
	m := n - w.splits[0]
	cnt := len(w.rare)
	for cnt > 0 && int(w.rare[cnt-1]) >= m {
		cnt--
	}
	// No whole scans in the segment: m grows and the rare positions stay.
	return w.dense*cnt < m && w.half(m) >= 2
}

// pair computes the heaps from..end−1, or the first of them up to a rare
// value or one past w, on two workers, and returns the first heap not
// computed. It updates the rare positions and the tables as next does.
func (w *sweep) pair(from, end int) int {
	size := len(w.class)
	for i := range w.workers {
		pw := &w.workers[i]
		if len(pw.seen) != size {
			pw.seen, pw.pseen = make([]uint32, size), make([]uint32, size)
			pw.first, pw.need = make([]uint32, size), make([]uint32, size)
			pw.sc.seen, pw.sc.need = make([]uint32, size), make([]uint32, size)
		}
		if pw.steal == 0 {
			pw.steal = stealSplits
		}
	}
	var ps pairState
	ps.published.Store(int64(from - 1))
	ps.claimed.Store(int64(from - 1))
	var wg sync.WaitGroup
	wg.Add(1)
	ps.warm = int64(from + pairWarm)
	go func() {
		defer wg.Done()
		w.pairWork(&ps, &w.workers[1], from+1, end)
	}()
	w.pairWork(&ps, &w.workers[0], from, end)
	wg.Wait()
	last := int(ps.published.Load())
	w.segments++
	for i := range w.workers {
		w.steps += w.workers[i].steps
		w.steals += int64(w.workers[i].steals)
		w.workers[i].steps, w.workers[i].steals = 0, 0
	}
	for n := from; n <= last; n++ {
		v := w.vs[n]
		if v >= w.w {
			w.widen(v + 1)
		}
		if w.class[v] == w.s.rareParity(n) {
			w.rare = append(w.rare, uint32(n))
			w.rareV = append(w.rareV, v)
		}
	}
	return last + 1
}

// pairWork computes the heaps first, first + 2, … below end, and stops
// when the segment stops or the other worker goes on alone.
func (w *sweep) pairWork(ps *pairState, pw *pairWorker, first, end int) {
	for j := first; j < end; j += 2 {
		// Heap j − 2 is this worker's, or the other's when it took it.
		for ps.published.Load() < int64(j-2) {
			if ps.stop.Load() || ps.solo.Load() {
				return
			}
		}
		if ps.stop.Load() || ps.solo.Load() {
			return
		}
		if !w.pairHeap(ps, pw, j) {
			return
		}
	}
}

// pairHeap computes heap j, whose heaps up to j − 2 are published, and
// publishes it unless the other worker took it. It returns false when the
// worker must stop: the segment stops, or the other goes on alone, or this
// one took heap j − 1 and went on alone to the end.
func (w *sweep) pairHeap(ps *pairState, pw *pairWorker, j int) bool {
	vs, class := w.vs, w.class
	seen, pseen, first, need := pw.seen, pw.pseen, pw.first, pw.need
	st := uint32(j + 1)
	k := w.splits[0]
	m := j - k
	var steps int64
	late := false // g(j − 1) is an option: taking one token leaves j − 1
	for _, o := range w.ones {
		if o == 1 {
			late = true
		} else if o < j {
			seen[vs[j-o]] = st
		}
	}
	cnt := len(w.rare)
	for cnt > 0 && int(w.rare[cnt-1]) >= m {
		cnt--
	}
	steps += int64(cnt)
	rare, rv := w.rare[:cnt], w.rareV[:cnt]
	// The split (1, j − 1) of digit 0 is the late one, added below.
	if k == 0 && len(rare) > 0 && rare[0] == 1 {
		rare, rv = rare[1:], rv[1:]
	}
	if k == 0 && len(rare) > 0 && int(rare[len(rare)-1]) == j-1 {
		rare, rv = rare[:len(rare)-1], rv[:len(rare)-1]
	}
	win := w.mirror(m)
	if w.unequal && m%2 == 0 {
		if i, ok := slices.BinarySearch(rare, uint32(m/2)); ok {
			markRare(seen, win, rare[:i], rv, st)
			rare, rv = rare[i+1:], rv[i+1:]
		}
	}
	markRare(seen, win, rare, rv, st)
	// The prescan, while heap j − 1 is not published: parts a ≥ a0 and
	// m − a ≤ j − 2.
	a := 1
	if k == 0 {
		a = 2
	}
	h := w.half(m)
	waited := 0
	for ps.published.Load() < int64(j-1) {
		if ps.stop.Load() || ps.solo.Load() {
			return false
		}
		if a <= h {
			b := min(h, a+pairChunk-1)
			prescan(pseen, first, vs, win, a, b, st)
			waited += b - a + 1
			a = b + 1
		} else {
			waited++
		}
		if waited >= pw.steal && (waited >= startWait || ps.published.Load() >= ps.warm) && ps.claimed.CompareAndSwap(int64(j-2), int64(j-1)) {
			// The other worker has not claimed heap j − 1 in all this
			// time: take it, and every heap after it.
			ps.solo.Store(true)
			pw.steals++
			w.pairSolo(ps, pw, j-1)
			return false
		}
	}
	if late {
		seen[vs[j-1]] = st
	}
	if k == 0 {
		// With a rare part (heap j − 1 may have become rare since the
		// segment started, and count among the rare parts below m), the
		// plain sweep marks it with the rare parts; otherwise its scan
		// finds it at a = 1.
		v := vs[1] ^ vs[j-1]
		rare1 := class[vs[1]] == w.s.rareParity(1)
		if class[vs[j-1]] == w.s.rareParity(j-1) {
			if cnt == 0 || int(w.rare[cnt-1]) != j-1 {
				steps++
			}
			rare1 = true
		}
		if rare1 {
			seen[v] = st
		} else {
			pseen[v], first[v] = st, 1
		}
	}
	rp := w.s.rareParity(j)
	c := uint32(0)
	for seen[c] == st || class[c] == rp {
		c++
	}
	steps += int64(c)
	// The rare values below C that no rare part gives: the plain sweep
	// scans for them from a = 1 and stops at the last one found.
	depth, missing := 0, 0
	for v := range c {
		if seen[v] != st {
			if pseen[v] == st {
				depth = max(depth, int(first[v]))
			} else {
				need[v] = st
				missing++
			}
		}
	}
	if missing > 0 {
		depth = h
		if a <= h {
			var d int
			missing, d = scanMissing(vs[a-1:], win[a-1:], need, h-a+1, st, missing)
			depth = a - 1 + d
		}
	}
	steps += int64(depth)
	v := firstNeeded(need, c, st, missing)
	if !ps.claimed.CompareAndSwap(int64(j-1), int64(j)) {
		return true // the other worker took heap j: it goes on alone
	}
	w.publish(ps, j, v)
	pw.steps += steps
	return true
}

// pairSolo computes the heaps from the claimed heap from to the end of
// the segment alone, as the plain sweep does.
func (w *sweep) pairSolo(ps *pairState, pw *pairWorker, from int) {
	for i := from; ; i++ {
		if i > from && (ps.stop.Load() || i >= w.pairEnd || !ps.claimed.CompareAndSwap(int64(i-1), int64(i))) {
			return
		}
		v := w.value(i, &pw.sc)
		pw.steps += pw.sc.steps
		pw.sc.steps, pw.sc.fullScans = 0, 0
		w.publish(ps, i, v)
	}
}

// publish writes g(j) = v, claimed by the caller, and makes it visible
// to the other worker; a rare value or one past w stops the segment.
func (w *sweep) publish(ps *pairState, j int, v uint32) {
	w.vs[j] = v
	w.rev[len(w.rev)-1-j] = v
	if v >= w.w || w.class[v] == w.s.rareParity(j) {
		ps.stop.Store(true)
	}
	ps.published.Store(int64(j))
}

// prescan stamps st in pseen on the values of the splits a + (m − a) of
// m for a..b, win = mirror(m), and notes in first the a where each value
// first appears.
//
//go:noinline
func prescan(pseen, first, vs, win []uint32, a, b int, st uint32) {
	if len(pseen) == 0 || len(first) < len(pseen) {
		return
	}
	mask := uint(len(pseen) - 1)
	lo, hi := vs[a:b+1], win[a:b+1]
	hi = hi[:len(lo)]
	for i, x := range lo {
		if v := uint(x^hi[i]) & mask; pseen[v] != st {
			pseen[v] = st
			first[v] = uint32(a + i)
		}
	}
}
