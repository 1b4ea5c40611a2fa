package job

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/family"
)

// waitGame is pathGame whose positions of wait vertices or more wait,
// when moved from, for the analysis' context to end (the time running out
// during the term), so that a test stops a term without sleeping.
type waitGame struct {
	pathGame
	wait int
	ctx  context.Context
}

func (g waitGame) Moves(key string) ([]string, error) {
	if g.wait > 0 && strings.Count(key, "o") >= g.wait {
		select {
		case <-g.ctx.Done():
			return nil, context.Cause(g.ctx)
		case <-time.After(time.Minute): // a hang guard only
		}
	}
	return g.pathGame.Moves(key)
}

func init() {
	family.Register(&family.Family{
		Key: "test-wait", Order: 999,
		Text: family.Texts("a path that waits", "un chemin qui attend"),
		// path: {n: vertices, wait: vertices from which it waits}
		Params:   []family.Param{{Key: "path", Kind: family.Map, Missing: "path: {n: 5}"}},
		Ranged:   []string{"path"},
		Analyses: family.PositionAnalyses,
		New: func(p family.Params, env family.Env) (family.Game, error) {
			m := p.Map("path")
			n, _ := m["n"].(int)
			wait, _ := m["wait"].(int)
			return waitGame{pathGame{n}, wait, env.Context}, nil
		},
		// At most 2^n positions.
		Cost: func(_ context.Context, p family.Params, _ []string) family.Cost {
			n, _ := p.Map("path")["n"].(int)
			return family.Cost{Positions: 1 << n, Exact: true}
		},
	})
}

// stepClock is a clock that advances a second each time it is read, and
// timers that fire (closed channels) from the fireFrom-th asked on (from
// 1; 0: never).
type stepClock struct {
	now      time.Time
	asked    int
	fireFrom int
}

func (c *stepClock) clock() time.Time {
	t := c.now
	c.now = c.now.Add(time.Second)
	return t
}

func (c *stepClock) after(time.Duration) <-chan time.Time {
	c.asked++
	if c.fireFrom > 0 && c.asked >= c.fireFrom {
		ch := make(chan time.Time)
		close(ch)
		return ch
	}
	return nil // never
}

// TestRangeTime: limits.time bounds a family's range as a whole, as the
// stages of a heap sweep: the terms finished in time are kept (the report
// holds them, its table labelled by them) and the last says where the
// range stopped; a term during which the time runs out is stopped and
// left out; a first term not finished in time is an error. The clock is
// a fake one that advances a second each time the range reads it (once a
// term, twice for the first), and the timers fire when the test says: no
// test sleeps.
func TestRangeTime(t *testing.T) {
	for _, c := range []struct {
		name     string
		game     string
		limit    string
		limits   string // other limits
		fireFrom int
		values   string
		stopped  *Stopped
		err      string
	}{
		{name: "all in time", game: `{test-wait: {path: {n: "1..6"}}}`, limit: "1h", values: "1 1 2 0 3 1"},
		{name: "out of time before a term", game: `{test-wait: {path: {n: "1..8"}}}`, limit: "5s", values: "1 1 2 0",
			stopped: &Stopped{By: "time", Limit: "5s", Terms: 4, Of: 8, Next: "n = 5"}},
		{name: "out of time during a term", game: `{test-wait: {path: {n: "1..8", wait: 3}}}`, limit: "1h", fireFrom: 3, values: "1 1",
			stopped: &Stopped{By: "time", Limit: "1h", Terms: 2, Of: 8, Next: "n = 3"}},
		{name: "a term past a limit", game: `{test-wait: {path: {n: "1..8"}}}`, limit: "1h", limits: ", positions: 40", values: "1 1 2 0 3",
			stopped: &Stopped{By: "positions", Limit: "1h", Terms: 5, Of: 8, Next: "n = 6"}},
		{name: "the first term past a limit", game: `{test-wait: {path: {n: "6..8"}}}`, limit: "1h", limits: ", positions: 40",
			err: "the term n = 6 of the range: the game needs 64 positions, more than the limit of 40 positions"},
		{name: "the first term", game: `{test-wait: {path: {n: "2..8", wait: 2}}}`, limit: "1h", fireFrom: 1,
			err: "the time limit of 1h (limits.time) ran out before the first term was computed"},
	} {
		for _, jobs := range []int{1, 2} { // one after another, and side by side
			t.Run(fmt.Sprintf("%s, %d jobs", c.name, jobs), func(t *testing.T) {
				clk := &stepClock{now: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), fireFrom: c.fireFrom}
				rep, err := runFamilyJob(t, t.TempDir(), "limits: {time: "+c.limit+c.limits+"}\nsections:\n  - title: P\n    game: "+c.game+"\n    show: [value]\n",
					Options{Jobs: jobs, clock: clk.clock, after: clk.after})
				if c.err != "" {
					if err == nil || !strings.Contains(err.Error(), c.err) {
						t.Fatalf("error %v, want %q", err, c.err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				var vs []string
				for _, s := range rep.Sections {
					b, _ := json.Marshal(*s.Results.Value)
					vs = append(vs, string(b))
				}
				if got := strings.Join(vs, " "); got != c.values {
					t.Errorf("values %s, want %s", got, c.values)
				}
				last := rep.Sections[len(rep.Sections)-1]
				if c.stopped == nil && last.Results.Stopped != nil || c.stopped != nil && (last.Results.Stopped == nil || *last.Results.Stopped != *c.stopped) {
					t.Errorf("stopped %+v, want %+v", last.Results.Stopped, c.stopped)
				}
				if ls := last.Spec.Across.Labels; len(ls) != len(rep.Sections) {
					t.Errorf("the range's labels %v for %d terms kept", ls, len(rep.Sections))
				}
			})
		}
	}
}
