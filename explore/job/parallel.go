package job

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/nimbook/nimbook/explore/budget"
)

// reservation is what a section estimated at need holds of the memory
// limit while it runs beside others: its estimate and a third more, for
// the garbage the collector has not yet freed and what the estimate
// misses (a sweep to 4·10⁶ estimated at 31.5 MiB peaked at 35 MiB), so
// that sections together stay clear of the watchdog; at most the whole
// capacity, when it then runs alone.
func reservation(need, capacity int64) int64 {
	need = max(need, 0)
	if need >= capacity/4*3 {
		return capacity
	}
	return need + need/3
}

// memoryShare shares the memory of a run among its sections: a section
// starts once its reservation fits beside those of the sections running
// and the results of those done (budget.Held), or at once when none runs
// (its engine then refuses it, naming the limit, if it does not fit
// beside the results). Unlike a semaphore of fixed weight, it cannot wait
// for ever for results that are never given back.
type memoryShare struct {
	ctx      context.Context
	capacity int64
	mu       sync.Mutex
	cond     *sync.Cond
	running  int64 // the reservations of the sections running
	n        int   // the sections running
	stop     func() bool
}

func newMemoryShare(ctx context.Context, capacity int64) *memoryShare {
	m := &memoryShare{ctx: ctx, capacity: capacity}
	m.cond = sync.NewCond(&m.mu)
	m.stop = context.AfterFunc(ctx, func() {
		m.mu.Lock()
		m.cond.Broadcast()
		m.mu.Unlock()
	})
	return m
}

// acquire waits until need fits, or ctx is done.
func (m *memoryShare) acquire(need int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for m.n > 0 && m.running+need+budget.Held() > m.capacity {
		if err := m.ctx.Err(); err != nil {
			return err
		}
		m.cond.Wait()
	}
	if err := m.ctx.Err(); err != nil {
		return err
	}
	m.running += need
	m.n++
	return nil
}

func (m *memoryShare) release(need int64) {
	m.mu.Lock()
	m.running -= need
	m.n--
	m.cond.Broadcast()
	m.mu.Unlock()
}

// errSibling is the cause with which Run stops the sections still running
// once one has failed.
var errSibling = errors.New("job: stopped as another section failed")

// runParallel computes the sections of j, up to workers at once. They
// start in order, each once its memory estimate fits beside those of the
// sections running (their sum, with a margin, stays within lim.Memory; see
// reservation), so the memory
// held together stays within what one section alone may hold. Each
// section computes on its own: the results do not depend on the order in
// which they end.
func runParallel(ctx context.Context, j *Job, lim Limits, opts Options, workers int) ([]*SectionResult, error) {
	n := len(j.Sections)
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The sections share what the limit leaves beside the program itself
	// (budget.Reserve) and the watchdog's margin (budget.Margin): what one
	// section alone may hold, as its engine's estimate is checked
	// (budget.Exceeds). With the whole limit, two sweeps of 17 MiB ran
	// together under 64 MiB and peaked at 69 MiB.
	capacity := lim.Memory - budget.Reserve - budget.Margin(lim.Memory)
	if lim.Memory <= 0 {
		capacity = math.MaxInt64 // no memory limit: only the workers bound
	}
	capacity = max(capacity, 1)
	mem := newMemoryShare(rctx, capacity)
	defer mem.stop()
	slots := semaphore.NewWeighted(int64(workers))
	line := startSectionLine(budget.From(ctx), j)
	defer line.stop()
	held := &heldResults{}
	defer held.release()

	var (
		mu      sync.Mutex // the callbacks, and what follows
		results = make([]*SectionResult, n)
		errs    = make([]error, n)
		panics  = make([]any, n)
		failed  bool
		wg      sync.WaitGroup
	)
	// The sections say their own estimates only when they run alone: here
	// they are told in the order of the sections.
	sopts := opts
	sopts.Estimate = nil
	// The estimates of some sweeps compute their first values: not on the
	// progress line.
	ectx := budget.WithProgress(rctx, nil)
	for i, s := range j.Sections {
		if rctx.Err() != nil {
			break
		}
		r := &runner{ctx: ectx, lim: lim, s: s, opts: opts, index: i}
		need, note := r.memoryEstimate()
		// Past the limit, the section runs alone for its engine to refuse
		// it, with the message it gives when it runs alone.
		need = reservation(need, capacity)
		if slots.Acquire(rctx, 1) != nil {
			break
		}
		if mem.acquire(need) != nil {
			slots.Release(1)
			break
		}
		mu.Lock()
		if opts.Progress != nil {
			opts.Progress(i, s)
		}
		if note != "" && opts.Estimate != nil {
			opts.Estimate(i, s, note)
		}
		if opts.observe != nil {
			opts.observe(i, true)
		}
		sctx := line.start(rctx, i)
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			var (
				sec *SectionResult
				err error
			)
			defer func() {
				p := recover()
				mu.Lock()
				if opts.observe != nil {
					opts.observe(i, false)
				}
				results[i], errs[i], panics[i] = sec, err, p
				if sec != nil {
					held.hold(&sec.Results)
				}
				if (err != nil || p != nil) && !failed {
					// A report is whole or not at all: the others stop.
					failed = true
					cancel(errSibling)
				}
				line.end(i)
				mu.Unlock()
				collectBetween(lim)
				mem.release(need)
				slots.Release(1)
			}()
			sec, err = runSection(sctx, j, lim, sopts, i)
		}()
	}
	wg.Wait()
	// A panic goes on in the caller's goroutine, as when the sections run
	// there one after another (a caller may recover it).
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
	if err := firstError(ctx, errs); err != nil {
		return nil, err
	}
	for _, sec := range results {
		if sec == nil {
			// Stopped before every section started.
			if err := budget.Err(ctx); err != nil {
				return nil, stoppedErr(err)
			}
			return nil, errors.New("job: the run stopped before its end")
		}
	}
	return results, nil
}

// firstError returns the error of the first section that failed by
// itself, not stopped by another: the error of the same section as when
// they run one after another, unless a later one failed before it could.
func firstError(ctx context.Context, errs []error) error {
	var first error
	for _, err := range errs {
		if err == nil {
			continue
		}
		if !stoppedBySibling(ctx, err) {
			return err
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// stoppedBySibling says whether err is that of a section stopped because
// another one failed: the context of the run is not done, only the one
// Run gave the sections.
func stoppedBySibling(ctx context.Context, err error) bool {
	return errors.Is(err, errSibling) || (ctx.Err() == nil && errors.Is(err, context.Canceled))
}

// lineEvery is how often the progress line of sections running at once is
// brought up to date.
const lineEvery = 100 * time.Millisecond

// sectionLine keeps the progress counter of a run whose sections run at
// once: its counts are the sections done out of all, its label says which
// run and how far each is, e.g. "sections, running 2 (0.354: period 1180
// from heap 10 061 916) 15%, 3 40%: 1/3 (33%), 0.12/s, ETA 0:16". Each
// section counts on a counter of its own, which the label reads.
type sectionLine struct {
	p       *budget.Progress // nil: nobody watches
	titles  []string
	mu      sync.Mutex
	running []*budget.Progress // by section, nil when not running
	done    int64
	quit    chan struct{}
	wg      sync.WaitGroup
}

func startSectionLine(p *budget.Progress, j *Job) *sectionLine {
	l := &sectionLine{p: p}
	if p == nil {
		return l
	}
	l.running = make([]*budget.Progress, len(j.Sections))
	for _, s := range j.Sections {
		title := s.Title
		if title == "" {
			title = s.Family
		}
		l.titles = append(l.titles, clipTitle(title, 40))
	}
	p.StartScaled("sections", int64(len(j.Sections))*sectionUnit, sectionUnit)
	l.quit = make(chan struct{})
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		t := time.NewTicker(lineEvery)
		defer t.Stop()
		for {
			select {
			case <-l.quit:
				return
			case <-t.C:
				l.mu.Lock()
				l.refresh()
				l.mu.Unlock()
			}
		}
	}()
	return l
}

// start returns the context of section i, carrying its own counter.
func (l *sectionLine) start(ctx context.Context, i int) context.Context {
	if l.p == nil {
		return ctx
	}
	c := budget.NewProgress()
	l.mu.Lock()
	l.running[i] = c
	l.refresh()
	l.mu.Unlock()
	return budget.WithProgress(ctx, c)
}

// end counts section i done.
func (l *sectionLine) end(i int) {
	if l.p == nil {
		return
	}
	l.mu.Lock()
	l.running[i] = nil
	l.done += sectionUnit
	l.refresh()
	l.mu.Unlock()
}

func (l *sectionLine) stop() {
	if l.p == nil {
		return
	}
	close(l.quit)
	l.wg.Wait()
}

// refresh writes the counts and the label; l.mu is held.
func (l *sectionLine) refresh() {
	var b strings.Builder
	b.WriteString("sections")
	named := false
	done := l.done
	for i, c := range l.running {
		if c == nil {
			continue
		}
		if !named {
			// The first one running is named.
			fmt.Fprintf(&b, ", running %d (%s)", i+1, l.titles[i])
			named = true
		} else {
			fmt.Fprintf(&b, ", %d", i+1)
		}
		if s := c.Snapshot(); s.Total > 0 {
			part := min(s.Done, s.Total) * sectionUnit / s.Total
			fmt.Fprintf(&b, " %d%%", part*100/sectionUnit)
			done += part
		}
	}
	l.p.SetLabel(b.String())
	l.p.Set(done)
}

// sectionUnit is what one section counts on the line: the parts of the
// sections running are added, so that the rate and the ETA move with them.
const sectionUnit = 1000

// clipTitle shortens a title to at most n characters.
func clipTitle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
