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
const earlyFrom = 1<<12 - 1

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
// values prove a period: the certificate is the one all the values up to
// upto would give (heap.Period returns the least preperiod and the least
// period whose window the values close, and a longer sequence closes the
// same ones), at a fraction of the cost when the proof needs far fewer
// heaps than upto (0.16 to 2·10^7: proven at 2^19). A quadratic sweep
// costs at most 4/3 of one stage to upto, a linear one at most twice.
//
// Work is still refused before it starts as the values to upto would be:
// a sweep over the limits goes to heap.ValuesSweep, which refuses it
// whole. The sweep returned is the last stage's.
func (r *runner) periodValues(g heap.Game, upto int, lim heap.Limits) ([]uint64, heap.Sweep, error) {
	c, err := heap.Estimate(g, upto, lim)
	steps := lim.MaxSteps
	if steps <= 0 {
		steps = heap.DefaultMaxSteps
	}
	if err != nil || lim.MaxMemory > 0 && c.Memory > lim.MaxMemory || c.Steps > float64(steps) {
		return heap.ValuesSweep(g, upto, lim)
	}
	for n := min(earlyFrom, upto); ; n = min(2*n+1, upto) {
		values, sweep, err := heap.ValuesSweep(g, n, lim)
		if err != nil || n == upto {
			return values, sweep, err
		}
		if heap.Period(g, values).Proven {
			return values, sweep, nil
		}
	}
}

// timedValues computes the values of g under the time limit r.lim.Time in
// the stages of periodValues: each stage to 2n+1 heaps, until upto, a
// proven period when the section shows nothing else, or the end of the
// time. A stage is not started when the last one, scaled by the estimated
// cost of the next, says it would end past the time; one still running
// when the time runs out is stopped, and the values are the last finished
// stage's. A stage past the limits of steps or memory ends the sweep
// there too: with a time limit, the section gives what it can rather than
// refusing. Only the first stage must finish. r.res.Reached says where it
// stopped, when before upto.
//
// A linear sweep spends at most twice its last stage's time in all, a
// quadratic one 4/3 of it; the time lost to a stopped stage is at most
// what the stage before it took, times the growth.
func (r *runner) timedValues(g heap.Game, upto int, lim heap.Limits) ([]uint64, heap.Sweep, error) {
	now, after := r.opts.clock, r.opts.after
	if now == nil {
		now = time.Now
	}
	if after == nil {
		after = time.After
	}
	start := now()
	deadline := start.Add(r.lim.Time)
	early := r.earlyPeriod(g)
	var (
		values []uint64
		sweep  heap.Sweep
		last   time.Duration // the time the last stage took
		prev   float64       // its estimated steps
	)
	stop := func(by string, next int) ([]uint64, heap.Sweep, error) {
		r.res.Reached = &Reached{Heap: len(values) - 1, Upto: upto, By: by, Next: next, Limit: DurationText(r.lim.Time)}
		return values, sweep, nil
	}
	for n := min(firstStage(g), upto); ; n = min(2*n+1, upto) {
		c, cerr := heap.Estimate(g, n, lim)
		if values != nil && cerr == nil && prev > 0 {
			// Don't start a stage that would end past the time.
			if predicted := time.Duration(float64(last) * c.Steps / prev); now().Add(predicted).After(deadline) {
				return stop("time", n)
			}
		}
		remaining := deadline.Sub(now())
		if remaining <= 0 {
			if values == nil {
				return nil, heap.Sweep{}, fmt.Errorf("the time limit of %s ran out before the values to %d", DurationText(r.lim.Time), n)
			}
			return stop("time", n)
		}
		parent := lim.Context
		if parent == nil {
			parent = context.Background()
		}
		ctx, cancel := context.WithCancelCause(parent)
		timeUp := after(remaining)
		done := make(chan struct{})
		go func() {
			select {
			case <-timeUp:
				cancel(errTimeUp)
			case <-done:
			}
		}()
		stageLim := lim
		stageLim.Context = ctx
		began := now()
		vs, sw, err := heap.ValuesSweep(g, n, stageLim)
		close(done)
		timedOut := errors.Is(context.Cause(ctx), errTimeUp)
		cancel(nil)
		switch {
		case err != nil && lim.Context != nil && lim.Context.Err() != nil:
			return nil, heap.Sweep{}, err // interrupted, or the memory watchdog
		case err != nil && timedOut && (lim.Context == nil || lim.Context.Err() == nil):
			if values == nil {
				return nil, heap.Sweep{}, fmt.Errorf("the time limit of %s ran out before the values to %d", DurationText(r.lim.Time), n)
			}
			return stop("time", n)
		case err != nil && values != nil && errors.Is(err, heap.ErrTooManySteps):
			return stop("steps", n)
		case err != nil && values != nil && errors.Is(err, budget.ErrMemory):
			return stop("memory", n)
		case err != nil:
			return nil, heap.Sweep{}, err
		}
		values, sweep = vs, sw
		last = now().Sub(began)
		if cerr == nil {
			prev = c.Steps
		}
		if n == upto || early && heap.Period(g, values).Proven {
			return values, sweep, nil
		}
	}
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
