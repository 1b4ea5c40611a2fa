package heap

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The look-ahead sweep: the sparse-space sweep on two cores for codes with
// a single split digit d_k (Officers, 0.6), that never waits for its
// helper.
//
// Heap y looks at the splits a + (m − a) of m = y − k. Once the heaps
// below a frontier p are known, the splits with ℓ ≤ a ≤ m − ℓ, ℓ = m − p
// + 1, are known too: all of them but the ℓ − 1 smallest. A helper takes
// the heaps ahead of the main worker and does, with the values below p,
// the heavy part of each: it marks the splits of the rare positions r in
// [ℓ, m − ℓ], finds C′, the least common value none of them has, and
// looks for the rare values below C′ that no such split has among the
// splits from a = ℓ on, noting where each first appears (up to lookCap
// splits). It leaves these in a ring of lookRing slots, one per heap.
//
// The main worker computes the heaps in order. For a heap the helper has
// done, it adds the options the helper could not see: the heaps left by
// taking tokens without a split, and the splits of the rare positions
// below ℓ or above m − ℓ (those that became rare since the segment
// started too). When none of them has C′, C′ is the least common value
// missing, as the sweep's C; the rare values below it that they do not
// have are looked for among the splits a < ℓ, and the helper's first
// appearances, or the scan from where it stopped, give the rest. Otherwise
// the main worker computes the heap as the one-worker sweep does (value),
// as it does every heap the helper has not done: it never waits. The steps
// are counted as the one-worker sweep counts them (the rare parts, C and
// the depth of its scan, which the first appearances give), so that
// estimates and projections do not depend on the timing.
//
// The helper starts lookJump heaps ahead of the main worker. When the
// main worker catches up with it (it then computes the heap the helper is
// on), the helper jumps lookJump heaps ahead again: the main worker
// computes the heaps in between alone while the helper does the heavy part
// of the next ones, which the main worker then finishes in a fraction of
// the time. Each worker is thus busy, and a helper that the operating
// system sets aside costs nothing but its heaps done twice. A helper more
// than lookMaxLag heaps ahead waits for the main worker. When a core is
// busy with other work, the two workers share the other one and the
// helper finishes few heaps: segments where it finished fewer than a third
// set it aside for the next ones (lookBackoff). On two quiet cores of an
// AMD EPYC (KVM), the values of Officers to 2^20 took 2.0 to 2.1 s this
// way, 3.0 s on one worker; the helper finished 45% of the heaps.
//
// A segment ends where the sweep projects its cost or chooses a new
// split, at a value as wide as the tables, and when the context is
// cancelled (the main worker looks at it every 256 heaps, as the
// one-worker sweep does); the tables do not change during a segment, and
// the helper ends with it.

const (
	// lookFrom is the first heap of the look-ahead sweep.
	lookFrom = 1 << 12
	// lookJump is how far ahead of the main worker the helper starts,
	// and jumps when the main worker catches up with it.
	lookJump = 32
	// lookMaxLag is the farthest ahead of the main worker the helper
	// goes; lookRing, the slots of the ring, is more.
	lookMaxLag = 4 * lookJump
	lookRing   = 2 * lookMaxLag
	// lookCap is the most splits the helper looks at for one heap past
	// ℓ: a rare value missing from its splits may be among the first ℓ − 1
	// only, or nowhere (the heap is then rare, its value that value).
	lookCap = 1 << 14
	// lookCancel is how many heaps pass between two looks at the context
	// within a segment, as in the one-worker sweep.
	lookCancel = 1 << 8
	// lookPoor, lookMinRun and lookWaitMax: segments of at least
	// lookMinRun heaps whose helper finished fewer than one in lookPoor
	// make the next ones, up to lookWaitMax sparseCheck's worth, run on
	// one worker.
	lookPoor    = 3
	lookMinRun  = 1 << 10
	lookWaitMax = 16
)

// lookSlot is the helper's work on one heap: tag is the heap plus one,
// stored once the rest is written (0: none). c is C′, lo = ℓ and stop the
// last split it looked at; found lists the rare values below C′ that the
// rare parts from ℓ to m − ℓ do not have, each with the first split a ≥ ℓ
// that has it (the high 32 bits, 0 when none up to stop).
type lookSlot struct {
	tag      atomic.Int64
	c        uint32
	lo, stop int
	found    []uint64
	_        [64]byte // the main worker reads a slot while the helper writes the next
}

// lookView is what the helper reads of the sweep, copied at the start of
// a segment into memory of its own: the fields of the sweep next to these
// are written by the main worker at every heap, and a cache line that
// both cores write and read costs each of them a miss a heap.
type lookView struct {
	_                 [64]byte
	vs, rev           []uint32
	class             []uint8
	rare, rareV       []uint32 // the rare positions below the segment's first heap
	seen, need, first []uint32
	ring              []lookSlot
	s                 sparseSplit
	k, from, lag      int
	unequal           bool
	_                 [64]byte
}

// mirror and half are those of the sweep.
func (v *lookView) mirror(m int) []uint32 { return v.rev[len(v.rev)-1-m:] }

func (v *lookView) half(m int) int {
	if v.unequal {
		return (m - 1) / 2
	}
	return m / 2
}

// lookState is what the main worker and the helper share in a segment:
// every heap below published has its value, and stop ends the helper.
type lookState struct {
	published atomic.Int64
	stop      atomic.Bool
}

// lookHelper is the helper's own tables (stamps as in scratch, and first
// appearances) and the ring.
type lookHelper struct {
	seen, need, first []uint32
	ring              []lookSlot
	// lag, for tests: the helper does every heap y with the frontier
	// y − lag exactly, and the main worker waits for it, so that every
	// heap takes the helper's route.
	lag int
}

// canLook reports whether heap n starts a look-ahead segment.
func (w *sweep) canLook(n int) bool {
	if !w.lookahead || len(w.splits) != 1 || n < w.lookFrom || n < w.lookResume || (runtime.GOMAXPROCS(0) < 2 && w.look.lag == 0) {
		return false
	}
	m := n - w.splits[0]
	cnt := len(w.rare)
	for cnt > 0 && int(w.rare[cnt-1]) >= m {
		cnt--
	}
	return w.dense*cnt < m && w.half(m) >= 2
}

// lookBackoff follows a segment of the heaps from..n−1, looked of them
// finished from the helper's work: when that is less than one in lookPoor, as on
// a machine busy with other work, where the helper runs little and late,
// the next segments (1, 2, 4, … up to lookWaitMax while it goes on
// happening) run on one worker.
func (w *sweep) lookBackoff(from, n int, looked int64) {
	heaps := n - from
	if w.look.lag > 0 || heaps < lookMinRun {
		return
	}
	if int64(heaps) <= lookPoor*looked {
		w.lookWait = 0
		return
	}
	w.lookWait = min(max(2*w.lookWait, 1), lookWaitMax)
	w.lookResume = n + w.lookWait*sparseCheck
}

// lookSegment computes the heaps from..end−1, or the first of them up to
// a value as wide as the tables or a cancelled context, with the helper,
// and returns the first heap not computed.
func (w *sweep) lookSegment(from, end int, lim Limits) int {
	lh := &w.look
	size := len(w.class)
	if len(lh.seen) != size {
		lh.seen, lh.need, lh.first = make([]uint32, size), make([]uint32, size), make([]uint32, size)
	}
	if lh.ring == nil {
		lh.ring = make([]lookSlot, lookRing)
	}
	for i := range lh.ring {
		lh.ring[i].tag.Store(0)
	}
	var ls lookState
	ls.published.Store(int64(from))
	// The rare positions below from, which the helper reads while the
	// main worker appends the next ones.
	view := &lookView{vs: w.vs, rev: w.rev, class: w.class,
		rare: w.rare[:len(w.rare):len(w.rare)], rareV: w.rareV[:len(w.rare):len(w.rare)],
		seen: lh.seen, need: lh.need, first: lh.first, ring: lh.ring,
		s: w.s, k: w.splits[0], from: from, lag: lh.lag, unequal: w.unequal}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		view.help(&ls, end)
	}()
	w.segments++
	n := from
	for ; n < end; n++ {
		if n > from && n%lookCancel == 0 && lim.cancelled() != nil {
			break // the caller looks at the context again
		}
		slot := &lh.ring[n%lookRing]
		if lh.lag > 0 && n >= from+lh.lag {
			for slot.tag.Load() != int64(n)+1 {
				runtime.Gosched()
			}
		}
		v, ok := uint32(0), false
		if slot.tag.Load() == int64(n)+1 {
			v, ok = w.lookLight(n, slot, from)
		}
		if ok {
			w.looked++
		} else {
			v = w.value(n, &w.sc)
			w.fullScans += w.sc.fullScans
			w.sc.fullScans = 0
		}
		w.steps += w.sc.steps
		w.sc.steps = 0
		w.vs[n] = v
		w.rev[len(w.rev)-1-n] = v
		if v >= w.w {
			// Wider tables: the helper's end.
			ls.stop.Store(true)
			wg.Wait()
			w.widen(v + 1)
			w.noteRare(n, v)
			return n + 1
		}
		w.noteRare(n, v)
		ls.published.Store(int64(n + 1))
	}
	ls.stop.Store(true)
	wg.Wait()
	return n
}

// noteRare appends heap n of value v to the rare positions when it is
// rare.
func (w *sweep) noteRare(n int, v uint32) {
	if w.class[v] == w.s.rareParity(n) {
		w.rare = append(w.rare, uint32(n))
		w.rareV = append(w.rareV, v)
	}
}

// help is the helper of a segment: the heavy part of heaps ahead of the
// main worker, below end.
func (v *lookView) help(ls *lookState, end int) {
	y := v.from + lookJump
	if v.lag > 0 {
		y = v.from + v.lag
	}
	idle := 0
	for y < end {
		if ls.stop.Load() {
			return
		}
		p := int(ls.published.Load())
		if v.lag > 0 {
			if p < y-v.lag || y-p >= lookRing {
				runtime.Gosched()
				continue
			}
			p = y - v.lag
		} else {
			if y <= p+1 {
				// The main worker caught up: it computes the heap
				// after this one itself, or soon will.
				y = p + lookJump
				continue
			}
			if y-p > lookMaxLag {
				// The main worker is set aside: wait for it.
				if idle++; idle > 64 {
					time.Sleep(20 * time.Microsecond)
				} else {
					runtime.Gosched()
				}
				continue
			}
		}
		idle = 0
		slot := &v.ring[y%lookRing]
		v.heavy(y, p, slot)
		slot.tag.Store(int64(y) + 1)
		y++
	}
}

// heavy is the helper's part of heap y when the heaps below p are known,
// into slot.
func (v *lookView) heavy(y, p int, slot *lookSlot) {
	seen, need, first, class := v.seen, v.need, v.first, v.class
	rare, rareV := v.rare, v.rareV
	st := uint32(y + 1)
	m := y - v.k
	lo := max(1, m-p+1)
	hi := min(m-lo, v.from-1) // the rare parts r of the helper: lo ≤ r ≤ hi
	win := v.mirror(m)
	if lo <= hi {
		i := lowerBound(rare, lo)
		j := lowerBound(rare, hi+1)
		markRareSkip(seen, win, rare[i:j], rareV[i:j], m, st, v.unequal)
	}
	rp := v.s.rareParity(y)
	c := uint32(0)
	for seen[c] == st || class[c] == rp {
		c++
	}
	// The rare values below C′ that the rare parts do not have, to be
	// found, with the split where each first appears.
	found := slot.found[:0]
	for u := range c {
		if seen[u] != st {
			need[u] = st
			found = append(found, uint64(u))
		}
	}
	h := v.half(m)
	stop := lo - 1
	if len(found) > 0 && lo <= h {
		top := min(h, lo+lookCap-1)
		stop = scanFirstSet(v.vs, win, need, first, found, lo, top, st)
		for i, e := range found {
			if u := uint32(e); need[u] != st {
				found[i] |= uint64(first[u]) << 32
			}
		}
	}
	slot.found, slot.c, slot.lo, slot.stop = found, c, lo, stop
}

// lookLight finishes heap n from the helper's slot and returns its value,
// counting the steps of value in w.sc; ok is false when the options the
// helper could not see have C′ (the caller then computes the heap whole).
func (w *sweep) lookLight(n int, slot *lookSlot, from int) (v uint32, ok bool) {
	sc := &w.sc
	vs, seen, need := w.vs, sc.seen, sc.need
	st := uint32(n + 1)
	w.markOneHeap(n, seen, st)
	m := n - w.splits[0]
	cnt := len(w.rare)
	for cnt > 0 && int(w.rare[cnt-1]) >= m {
		cnt--
	}
	if w.dense*cnt >= m {
		return 0, false // the one-worker sweep scans this heap whole
	}
	lo := slot.lo
	hi := min(m-lo, from-1)
	win := w.mirror(m)
	rare, rareV := w.rare[:cnt], w.rareV[:cnt]
	if lo <= hi {
		i := lowerBound(rare, lo)
		j := lowerBound(rare, hi+1)
		markRareSkip(seen, win, rare[:i], rareV[:i], m, st, w.unequal)
		markRareSkip(seen, win, rare[j:], rareV[j:], m, st, w.unequal)
	} else {
		markRareSkip(seen, win, rare, rareV, m, st, w.unequal)
	}
	c := slot.c
	if seen[c] == st {
		return 0, false
	}
	sc.steps += int64(cnt) + int64(c)
	missing := 0
	for _, e := range slot.found {
		if v := uint32(e); seen[v] != st {
			need[v] = st
			missing++
		}
	}
	if missing > 0 {
		h := w.half(m)
		small := min(lo-1, h)
		var depth int
		missing, depth = scanMissing(vs, win, need, small, st, missing)
		if missing > 0 {
			depth = 0
			for _, e := range slot.found {
				if v, f := uint32(e), int(e>>32); f > 0 && need[v] == st {
					need[v] = 0
					missing--
					depth = max(depth, f)
				}
			}
			if missing > 0 {
				if slot.stop >= h {
					depth = h
				} else {
					var d int
					missing, d = scanMissing(vs[slot.stop:], win[slot.stop:], need, h-slot.stop, st, missing)
					depth = slot.stop + d
				}
			}
		}
		sc.steps += int64(depth)
	}
	return firstNeeded(need, c, st, missing), true
}

// markRareSkip is markRare on the splits of m by the rare parts rare, of
// values rv, leaving out the split into two equal parts when unequal
// (Grundy's game).
func markRareSkip(seen, win, rare, rv []uint32, m int, st uint32, unequal bool) {
	if unequal && m%2 == 0 {
		if i, ok := slices.BinarySearch(rare, uint32(m/2)); ok {
			markRare(seen, win, rare[:i], rv[:i], st)
			rare, rv = rare[i+1:], rv[i+1:]
		}
	}
	markRare(seen, win, rare, rv, st)
}

// lowerBound is the number of positions in the ascending list rare below
// x.
func lowerBound(rare []uint32, x int) int {
	if x <= 0 {
		return 0
	}
	i, _ := slices.BinarySearch(rare, uint32(min(x, 1<<32-1)))
	return i
}

// scanFirstSet is scanFirst with the values looked for listed in found
// (their low 32 bits), and only the last a it looked at returned: on the
// vector unit (scanSetAVX512) when the machine has AVX-512 and every
// nim-sum is below 512, as scanSet is scanMissing.
func scanFirstSet(vs, win, need, first []uint32, found []uint64, lo, hi int, st uint32) int {
	if !haveScanSet || len(need) > 4*512 || len(first) < 512 || lo < 1 || lo > hi || hi >= len(vs) || hi >= len(win) {
		_, stop := scanFirst(vs, win, need, first, lo, hi, st, len(found))
		return stop
	}
	var set [8]uint64
	for _, e := range found {
		if v := uint32(e); v < 512 {
			set[v/64] |= 1 << (v % 64)
		}
	}
	before := set
	_, n := scanSetAVX512(&vs[lo], &win[lo], hi-lo+1, &set, len(found), &first[0], lo)
	unsetNeed(need, &before, &set)
	return lo - 1 + n
}

// scanFirst is scanMissing on the splits a + (m − a) for lo ≤ a ≤ hi,
// win = mirror(m), that also notes in first the a where each value
// found appears first. It returns how many it did not find and the last a
// it looked at.
func scanFirst(vs, win, need, first []uint32, lo, hi int, st uint32, missing int) (int, int) {
	if len(need) == 0 || len(first) < len(need) || lo > hi {
		return missing, lo - 1
	}
	mask := uint(len(need) - 1)
	first = first[:len(need)]
	a0 := lo
	xs := vs[lo : hi+1]
	ys := win[lo : hi+1]
	ys = ys[:len(xs)]
	i := 0
	for ; i < len(xs)-3; i += 4 {
		v0 := uint(xs[i]^ys[i]) & mask
		v1 := uint(xs[i+1]^ys[i+1]) & mask
		v2 := uint(xs[i+2]^ys[i+2]) & mask
		v3 := uint(xs[i+3]^ys[i+3]) & mask
		if need[v0] == st {
			need[v0], first[v0] = 0, uint32(a0+i)
			if missing--; missing == 0 {
				return 0, a0 + i
			}
		}
		if need[v1] == st {
			need[v1], first[v1] = 0, uint32(a0+i+1)
			if missing--; missing == 0 {
				return 0, a0 + i + 1
			}
		}
		if need[v2] == st {
			need[v2], first[v2] = 0, uint32(a0+i+2)
			if missing--; missing == 0 {
				return 0, a0 + i + 2
			}
		}
		if need[v3] == st {
			need[v3], first[v3] = 0, uint32(a0+i+3)
			if missing--; missing == 0 {
				return 0, a0 + i + 3
			}
		}
	}
	for ; i < len(xs); i++ {
		if v := uint(xs[i]^ys[i]) & mask; need[v] == st {
			need[v], first[v] = 0, uint32(a0+i)
			if missing--; missing == 0 {
				return 0, a0 + i
			}
		}
	}
	return missing, hi
}
