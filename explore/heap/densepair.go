package heap

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The dense sweep on two cores. The splits a + (m − a) of m with a large
// part a need old values only: those with q < a ≤ m/2, q = m/4, read
// heaps up to m − q − 1, about 3m/4, known long before heap m. A helper
// goroutine computes the set of their values (the old half of S2(m)) for
// the heaps ahead, into a ring of bit sets, while the sweep computes the
// recent half (a ≤ q) and the mex: each heap costs about half its splits
// on each core, with no wait in the usual case, the helper being up to
// denseAhead heaps ahead. When the helper has not done a heap (the
// operating system set it aside), the sweep does that half itself rather
// than wait: a busy machine costs one core's time, not more. Steps are
// counted as the one-core sweep counts them.

const (
	// densePairFrom is the first m whose old half goes to the helper:
	// below it heaps are too cheap to share.
	densePairFrom = 1 << 11
	// denseAhead is the ring of the helper's sets: how many heaps ahead
	// of the sweep it may go.
	denseAhead = 1 << 11
	// denseWait is how many looks at the ring the sweep spends on a set
	// the helper is computing before it computes it too.
	denseWait = 1 << 12
)

// densePair is the helper's state, shared with the sweep.
type densePair struct {
	published atomic.Int64  // vs[0..published] are known
	w         atomic.Uint32 // the sweep's w, at least when published was stored
	need      atomic.Int64  // the least m whose set the sweep may still read
	next      atomic.Int64  // the next m the helper takes
	stop      atomic.Bool
	done      [denseAhead]atomic.Int64 // slot s holds the set of m when done[s] = m + 1
	sets      [denseAhead][]uint64
	seen      []uint32 // the helper's stamps
	wg        sync.WaitGroup
	own       []uint64 // the sweep's set when it does a helper's half
	ownSeen   []uint32
	taken     int64 // halves the sweep did itself
}

// oldHalf returns q: the splits with q < a ≤ h go to the helper.
func oldHalf(h int) int { return h / 2 }

// startPair starts the helper for the heaps from on.
func (d *denseSweep) startPair(from int) {
	p := &densePair{}
	p.published.Store(int64(from) - 1)
	p.w.Store(d.w)
	p.need.Store(int64(from - d.kmin))
	p.next.Store(int64(max(from-d.kmin, d.pairFrom)))
	for s := range p.done {
		p.done[s].Store(-1)
	}
	d.pair = p
	p.wg.Add(1)
	go d.helper()
}

// stopPair stops the helper and waits for it.
func (d *denseSweep) stopPair() {
	if d.pair == nil {
		return
	}
	d.pair.stop.Store(true)
	d.pair.wg.Wait()
	d.pair = nil
}

// helper computes the old halves of S2(m) for m = next, next + 1, … as
// their values become known and the ring has room.
func (d *denseSweep) helper() {
	p := d.pair
	defer p.wg.Done()
	idle := 0
	for !p.stop.Load() {
		m := int(p.next.Load())
		if m >= len(d.vs) {
			return
		}
		h := d.mv.half(m)
		q := oldHalf(h)
		if int64(m-q-1) > p.published.Load() || int64(m) >= p.need.Load()+denseAhead {
			// Values not known yet, or the ring full: wait, briefly
			// spinning, then sleeping, so that an idle helper costs
			// nothing to a busy machine.
			if idle++; idle > 64 {
				time.Sleep(20 * time.Microsecond)
			} else {
				runtime.Gosched()
			}
			continue
		}
		idle = 0
		if !p.next.CompareAndSwap(int64(m), int64(m+1)) {
			continue // the sweep took it
		}
		w := p.w.Load()
		if len(p.seen) < int(w) {
			p.seen = make([]uint32, w)
		}
		words := int(w / 64)
		s := m % denseAhead
		if cap(p.sets[s]) < words {
			p.sets[s] = make([]uint64, words)
		}
		set := p.sets[s][:words]
		st := uint32(m + 1)
		markRange(p.seen[:w], d.vs, d.mirror(m), q+1, h, st)
		packStamps(set, p.seen, st)
		p.sets[s] = set
		p.done[s].Store(int64(m) + 1)
	}
}

// markRange stamps st on the values of the splits a + (m − a) of m with
// lo ≤ a ≤ hi, where win = mirror(m); seen has a power of two entries.
func markRange(seen, vs, win []uint32, lo, hi int, st uint32) {
	if len(seen) == 0 || lo > hi {
		return
	}
	mask := uint(len(seen) - 1)
	a := vs[lo : hi+1]
	b := win[lo : hi+1]
	b = b[:len(a)]
	for i, x := range a {
		seen[uint(x^b[i])&mask] = st
	}
}

// splitPaired is split(m) with the old half from the helper, or computed
// here when the helper has not done it.
func (d *denseSweep) splitPaired(m int) {
	p := d.pair
	slot := d.ring[(m%d.span)*d.words:][:d.words]
	h := d.mv.half(m)
	q := oldHalf(h)
	st := uint32(m + 1)
	markRange(d.seen, d.vs, d.mirror(m), 1, q, st)
	d.steps += int64(h) + int64(d.words)
	packStamps(slot, d.seen, st)
	s := m % denseAhead
	var old []uint64
	for {
		nx := p.next.Load()
		if nx > int64(m) {
			break
		}
		if p.next.CompareAndSwap(nx, int64(m+1)) {
			// Not taken yet (the helper is behind): here.
			old = d.ownHalf(m, q, h, st)
			break
		}
	}
	if old == nil {
		for i := 0; p.done[s].Load() != int64(m)+1; i++ {
			if i == d.wait {
				// Taken, but not done: here too.
				old = d.ownHalf(m, q, h, st)
				break
			}
			runtime.Gosched()
		}
		if old == nil {
			old = p.sets[s]
		}
	}
	for i, x := range old[:min(len(old), len(slot))] {
		slot[i] |= x
	}
}

// ownHalf computes the old half of S2(m) on the sweep's side.
func (d *denseSweep) ownHalf(m, q, h int, st uint32) []uint64 {
	p := d.pair
	p.taken++
	if len(p.ownSeen) != len(d.seen) {
		p.ownSeen = make([]uint32, len(d.seen))
		p.own = make([]uint64, d.words)
	}
	markRange(p.ownSeen, d.vs, d.mirror(m), q+1, h, st)
	packStamps(p.own, p.ownSeen, st)
	return p.own
}

// runPaired is run with the helper, from heap from on.
func (d *denseSweep) runPaired(g Game, from, to int, lim Limits) error {
	d.startPair(from)
	defer d.stopPair()
	prog := lim.progress(d.label(g), to+1)
	p := d.pair
	for n := from; n <= to; n++ {
		if n&0xff == 0 {
			if err := lim.cancelled(); err != nil {
				return err
			}
			prog.Set(int64(n))
		}
		if m := n - d.kmin; m >= 0 {
			if m >= d.pairFrom && d.mv.half(m) >= 4 {
				d.splitPaired(m)
			} else {
				d.split(m)
			}
		}
		p.need.Store(int64(n + 1 - d.kmin))
		d.mex(n)
		if d.vs[n] >= d.w {
			d.widen(d.vs[n] + 1)
			p.w.Store(d.w)
		}
		p.published.Store(int64(n))
	}
	return nil
}
