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
// to n heaps takes n·perHeap, and the timer fires when the test says.
type fakeTime struct {
	now     time.Time
	perHeap time.Duration
	fire    chan time.Time // the timer of every stage
}

func (f *fakeTime) clock() time.Time                     { return f.now }
func (f *fakeTime) after(time.Duration) <-chan time.Time { return f.fire }

// timedGame is an octal game whose sweeps advance the fake clock, and
// whose stage number stopAt waits for its context to be cancelled (the
// time running out during it) after firing the timer.
type timedGame struct {
	*heap.Octal
	t      *fakeTime
	asked  []int
	stopAt int
}

func (g *timedGame) ValuesSweep(upto int, lim heap.Limits) ([]uint64, heap.Sweep, error) {
	g.asked = append(g.asked, upto)
	if len(g.asked) == g.stopAt {
		close(g.t.fire)
		select {
		case <-lim.Context.Done():
		case <-time.After(time.Minute): // a hang guard only
			return nil, heap.Sweep{}, errors.New("the stage was never stopped")
		}
	}
	g.t.now = g.t.now.Add(time.Duration(upto) * g.t.perHeap)
	return g.Octal.ValuesSweep(upto, lim)
}

// Under a time limit the values come in stages, and stop at the last
// stage that ends in time: one predicted to end past it is not started, one
// still running when the time runs out is stopped, one past the limit of
// steps is not run; an interrupt is an error, never a partial result.
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
		name    string
		code    string
		upto    int
		limit   time.Duration
		stopAt  int   // the stage during which the time runs out; 0: never
		steps   int64 // the limit of steps; 0: the default
		asked   []int
		reached *Reached
		err     string
	}{
		// Stages take 1 ms a heap: 4.1 s, then 8.2 s (12.3 s in all); the
		// estimates of these small stages grow fourfold, so the next is
		// predicted to end near 45 s.
		{name: "predicted past the limit", code: "0.6", upto: 100000, limit: 30 * time.Second,
			asked: []int{4095, 8191}, reached: &Reached{Heap: 8191, Upto: 100000, By: "time", Next: 16383, Limit: "30s"}},
		{name: "predicted past the limit at once", code: "0.6", upto: 100000, limit: 20 * time.Second,
			asked: []int{4095}, reached: &Reached{Heap: 4095, Upto: 100000, By: "time", Next: 8191, Limit: "20s"}},
		{name: "all in time", code: "0.6", upto: 10000, limit: time.Hour, asked: []int{4095, 8191, 10000}},
		{name: "stopped during a stage", code: "0.6", upto: 100000, limit: time.Hour, stopAt: 3,
			asked: []int{4095, 8191, 16383}, reached: &Reached{Heap: 8191, Upto: 100000, By: "time", Next: 16383, Limit: "1h"}},
		{name: "stopped during the first stage", code: "0.6", upto: 100000, limit: time.Hour, stopAt: 1,
			asked: []int{4095}, err: "the time limit of 1h ran out before the values to 4095"},
		{name: "past the steps", code: "0.6", upto: 100000, limit: time.Hour, steps: -1,
			asked: []int{4095, 8191, 16383}, reached: &Reached{Heap: 8191, Upto: 100000, By: "steps", Next: 16383, Limit: "1h"}},
		{name: "a period alone stops at its proof", code: "0.77", upto: 100000, limit: time.Hour, asked: []int{4095}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := heap.ParseOctal(c.code)
			if err != nil {
				t.Fatal(err)
			}
			ft := &fakeTime{now: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), perHeap: time.Millisecond, fire: make(chan time.Time)}
			tg := &timedGame{Octal: g, t: ft, stopAt: c.stopAt}
			show := []string{"period", "values"}
			if c.code == "0.77" {
				show = []string{"period"}
			}
			r := &runner{lim: Limits{Time: c.limit}, s: &Section{Show: show}, res: Results{},
				opts: Options{clock: ft.clock, after: ft.after}}
			lim := heap.Limits{Context: context.Background()}
			if c.steps < 0 {
				// Enough for the stage to 8191 (its estimate bounds its
				// steps), not for the one to 16383.
				lim.MaxSteps = int64(steps(t, 8191)) + 1
			}
			values, _, err := r.timedValues(tg, c.upto, lim)
			if fmt.Sprint(tg.asked) != fmt.Sprint(c.asked) {
				t.Errorf("values asked to %v, want %v", tg.asked, c.asked)
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
