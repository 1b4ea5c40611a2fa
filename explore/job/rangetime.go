package job

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// rangeClock is the time limit (limits.time) of a section of a registered
// family, across the terms of its parameter range: as a heap sweep keeps
// its last stage finished in time, a range keeps its terms finished in
// time. The limit starts with the range's first term; the term running
// when it runs out stops (its solver's context is cancelled) and it and
// the terms after it are left out of the report (keepInTime), the last
// term kept saying where the range stopped (Results.Stopped). A first term
// that does not finish in time is an error, as a first stage is. Outside a
// range the section is a range of one term.
type rangeClock struct {
	mu       sync.Mutex
	deadline time.Time // zero until the first term starts
	// cut is the first member (term, from 0) not computed, or -1; by is
	// why: "time", or the limit its estimate passed ("memory",
	// "positions", "steps").
	cut int
	by  string
	// members numbers the range's sections in the job file's order.
	members map[*Section]int
}

func newRangeClock() *rangeClock { return &rangeClock{cut: -1, members: map[*Section]int{}} }

// reset makes the clock as new, for a run of its job.
func (c *rangeClock) reset() {
	c.mu.Lock()
	c.deadline, c.cut, c.by = time.Time{}, -1, ""
	c.mu.Unlock()
}

// clockOf is the time limit's clock of the range sh serves, or nil.
func (sh *sharedSolver) clockOf() *rangeClock {
	if sh == nil {
		return nil
	}
	return sh.clock
}

// firstRow is how many terms of a range must be computed: its first
// (its first row, when two parameters range).
func firstRow(ac *Across) int {
	if ac != nil && len(ac.Labels2) > 0 {
		return len(ac.Labels2)
	}
	return 1
}

// Stopped says where a range under a time limit stopped: its terms
// before Next were computed, and are the ones reported.
type Stopped struct {
	// By is what stopped it: "time" (the limit ran out during the term
	// Next, or before it), or the limit that the estimate of the term
	// Next passed ("memory", "positions", "steps"), under a time limit.
	By string `json:"by"`
	// Limit is the time limit, as written in the job file (e.g. "30s").
	Limit string `json:"limit"`
	// Terms of Of were computed in time.
	Terms int `json:"terms"`
	Of    int `json:"of"`
	// Next is the first term not computed, named by its parameters
	// ("cols = 13").
	Next string `json:"next"`
}

// timed runs analyses (a family section's) under the time limit of its
// range: it returns nil without running them when the time ran out before
// the term, and nil when the time runs out during them, the term then
// being cut; any other error is theirs.
func (r *runner) timed(analyses func() error) error {
	if r.lim.Time <= 0 {
		return analyses()
	}
	c := newRangeClock()
	if r.s.shared != nil && r.s.shared.clock != nil {
		c = r.s.shared.clock
	}
	member := c.members[r.s] // 0 outside a range
	now, after := r.opts.clock, r.opts.after
	if now == nil {
		now = time.Now
	}
	if after == nil {
		after = time.After
	}
	c.mu.Lock()
	if c.deadline.IsZero() {
		c.deadline = now().Add(r.lim.Time)
	}
	remaining := c.deadline.Sub(now())
	gone := c.cut >= 0 && member >= c.cut
	if !gone && remaining <= 0 {
		c.cutAt(member, "time")
	}
	c.mu.Unlock()
	if gone || remaining <= 0 {
		return r.cutErr(member)
	}
	parent := r.ctx
	ctx, cancel := context.WithCancelCause(parent)
	done := make(chan struct{})
	timeUp := after(remaining)
	go func() {
		select {
		case <-timeUp:
			cancel(errTimeUp)
		case <-done:
		}
	}()
	r.ctx = ctx
	err := analyses()
	close(done)
	timedOut := errors.Is(context.Cause(ctx), errTimeUp)
	cancel(nil)
	r.ctx = parent
	if err != nil && timedOut && parent.Err() == nil {
		c.mu.Lock()
		c.cutAt(member, "time")
		c.mu.Unlock()
		return r.cutErr(member)
	}
	return err
}

func (c *rangeClock) cutAt(member int, by string) {
	if c.cut < 0 || member < c.cut {
		c.cut, c.by = member, by
	}
}

// cutErr is the error of a term cut by the time limit: none, the term
// being left out of the report, unless it is in the range's first row
// (its first term, when one parameter ranges): a range keeps its whole
// rows.
func (r *runner) cutErr(member int) error {
	first := firstRow(r.s.Across)
	if member < first {
		what := "the first term"
		if first > 1 {
			what = "the first row"
		}
		return fmt.Errorf("the time limit of %s (limits.time) ran out before %s was computed; raise it, or make the game smaller", DurationText(r.lim.Time), what)
	}
	return nil
}

// keepInTime leaves out of secs the terms of each range that its time
// limit cut, and those after them, and says on the last term kept where
// the range stopped; a range of two parameters keeps its whole rows. The
// sections kept share a copy of their Across, with the labels kept.
func keepInTime(secs []*SectionResult, lim Limits) []*SectionResult {
	if lim.Time <= 0 {
		return secs
	}
	var out []*SectionResult
	for i := 0; i < len(secs); i++ {
		s := secs[i].Spec
		if s == nil || s.Across == nil || s.shared == nil || s.shared.clock == nil || s.shared.clock.cut < 0 {
			out = append(out, secs[i])
			continue
		}
		ac, c := s.Across, s.shared.clock
		// the range's sections are consecutive
		j := i
		for j < len(secs) && secs[j].Spec != nil && secs[j].Spec.Across == ac {
			j++
		}
		of, keep := len(ac.Labels), c.cut
		kept := *ac
		if n := len(ac.Labels2); n > 0 {
			of *= n
			keep -= keep % n
			kept.Labels = ac.Labels[:keep/n]
		} else {
			kept.Labels = ac.Labels[:keep]
		}
		for k := i; k < i+keep; k++ {
			cs, ks := *secs[k].Spec, *secs[k]
			cs.Across = &kept
			ks.Spec = &cs
			out = append(out, &ks)
		}
		out[len(out)-1].Results.Stopped = &Stopped{By: c.by, Limit: DurationText(lim.Time), Terms: keep, Of: of, Next: termLabel(ac, keep)}
		i = j - 1
	}
	return out
}

// termLabel names the member-th term of a range: "cols = 13".
func termLabel(ac *Across, member int) string {
	if len(ac.Labels2) == 0 {
		return ac.Key + " = " + ac.Labels[member]
	}
	n := len(ac.Labels2)
	return ac.Key + " = " + ac.Labels[member/n] + ", " + ac.Key2 + " = " + ac.Labels2[member%n]
}
