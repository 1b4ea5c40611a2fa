package heap

import (
	"fmt"
	"math/bits"
	"runtime"
)

// The dense sweep: for codes whose values are not sparse (0.76, 0.164,
// 0.244, …: a third or more of the positions rare under every split, and
// hundreds of distinct values), the sparse-space sweep looks at every
// split of every split digit anyway, once per digit. The dense sweep looks
// at the splits of each heap m once, whatever the digits: it keeps
// S2(m) = { g(a) ⊕ g(m − a) : 1 ≤ a ≤ m/2 } as a bit set of the values
// for the last few m, and a heap n takes the union of S2(n − k) over its
// split digits k, so that a code with two or three split digits (0.76,
// 0.764) costs the same m/2 steps a heap as one with a single digit:
// about upto²/4 in all. S2(m) is marked in a table of stamps, one store
// a split (no read-modify-write of a bit set word, which chains when
// consecutive splits hit the same word), then packed into w bits.
//
// A bit set of heaps per value, testing each candidate value x by
// AND-ing the heaps of value u against those of u ⊕ x reversed, costs
// about (distinct values)·m/128 word operations to prove a value absent:
// less than m/2 only below 64 distinct values, and the codes that need
// this sweep have hundreds (issue 20: 0.76 has 650 to 2^14, 0.764 1 800),
// while the codes with few values are periodic and cheap for the
// sparse-space sweep, whose scan for missing values stops early.

// SweepDense is the Cost.Method of the dense sweep.
const SweepDense = "dense sweep" // every split once, shared by the split digits: about upto²/4 steps

// denseSweep is the state of the dense sweep.
type denseSweep struct {
	mv      sweepMoves
	vs, rev []uint32 // as sweep's: rev[len−1−n] = vs[n]
	w       uint32   // a power of two ≥ 64 above every value so far
	words   int      // w/64
	seen    []uint32 // stamps of the splits of one m, w entries
	// ring holds S2(m) at slot m mod span, words words each: the sets of
	// the heaps n − k for the split digits k of the heaps to come.
	ring       []uint64
	span, kmin int
	acc        []uint64
	steps      int64
	// paired lets run use a second core (densepair.go); pair is its
	// helper's state while it runs.
	paired bool
	pair   *densePair
	// pairFrom is the first m the helper takes, and wait how long the
	// sweep waits for it: densePairFrom and denseWait, lowered by tests.
	pairFrom, wait int
}

// newDense starts a dense sweep of a code with moves mv whose values
// vs[0..from) are known; vs has room for all the values to compute.
func newDense(mv sweepMoves, vs []uint32, from int) *denseSweep {
	d := &denseSweep{mv: mv, vs: vs, rev: make([]uint32, len(vs)), paired: true,
		pairFrom: densePairFrom, wait: denseWait}
	for n, v := range vs[:from] {
		d.rev[len(vs)-1-n] = v
	}
	kmax := 0
	d.kmin = len(vs)
	for _, k := range mv.splits {
		kmax, d.kmin = max(kmax, k), min(d.kmin, k)
	}
	d.span = kmax - d.kmin + 1
	var top uint32
	for _, v := range vs[:from] {
		top |= v
	}
	d.widen(top + 1)
	// The sets S2(m) the heaps from on read before they compute their own.
	for m := from - kmax; m < from-d.kmin; m++ {
		if m >= 0 {
			d.split(m)
		}
	}
	return d
}

// widen makes w the least power of two ≥ max(v, 64), keeping the sets.
func (d *denseSweep) widen(v uint32) {
	size := uint32(64)
	for size < v {
		size *= 2
	}
	if size <= d.w {
		return
	}
	words := int(size / 64)
	ring := make([]uint64, d.span*words)
	for s := 0; s < d.span && d.words > 0; s++ {
		copy(ring[s*words:], d.ring[s*d.words:(s+1)*d.words])
	}
	d.w, d.words, d.ring = size, words, ring
	d.seen = make([]uint32, size)
	d.acc = make([]uint64, words)
}

// mirror is sweep.mirror: mirror(m)[a] = vs[m − a].
func (d *denseSweep) mirror(m int) []uint32 { return d.rev[len(d.rev)-1-m:] }

// split computes S2(m) into its slot of the ring.
func (d *denseSweep) split(m int) {
	slot := d.ring[(m%d.span)*d.words:][:d.words]
	h := d.mv.half(m)
	if m < 2 || h < 1 {
		clear(slot)
		return
	}
	st := uint32(m + 1) // a stamp no other m uses; 0 marks nothing
	markAll(d.seen, d.vs, d.mirror(m), h, st)
	d.steps += int64(h) + int64(d.words)
	packStamps(slot, d.seen, st)
}

// packStamps sets bit v of set when seen[v] = st; seen has 64 entries a
// word of set.
func packStamps(set []uint64, seen []uint32, st uint32) {
	for i := range set {
		var b uint64
		for j, s := range seen[64*i : 64*i+64] {
			if s == st {
				b |= 1 << j
			}
		}
		set[i] = b
	}
}

// next computes vs[n] from vs[0..n) and the sets of the heaps n − k.
func (d *denseSweep) next(n int) {
	if m := n - d.kmin; m >= 0 {
		d.split(m)
	}
	d.mex(n)
	if d.vs[n] >= d.w {
		d.widen(d.vs[n] + 1)
	}
}

// mex sets vs[n] from the sets S2(n − k) of the ring and the options
// that leave at most one heap.
func (d *denseSweep) mex(n int) {
	acc := d.acc
	clear(acc)
	for _, k := range d.mv.splits {
		if m := n - k; m >= 2 {
			for i, x := range d.ring[(m%d.span)*d.words:][:d.words] {
				acc[i] |= x
			}
		}
	}
	for _, k := range d.mv.nones {
		if k == n {
			acc[0] |= 1
		}
	}
	for _, k := range d.mv.ones {
		if k < n {
			v := d.vs[n-k]
			acc[v/64] |= 1 << (v % 64)
		}
	}
	d.steps += int64(len(d.mv.ones) + len(d.mv.nones))
	v := d.w
	for i, x := range acc {
		if x != ^uint64(0) {
			v = uint32(64*i + bits.TrailingZeros64(^x))
			break
		}
	}
	d.vs[n] = v
	d.rev[len(d.rev)-1-n] = v
}

// label is what the progress line says runs.
func (d *denseSweep) label(g Game) string {
	return fmt.Sprintf("%v: %s", g, SweepDense)
}

// run computes vs[from..to], on two cores when there are two and the
// heaps are many (densepair.go), checking for cancellation every few
// hundred heaps (each costs up to upto/2 steps).
func (d *denseSweep) run(g Game, from, to int, lim Limits) error {
	if d.paired && runtime.GOMAXPROCS(0) >= 2 && to >= 2*d.pairFrom {
		return d.runPaired(g, from, to, lim)
	}
	prog := lim.progress(d.label(g), to+1)
	for n := from; n <= to; n++ {
		if n&0xff == 0 {
			if err := lim.cancelled(); err != nil {
				return err
			}
			prog.Set(int64(n))
		}
		d.next(n)
	}
	return nil
}

// denseSteps is the steps of the dense sweep of heaps from..upto: the
// splits of every heap once, the packing of their sets and the other
// options (t a heap at most).
func denseSteps(from, upto, t int, w uint32) float64 {
	if upto < from {
		return 0
	}
	// Σ_{m=from}^{upto} m/2.
	f, u := float64(from), float64(upto)
	return (u*(u+1)-f*(f-1))/4 + (u-f+1)*(float64(t)+float64(w/64))
}

// denseMemory is the bytes of the dense sweep to upto: the values as it
// keeps them (4 bytes, 4 more backwards) and as they are returned (8),
// and its tables for values below w (stamps and span sets).
func denseMemory(upto, span int, w uint32) int64 {
	return 16*(int64(upto)+1) + 4*int64(w) + int64(span+1)*int64(w)/8
}

// denseValues is the dense sweep of a code that splits into two heaps at
// most, from the values vs[0..from) on; it returns the heap from which the
// values were filled by a proven period (fillPeriodic), or 0.
func (c *code) denseValues(g Game, vs []uint32, from, upto int, lim Limits) ([]uint64, int, error) {
	filled, _, err := c.denseRun(g, vs, from, upto, lim)
	if err != nil {
		return nil, 0, err
	}
	out, err := widen(vs, lim)
	if err != nil {
		return nil, 0, err
	}
	return out, filled, nil
}

// denseRun is denseValues in vs itself, with the steps it took.
func (c *code) denseRun(g Game, vs []uint32, from, upto int, lim Limits) (filled int, steps int64, err error) {
	d := newDense(c.sweepMoves(), vs, from)
	for n := from; n <= upto; {
		if n > periodFrom {
			ok, err := fillPeriodic(g, vs, n-1, lim)
			if err != nil {
				return 0, 0, err
			}
			if ok {
				filled = n
				break
			}
		}
		to := nextLook(n, upto)
		if err := d.run(g, n, to, lim); err != nil {
			return 0, 0, err
		}
		n = to + 1
	}
	return filled, d.steps, nil
}

// periodFrom is the first heap at which the sweeps look for a proven
// period, and they look again each time the heap size doubles.
const periodFrom = 1 << 12

// fillPeriodic looks for a period of vs[0..n] that the values themselves
// prove (Period: the Guy–Smith window for codes), and when there is one,
// fills vs[n+1..] with it, exactly: the theorem says the values go on so.
// It costs O(n) a look. It returns whether it filled; a fill of a
// hundred million heaps takes a second, so it stops on cancellation.
func fillPeriodic(g Game, vs []uint32, n int, lim Limits) (bool, error) {
	c := periodOf(g, vs[:n+1])
	if !c.Proven {
		return false, nil
	}
	for m := n + 1; m < len(vs); m++ {
		if m&(1<<20-1) == 0 {
			if err := lim.cancelled(); err != nil {
				return false, err
			}
		}
		vs[m] = vs[m-c.Period]
	}
	return true, nil
}

// widen returns the values vs as uint64, stopping on cancellation: the
// copy of a hundred million values takes a fraction of a second.
func widen(vs []uint32, lim Limits) ([]uint64, error) {
	out := make([]uint64, len(vs))
	for n, v := range vs {
		if n&(1<<20-1) == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		out[n] = uint64(v)
	}
	return out, nil
}

// nextLook is the last heap a sweep from heap from computes before it
// looks for a proven period again: the heap size doubles between looks.
func nextLook(from, upto int) int {
	return min(upto, max(2*from, periodFrom))
}
