package heap

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/nimbook/nimbook/explore/budget"
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
// common position is after a few thousand splits at most. Only at the rare
// positions themselves does the scan run to the end. So a heap costs about
// (rare positions + a few thousand) steps, and a sweep to N about
// N·(rare positions) when the rare positions die out, as they do for the
// games whose periods are known.
//
// The result is exact whatever the split: a poor one is merely slow. The
// sweep keeps it from being slower than the plain sweep: a split digit
// whose rare parts are half its splits or more is scanned whole, and the
// split is chosen again from all the values so far each time the heap
// size doubles (the first values may prefer a split that later values do
// not).

const (
	// sparseFrom is where the sweep takes over: the values up to it come
	// from the bit-set sweep, and they choose the split.
	sparseFrom = 4096
	// sparseTrial is where the sweep's cost is measured, over its last
	// half, to estimate the rest: the sparse-space sweep is used for
	// sequences past it only.
	sparseTrial = 4 * sparseFrom
	// sparseCheck is how many heaps pass between two projections of the
	// sweep's cost against the step limit.
	sparseCheck = 1 << 14
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

// rareParity is the parity of the values that make heap n rare: 0 for the
// range type, the parity of n − t for the domain type.
func (s sparseSplit) rareParity(n int) uint8 {
	if !s.domain {
		return 0
	}
	return uint8((n - s.t) & 1)
}

// sweep is the state of the sparse-space sweep: the values found so far
// and the rare positions among them.
type sweep struct {
	sweepMoves
	// vs holds the values so far, and rev the same backwards: rev[len−1−n]
	// = vs[n], so that the window mirror(m) has vs[m − a] at index a. The
	// splits a + (m − a) of m then read both parts at one index a, which
	// the compiler proves in range (a loop over vs[a] and vs[m − a] keeps
	// a bounds check; issue 13 measured them as most of the gap to C).
	vs, rev []uint32
	s       sparseSplit
	// Every value so far is below w, a power of two, and so is the nim-sum
	// of two. class[v] is the parity of v's ones outside the mask; sc.seen[v]
	// and sc.need[v] hold the stamp of the heap for which v is an option
	// value, or a rare value below C still to be found. They have 4w
	// entries, so that both classes have values at or above w, which no
	// option reaches: the search for C ends inside them.
	w                 uint32
	class             []uint8
	sc                scratch  // of next
	rare              []uint32 // rare positions ≥ 1 (parts of a split are non-empty)
	rareV             []uint32
	steps             int64
	resplitAt, resplt int // the heap of the next new choice of split; how many so far
	// A split digit of heap m is scanned whole when dense·(rare parts) ≥ m
	// (dense = 2: when they are half its splits); fullScans counts those.
	dense     int
	fullScans int64
	estimate  Cost // for the progress line
	// denseOK lets run stop at switchAt, a heap where the dense sweep
	// (dense.go) is cheaper than the rare positions, for its caller to go
	// on with it.
	denseOK  bool
	switchAt int
	// The steps a heap of the last window of the projections, about
	// heap prevMid.
	prevRate, prevMid float64
	// The paired sweep (sparsepair.go), when sweepMoves.paired: from heap
	// pairFrom, segments ending before pairEnd, on two workers; how many
	// segments, and heaps a worker took from the other.
	pairFrom, pairEnd     int
	workers               [2]pairWorker
	segments, steals      int64
	pairSkip, pairBackoff int  // segments left on one worker; the next such run
	pairAlways            bool // no segments on one worker (tests)
	// The look-ahead sweep (sparselook.go), when sweepMoves.lookahead:
	// from heap lookFrom, its helper, and the heaps it finished.
	lookFrom int
	look     lookHelper
	looked   int64
	// From lookResume on, after segments whose helper did little, the
	// next lookWait segments' heaps on one worker.
	lookResume, lookWait int
	// resume makes run go on from the projection of the run before, at
	// heap lastN with lastSteps steps and lastRare rare positions then.
	resume          bool
	lastN, lastRare int
	lastSteps       int64
}

// sweepMoves is what the sparse-space sweep knows of a rule: the moves of
// a heap of n, by the number k of tokens taken. Codes that split into two
// heaps at most (code.sweepMoves) and Grundy's game give theirs, so that
// one sweep serves both.
type sweepMoves struct {
	splits []int // the k whose moves split the rest into two non-empty heaps
	ones   []int // the k ≥ 1 whose moves leave one non-empty heap
	nones  []int // the k ≥ 1 whose moves take the whole heap
	// t is the only k of splits, for the domain type, or NoDomain.
	t int
	// unequal leaves out the splits into two equal parts (Grundy's game).
	unequal bool
	// paired runs the sweep on two workers (sparsepair.go), for rules with
	// a single split digit whose sweeps are long.
	paired bool
	// lookahead runs it with a helper (sparselook.go), for codes with a
	// single split digit.
	lookahead bool
}

// half is the largest smaller part of a split of m: m/2, less one when
// equal parts are not a move and m is even.
func (mv *sweepMoves) half(m int) int {
	if mv.unequal {
		return (m - 1) / 2
	}
	return m / 2
}

// newSweep starts a sweep whose values vs[0..from) are known, under sp.
// The code must split into two heaps at most; under the domain type, its
// only split digit must be sp.T.
func (c *code) newSweep(g Game, vs []uint32, from int, sp SparseSpace) (*sweep, error) {
	if c.parts() > 2 {
		return nil, fmt.Errorf("heap: %v: the sparse-space sweep handles splits into two heaps only", g)
	}
	return newSweep(g, c.sweepMoves(), vs, from, sp)
}

// newSweep starts a sweep of a rule with moves mv whose values vs[0..from)
// are known, under sp; under the domain type, mv's only split must be sp.T.
func newSweep(g Game, mv sweepMoves, vs []uint32, from int, sp SparseSpace) (*sweep, error) {
	w := &sweep{sweepMoves: mv, resplitAt: 2 * from, dense: 2, pairFrom: pairFrom, lookFrom: lookFrom}
	w.setValues(vs, from)
	if sp.Domain && (len(w.splits) != 1 || w.splits[0] != sp.T) {
		return nil, fmt.Errorf("heap: %v: a domain-type split needs the only split digit at t = %d", g, sp.T)
	}
	var top uint32
	for _, v := range vs[:from] {
		top |= v
	}
	w.widen(max(top+1, uint32(sp.Mask+1)))
	w.setSplit(sp, from)
	return w, nil
}

// setValues makes vs, of which the first from are known, the values of
// the sweep.
func (w *sweep) setValues(vs []uint32, from int) {
	w.vs, w.rev = vs, make([]uint32, len(vs))
	for n, v := range vs[:from] {
		w.rev[len(vs)-1-n] = v
	}
}

// mirror returns the values of heaps m, m − 1, …, 0: mirror(m)[a] =
// vs[m − a].
func (w *sweep) mirror(m int) []uint32 {
	return w.rev[len(w.rev)-1-m:]
}

// widen makes w the least power of two ≥ max(v, 64).
func (w *sweep) widen(v uint32) {
	size := uint32(64)
	for size < v {
		size *= 2
	}
	if size <= w.w {
		return
	}
	w.w = size
	w.sc.seen = make([]uint32, 4*size)
	w.sc.need = make([]uint32, 4*size)
	w.class = make([]uint8, 4*size)
	for v := range w.class {
		w.class[v] = uint8(w.s.parity(uint64(v)))
	}
}

// setSplit classifies values under sp and lists the rare positions among
// 1..n−1.
func (w *sweep) setSplit(sp SparseSpace, n int) {
	w.s = sparseSplit{mask: sp.Mask, domain: sp.Domain, t: sp.T}
	for v := range w.class {
		w.class[v] = uint8(w.s.parity(uint64(v)))
	}
	w.rare, w.rareV = w.rare[:0], w.rareV[:0]
	for m := 1; m < n; m++ {
		if v := w.vs[m]; w.class[v] == w.s.rareParity(m) {
			w.rare = append(w.rare, uint32(m))
			w.rareV = append(w.rareV, v)
		}
	}
}

// resplit chooses the split again from the values of heaps 0..n−1, and
// takes it when it has at most three quarters of the rare positions of
// the current one. It costs O(n), and runs each time n doubles.
func (w *sweep) resplit(n int) {
	w.resplitAt = 2 * n
	sp, count, err := bestSparse(w.vs[:n], w.t)
	if err != nil {
		return // values too wide to compare every mask: keep the split
	}
	cur := int64(len(w.rare))
	if w.class[w.vs[0]] == w.s.rareParity(0) {
		cur++ // bestSparse counts heap 0 too
	}
	if 4*count <= 3*cur {
		w.resplt++
		w.setSplit(sp, n)
	}
}

// scratch is what computing the value of one heap writes: the stamps of
// the option values found (seen) and of the rare values below C still
// looked for (need), both with 4w entries, the heaps whose splits are
// scanned, and the work done. The sweep has one; each worker of the paired
// sweep (sparsepair.go) its own.
type scratch struct {
	seen, need []uint32
	// set holds the values below 512 stamped in need, for scanSet.
	set [8]uint64
	// depth is about how many splits the last heaps' scans looked at
	// (vectorScan); vectorScans counts the scans that went to the vector
	// unit.
	depth, vectorScans int64
	ms, cnts           []int
	steps, fullScans   int64
}

// next computes vs[n] from vs[0..n).
func (w *sweep) next(n int) {
	v := w.value(n, &w.sc)
	w.steps += w.sc.steps
	w.fullScans += w.sc.fullScans
	w.sc.steps, w.sc.fullScans = 0, 0
	w.vs[n] = v
	w.rev[len(w.rev)-1-n] = v
	if v >= w.w {
		w.widen(v + 1)
	}
	if w.class[v] == w.s.rareParity(n) {
		w.rare = append(w.rare, uint32(n))
		w.rareV = append(w.rareV, v)
	}
}

// value returns g(n) from vs[0..n) and the split, with sc's stamps. It
// writes nothing but sc, so a worker of the paired sweep may call it.
func (w *sweep) value(n int, sc *scratch) uint32 {
	vs, seen, need, class := w.vs, sc.seen, sc.need, w.class
	st := uint32(n + 1) // a stamp no other heap uses; 0 marks nothing
	w.markOneHeap(n, seen, st)
	// ms lists the heaps m = n − k of the split digits scanned at their
	// rare parts only (cnt of them, the rare positions below m): their
	// other splits may hold rare values below C.
	ms, cnts := sc.ms[:0], sc.cnts[:0]
	for _, k := range w.splits {
		m := n - k
		if m < 2 {
			continue
		}
		cnt := len(w.rare)
		for cnt > 0 && int(w.rare[cnt-1]) >= m {
			cnt--
		}
		if w.dense*cnt >= m {
			// Rare parts are too many to be worth it: every split.
			h := w.half(m)
			markAll(seen, vs, w.mirror(m), h, st)
			sc.steps += int64(h)
			sc.fullScans++
			continue
		}
		ms, cnts = append(ms, m), append(cnts, cnt)
		sc.steps += int64(cnt)
	}
	switch {
	case w.unequal:
		for j, m := range ms {
			rare, rv := w.rare[:cnts[j]], w.rareV
			if m%2 == 0 {
				// The split of m into two rare halves is not a move.
				if i, ok := slices.BinarySearch(rare, uint32(m/2)); ok {
					markRare(seen, w.mirror(m), rare[:i], rv, st)
					rare, rv = rare[i+1:], rv[i+1:]
				}
			}
			markRare(seen, w.mirror(m), rare, rv, st)
		}
	case len(ms) == 2 && cnts[0] == cnts[1]:
		// Two split digits (0.376, 0.354): one pass over the rare parts.
		markRare2(seen, w.mirror(ms[0]), w.mirror(ms[1]), w.rare[:cnts[0]], w.rareV, st)
	default:
		for j, m := range ms {
			markRare(seen, w.mirror(m), w.rare[:cnts[j]], w.rareV, st)
		}
	}
	sc.ms, sc.cnts = ms, cnts
	rp := w.s.rareParity(n)
	c := uint32(0)
	for seen[c] == st || class[c] == rp {
		c++
	}
	sc.steps += int64(c) // the values below C, looked at twice
	missing := 0
	sc.set = [8]uint64{}
	for v := range c {
		if seen[v] != st {
			need[v] = st
			if v < 512 {
				sc.set[v/64] |= 1 << (v % 64)
			}
			missing++
		}
	}
	if len(ms) > 0 && missing > 0 {
		missing = w.findMissing(sc, ms, st, missing)
	}
	return firstNeeded(need, c, st, missing)
}

// firstNeeded is a heap's value once the rare values are looked for: the
// smallest value below c still stamped st in need, or c when missing
// says none is (both sweeps end a heap so).
func firstNeeded(need []uint32, c, st uint32, missing int) uint32 {
	if missing > 0 {
		for u := range c {
			if need[u] == st {
				return u
			}
		}
	}
	return c
}

// sweepPlan is how a rule's Values computes g(0..upto), with what it
// needs.
type sweepPlan struct {
	cost  Cost
	sweep *sweep // for SweepSparse: the sweep, done up to sparseTrial
	// trialSteps is the steps of the trial (the sweep's, before it goes on).
	trialSteps int64
}

// check refuses the plan's work when its estimate is over the limits,
// before it starts.
func (p sweepPlan) check(g Game, upto int, lim Limits) error {
	if err := lim.checkMemory(fmt.Sprintf("computing the values of %v up to %d (%s)", g, upto, p.cost.Method), p.cost.Memory); err != nil {
		return err
	}
	return lim.checkSteps(g, upto, p.cost.Steps)
}

// sparsePlan tries the sparse-space sweep on a rule with moves mv, past
// sparseTrial, against the rule's own sweep of cost alt: the values
// prefix = g(0..sparseFrom) choose a split into rare and common values,
// the sweep runs on to sparseTrial, and its steps per heap over the last
// half of that range, times the heaps left, are its estimate. It is chosen
// when that is below alt's. The estimate assumes that the rare positions
// and the values stay about as many as they were, which is why the sweep
// projects its cost again as it goes (sweep.run).
func sparsePlan(g Game, mv sweepMoves, prefix []uint64, alt Cost, upto int, lim Limits) (sweepPlan, error) {
	t, err := runTrial(g, mv, prefix, lim)
	if err != nil {
		return sweepPlan{}, err
	}
	return t.plan(alt, upto), nil
}

// trialRun is the sparse-space sweep's trial to sparseTrial, and what
// its plan for any upto needs of it: a staged sweep (staged.go) plans
// each stage from one trial.
type trialRun struct {
	w *sweep // done to sparseTrial; nil when the values are too wide
	// err is why w is nil: the values are too wide to compare every mask.
	err error
	// At the end of the trial: its steps, their rate a heap over its last
	// half and whether rare positions kept coming there, the split's
	// description, the rare positions and the width of the tables.
	steps    int64
	rate     float64
	grows    bool
	detail   string
	rare     int
	width    uint32
	prevRate float64
	prevMid  float64
}

// runTrial runs the trial of sparsePlan.
func runTrial(g Game, mv sweepMoves, prefix []uint64, lim Limits) (*trialRun, error) {
	trial := Limits{Context: lim.Context}
	sp, err := findSparse(prefix, mv.t)
	if err != nil {
		return &trialRun{err: err}, nil
	}
	vs := make([]uint32, sparseTrial+1)
	for n, v := range prefix {
		vs[n] = uint32(v)
	}
	w, err := newSweep(g, mv, vs, len(prefix), sp)
	if err != nil {
		return nil, err
	}
	const half = sparseTrial / 2
	if err := w.run(g, len(prefix), half, sparseTrial, trial, true); err != nil {
		return nil, err
	}
	before, rareBefore := w.steps, len(w.rare)
	w.prevRate = float64(w.steps) / float64(half-len(prefix)+1)
	w.prevMid = float64(len(prefix)+half) / 2
	if err := w.run(g, half+1, sparseTrial, sparseTrial, trial, true); err != nil {
		return nil, err
	}
	return &trialRun{
		w:        w,
		steps:    w.steps,
		rate:     float64(w.steps-before) / float64(sparseTrial-half),
		grows:    growing(len(w.rare)-rareBefore, sparseTrial-half),
		detail:   w.describe(sparseTrial),
		rare:     len(w.rare),
		width:    w.w,
		prevRate: w.prevRate,
		prevMid:  w.prevMid,
	}, nil
}

// plan is sparsePlan's choice for upto from the trial t, whose sweep the
// plan returns.
func (t *trialRun) plan(alt Cost, upto int) sweepPlan {
	if t.w == nil {
		// Values too wide to compare every mask: the rule's own sweep.
		alt.Detail = t.err.Error()
		return sweepPlan{cost: alt}
	}
	const half = sparseTrial / 2
	rest := t.rate * float64(upto-sparseTrial)
	grown := rest
	if alt.Method == SweepDense && t.grows {
		// Rare positions keep coming: the sweep's cost may grow with
		// them, which the dense sweep's does not past every split. The
		// comparison takes the growth; the estimate, against the limits,
		// does not, since the rare positions may die out (Officers: none
		// after 20 627), and the sweep projects its cost again as it goes.
		grown = project(t.prevRate, t.prevMid, t.rate, float64(half+sparseTrial)/2, sparseTrial+1, upto)
	}
	sparse := Cost{
		Method: SweepSparse,
		Detail: t.detail,
		Steps:  float64(sparseFrom+1)*float64(sparseFrom+1)/4 + float64(t.steps) + rest,
		// The values as the sweep keeps them (4 bytes; 4 more for the
		// copy backwards, dropped before) and as they are returned (8),
		// the rare positions with their values, the tables of values (9
		// bytes for each of 4w), the counters of a new choice of split
		// (one more bit of values).
		Memory: 8*(int64(upto)+1) + 4*(int64(upto)+1) + 8*int64(t.rare) + 36*int64(t.width) + 32*int64(t.width),
	}
	if sparse.Steps-rest+grown >= alt.Steps {
		alt.Detail = "faster than the sparse-space sweep under " + t.detail
		// The trial's values: the dense sweep goes on from them.
		return sweepPlan{cost: alt, sweep: t.w, trialSteps: t.steps}
	}
	return sweepPlan{cost: sparse, sweep: t.w, trialSteps: t.steps}
}

// markRare stamps st on the values of the splits r + (m − r) of m, for r
// in rare, whose values are in rv; win = mirror(m) holds the other parts.
// It is the sweep's inner loop, kept out of next so that its variables
// stay in registers. seen has a power of two entries, more than any
// nim-sum of two values: the mask keeps the index in range without a
// bounds check.
//
//go:noinline
func markRare(seen, win []uint32, rare, rv []uint32, st uint32) {
	if len(seen) == 0 {
		return
	}
	mask := uint(len(seen) - 1)
	rv = rv[:len(rare)]
	for i, r := range rare {
		seen[uint(rv[i]^win[r])&mask] = st
	}
}

// markAll stamps st on the values of all the splits a + (m − a) of m with
// 1 ≤ a ≤ h, where win = mirror(m).
func markAll(seen, vs, win []uint32, h int, st uint32) {
	if len(seen) == 0 {
		return
	}
	mask := uint(len(seen) - 1)
	lo := vs[:h+1]
	hi := win[:len(lo)]
	for a := 1; a < len(lo); a++ {
		seen[uint(lo[a]^hi[a])&mask] = st
	}
}

// markRare2 is markRare for two heaps at once, of mirrors win0 and win1.
//
//go:noinline
func markRare2(seen, win0, win1 []uint32, rare, rv []uint32, st uint32) {
	if len(seen) == 0 {
		return
	}
	mask := uint(len(seen) - 1)
	rv = rv[:len(rare)]
	// Two rare parts a turn, their four loads ahead of the four stores:
	// 0.376 to 600 000 took 0.50–0.54 s of CPU so, 0.58–0.60 s one part a
	// turn (and 3d6512b, the same loop, 0.53–0.59: a loop that fast moves
	// with the layout of the binary around it; issue 31). One split digit's
	// markRare, unrolled so, was 6 % slower on Officers.
	i := 0
	for ; i+1 < len(rare); i += 2 {
		r0, r1 := rare[i], rare[i+1]
		x0, x1 := rv[i], rv[i+1]
		y0, y1 := x0^win0[r0], x0^win1[r0]
		y2, y3 := x1^win0[r1], x1^win1[r1]
		seen[uint(y0)&mask] = st
		seen[uint(y1)&mask] = st
		seen[uint(y2)&mask] = st
		seen[uint(y3)&mask] = st
	}
	if i < len(rare) {
		r, x := rare[i], rv[i]
		seen[uint(x^win0[r])&mask] = st
		seen[uint(x^win1[r])&mask] = st
	}
}

// findMissing looks for the values marked in need with stamp st among the
// splits a + (m − a) of every m in ms, and returns how many it did not
// find. All the digits' splits go at once, smaller parts first: a value
// missing from one digit's splits is often found early among another's.
func (w *sweep) findMissing(sc *scratch, ms []int, st uint32, missing int) int {
	vs, need := w.vs, sc.need
	if len(need) == 0 {
		return missing
	}
	mask := uint(len(need) - 1) // need has a power of two entries
	if len(ms) == 1 {
		missing, a := scanSet(sc, vs, w.mirror(ms[0]), w.half(ms[0]), st, missing)
		sc.scanned(a)
		return missing
	}
	if len(ms) == 2 {
		// The same, unrolled: both digits' splits of part a in turn, as
		// far as the smaller half, then the rest of the larger.
		m0, m1 := min(ms[0], ms[1]), max(ms[0], ms[1])
		h0, h1 := w.half(m0), w.half(m1)
		if sc.vectorScan(missing) {
			if left, ok := w.findMissing2Set(sc, m0, m1, h0, h1, st, missing); ok {
				return left
			}
		}
		lo := vs[:h1+1]
		hi0, hi1 := w.mirror(m0)[:h0+1], w.mirror(m1)[:len(lo)]
		lo0, hi10 := lo[:len(hi0)], hi1[:len(hi0)]
		for a := 1; a < len(lo0); a++ {
			x := lo0[a]
			if v := uint(x^hi0[a]) & mask; need[v] == st {
				need[v] = 0
				if missing--; missing == 0 {
					sc.scanned(2 * a)
					return 0
				}
			}
			if v := uint(x^hi10[a]) & mask; need[v] == st {
				need[v] = 0
				if missing--; missing == 0 {
					sc.scanned(2 * a)
					return 0
				}
			}
		}
		for a := h0 + 1; a < len(lo); a++ {
			if v := uint(lo[a]^hi1[a]) & mask; need[v] == st {
				need[v] = 0
				if missing--; missing == 0 {
					sc.scanned(h0 + a)
					return 0
				}
			}
		}
		sc.scanned(h0 + h1)
		return missing
	}
	top := 0
	for _, m := range ms {
		top = max(top, w.half(m))
	}
	for a := 1; a <= top; a++ {
		for _, m := range ms {
			if a > w.half(m) {
				continue
			}
			if v := uint(vs[a]^vs[m-a]) & mask; need[v] == st {
				need[v] = 0
				if missing--; missing == 0 {
					sc.steps += int64(a * len(ms))
					return 0
				}
			}
		}
	}
	sc.steps += int64(top * len(ms))
	return missing
}

// findMissing2Set is findMissing on the two digits' heaps m0 < m1, of
// halves h0 and h1, on the vector unit (scanSet2AVX512, then scanSetAVX512
// for the splits of m1 past h0), in the same order and with the same
// steps; every nim-sum is below 512. ok is false, and nothing done, when
// the splits are not all in the values (not reached: m0 and m1 are heaps
// below the one computed).
func (w *sweep) findMissing2Set(sc *scratch, m0, m1, h0, h1 int, st uint32, missing int) (left int, ok bool) {
	lo, hi0, hi1 := w.vs, w.mirror(m0), w.mirror(m1)
	if h0 < 1 || h1 < h0 || len(lo) <= h1 || len(hi0) <= h0 || len(hi1) <= h1 {
		return missing, false
	}
	before := sc.set
	rest, a := scanSet2AVX512(&lo[1], &hi0[1], &hi1[1], h0, &sc.set, missing)
	if rest == 0 {
		sc.scanned(2 * a)
		return 0, true
	}
	if h1 > h0 {
		var b int
		rest, b = scanSetAVX512(&lo[h0+1], &hi1[h0+1], h1-h0, &sc.set, rest, nil, 0)
		if rest == 0 {
			sc.scanned(2*h0 + b)
			return 0, true
		}
	}
	sc.scanned(h0 + h1)
	unsetNeed(sc.need, &before, &sc.set)
	return rest, true
}

// unsetNeed clears in need the values that a vector scan cleared from a
// set, before it and after.
func unsetNeed(need []uint32, before, after *[8]uint64) {
	for i, b := range before {
		for found := b &^ after[i]; found != 0; found &= found - 1 {
			need[64*i+bits.TrailingZeros64(found)] = 0
		}
	}
}

// vectorScan reports whether the scan for missing values of the heap
// being computed goes to the vector unit: when it can (AVX-512, every
// nim-sum below 512), and when the scans of the last heaps went deep
// enough for it to pay. The vector scan looks at 32 splits a turn but
// spends some 20 cycles on each value it finds, the Go loop a cycle a
// split and a few a value: on Officers (2 750 splits a heap, 57 values)
// the vector scan took 28 % less time; on 0.354's proof, whose scans are
// short, 7 % more. Either way gives the same values and steps.
func (sc *scratch) vectorScan(missing int) bool {
	if haveScanSet && len(sc.need) <= 4*512 && sc.depth > scanDepthPerValue*int64(missing) {
		sc.vectorScans++
		return true
	}
	return false
}

// scanDepthPerValue is how many splits a value still missing, at least,
// the last scans must have looked at for the vector scan to take the
// next.
const scanDepthPerValue = 20

// scanned counts the d splits that the scan of a heap looked at, in the
// steps and in depth, an average over the last heaps' scans (weight 1/8
// to the latest).
func (sc *scratch) scanned(d int) {
	sc.steps += int64(d)
	sc.depth += (int64(d) - sc.depth) / 8
}

// scanSet is scanMissing with sc's need and set, on the vector unit
// (scanSetAVX512) when vectorScan says so: 32 splits a turn, where
// scanMissing looks at about one a cycle. Officers to 2^20 on one worker
// took 1.50 s so, 2.0 s with scanMissing (AMD EPYC, issue 31). need is
// brought up to date with the set only when values are left, the only case
// in which the sweep reads it again (firstNeeded).
func scanSet(sc *scratch, vs, win []uint32, h int, st uint32, missing int) (int, int) {
	if !sc.vectorScan(missing) || h < 1 || len(vs) <= h || len(win) <= h {
		return scanMissing(vs, win, sc.need, h, st, missing)
	}
	before := sc.set
	rest, a := scanSetAVX512(&vs[1], &win[1], h, &sc.set, missing, nil, 0)
	if rest > 0 {
		unsetNeed(sc.need, &before, &sc.set)
	}
	return rest, a
}

// scanMissing clears in need the values stamped st among the splits
// a + (m − a) of m with 1 ≤ a ≤ h, smaller parts first, until missing of
// them are found; win = mirror(m) holds the parts m − a. It returns how
// many it did not find and how many splits it looked at. It is the sweep's inner loop at a
// rare position, which looks at all m/2 splits, and at most common ones
// (a few thousand splits each for Officers): one index into the two halves
// and a mask by need's power-of-two size leave no bounds check in it. It
// takes four splits a turn: a loop of one split ran 30% slower when it
// fell across a 64-byte line (AMD EPYC), which the link order decides.
func scanMissing(vs, win, need []uint32, h int, st uint32, missing int) (int, int) {
	if len(need) == 0 {
		return missing, 0
	}
	mask := uint(len(need) - 1)
	lo := vs[1 : h+1] // lo[i] = vs[a], hi[i] = vs[m − a] for a = i + 1
	hi := win[1 : h+1]
	hi = hi[:len(lo)]
	i := 0
	for ; i < len(lo)-3; i += 4 {
		v0 := uint(lo[i]^hi[i]) & mask
		v1 := uint(lo[i+1]^hi[i+1]) & mask
		v2 := uint(lo[i+2]^hi[i+2]) & mask
		v3 := uint(lo[i+3]^hi[i+3]) & mask
		if need[v0] == st {
			need[v0] = 0
			if missing--; missing == 0 {
				return 0, i + 1
			}
		}
		if need[v1] == st {
			need[v1] = 0
			if missing--; missing == 0 {
				return 0, i + 2
			}
		}
		if need[v2] == st {
			need[v2] = 0
			if missing--; missing == 0 {
				return 0, i + 3
			}
		}
		if need[v3] == st {
			need[v3] = 0
			if missing--; missing == 0 {
				return 0, i + 4
			}
		}
	}
	lo, hi = lo[i:], hi[i:]
	hi = hi[:len(lo)]
	for j, x := range lo {
		if v := uint(x^hi[j]) & mask; need[v] == st {
			need[v] = 0
			if missing--; missing == 0 {
				return 0, i + j + 1
			}
		}
	}
	return missing, h
}

// run computes vs[from..to]. Each time the heap size doubles it chooses
// the split again; every sparseCheck heaps it projects the steps of the
// whole sweep to upto from the rate of the last ones, and stops when they
// would pass the limit rather than run out of it later.
func (w *sweep) run(g Game, from, to, upto int, lim Limits, resplit bool) error {
	prog := lim.progress(w.label(g), upto+1)
	lastN, lastSteps, lastRare := from, w.steps, len(w.rare)
	if w.resume {
		// A stage that goes on from the last (staged.go): projections at
		// the heaps where a sweep alone would make them.
		lastN, lastSteps, lastRare = w.lastN, w.lastSteps, w.lastRare
	}
	defer func() { w.lastN, w.lastSteps, w.lastRare = lastN, lastSteps, lastRare }()
	for n := from; n <= to; {
		if n&0xff == 0 {
			if err := lim.cancelled(); err != nil {
				return err
			}
			prog.Set(int64(n))
		}
		if resplit && n == w.resplitAt {
			before := w.resplt
			w.resplit(n)
			if w.resplt != before {
				prog.SetLabel(w.label(g))
			}
		}
		if n-lastN == sparseCheck {
			rate := float64(w.steps-lastSteps) / float64(n-lastN)
			mid := float64(n+lastN) / 2
			rest := rate * float64(upto-n+1)
			if w.denseOK && growing(len(w.rare)-lastRare, n-lastN) {
				rest = max(rest, w.project(rate, mid, n, upto))
			}
			w.prevRate, w.prevMid = rate, mid
			if w.denseOK && denseSteps(n, upto, 0, w.w) < rest {
				// The rare positions will cost more than every split of
				// every heap: the caller goes on with the dense sweep
				// (dense.go).
				w.switchAt = n
				return nil
			}
			if est := float64(w.steps) + rate*float64(upto-n+1); est > float64(lim.steps()) {
				return fmt.Errorf("heap: %v: values up to %d need about %.3g steps (projected at heap %d, with %d rare positions), more than the limit of %d: %w (lower upto, or raise the limit)",
					g, upto, est, n, len(w.rare), lim.steps(), ErrTooManySteps)
			}
			lastN, lastSteps, lastRare = n, w.steps, len(w.rare)
		}
		if w.canLook(n) {
			// A segment with the helper, up to the next of the checks
			// above.
			end := min(to+1, lastN+sparseCheck)
			if resplit && w.resplitAt > n {
				end = min(end, w.resplitAt)
			}
			if err := lim.cancelled(); err != nil {
				return err
			}
			prog.Set(int64(n))
			start, looked := n, w.looked
			n = w.lookSegment(n, end, lim)
			w.lookBackoff(start, n, w.looked-looked)
			continue
		}
		if w.canPair(n) {
			// A segment on two workers, up to the next of the checks above.
			end := min(to+1, (n|(pairSegment-1))+1, lastN+sparseCheck)
			if resplit && w.resplitAt > n {
				end = min(end, w.resplitAt)
			}
			if err := lim.cancelled(); err != nil {
				return err
			}
			prog.Set(int64(n))
			if w.pairSkip > 0 {
				// The last segments found a worker set aside: this one
				// on one.
				w.pairSkip--
				for ; n < end; n++ {
					w.next(n)
				}
				continue
			}
			w.pairEnd = end
			steals, start := w.steals, n
			n = w.pair(n, end)
			if !w.pairAlways && (w.steals > steals || (n < end && n-start < pairMinRun)) {
				// A worker waited too long, or rare values stop the
				// segments early: the next ones on one worker.
				w.pairBackoff = min(max(2*w.pairBackoff, 1), pairBackoffMax)
				w.pairSkip = w.pairBackoff
			} else {
				w.pairBackoff = 0
			}
			continue
		}
		w.next(n)
		n++
	}
	return nil
}

// growing reports whether rare positions keep coming: at least one heap
// in 32 of the last ones (a third of them for 0.76; Officers has 1 583
// below 2^17, Grundy's game 1 149 below 2^14).
func growing(rare, heaps int) bool { return 32*rare >= heaps }

// project is the steps of heaps n..upto for a sweep that cost rate steps
// a heap about heap mid, and prevRate about prevMid before: when the rate
// grows, as it does when rare positions keep coming (a third of the
// heaps of 0.76), it is taken to grow as a power of the heap, mid^α, α
// at most 2, from the two measures; otherwise it is taken as constant,
// as it is once the rare positions die out (Officers).
func (w *sweep) project(rate, mid float64, n, upto int) float64 {
	return project(w.prevRate, w.prevMid, rate, mid, n, upto)
}

// project is sweep.project with the earlier measure given.
func project(prevRate, prevMid, rate, mid float64, n, upto int) float64 {
	if n > upto {
		return 0
	}
	heaps := float64(upto - n + 1)
	if prevRate <= 0 || rate <= prevRate || mid <= prevMid {
		return rate * heaps
	}
	a := min(math.Log(rate/prevRate)/math.Log(mid/prevMid), 2)
	if a < 0.05 {
		return rate * heaps
	}
	// Σ_{j=n}^{upto} rate·(j/mid)^α ≈ rate·(upto^{α+1} − n^{α+1})/((α+1)·mid^α).
	u, f := float64(upto)+0.5, float64(n)-0.5
	return rate * (math.Pow(u, a+1) - math.Pow(f, a+1)) / ((a + 1) * math.Pow(mid, a))
}

// describe says which split the sweep uses and how many rare positions it
// found among the heaps before n.
func (w *sweep) describe(n int) string {
	kind := "range type"
	if w.s.domain {
		kind = fmt.Sprintf("domain type (t = %d)", w.s.t)
	}
	out := fmt.Sprintf("%s, mask %b: %d rare positions in 1..%d", kind, w.s.mask, len(w.rare), n)
	if len(w.rare) > 0 {
		out += fmt.Sprintf(", the last %d", w.rare[len(w.rare)-1])
	}
	return out
}

// finish extends the sweep to upto and returns g(0..upto).
func (w *sweep) finish(g Game, upto int, lim Limits) ([]uint64, error) {
	from := len(w.vs)
	vs := make([]uint32, upto+1)
	copy(vs, w.vs)
	w.setValues(vs, from)
	if err := w.run(g, from, upto, upto, lim, true); err != nil {
		return nil, err
	}
	w.rev = nil // free before out, so that the values take 12 bytes a heap at most
	if w.switchAt > 0 {
		return nil, nil // w.vs up to switchAt, for the dense sweep
	}
	out, err := widen(vs, lim)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// label is what the progress line says runs, e.g. "octal 0.6: sparse-space
// sweep, mask 10001, about 12 MiB and 4.1e+09 steps".
func (w *sweep) label(g Game) string {
	out := fmt.Sprintf("%v: %s, mask %b", g, SweepSparse, w.s.mask)
	if w.s.domain {
		out += fmt.Sprintf(" (domain type, t = %d)", w.s.t)
	}
	if w.estimate.Memory > 0 {
		out += fmt.Sprintf(", about %s and %.2g steps", budget.FormatSize(w.estimate.Memory), w.estimate.Steps)
	}
	return out
}

// sparseValues extends prefix = g(0..len(prefix)−1) to g(0..upto) with the
// sparse-space sweep under sp, choosing the split again as it goes when
// resplit is set (tests turn it off to check bad splits).
func (c *code) sparseValues(g Game, prefix []uint64, sp SparseSpace, upto int, lim Limits, resplit bool) ([]uint64, error) {
	vs := make([]uint32, upto+1)
	for n, v := range prefix {
		vs[n] = uint32(v)
	}
	w, err := c.newSweep(g, vs, len(prefix), sp)
	if err != nil {
		return nil, err
	}
	if err := w.run(g, len(prefix), upto, upto, lim, resplit); err != nil {
		return nil, err
	}
	w.rev = nil // as in finish
	out, err := widen(vs, lim)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// markOneHeap stamps in seen the values of the options of n that leave
// no heap or one heap.
func (w *sweep) markOneHeap(n int, seen []uint32, st uint32) {
	for _, k := range w.nones {
		if k == n {
			seen[0] = st
		}
	}
	for _, k := range w.ones {
		if k < n {
			seen[w.vs[n-k]] = st
		}
	}
}
