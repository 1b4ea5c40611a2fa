package survey

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/code"
	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// Shard selects the variants whose index is I mod N; the zero value (N =
// 0) selects every variant.
type Shard struct{ I, N int }

// Select returns the variants of the shard, in survey order.
func (s *Survey) Select(sh Shard) []*Variant {
	if sh.N <= 1 {
		return s.Variants
	}
	var out []*Variant
	for _, v := range s.Variants {
		if v.Index%sh.N == sh.I {
			out = append(out, v)
		}
	}
	return out
}

// Missing returns the variants of vs that still need computing: those with
// no row in done (index → status), those refused or failed when retry is
// set, all of them when redo is set.
func Missing(vs []*Variant, done map[int]string, redo, retry bool) []*Variant {
	var out []*Variant
	for _, v := range vs {
		st, ok := done[v.Index]
		if redo || !ok || (retry && st != StatusDone) {
			out = append(out, v)
		}
	}
	return out
}

// Plan is what a run will do, stated before work starts.
type Plan struct {
	Todo []*Variant
	// Cost adds up the estimates of Todo; MaxMemory is the largest.
	Cost      Cost
	MaxMemory int64
	// Jobs is how many variants run at once: the jobs asked for, lowered
	// so that Jobs × MaxMemory fits the memory limit beside the program.
	Jobs    int
	Lowered bool
	// Time is the survey's time limit of each variant's sweep
	// (limits.time), 0 when none.
	Time time.Duration
}

// NewPlan checks todo against the survey's limits before any work: a
// variant whose estimate exceeds them refuses the whole survey, naming
// the variant and the flag that raises the limit. The estimates are the
// job's own (job.Section.Estimate); those of splitting codes compute their
// first values, so they are made on jobs goroutines at once, and stop when
// ctx is done.
func NewPlan(ctx context.Context, s *Survey, todo []*Variant, jobs int) (*Plan, error) {
	if jobs < 1 {
		jobs = runtime.NumCPU()
	}
	p := &Plan{Todo: todo, Jobs: jobs, Time: s.Limits.Time}
	costs := make([]job.Cost, len(todo))
	errs := make([]error, len(todo))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				costs[i], errs[i] = todo[i].Section.Estimate(ctx, s.Limits)
			}
		}()
	}
	done := ctx.Done()
feed:
	for i := range todo {
		select {
		case next <- i:
		case <-done:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := budget.Err(ctx); err != nil {
		return nil, fmt.Errorf("survey: %w", err)
	}
	for i, v := range todo {
		c, err := costs[i], errs[i]
		if err != nil {
			return nil, fmt.Errorf("%s: variant %d (%s): %w", s.File, v.Index, s.Label(v), err)
		}
		if c.Positions > s.Limits.Positions {
			return nil, fmt.Errorf("%s: variant %d (%s) has %d positions, more than the limit of %d; raise it with --max-positions or limits: {positions: N}, or narrow the survey",
				s.File, v.Index, s.Label(v), c.Positions, s.Limits.Positions)
		}
		if c.Memory > s.Limits.Memory {
			err := budget.Exceeds(fmt.Sprintf("variant %d (%s)", v.Index, s.Label(v)), c.Memory, s.Limits.Memory)
			return nil, fmt.Errorf("%s: %w; raise it with --max-memory or limits: {memory: SIZE}, or narrow the survey", s.File, err)
		}
		p.Cost.Positions += c.Positions
		p.Cost.Steps += c.Steps
		p.Cost.Memory += c.Memory
		p.MaxMemory = max(p.MaxMemory, c.Memory)
	}
	// The variants in flight share what the limit leaves beside the
	// program (budget.Reserve) and what it holds (budget.Held: the
	// survey's variants, when the caller holds them).
	if capacity := s.Limits.Memory - budget.Reserve - budget.Held(); p.MaxMemory > 0 && int64(p.Jobs)*p.MaxMemory > capacity {
		p.Jobs = int(max(1, capacity/p.MaxMemory))
		p.Lowered = true
	}
	if p.Jobs > len(todo) && len(todo) > 0 {
		p.Jobs = len(todo)
	}
	return p, nil
}

// String states the plan in one line for standard error.
func (p *Plan) String() string {
	if len(p.Todo) == 0 {
		return "nothing to compute"
	}
	s := fmt.Sprintf("%d variants to compute, about %s positions and %s steps in all, at most %s each; %d at once",
		len(p.Todo), count(float64(p.Cost.Positions)), count(p.Cost.Steps), budget.FormatSize(max(p.MaxMemory, 1)), p.Jobs)
	if p.Lowered {
		s += " (lowered to fit the memory limit)"
	}
	if p.Time > 0 {
		// The steps of a sweep under a time limit are those to upto; the
		// time bounds what is done of them.
		all := p.Time * time.Duration((len(p.Todo)+p.Jobs-1)/p.Jobs)
		s += fmt.Sprintf("; each sweep stops after %s (at most %s in all)", job.DurationText(p.Time), job.DurationText(all))
	}
	return s
}

func count(x float64) string {
	switch {
	case x >= 1e12:
		return fmt.Sprintf("%.3g", x)
	case x >= 1e9:
		return fmt.Sprintf("%.3gG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.3gM", x/1e6)
	case x >= 1e4:
		return fmt.Sprintf("%.3gk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// Summary counts what a run did.
type Summary struct {
	Done, Refused, Errors int
	// Interrupted is set when the run stopped before every variant ran.
	Interrupted bool
}

// RunOptions tune Run.
type RunOptions struct {
	// Progress, when not nil, counts the finished variants; its label is
	// the variant started last.
	Progress *budget.Progress
	// Finished, when not nil, is called after each variant is stored.
	Finished func(v *Variant, r Row)
	// Grace is how long an interrupted run waits for the variants in
	// flight before returning without them; 0 means 500ms.
	Grace time.Duration
}

type outcome struct {
	v   *Variant
	row Row
	// drop is set for a variant stopped by the caller's context: it is
	// not recorded, and runs again next time.
	drop bool
}

// Run computes the plan's variants, Jobs at a time, and records each in st
// as it finishes. A variant that fails or is refused is recorded with its
// reason and the others go on. When ctx is done, Run returns within
// Grace with the error of budget.Err(ctx); every variant finished before
// is kept. When the memory watchdog stops the variants in flight, they
// are recorded as refused and the run goes on with the rest.
func Run(ctx context.Context, s *Survey, st *Store, p *Plan, o RunOptions) (Summary, error) {
	var sum Summary
	if err := st.Writable(len(p.Todo)); err != nil {
		return sum, err
	}
	grace := o.Grace
	if grace <= 0 {
		grace = 500 * time.Millisecond
	}
	o.Progress.Start("", int64(len(p.Todo)))
	defer job.Hold()() // the variants share the families' memos (3 × 1 … 3 × 12)
	version := Version()
	next := 0
	for next < len(p.Todo) {
		wctx, stopWatch := budget.Watch(ctx, s.Limits.Memory)
		work := make(chan *Variant)
		results := make(chan outcome)
		quit := make(chan struct{})
		var wg sync.WaitGroup
		for w := 0; w < p.Jobs; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for v := range work {
					o.Progress.SetLabel(s.Label(v))
					out := runOne(ctx, wctx, s, v, version)
					select {
					case results <- out:
					case <-quit:
						return
					}
				}
			}()
		}
		allDone := make(chan struct{})
		go func() { wg.Wait(); close(allDone) }()
		// Feed the workers until the watchdog or the caller stops us.
		feedDone := make(chan int, 1)
		go func(start int) {
			defer close(work)
			i := start
			for ; i < len(p.Todo); i++ {
				select {
				case work <- p.Todo[i]:
				case <-wctx.Done():
					feedDone <- i
					return
				}
			}
			feedDone <- i
		}(next)
		fed := -1
		var storeErr error
	collect:
		for {
			select {
			case out := <-results:
				if out.drop {
					continue
				}
				if storeErr == nil {
					if err := st.Put(out.row); err != nil {
						storeErr = err
						stopWatch()
					}
				}
				if storeErr != nil {
					continue
				}
				switch out.row.Status {
				case StatusDone:
					sum.Done++
				case StatusRefused:
					sum.Refused++
				default:
					sum.Errors++
				}
				o.Progress.Add(1)
				if o.Finished != nil {
					o.Finished(out.v, out.row)
				}
			case i := <-feedDone:
				fed = i
				feedDone = nil
			case <-allDone:
				break collect
			case <-ctx.Done():
				// Give the variants in flight a moment to notice, then
				// leave them: nothing more is recorded.
				t := time.NewTimer(grace)
			drain:
				for {
					select {
					case <-results:
					case <-allDone:
						break drain
					case <-t.C:
						break drain
					}
				}
				t.Stop()
				close(quit)
				stopWatch()
				sum.Interrupted = true
				return sum, budget.Err(ctx)
			}
		}
		if feedDone != nil {
			fed = <-feedDone
		}
		stopWatch()
		if storeErr != nil {
			sum.Interrupted = true
			return sum, storeErr
		}
		next = fed
		if next < len(p.Todo) {
			// The watchdog stopped the variants in flight (recorded as
			// refused); free their memory and go on with the rest.
			runtime.GC()
		}
	}
	return sum, nil
}

// runOne computes one variant through the engine's path for a job of one
// section, and turns the outcome into a row.
func runOne(ctx, wctx context.Context, s *Survey, v *Variant, version string) (out outcome) {
	out.v = v
	game, _ := Canonical(v.Game())
	params := map[string]any{}
	for _, p := range v.Params {
		params[p.Key] = p.Value
	}
	pj, _ := Canonical(params)
	out.row = Row{Index: v.Index, Game: string(game), Params: string(pj), Version: version}
	start := time.Now()
	defer func() {
		out.row.Seconds = time.Since(start).Seconds()
		if r := recover(); r != nil {
			out.row.Status, out.row.Error, out.row.Results = StatusError, fmt.Sprintf("internal error, please report it: %v", r), ""
		}
	}()
	// The variant's own progress would overwrite the survey's line.
	vctx := budget.WithProgress(wctx, nil)
	j := &job.Job{File: s.File, Title: s.Title, Lang: s.Lang, Limits: s.Limits, Sections: []*job.Section{v.Section}}
	// NewPlan estimated the variant before the run started.
	rep, err := job.Run(vctx, j, job.Options{Planned: true})
	if err == nil && wctx.Err() != nil {
		err = budget.Err(wctx)
	}
	switch {
	case err == nil:
		res, cerr := Canonical(rep.Sections[0].Results)
		if cerr != nil {
			out.row.Status, out.row.Error = StatusError, cerr.Error()
			return out
		}
		out.row.Status, out.row.Results = StatusDone, string(res)
	case ctx.Err() != nil:
		out.drop = true
	case wctx.Err() != nil:
		out.row.Status, out.row.Error = StatusRefused, budget.Err(wctx).Error()
	case isLimit(err):
		out.row.Status, out.row.Error = StatusRefused, message(err)
	default:
		out.row.Status, out.row.Error = StatusError, message(err)
	}
	return out
}

func isLimit(err error) bool {
	for _, target := range []error{budget.ErrMemory, heap.ErrTooManySteps, coins.ErrLimit, code.ErrLimit, game.ErrTooManyPositions} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// message is the reason of a failure without the one-section job's
// location (the variant is named by its row).
func message(err error) string {
	var re *job.RunError
	if errors.As(err, &re) {
		return re.Err.Error()
	}
	return err.Error()
}
