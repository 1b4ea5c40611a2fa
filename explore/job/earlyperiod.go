package job

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
)

// earlyFrom is the first stage of a staged sweep: the heaps 0..2^12−1.
// Each stage doubles the heaps (2n+1), so that the stages end at 2^k − 1.
const earlyFrom = heap.StageFrom

// earlyPeriod says whether the section needs the values of g only to
// prove a period, so that they may stop as soon as it is proven: show
// holds period alone (plot draws nothing from a period), and g has a
// window that proves periods.
func (r *runner) earlyPeriod(g heap.Game) bool {
	if !r.wants("period") || !heap.ProvesPeriods(g) {
		return false
	}
	for _, a := range r.s.Show {
		if a != "period" {
			return false
		}
	}
	return true
}

// Reached says how far a sweep under a time limit (limits.time) went when
// it stopped before upto: the values are those of the heaps 0..Heap.
type Reached struct {
	Heap int `json:"heap"`
	Upto int `json:"upto"`
	// By is what stopped it: "time" (the limit ran out during the stage
	// to Next, or before it would end), "steps" or "memory" (the stage
	// to Next was past that limit).
	By   string `json:"by"`
	Next int    `json:"next"`
	// Limit is the time limit, as written in the job file (e.g. "14m0s").
	Limit string `json:"limit"`
}

// errTimeUp is the cause of a stage stopped by the time limit.
var errTimeUp = errors.New("the time limit ran out")

// periodValues computes the values of g in stages, doubling the heaps
// each time from earlyFrom to upto, and stops at the first stage whose
// values prove a period (heap.PeriodValues): the certificate is the one
// all the values up to upto would give, at a fraction of the cost when
// the proof needs far fewer heaps than upto (0.16 to 2·10^7: proven at
// 2^19). A code's stages go on from the values of the one before.
//
// Work is still refused before it starts as the values to upto would be:
// a sweep over the limits goes to heap.ValuesSweep, which refuses it
// whole. The sweep returned is the last stage's.
//
// estimate is heap.Estimate of the sweep to upto, which the caller may
// have made already (nil: made here).
func (r *runner) periodValues(g heap.Game, upto int, lim heap.Limits, estimate func() (heap.Cost, error)) ([]uint64, heap.Sweep, error) {
	if estimate == nil {
		estimate = func() (heap.Cost, error) { return heap.Estimate(g, upto, lim) }
	}
	c, err := estimate()
	steps := lim.MaxSteps
	if steps <= 0 {
		steps = heap.DefaultMaxSteps
	}
	if err != nil || lim.MaxMemory > 0 && c.Memory > lim.MaxMemory || c.Steps > float64(steps) {
		return heap.ValuesSweep(g, upto, lim)
	}
	return heap.PeriodValues(g, upto, lim)
}

// timedValues computes the values of g under the time limit r.lim.Time in
// the stages of periodValues: each stage to 2n+1 heaps, until upto, a
// proven period when the section shows nothing else, or the end of the
// time. The stages are one sweep continued (heap.PeriodValuesStaged), so
// that each costs only its new heaps. A stage is not started when the
// last one, scaled by the growth of the estimated cost from one to the
// next, says it would end past the time; one still running when the time
// runs out is stopped, and the values are the last finished stage's. A
// stage past the limits of steps or memory ends the sweep there too: with
// a time limit, the section gives what it can rather than refusing. Only
// the first stage must finish. r.res.Reached says where it stopped, when
// before upto.
//
// The stages cost about one sweep to the last finished (0.6 to 2^18 at
// 1 ms a heap of fake time: 16 s, where stages each from heap 0 took 24
// s and the next was not started under a limit of 30 s; issue 31); the
// time lost to a stopped stage is at most what the stage before it took,
// times the growth.
func (r *runner) timedValues(g heap.Game, upto int, lim heap.Limits) ([]uint64, heap.Sweep, error) {
	now, after := r.opts.clock, r.opts.after
	if now == nil {
		now = time.Now
	}
	if after == nil {
		after = time.After
	}
	deadline := now().Add(r.lim.Time)
	parent := lim.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	timeUp := after(r.lim.Time)
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-timeUp:
			cancel(errTimeUp)
		case <-finished:
		}
	}()
	first := min(firstStage(g), upto)
	// cur is the estimated steps of a sweep to the stage running, from
	// heap 0; began, when it started.
	var cur float64
	if c, err := heap.Estimate(g, first, lim); err == nil {
		cur = c.Steps
	}
	if r.opts.stage != nil {
		r.opts.stage(ctx, -1)
	}
	began := now()
	opt := heap.StageOptions{All: !r.earlyPeriod(g), Before: func(done, next int) bool {
		if r.opts.stage != nil {
			r.opts.stage(ctx, done)
		}
		t := now()
		last, prev := t.Sub(began), cur
		cur = 0
		if c, err := heap.Estimate(g, next, lim); err == nil {
			cur = c.Steps
		}
		if !t.Before(deadline) {
			return false
		}
		if prev > 0 && cur > 0 {
			// The next stage's new heaps cost what the last one's did,
			// times the growth of a sweep's cost from one stage to the
			// next (2 for a linear sweep, 4 for a quadratic one, as the
			// stages' own new heaps grow).
			if t.Add(time.Duration(float64(last) * cur / prev)).After(deadline) {
				return false
			}
		}
		began = t
		return true
	}}
	stageLim := lim
	stageLim.Context = ctx
	values, sweep, err := heap.PeriodValuesStaged(g, upto, stageLim, opt)
	if err == nil {
		return values, sweep, nil
	}
	timedOut := errors.Is(context.Cause(ctx), errTimeUp)
	var se *heap.StageError
	staged := errors.As(err, &se)
	stop := func(by string) ([]uint64, heap.Sweep, error) {
		r.res.Reached = &Reached{Heap: len(values) - 1, Upto: upto, By: by, Next: se.Next, Limit: DurationText(r.lim.Time)}
		return values, sweep, nil
	}
	switch {
	case lim.Context != nil && lim.Context.Err() != nil:
		return nil, heap.Sweep{}, err // interrupted, or the memory watchdog
	case !staged && timedOut:
		return nil, heap.Sweep{}, fmt.Errorf("the time limit of %s ran out before the values to %d", DurationText(r.lim.Time), first)
	case !staged:
		return nil, heap.Sweep{}, err
	case timedOut || errors.Is(err, heap.ErrStagesStopped):
		return stop("time")
	case errors.Is(err, heap.ErrTooManySteps):
		return stop("steps")
	case errors.Is(err, budget.ErrMemory):
		return stop("memory")
	}
	return nil, heap.Sweep{}, se.Err
}

// DurationText writes d as a job file would: 20m, 1h30m, 90s (time's
// String without its zero minutes and seconds).
func DurationText(d time.Duration) string {
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
}
