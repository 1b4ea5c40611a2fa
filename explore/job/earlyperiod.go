package job

import (
	"github.com/nimbook/nimbook/explore/heap"
)

// earlyFrom is the first heap size at which a section that shows only a
// period looks for its proof.
const earlyFrom = 1 << 12

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
