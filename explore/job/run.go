package job

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/code"
	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/misere"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// Options tune a run. Zero fields keep the job file's values.
type Options struct {
	// Limits, when non-zero, override the job file's limits field by field
	// (the command line's --max-positions and --max-memory).
	Limits Limits
	// Lang, when not empty, overrides the job file's lang.
	Lang string
	// Jobs bounds the sections computed at once: 0 means
	// runtime.GOMAXPROCS, 1 one after another. Sections run together only
	// while their memory estimates fit the memory limit together; the
	// report is the same whatever Jobs.
	Jobs int
	// Progress, when not nil, is told when each section starts, in the
	// order of the sections. When one section runs at a time (Concurrency
	// is 1), the progress counter that ctx carries (budget.From) is the
	// section's, and Progress may name the section on it (SetStage). When
	// several run at once, each section counts on a counter of its own and
	// Run keeps the one of ctx: it counts the sections done and says which
	// run; Progress must then leave it alone.
	Progress func(index int, s *Section)
	// Estimate, when not nil, is told what a long computation of a
	// section will cost (at least EstimateMemory bytes or EstimateSteps
	// steps) before it starts, e.g. "octal 0.354 up to 20126194:
	// sparse-space sweep (…): about 230 MiB and 7.1e+09 steps". Progress
	// and Estimate are never called concurrently.
	Estimate func(index int, s *Section, cost string)
	// Planned says the caller checked the job's plan already (CheckPlan,
	// or a survey's plan of its variants): Run does not estimate again.
	Planned bool

	// observe, when not nil, is told as each section starts and ends
	// computing (tests check the memory held together).
	observe func(index int, start bool)
	// clock and after, when not nil, stand for time.Now and time.After in
	// the sweeps under a time limit (tests).
	clock func() time.Time
	after func(time.Duration) <-chan time.Time
	// stage, when not nil, is told before each stage under a time limit
	// starts, with the last heap of the one before (−1 before the first)
	// and the stages' context (tests advance the fake clock by the heaps
	// done, or fire the timer and wait for it).
	stage func(ctx context.Context, done int)
}

// The costs from which Options.Estimate is told.
const (
	EstimateMemory = 64 << 20
	EstimateSteps  = 1e9
)

// RunError is a section that could not be computed, typically refused by a
// limit; it names the section so that the user can find it.
type RunError struct {
	File    string
	Line    int
	Section string
	Err     error
}

func (e *RunError) Error() string {
	where := e.File
	if e.Line > 0 {
		where += fmt.Sprintf(":%d", e.Line)
	}
	return fmt.Sprintf("%s: section %q: %v", where, e.Section, e.Err)
}

func (e *RunError) Unwrap() error { return e.Err }

// Run computes the sections of j, several at once when opts.Jobs allows
// (see Concurrency), into a report that does not depend on how many ran
// at once. It stops at the first error: a report is written whole or not
// at all, and the error is that of the first section that failed, as when
// they run one after another. Work estimated to pass the limits is
// refused before it starts; a memory watchdog (budget.Watch) stops what
// the estimates missed, and a cancelled ctx stops the run within moments,
// the error naming the cause (budget.Err).
func Run(ctx context.Context, j *Job, opts Options) (*Report, error) {
	defer Hold()()
	lim := j.Limits
	if opts.Limits.Positions > 0 {
		lim.Positions = opts.Limits.Positions
	}
	if opts.Limits.Memory > 0 {
		lim.Memory = opts.Limits.Memory
	}
	if opts.Limits.Time > 0 {
		lim.Time = opts.Limits.Time
	}
	if opts.Limits.Steps > 0 {
		lim.Steps = opts.Limits.Steps
	}
	lang := j.Lang
	if opts.Lang != "" {
		lang = opts.Lang
	}
	rep := &Report{Title: j.Title, Lang: lang}
	if !opts.Planned {
		if err := CheckPlan(ctx, j, lim); err != nil {
			return nil, err
		}
	} else {
		resetClocks(j)
	}
	ctx, stop := budget.Watch(ctx, lim.Memory)
	defer stop()
	if n := Concurrency(j, opts); n > 1 {
		secs, err := runParallel(ctx, j, lim, opts, n)
		if err != nil {
			return nil, err
		}
		rep.Sections = keepInTime(secs, lim)
		return rep, nil
	}
	held := &heldResults{}
	defer held.release()
	for i, s := range j.Sections {
		if err := budget.Err(ctx); err != nil {
			return nil, stoppedErr(err)
		}
		if opts.Progress != nil {
			opts.Progress(i, s)
		}
		sec, err := runSection(ctx, j, lim, opts, i)
		if err != nil {
			return nil, err
		}
		rep.Sections = append(rep.Sections, sec)
		held.hold(&sec.Results)
		collectBetween(lim)
	}
	rep.Sections = keepInTime(rep.Sections, lim)
	return rep, nil
}

// collectBetween collects the garbage a section left, before the next
// starts, when the process holds more than half the memory limit, and
// gives its pages back to the system: the collector would free it only
// once the next section had allocated as much again, and the next
// section's tables, laid on pages already touched, are resident in full
// where fresh pages are only as they fill. Four sweeps of 34 MiB in a
// row peaked 2 MiB over 64 MiB (one alone: 53 MiB).
func collectBetween(lim Limits) {
	if lim.Memory > 0 && budget.Used() > lim.Memory/2 {
		debug.FreeOSMemory()
	}
}

// heldResults holds, for the estimates of the sections still to run, the
// memory of the results of those done (budget.Hold): they stay in memory
// until the report is rendered. Without it, 0.354 after 0.376 in
// examples/long-periods.yaml passed its estimate under 256 MiB and was
// stopped at 272 MiB.
type heldResults struct {
	mu       sync.Mutex
	releases []func()
}

func (h *heldResults) hold(res *Results) {
	h.mu.Lock()
	h.releases = append(h.releases, budget.Hold(res.heldBytes()))
	h.mu.Unlock()
}

func (h *heldResults) release() {
	h.mu.Lock()
	for _, r := range h.releases {
		r()
	}
	h.releases = nil
	h.mu.Unlock()
}

// Concurrency is the most sections Run computes at once for j under
// opts: opts.Jobs (runtime.GOMAXPROCS when 0), and no more than the
// sections.
func Concurrency(j *Job, opts Options) int {
	n := opts.Jobs
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return max(1, min(n, len(j.Sections)))
}

// runSection computes section i of j.
func runSection(ctx context.Context, j *Job, lim Limits, opts Options, i int) (*SectionResult, error) {
	s := j.Sections[i]
	r := &runner{ctx: ctx, lim: lim, s: s, opts: opts, index: i}
	res, err := r.run()
	if err == nil {
		// A section that ended as the context was cancelled may have
		// returned what it had; the run stops all the same.
		err = budget.Err(ctx)
	}
	if err != nil {
		title := s.Title
		if title == "" {
			title = fmt.Sprintf("#%d", i+1)
		}
		return nil, &RunError{File: j.File, Line: s.Line, Section: title, Err: limitErr(err)}
	}
	return &SectionResult{Title: s.Title, Text: s.Text, Source: s.Source, Spec: s, Results: *res}, nil
}

type runner struct {
	ctx   context.Context
	lim   Limits
	s     *Section
	res   Results
	opts  Options
	index int
	// sweep says which algorithm computed the values of a heap game.
	sweep heap.Sweep
}

func (r *runner) play() game.Play {
	if r.s.Play == "misere" {
		return game.Misere
	}
	return game.Normal
}

// limitHint is appended to refusals so the user knows what to raise.
const limitHint = "raise it with --max-positions or limits.positions in the job file"

// heapLimits: a value sweep may examine 100 options a heap on average (the
// sparse-space sweep of 0.354 to 2·10^7 needs about 7·10^9 steps).
// limits.steps (--max-steps), when given, bounds them too: the steps of a
// Starlark rule count there.
func (r *runner) heapLimits() heap.Limits {
	steps := satMul(r.lim.Positions, 100)
	if r.lim.Steps > 0 {
		steps = min(steps, r.lim.Steps)
	}
	return heap.Limits{MaxPositions: clampInt(r.lim.Positions), MaxSteps: steps, MaxMemory: r.lim.Memory, Context: r.ctx}
}

func (r *runner) coinLimits() coins.Limits {
	return coins.Limits{MaxMemory: r.lim.Memory, MaxSteps: satMul(r.lim.Positions, 10), MaxPositions: clampInt(r.lim.Positions), Context: r.ctx}
}

// sizeAbout says an estimated size: "about 1.5 GiB", or "more than 1 PiB"
// (an estimate clamped at 2^62 bytes said 4096 PiB).
func sizeAbout(n int64) string {
	if n >= 1<<50 {
		return "more than 1 PiB"
	}
	return "about " + budget.FormatSize(n)
}

// satMul is a·k for a ≥ 0, k > 0, or the largest int64 when it would
// overflow: a larger limit never refuses smaller work (positions of
// 2^63−1 times 100 was −100).
func satMul(a, k int64) int64 {
	if a > math.MaxInt64/k {
		return math.MaxInt64
	}
	return a * k
}

// codeLimits: a (weight, value) table is counted, then copied into the
// distribution, so it may take half the memory.
func (r *runner) codeLimits() code.Limits {
	return code.Limits{MaxRows: uint64(r.lim.Positions), MaxCells: uint64(max(r.lim.Memory/16, 1))}
}

// checkMemory refuses an analysis whose estimate passes the memory limit.
func (r *runner) checkMemory(what string, need int64) error {
	if err := budget.Exceeds(what, need, r.lim.Memory); err != nil {
		return fmt.Errorf("%w; %s", err, memoryHint)
	}
	return nil
}

// memoryHint is appended to refusals for memory.
const memoryHint = "raise it with --max-memory or limits.memory in the job file"

func clampInt(v int64) int {
	if v > int64(^uint(0)>>1) {
		return int(^uint(0) >> 1)
	}
	return int(v)
}

func (r *runner) wants(a string) bool { return slices.Contains(r.s.Show, a) }

func (r *runner) run() (*Results, error) {
	r.res.PlayMisere = r.play() == game.Misere
	r.res.Position = r.s.Position
	var err error
	switch g := r.s.Game.(type) {
	case *HeapSpec:
		err = r.heap()
	case ownSpec:
		err = g.run(r)
	case *FamilySpec:
		err = r.family()
	default:
		err = fmt.Errorf("job: unknown family %q", r.s.Family)
	}
	if err != nil {
		return nil, err
	}
	return &r.res, nil
}

// heapGame builds the heap game of the section and the largest heap whose
// value is asked for.
func (r *runner) heapGame() (heap.Game, int, error) {
	h := r.s.Heap()
	if h == nil {
		return nil, 0, fmt.Errorf("job: %s is not a heap game", r.s.Family)
	}
	g, err := h.NewGame()
	return g, h.Upto(), err
}

func (r *runner) heap() error {
	g, upto, err := r.heapGame()
	if err != nil {
		return err
	}
	r.res.Game = g.String()
	lim := r.heapLimits()
	// A rule's own code (a Starlark rule) lists the options of every
	// analysis below within the section's context and limits; its first
	// error stops them (misere.Bind).
	bctx, g, release := misere.Bind(r.ctx, g, lim)
	defer release()
	lim.Context = bctx
	defer func(ctx context.Context) { r.ctx = ctx }(r.ctx)
	r.ctx = bctx
	var values []uint64
	if r.sweepWanted(g) {
		// The estimate of the sweep to upto, made once: a code's plan
		// computes its first values and a trial of the sparse-space sweep.
		var (
			cost    heap.Cost
			costErr error
			costed  bool
		)
		estimate := func() (heap.Cost, error) {
			if !costed {
				cost, costErr = heap.Estimate(g, upto, lim)
				costed = true
			}
			return cost, costErr
		}
		if r.opts.Estimate != nil {
			// Long sweeps say what they will cost before they start.
			if c, err := estimate(); err == nil {
				if note := sweepNote(g, upto, c); note != "" {
					r.opts.Estimate(r.index, r.s, note)
				}
			}
		}
		switch {
		case r.lim.Time > 0:
			values, r.sweep, err = r.timedValues(g, upto, lim)
		case r.earlyPeriod(g):
			values, r.sweep, err = r.periodValues(g, upto, lim, estimate)
		default:
			values, r.sweep, err = heap.ValuesSweep(g, upto, lim)
		}
		if err != nil {
			return limitErr(err)
		}
	}
	if r.wants("values") {
		r.res.Values = values
	}
	if r.wants("period") {
		c := heap.Period(g, values)
		per := &Period{Proven: c.Proven, Preperiod: c.Preperiod, Period: c.Period, CheckedTo: c.CheckedTo, Method: c.Method, Algorithm: r.sweep.Algorithm}
		if !c.Proven && c.Method == heap.MethodNone && !heap.ProvesPeriods(g) {
			// A rule with no periodicity theorem at all (a Starlark rule):
			// say what the values show, twice at least, as seen only.
			if n0, p, ok := heap.ObservedPeriod(values, 2); ok {
				per.Observed = &Observed{Preperiod: n0, Period: p}
			}
		}
		r.res.Period = per
	}
	if r.wants("rare") {
		if err := r.rare(g, values); err != nil {
			return err
		}
	}
	if r.wants("p-positions") {
		h := r.s.Heap()
		if pp, ok := g.(heap.PPositioner); ok && h.Params.Has(h.Rule.PositionParam) {
			set, err := pp.PPositions(h.Params.Ints(h.Rule.PositionParam), r.play(), lim)
			if err != nil {
				return limitErr(err)
			}
			pp := &PPositions{Count: uint64(set.Count), Of: uint64(set.Total)}
			if set.List != nil {
				pp.List = nonNil(set.List)
			}
			r.res.PPositions = pp
		} else {
			var list []int
			for n, v := range values {
				if v == 0 {
					list = append(list, n)
				}
			}
			pp := &PPositions{Count: uint64(len(list)), Of: uint64(len(values))}
			if len(list) <= MaxListed {
				pp.List = nonNil(list)
			}
			r.res.PPositions = pp
		}
	}
	if r.lim.Time > 0 && (r.wants("genus") || r.wants("quotient") || r.play() == game.Misere) {
		// limits.time bounds the misère analyses too (their estimates
		// list a rule's options): past it they stop, saying so.
		tctx, cancel := context.WithTimeoutCause(r.ctx, r.lim.Time, fmt.Errorf("the time limit of %s (limits.time) ran out", DurationText(r.lim.Time)))
		defer cancel()
		var release func()
		tctx, g, release = misere.Bind(tctx, g, lim)
		defer release()
		r.ctx, lim.Context = tctx, tctx
	}
	if (r.wants("genus") || r.wants("quotient")) && r.opts.Estimate != nil {
		// Long misère work says what it will cost before it starts, as
		// sweeps do.
		if c := r.misereCost(g, upto); c.Memory >= EstimateMemory || c.Steps >= EstimateSteps {
			what := "genera"
			switch {
			case r.wants("genus") && r.wants("quotient"):
				what = "genera and misère quotient"
			case r.wants("quotient"):
				what = "misère quotient"
			}
			r.opts.Estimate(r.index, r.s, fmt.Sprintf("%v up to %d: %s: %s and %s steps", g, upto, what, sizeAbout(c.Memory), misere.About(c.Steps)))
		}
	}
	if r.wants("genus") {
		gs, err := misere.Genera(r.ctx, g, upto, lim)
		if err != nil {
			return limitErr(err)
		}
		r.res.Genus = gs
	}
	var quot *misere.Quotient
	if r.wants("quotient") {
		if quot, err = r.quotient(g, upto, 0); err != nil {
			return limitErr(err)
		}
		r.res.Quotient = quotientResult(quot)
	}
	heaps, _ := r.s.Position.([]int)
	byQuotient := false
	if (r.wants("outcome") || r.wants("moves")) && r.play() == game.Misere {
		if byQuotient, err = r.misereByQuotient(g, heaps, quot); err != nil {
			return err
		}
	}
	_, formula := g.(heap.PositionSolver) // Nim's: any position at once
	if (r.wants("outcome") || r.wants("moves")) && !byQuotient && !formula && r.play() == game.Misere {
		// The generic solver's work, refused before it starts when the
		// position reaches a million times more positions than the limit
		// (the solver stops searching a position's options at a winning
		// one, so it may visit far fewer than reachable, but not that
		// many fewer: a position of 1000 heaps worked 40 s before its
		// refusal); the position is said by its size, not its heaps.
		if n := misere.PositionsAtLeast(g, heaps); n > 1e6*float64(lim.MaxPositions) {
			top := 0
			for _, h := range heaps {
				top = max(top, h)
			}
			return fmt.Errorf("the misère position of %d heaps (the largest %d) reaches %s positions, more than the limit of %d, and no misère quotient of its heaps could be had: %w (use fewer or smaller heaps, or %s)",
				len(heaps), top, strings.Replace(misere.About(n), "about", "at least", 1), lim.MaxPositions, game.ErrTooManyPositions, limitHint)
		}
		if err := budget.Err(r.ctx); err != nil {
			return err
		}
	}
	if r.wants("outcome") && !byQuotient {
		o, err := heap.Outcome(g, heaps, r.play(), lim)
		if err != nil {
			return limitErr(err)
		}
		r.res.Outcome = o.String()
	}
	if r.wants("moves") && !byQuotient {
		ms, err := heap.WinningMoves(g, heaps, r.play(), lim)
		if err != nil {
			return limitErr(err)
		}
		r.res.Moves = nonNil(ms)
	}
	if r.wants("record") {
		if err := r.heapRecord(g); err != nil {
			return err
		}
	}
	if r.wants("graph") {
		if err := r.heapGraph(g, heaps); err != nil {
			return err
		}
	}
	return nil
}

// rare splits the values into rare and common ones. Its refusal (values
// past heap.MaxSparseBits bits) is not a budget: no limit raises it.
func (r *runner) rare(g heap.Game, values []uint64) error {
	sp, err := heap.SparseSpaceOf(g, values)
	if err != nil {
		return err
	}
	rare := &Rare{Mask: sp.Mask, Type: sp.Type(), Count: len(sp.Rare), CheckedTo: sp.CheckedTo, Last: -1, Values: values,
		Algorithm: r.sweep.Algorithm, DenseFrom: r.sweep.DenseFrom, PeriodFrom: r.sweep.PeriodFrom}
	if sp.Domain {
		t := sp.T
		rare.T = &t
	}
	if len(sp.Rare) > 0 {
		rare.Last = sp.Rare[len(sp.Rare)-1]
	}
	for n, v := range values[:min(len(values), sp.CheckedTo+1)] {
		if v > rare.Largest || n == 0 {
			rare.Largest, rare.LargestAt = v, n
		}
	}
	if len(sp.Rare) <= MaxListed {
		rare.Positions = nonNil(sp.Rare)
	}
	r.res.Rare = rare
	return nil
}

func pairs(ps [][2]int) [][]int {
	out := make([][]int, len(ps))
	for i, p := range ps {
		out[i] = []int{p[0], p[1]}
	}
	return out
}

// limitErr adds the way out to a refusal by a limit, unless the message
// already names it.
func limitErr(err error) error {
	if strings.Contains(err.Error(), "--max-") {
		return err
	}
	if errors.Is(err, budget.ErrMemory) {
		return fmt.Errorf("%w; %s", err, memoryHint)
	}
	if errors.Is(err, heap.ErrTooManySteps) || errors.Is(err, coins.ErrLimit) || errors.Is(err, code.ErrLimit) || errors.Is(err, game.ErrTooManyPositions) || errors.Is(err, wythoff.ErrTooLarge) {
		return fmt.Errorf("%w; raise the limit with --max-positions/--max-memory or limits: {positions: N, memory: SIZE} in the job file", err)
	}
	return err
}

// stoppedErr is the error of a run stopped between sections.
func stoppedErr(err error) error {
	if errors.Is(err, budget.ErrMemory) {
		return fmt.Errorf("%w; %s", err, memoryHint)
	}
	return err
}

// nonNil makes empty lists print as [] in JSON rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
