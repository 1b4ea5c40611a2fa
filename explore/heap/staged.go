package heap

import (
	"errors"
	"fmt"
)

// StageFrom is the first stage of PeriodValues: the heaps 0..2^12−1. Each
// stage doubles the heaps (2n+1), so that the stages end at 2^k − 1, where
// the sweeps look for a proven period too (periodFrom).
const StageFrom = 1<<12 - 1

// stager is a game whose stages go on from the values of the one before.
type stager interface {
	periodValues(upto int, lim Limits, opt StageOptions) ([]uint64, Sweep, error)
}

// StageOptions steers the stages of PeriodValuesStaged.
type StageOptions struct {
	// Before, when not nil, is called before each stage but the first,
	// with the last heap of the stage finished (done) and of the next;
	// false ends the stages there, with the values of heaps 0..done. A
	// time limit says so (explore/job), and from the clock, not the work.
	Before func(done, next int) bool
	// All goes on to upto when a stage proves a period (a section that
	// shows more than the period).
	All bool
}

// ErrStagesStopped is the cause of a StageError when StageOptions.Before
// ended the stages.
var ErrStagesStopped = errors.New("the stages were stopped before the next")

// StageError is why the stage to heap Next did not finish when an earlier
// one had: PeriodValuesStaged returns the values and Sweep of that one
// with it.
type StageError struct {
	Next int
	Err  error
}

func (e *StageError) Error() string {
	return fmt.Sprintf("heap: the stage to heap %d: %v", e.Next, e.Err)
}

func (e *StageError) Unwrap() error { return e.Err }

// PeriodValues computes g(0..n) in stages that double the heaps, n =
// StageFrom, 2n+1, … up to upto, and stops at the first stage whose
// values prove a period (Period): the certificate is the one the values up to
// upto would give (Period returns the least preperiod and the least period
// whose window the values close, and a longer sequence closes the same
// ones), at a fraction of the cost when the proof needs far fewer heaps
// than upto (0.16 to 2·10^7: proven at 2^19).
//
// A code's stages go on from the values of the stage before, each with
// the sweep its plan chooses for its own upto, so that the Sweep says what
// the last stage alone would have run, and the stages cost about one sweep
// to the last (0.376, proven at 4 600 000: 3 s; starting each stage
// afresh, twice that, and the period searches, quadratic then, 400 s;
// issue 31). Other games start each stage afresh: a quadratic sweep costs
// at most 4/3 of its last stage then, a linear one twice. Each stage is
// refused before it starts as a sweep alone would be.
func PeriodValues(g Game, upto int, lim Limits) ([]uint64, Sweep, error) {
	return PeriodValuesStaged(g, upto, lim, StageOptions{})
}

// PeriodValuesStaged is PeriodValues whose stages opt may end early: a
// stage that opt.Before declines, or that fails (a cancelled context, a
// limit of steps or memory) after an earlier one finished, ends the
// stages with the values and Sweep of that earlier one and a *StageError
// naming the stage. A failed first stage is an error alone, as a sweep's.
// The stages of a code are still one sweep continued, so that a time
// limit keeps the heaps of every stage it finished at the cost of their
// sweep alone.
func PeriodValuesStaged(g Game, upto int, lim Limits, opt StageOptions) ([]uint64, Sweep, error) {
	if s, ok := g.(stager); ok {
		return s.periodValues(upto, lim, opt)
	}
	stages := 0
	var last []uint64
	var lastSw Sweep
	for n := min(StageFrom, upto); ; n = min(2*n+1, upto) {
		if last != nil && opt.Before != nil && !opt.Before(len(last)-1, n) {
			return last, lastSw, &StageError{Next: n, Err: ErrStagesStopped}
		}
		values, sweep, err := ValuesSweep(g, n, lim)
		stages++
		sweep.Stages = stages
		if err != nil && last != nil {
			return last, lastSw, &StageError{Next: n, Err: err}
		}
		if err != nil || n == upto || !opt.All && Period(g, values).Proven {
			return values, sweep, err
		}
		last, lastSw = values, sweep
	}
}

func (g *Octal) periodValues(upto int, lim Limits, opt StageOptions) ([]uint64, Sweep, error) {
	return g.staged(g, upto, lim, opt)
}

func (g *Hex) periodValues(upto int, lim Limits, opt StageOptions) ([]uint64, Sweep, error) {
	return g.staged(g, upto, lim, opt)
}

// staged is PeriodValuesStaged for a code. The stages share one array of
// upto+1 values (and the sparse-space sweep one copy backwards), so that
// a stage writes only its new heaps: the pages past the last stage are
// never touched.
func (c *code) staged(g Game, upto int, lim Limits, opt StageOptions) ([]uint64, Sweep, error) {
	if err := lim.checkUpto(g, upto); err != nil {
		return nil, Sweep{}, err
	}
	st := stages{c: c, g: g, pl: codePlanner{c: c, g: g}, upto: upto, full: make([]uint32, upto+1), n: -1}
	var steps, pwork int64
	var lastSw Sweep // the last finished stage's, with the totals
	resumed := 0
	// done ends the stages with the values of heaps 0..st.n, all of them
	// (a copy, 50 ms for 2·10^7 values): a context cancelled as the stages
	// end, by the time limit that ended them, must not lose them.
	done := func() ([]uint64, error) {
		if st.sparse != nil {
			st.sparse.rev = nil // free before out, as finish does
		}
		st.sparse, st.pl = nil, codePlanner{}
		return widen(st.full[:st.n+1], Limits{})
	}
	for stage := 1; ; stage++ {
		n := min(StageFrom, upto)
		if stage > 1 {
			n = min(2*st.n+1, upto)
			if opt.Before != nil && !opt.Before(st.n, n) {
				out, err := done()
				if err != nil {
					return nil, Sweep{}, err
				}
				return out, lastSw, &StageError{Next: n, Err: ErrStagesStopped}
			}
		}
		sw, err := st.next(n, lim)
		if err != nil {
			if stage == 1 {
				return nil, Sweep{}, err
			}
			// The stage's heaps past st.n may be half written; those
			// up to st.n are the last stage's.
			out, derr := done()
			if derr != nil {
				return nil, Sweep{}, derr
			}
			return out, lastSw, &StageError{Next: n, Err: err}
		}
		steps += sw.Steps
		if st.resumed {
			resumed++
		}
		st.n = n
		proven := false
		if !opt.All || n == upto {
			c, work := periodWork(g, st.full[:n+1])
			pwork += work
			proven = c.Proven && !opt.All
		}
		sw.Steps, sw.Stages, sw.Resumed, sw.PeriodSteps = steps, stage, resumed, pwork
		lastSw = sw
		if n == upto || proven {
			out, err := done()
			if err != nil {
				return nil, Sweep{}, err
			}
			return out, sw, nil
		}
	}
}

// stages is the state of a code's staged sweep between its stages.
type stages struct {
	c    *code
	g    Game
	pl   codePlanner
	upto int
	// full holds the values; those of heaps 0..n are known (n = −1
	// before the first stage).
	full []uint32
	n    int
	// resumed: the last stage went on from the values of the one before.
	resumed bool
	// sparse is the sparse-space sweep of the last stage, when it ran
	// one to its end: the next stage's goes on with it.
	sparse *sweep
	// trialUsed: the trial's sweep went on into a stage; trialLooked: its
	// values were looked at for a proven period; trialCounted: its steps
	// are in a stage's.
	trialUsed, trialLooked, trialCounted bool
}

// trialSteps is the trial's steps the first time a stage uses its values,
// 0 after.
func (st *stages) trialSteps(steps int64) int64 {
	if st.trialCounted {
		return 0
	}
	st.trialCounted = true
	return steps
}

// next computes the values of heaps up to n from those of the stage
// before, with the sweep a sweep to n alone would choose; the Sweep
// counts this stage's steps.
func (st *stages) next(n int, lim Limits) (Sweep, error) {
	c, g := st.c, st.g
	known := st.n + 1
	vs := st.full[:n+1]
	st.resumed = false
	if c.parts() == 2 && n <= sparseTrial && st.upto > sparseTrial {
		// A code the sparse-space sweep may take on past sparseTrial:
		// the stages to sparseTrial are the values its plan computes
		// anyway, the bit-set sweep's to sparseFrom, then the trial's.
		if n < sparseFrom {
			if err := st.pl.ensurePrefix(lim); err != nil {
				return Sweep{}, err
			}
			for m, v := range st.pl.prefix[:n+1] {
				vs[m] = uint32(v)
			}
			st.sparse = nil
			return Sweep{Algorithm: AlgorithmSets}, nil
		}
		if err := st.pl.ensureTrial(lim); err != nil {
			return Sweep{}, err
		}
		if t := st.pl.trial; t.w != nil {
			copy(vs, t.w.vs)
			st.sparse = nil
			return Sweep{Algorithm: AlgorithmSparse, Steps: st.trialSteps(t.steps)}, nil
		}
	}
	p, err := st.pl.plan(n, lim)
	if err != nil {
		return Sweep{}, err
	}
	if err := p.check(g, n, lim); err != nil {
		return Sweep{}, err
	}
	if p.sweep != nil && !st.trialLooked && n > sparseTrial {
		// As a sweep alone: the trial's values may prove a period.
		st.trialLooked = true
		if c := periodOf(g, p.sweep.vs[:sparseTrial+1]); c.Proven {
			copy(vs, p.sweep.vs[:sparseTrial+1])
			for m := sparseTrial + 1; m <= n; m++ {
				vs[m] = vs[m-c.Period]
			}
			st.sparse = nil
			return Sweep{Algorithm: AlgorithmSparse, PeriodFrom: sparseTrial + 1, Steps: st.trialSteps(p.trialSteps)}, nil
		}
	}
	from := known
	switch p.cost.Method {
	case SweepSparse:
		w := st.sparse
		var steps int64
		cont := w != nil
		switch {
		case cont:
			st.resumed = true
		case !st.trialUsed && from <= len(p.sweep.vs) && len(p.sweep.vs) <= n+1:
			// The trial's sweep, whose values go one heap past those
			// of the stage to sparseTrial − 1.
			w, st.trialUsed = p.sweep, true
			steps = st.trialSteps(p.trialSteps)
			from = copy(vs, p.sweep.vs)
			w.setValues(st.full, from)
		default:
			// No sweep holds these values (the last stage ran another):
			// one from them, under the trial's split, chosen again at
			// once from all of them.
			sp := SparseSpace{Mask: p.sweep.s.mask, Domain: p.sweep.s.domain, T: p.sweep.s.t}
			if w, err = newSweep(g, c.sweepMoves(), st.full, from, sp); err != nil {
				return Sweep{}, err
			}
			w.resplit(from)
			st.resumed = from > 0
		}
		w.estimate, w.denseOK, w.switchAt = p.cost, true, 0
		w.resume = cont
		before := w.steps
		if err := w.run(g, from, n, n, lim, true); err != nil {
			return Sweep{}, err
		}
		steps += w.steps - before
		if at := w.switchAt; at > 0 {
			// The rare values stopped paying: the dense sweep from there.
			filled, dsteps, err := c.denseRun(g, vs, at, n, lim)
			if err != nil {
				return Sweep{}, err
			}
			st.sparse = nil
			return Sweep{Algorithm: AlgorithmDense, DenseFrom: at, PeriodFrom: filled, Steps: steps + dsteps}, nil
		}
		st.sparse = w
		return Sweep{Algorithm: AlgorithmSparse, Steps: steps}, nil
	case SweepBitset, SweepDense:
		st.sparse = nil
		var steps int64
		if p.sweep != nil && from < sparseTrial+1 {
			from = copy(vs, p.sweep.vs[:sparseTrial+1])
			steps = st.trialSteps(p.trialSteps)
		} else {
			st.resumed = from > 0
		}
		if p.cost.Method == SweepBitset {
			sw, err := c.bitsetRun(g, vs, from, n, lim)
			sw.Steps += steps
			return sw, err
		}
		filled, dsteps, err := c.denseRun(g, vs, from, n, lim)
		return Sweep{Algorithm: AlgorithmDense, PeriodFrom: filled, Steps: steps + dsteps}, err
	}
	// Codes that never split, or split into three, and short sequences:
	// their own sweeps, afresh (linear, or quadratic and short).
	var out []uint64
	alg := AlgorithmSets
	if p.cost.Method == SweepPlain {
		out, err = c.plainValues(n, lim)
		alg = AlgorithmPlain
	} else {
		out, err = c.splitValues(g, n, lim)
	}
	if err != nil {
		return Sweep{}, err
	}
	for m, v := range out {
		vs[m] = uint32(v)
	}
	st.sparse = nil
	return Sweep{Algorithm: alg}, nil
}
