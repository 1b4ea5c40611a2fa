package job

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/heap"
)

// A period alone stops the values once it is proven, with the certificate
// all the values would give.
func TestPeriodStopsEarly(t *testing.T) {
	for _, c := range []struct {
		code  string
		upto  int
		asked []int
	}{
		{"0.77", 100000, []int{4095}},              // Kayles: proven to 167
		{"0.07", 3000, []int{3000}},                // below the first stage: one sweep
		{"0.45", 100000, []int{4095}},              // 0.45: proven to 1037
		{"0.156", 100000, []int{4095, 8191}},       // 0.156: proven to 7658
		{"0.6", 10000, []int{4095, 8191, 10000}},   // Officers: no period, every stage
		{"0.356", 40000, []int{4095, 8191, 16383}}, // 0.356: 7315 + 142, proof to 14915
	} {
		t.Run(c.code, func(t *testing.T) {
			g, err := heap.ParseOctal(c.code)
			if err != nil {
				t.Fatal(err)
			}
			r := &runner{}
			early, sweep, err := r.periodValues(g, c.upto, heap.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			// The stages of a code go on from each other (heap.PeriodValues):
			// their count, and the values of the last.
			if sweep.Stages != len(c.asked) || len(early)-1 != c.asked[len(c.asked)-1] {
				t.Errorf("%d stages, values to %d; want the stages %v", sweep.Stages, len(early)-1, c.asked)
			}
			all, err := g.Values(c.upto, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			a, b := heap.Period(g, early), heap.Period(g, all)
			if a.Proven != b.Proven || a.Preperiod != b.Preperiod || a.Period != b.Period || a.Proven && a.CheckedTo != b.CheckedTo {
				t.Errorf("certificate %+v, all values give %+v", a, b)
			}
		})
	}
}

// Only a section that shows a period alone stops early; values, rare
// values and P-positions need them all.
func TestEarlyPeriodSections(t *testing.T) {
	for _, c := range []struct{ show string }{
		{"[period]"}, {"[period, values]"}, {"[period, rare]"}, {"[values]"},
	} {
		t.Run(c.show, func(t *testing.T) {
			rep, err := runSrc(t, fmt.Sprintf("sections:\n  - game: {octal: {code: \"0.77\", upto: 20000}}\n    show: %s\n", c.show), Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Sections[0].Results
			if p := res.Period; p != nil && (!p.Proven || p.Preperiod != 71 || p.Period != 12 || p.CheckedTo != 167) {
				t.Errorf("Kayles: %+v", p)
			}
			if c.show == "[period, values]" && len(res.Values) != 20001 {
				t.Errorf("%d values, want 20001", len(res.Values))
			}
		})
	}
}

// fakeTime is the clock of a sweep under a time limit in tests: a stage
// takes perHeap for each of its new heaps (the stages go on from each
// other), and the timer fires when the test says.
type fakeTime struct {
	now     time.Time
	perHeap time.Duration
	fire    chan time.Time // the timer of the stages
	// done is the last heap of the last stage finished (−1 before);
	// finished lists them; stopAt is the stage during which the timer
	// fires (0: never).
	done     int
	finished []int
	stopAt   int
}

func (f *fakeTime) clock() time.Time                     { return f.now }
func (f *fakeTime) after(time.Duration) <-chan time.Time { return f.fire }

// stage is Options.stage: it advances the clock by the heaps of the stage
// finished, and before stage stopAt fires the timer and waits for the
// context to be cancelled, so that the stage stops as it starts.
func (f *fakeTime) stage(ctx context.Context, done int) {
	if done >= 0 {
		f.now = f.now.Add(time.Duration(done-f.done) * f.perHeap)
		f.done = done
		f.finished = append(f.finished, done)
	}
	if len(f.finished)+1 == f.stopAt {
		close(f.fire)
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute): // a hang guard only
		}
	}
}

// Under a time limit the values come in stages, one sweep continued, and
// stop at the last stage that ends in time: one predicted to end past it
// is not started, one still running when the time runs out is stopped,
// one past the limit of steps is not run; an interrupt is an error, never
// a partial result. The clock is the tests': no wall clock.
func TestTimedValues(t *testing.T) {
	officers := func(t *testing.T) *heap.Octal {
		g, err := heap.ParseOctal("0.6")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	steps := func(t *testing.T, n int) float64 {
		c, err := heap.Estimate(officers(t), n, heap.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return c.Steps
	}
	for _, c := range []struct {
		name     string
		code     string
		upto     int
		limit    time.Duration
		stopAt   int   // the stage during which the time runs out; 0: never
		steps    int64 // the limit of steps; 0: the default
		finished []int // the stages finished before the last
		reached  *Reached
		err      string
	}{
		// Stages take 1 ms a new heap: 4.1 s each to 8191; the
		// estimates of these small stages grow fourfold, so the stage to
		// 16383 is predicted to end near 24.6 s, and does at 16.4 s; the
		// next, predicted near 49 s, is not started. (Stages each from
		// heap 0 ended at 12.3 s, and the third was predicted past 30 s.)
		{name: "predicted past the limit", code: "0.6", upto: 100000, limit: 30 * time.Second,
			finished: []int{4095, 8191, 16383}, reached: &Reached{Heap: 16383, Upto: 100000, By: "time", Next: 32767, Limit: "30s"}},
		{name: "predicted past the limit at once", code: "0.6", upto: 100000, limit: 20 * time.Second,
			finished: []int{4095}, reached: &Reached{Heap: 4095, Upto: 100000, By: "time", Next: 8191, Limit: "20s"}},
		{name: "all in time", code: "0.6", upto: 10000, limit: time.Hour, finished: []int{4095, 8191}},
		// The stage to 8191 runs the sparse-space sweep's trial to 16383
		// (heap.sparseTrial), whose values the stage to 16383 takes: the
		// first stage after it that computes is the one to 32767.
		{name: "stopped during a stage", code: "0.6", upto: 100000, limit: time.Hour, stopAt: 4,
			finished: []int{4095, 8191, 16383}, reached: &Reached{Heap: 16383, Upto: 100000, By: "time", Next: 32767, Limit: "1h"}},
		{name: "stopped during the first stage", code: "0.6", upto: 100000, limit: time.Hour, stopAt: 1,
			err: "the time limit of 1h ran out before the values to 4095"},
		{name: "past the steps", code: "0.6", upto: 100000, limit: time.Hour, steps: -1,
			finished: []int{4095, 8191, 16383}, reached: &Reached{Heap: 16383, Upto: 100000, By: "steps", Next: 32767, Limit: "1h"}},
		{name: "a period alone stops at its proof", code: "0.77", upto: 100000, limit: time.Hour},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := heap.ParseOctal(c.code)
			if err != nil {
				t.Fatal(err)
			}
			ft := &fakeTime{now: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), perHeap: time.Millisecond,
				fire: make(chan time.Time), done: -1, stopAt: c.stopAt}
			show := []string{"period", "values"}
			if c.code == "0.77" {
				show = []string{"period"}
			}
			r := &runner{lim: Limits{Time: c.limit}, s: &Section{Show: show}, res: Results{},
				opts: Options{clock: ft.clock, after: ft.after, stage: ft.stage}}
			lim := heap.Limits{Context: context.Background()}
			if c.steps < 0 {
				// Enough for the stage to 8191 (its estimate bounds its
				// steps), and the trial's to 16383 it ran, not for the
				// stage to 32767.
				lim.MaxSteps = int64(steps(t, 8191)) + 1
			}
			values, _, err := r.timedValues(g, c.upto, lim)
			if fmt.Sprint(ft.finished) != fmt.Sprint(c.finished) {
				t.Errorf("stages finished to %v before the last, want %v", ft.finished, c.finished)
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.res.Reached, c.reached) {
				t.Errorf("reached %+v, want %+v", r.res.Reached, c.reached)
			}
			want, err := g.Values(len(values)-1, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(values, want) {
				t.Errorf("the %d values differ from a sweep of the same heaps", len(values))
			}
		})
	}
	t.Run("no context", func(t *testing.T) {
		r := &runner{lim: Limits{Time: time.Hour}, s: &Section{Show: []string{"values"}}, res: Results{}}
		values, _, err := r.timedValues(officers(t), 5000, heap.Limits{})
		if err != nil || len(values) != 5001 || r.res.Reached != nil {
			t.Fatalf("%d values, reached %+v, error %v; want 5001 values", len(values), r.res.Reached, err)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r := &runner{lim: Limits{Time: time.Hour}, s: &Section{Show: []string{"values"}}, res: Results{}}
		if _, _, err := r.timedValues(officers(t), 100000, heap.Limits{Context: ctx}); !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want the interrupt", err)
		}
	})
}
