package job

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// Cost is the estimated work of a section, known before it starts.
type Cost struct {
	// Positions counts the heap sizes, table cells or rows computed.
	Positions int64
	// Steps estimates the elementary steps (options examined).
	Steps float64
	// Memory estimates the bytes of the tables kept.
	Memory int64
}

// Estimate returns the cost of the section's analyses under lim, from its
// parameters, before any work: one cost model for jobs and the surveys
// that plan many sections. For a heap rule it is heap.Estimate's cost of
// the value sweep the analyses need (a section that needs none costs
// almost nothing), plus that of the genera (misere.EstimateGenus) and of
// the misère quotient (misere.EstimateQuotient) when asked for; a sweep past lim.Positions is returned with its
// positions and no error, for the caller to refuse. Wythoff tables,
// products and nimber tables cost their cells; coin games are estimated by
// their value sequence (their codes are analysed by linear algebra when
// enumeration is too large, and the engines' own limits refuse what is
// still too large).
// Estimates that compute first values stop when ctx is done.
func (s *Section) Estimate(ctx context.Context, lim Limits) (Cost, error) {
	r := &runner{ctx: ctx, lim: lim, s: s}
	switch g := s.Game.(type) {
	case *HeapSpec:
		hg, err := g.NewGame()
		if err != nil {
			return Cost{}, fmt.Errorf("job: %w", err)
		}
		upto := g.Upto()
		// The genus and the quotient add their own cost to the sweep's.
		m := r.misereCost(hg, upto)
		if !r.sweepWanted(hg) {
			return Cost{Positions: max(1, m.Positions), Steps: max(1, m.Steps), Memory: 1<<10 + m.Memory}, nil
		}
		n := int64(upto) + 1
		if n > lim.Positions {
			return Cost{Positions: max(n, m.Positions), Steps: float64(n) + m.Steps, Memory: 8*n + m.Memory}, nil
		}
		// The memory limit is the caller's to check, against the cost.
		hl := r.heapLimits()
		hl.MaxMemory = 0
		c, err := heap.Estimate(hg, upto, hl)
		if err != nil {
			return Cost{}, fmt.Errorf("job: %w", err)
		}
		steps, err := codeSteps(hg, upto)
		if err != nil {
			return Cost{}, fmt.Errorf("job: %w", err)
		}
		return Cost{Positions: max(n, m.Positions), Steps: c.Steps + steps + m.Steps, Memory: c.Memory + m.Memory}, nil
	case ownSpec:
		return g.cost(), nil
	case *FamilySpec:
		if g.Family.Cost != nil {
			c := g.Family.Cost(ctx, g.Params, s.Show)
			return Cost{Positions: max(c.Positions, 1), Steps: float64(max(c.Steps, 1)), Memory: c.Memory}, nil
		}
	}
	return Cost{Positions: 1, Steps: 1}, nil
}

// codeSampled is how many heaps codeSteps calls a rule's function for.
const codeSampled = 5

// codeSteps estimates the steps of a rule's own code (a Starlark rule's
// function, called once per heap 0..upto) by calling it for a few heaps
// spread up to upto: the mean of their steps, the larger heaps weighing
// as their share of the sweep. 0 for the rules of package heap.
func codeSteps(g heap.Game, upto int) (float64, error) {
	st, ok := g.(interface{ CallSteps(n int) (uint64, error) })
	if !ok || upto < 0 {
		return 0, nil
	}
	var sum float64
	k := 0
	for i := 1; i <= codeSampled; i++ {
		n := upto * i / codeSampled
		if i > 1 && n == upto*(i-1)/codeSampled {
			continue
		}
		steps, err := st.CallSteps(n)
		if err != nil {
			return 0, err
		}
		sum += float64(steps)
		k++
	}
	// The function's steps grow with n, at most as fast as n: the mean
	// of heaps spread to upto, times the heaps, bounds them.
	return sum / float64(max(k, 1)) * float64(upto+1), nil
}

// slowFrom is the first stage of a sweep under a time limit for a rule
// whose code runs for every heap (a Starlark rule): a few heaps, so that
// the first stage, the one that must finish, finishes in time even when
// each heap takes milliseconds; the stages double from there.
const slowFrom = 63

// firstStage is the heaps of the first stage of a timed sweep of g.
func firstStage(g heap.Game) int {
	if _, ok := g.(interface{ CallSteps(n int) (uint64, error) }); ok {
		return slowFrom
	}
	return earlyFrom
}

// CheckPlan refuses, before any section starts, a job whose games given by
// a registered family's cost model (Family.Cost: a Starlark game's sampled
// estimate, the bitboard engines' memo extrapolated from smaller boards)
// would pass lim: the error names the first section (in a range, the
// first term) over a limit, the limit and what raises it. The terms of a
// range that share one solver are estimated in order; a term whose figures
// are predicted, not measured, costs at least what the growth of the terms
// before it forecasts (game.Forecast): the walks of a game that splits
// into many small parts undercount them.
// Under a time limit (limits.time) a range whose term after the first is
// over a limit is not refused: it will stop before that term
// (rangeClock), its results saying so.
//
// After forecastAfter terms predicted, the others are forecast alone: the
// walks take longer the larger the term.
func CheckPlan(ctx context.Context, j *Job, lim Limits) error {
	var (
		series    []int64 // positions of the terms of the range so far
		last      family.Cost
		predicted int // terms of the range predicted, not measured
		inRange   *sharedSolver
		member    = map[*Across]int{}
	)
	resetClocks(j)
	for _, s := range j.Sections {
		m := 0
		if s.Across != nil {
			m = member[s.Across]
			member[s.Across]++
		}
		fs, ok := s.Game.(*FamilySpec)
		if !ok || fs.Family.Cost == nil {
			continue
		}
		if s.shared == nil || s.shared != inRange {
			series, inRange, predicted = nil, s.shared, 0
		}
		var c family.Cost
		if predicted < forecastAfter {
			c = fs.Family.Cost(ctx, fs.Params, s.Show)
			if err := budget.Err(ctx); err != nil {
				return stoppedErr(err)
			}
		} else {
			// the growth of the terms before (below) predicts this one
			// better than the walks, which take longer the larger the term
			c = last
			c.Exact, c.What = false, ""
		}
		if !c.Exact {
			predicted++
		}
		if f := game.Forecast(series); !c.Exact && f > c.Positions {
			if c.Positions > 0 {
				k := float64(f) / float64(c.Positions)
				c.Memory = int64(math.Min(float64(c.Memory)*k, math.MaxInt64/4))
				c.Steps = int64(math.Min(float64(c.Steps)*k, math.MaxInt64/4))
			}
			c.Positions = f
		}
		if c.Positions > 0 {
			series = append(series, c.Positions)
			last = c
		}
		if cl := s.shared.clockOf(); cl != nil && cl.cut >= 0 && m >= cl.cut {
			continue // past where the range stops
		}
		if err := overLimit(c, lim, termName(s.Across, m)); err != nil {
			// Under a time limit a range stops at its first term over a
			// limit, as a heap sweep's stages do, unless it is the first.
			if cl := s.shared.clockOf(); lim.Time > 0 && cl != nil && m >= firstRow(s.Across) {
				cl.cutAt(m, limitName(err))
				continue
			}
			title := s.Title
			if title == "" {
				title = fmt.Sprintf("#%d", slices.Index(j.Sections, s)+1)
			}
			return &RunError{File: j.File, Line: s.Line, Section: title, Err: err}
		}
	}
	return nil
}

// resetClocks makes the time limits of j's ranges as new: a job run again
// starts its ranges afresh.
func resetClocks(j *Job) {
	for _, s := range j.Sections {
		if s.shared != nil && s.shared.clock != nil {
			s.shared.clock.reset()
		}
	}
}

// forecastAfter is how many terms of a range a cost model predicts (their
// figures not measured) before the others are forecast from them alone.
const forecastAfter = 3

// termName names the member-th term of a range ("the term cols = 14 of
// the range: "), or "" outside a range.
func termName(ac *Across, member int) string {
	if ac == nil {
		return ""
	}
	if len(ac.Labels2) == 0 {
		return fmt.Sprintf("the term %s = %s of the range: ", ac.Key, ac.Labels[member])
	}
	n := len(ac.Labels2)
	return fmt.Sprintf("the term %s = %s, %s = %s of the range: ", ac.Key, ac.Labels[member/n], ac.Key2, ac.Labels2[member%n])
}

// overLimit says which limit of lim the cost c passes, if any.
func overLimit(c family.Cost, lim Limits, term string) error {
	about := "about "
	if c.Exact {
		about = ""
	}
	what := c.What
	if what == "" {
		what = "the game"
	}
	narrow := ""
	if term != "" {
		narrow = ", or narrow the range"
	}
	if err := budget.Exceeds(fmt.Sprintf("%s%s (%s%d positions)", term, what, about, c.Positions), c.Memory, lim.Memory); err != nil {
		return fmt.Errorf("%w, before any work; %s%s", err, memoryHint, narrow)
	}
	switch {
	case lim.Positions > 0 && c.Positions > lim.Positions:
		return fmt.Errorf("%s%s needs %s%d positions, more than the limit of %d positions (limits.positions), before any work: %w; %s%s", term, what, about, c.Positions, lim.Positions, game.ErrTooManyPositions, limitHint, narrow)
	case lim.Steps > 0 && c.Steps > lim.Steps:
		return fmt.Errorf("%s%s needs %s%d steps, more than the limit of %d steps (limits.steps), before any work: %w; raise it with --max-steps or limits.steps in the job file%s", term, what, about, c.Steps, lim.Steps, game.ErrTooManySteps, narrow)
	}
	return nil
}

// limitName names the limit an error of overLimit is about: "memory",
// "positions" or "steps".
func limitName(err error) string {
	switch {
	case errors.Is(err, game.ErrTooManySteps):
		return "steps"
	case errors.Is(err, game.ErrTooManyPositions):
		return "positions"
	}
	return "memory"
}
