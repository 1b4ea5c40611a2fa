package job

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/misere"
)

// Misère methods (Results.MisereMethod): how a misère outcome was found.
const (
	MethodQuotient = "quotient" // through the misère quotient of the heaps involved
	MethodGeneric  = "generic"  // the whole position, by the generic solver
)

// quotient computes the misère quotient of g over the heaps 1..heaps,
// refused before it starts when its estimate passes the limits, with
// progress on the context's counter. maxSteps, when positive, lowers the
// limit of steps.
func (r *runner) quotient(g heap.Game, heaps int, maxSteps int64) (*misere.Quotient, error) {
	steps, bytes := misere.EstimateQuotient(g, heaps)
	lim := r.heapLimits()
	if maxSteps > 0 {
		lim.MaxSteps = min(lim.MaxSteps, maxSteps)
	}
	if steps > lim.MaxSteps {
		return nil, fmt.Errorf("misere: the quotient of %v over heaps 1..%d needs about %d steps, more than the limit of %d: %w (lower upto, or %s)",
			g, heaps, steps, lim.MaxSteps, heap.ErrTooManySteps, limitHint)
	}
	if err := r.checkMemory(fmt.Sprintf("the misère quotient of %v over heaps 1..%d", g, heaps), bytes); err != nil {
		return nil, err
	}
	prog := budget.From(r.ctx)
	prog.Start(fmt.Sprintf("misère quotient of %v", g), int64(heaps))
	return misere.NewQuotient(r.ctx, g, heaps, lim, func(done, total int) {
		prog.Set(int64(done))
	})
}

// quotientTry bounds the steps of each quotient misereByQuotient tries
// on its own (the section did not ask for one): about 10^8, Q_32 of 0.07
// in a few seconds. Past it the generic solver answers, as it would
// without quotients; a quotient shown (show: [quotient]) has the job's
// limits. Without it, a position of 0.07 with heaps up to 1000 spent a
// minute on quotients that no limit but memory stopped.
const quotientTry = 100_000_000

// misereByQuotient answers outcome and moves of a misère position through
// the misère quotient of its heaps, when one can be had: q (the section's
// own, when it holds for the heaps), else the quotient over the largest
// heap of the position. done is false when no quotient is known (refused
// by its estimate, or beyond what the quotient engine can do): the caller
// then solves the whole position by the generic solver, and the method
// says so. Nim's formula needs neither.
func (r *runner) misereByQuotient(g heap.Game, heaps []int, q *misere.Quotient) (done bool, err error) {
	if _, ok := g.(heap.PositionSolver); ok {
		return false, nil // Nim's rule, as it always was
	}
	r.res.MisereMethod = MethodGeneric
	top := 0
	for _, h := range heaps {
		top = max(top, h)
	}
	if q != nil {
		if _, err := q.Element(heaps); err != nil {
			q = nil // the section's quotient stops below the position's heaps
		}
	}
	// The quotient of the heaps 1..h, h doubling from 32 up to the largest
	// heap: a pretending function proven periodic (0.75 by 40) holds for
	// heaps of every size, so that a position of heaps up to 1000 needs
	// no quotient of 1000 heaps.
	for h := min(max(top, 1), 32); q == nil; h = min(2*h, top) {
		steps, _ := misere.EstimateQuotient(g, h)
		if steps > r.heapLimits().MaxSteps {
			return false, nil // too long: the generic solver answers, as it always has
		}
		c, err := r.quotient(g, h, quotientTry)
		if err != nil {
			if e := budget.Err(r.ctx); e != nil {
				return false, e
			}
			return false, nil
		}
		if _, err := c.Element(heaps); err == nil {
			q = c
		} else if h >= top {
			return false, nil
		}
	}
	p, err := q.Outcome(heaps)
	if err != nil {
		if errors.Is(err, misere.ErrBeyond) {
			return false, nil
		}
		return false, err
	}
	r.res.MisereMethod = MethodQuotient
	if r.wants("outcome") {
		r.res.Outcome = "N"
		if p {
			r.res.Outcome = "P"
		}
	}
	if r.wants("moves") {
		ms, err := q.WinningMoves(g, heaps)
		if err != nil {
			return false, err
		}
		out := make([][]int, 0, len(ms))
		for _, m := range ms {
			parts := m.To
			if len(parts) == 0 {
				parts = []int{0}
			}
			pos := slices.Concat(heaps[:m.Index], parts, heaps[m.Index+1:])
			out = append(out, pos)
		}
		slices.SortFunc(out, slices.Compare)
		out = slices.CompactFunc(out, slices.Equal)
		r.res.Moves = nonNil(out)
	}
	return true, nil
}

// misereCost is the cost of the section's genus and quotient, for
// Section.Estimate and the memory estimate of a run: one cost model.
func (r *runner) misereCost(g heap.Game, upto int) Cost {
	var c Cost
	if r.wants("genus") {
		e := misere.EstimateGenus(g, upto)
		c.Positions = int64(min(e.Positions, 1<<62))
		c.Steps += e.Steps
		c.Memory += e.Memory
	}
	if r.wants("quotient") {
		steps, bytes := misere.EstimateQuotient(g, upto)
		c.Positions = max(c.Positions, int64(upto)+1)
		c.Steps += float64(steps)
		c.Memory += bytes
	}
	return c
}
