package notebook

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/internal/stopcheck"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
)

// peak samples budget.InUse while f runs and returns the largest value.
func peak(f func()) int64 {
	var top atomic.Int64
	top.Store(budget.InUse())
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if u := budget.InUse(); u > top.Load() {
					top.Store(u)
				}
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	if u := budget.InUse(); u > top.Load() {
		top.Store(u)
	}
	return top.Load()
}

const testMemory = 512 << 20

// hostileCells would take gigabytes, or escape the step budget in one
// built-in call: each stops with an error (name, text) that says what and
// how to do less. FuzzCell starts from them too. The sandbox's own tests
// cover its guarded operators and built-ins; these check that cells (and
// their last expression) run guarded, and the notebook's built-ins.
var hostileCells = []struct {
	name, code, ename, want string
}{
	{"list of a huge range", "x = list(range(1000000000))", "Error", "list() of 1000000000 items needs about 14.9 GiB, more than the memory limit of 512 MiB allows"},
	{"sorted", "sorted(range(100000000))", "Error", "sorted() of 100000000 items needs about 1.5 GiB"},
	{"str of a big list", "str([list(range(1000000))] * 100)", "Error", "str: the text would be more than"},
	{"options of a huge heap", "nim(99999999).options()", "Error", "listing the 99999999 moves of nim from [99999999] needs about 11.5 GiB"},
	{"options of a huge split", `octal("0.77").options([20000000])`, "Error", "listing the 20000000 moves of octal 0.77 from [20000000] needs about"},
	{"options past the positions", `hex_game("0.f").options([100000])`, "Error", "hex 0.f from [100000] has about 8.33e+08 moves, more than the limit of 100000000 positions"},
	{"sum with a large nim heap", "g = game(moves=lambda p: [p - 1] if p > 0 else [], start=3)\n(g + nim(50000000)).options()", "Error", "the 50000000 moves of nim"},
	{"values of a user game", "game(moves=lambda p: [], start=0).values(50000000)", "Error", "values(50000000) needs about 9.3 GiB"},
	{"a raise of the memory limit", `limits(memory="8GiB")`, "Error", `limits: memory="8GiB" is above this session's ceiling of 512 MiB, set when nimbook started (--max-memory); a notebook may only lower its limits`},
	{"a raise of the step budget", "limits(steps=2000000000)", "Error", "limits: steps=2000000000 is above this session's ceiling of 1000000000 steps, set when nimbook started (--max-steps)"},
	{"a raise of the positions", "limits(positions=1000000000)", "Error", "above this session's ceiling of 100000000 positions, set when nimbook started (--max-positions)"},
	{"switching off the steps", "limits(steps=0)", "Error", "the step budget cannot be switched off"},
	{"a game above the positions", "game(moves=lambda p: [], max_positions=1000000000)", "Error", "max_positions=1000000000 is above this session's limit of 100000000 positions"},
}

// TestHostileCells runs cells that would take gigabytes, or escape the
// step budget in one built-in call, under a 512 MiB limit: each stops
// with an error that names what and how to do less, memory stays under
// the limit (plus 100 MiB for the sampling's lag), and the next cell runs.
func TestHostileCells(t *testing.T) {
	for _, tc := range hostileCells {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(Options{Limits: job.Limits{Memory: testMemory}})
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			start := time.Now()
			top := peak(func() { _, _, err = run(t, s, tc.code) })
			took := time.Since(start)
			var ce *kernel.CellError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a cell error", err)
			}
			if ce.Name != tc.ename || !strings.Contains(ce.Value, tc.want) {
				t.Errorf("got %s: %s\nwant %s containing %q", ce.Name, ce.Value, tc.ename, tc.want)
			}
			if top > testMemory+100<<20 {
				t.Errorf("memory peaked at %s, limit %s", budget.FormatSize(top), budget.FormatSize(testMemory))
			}
			t.Logf("%s: %s, peak %s", took.Round(time.Millisecond), ce.Name, budget.FormatSize(top))
			if got, _, err := run(t, s, "len([i for i in range(1000)])"); err != nil || got != "1000" {
				t.Fatalf("next cell: %q, %v", got, err)
			}
		})
	}
}

// TestInterruptBuiltins interrupts cells that spend their time in one
// call of a built-in, once the process has spent 100 ms of processor time
// on them: each stops, Interrupted, having spent little processor time
// after the interrupt (well under a second; the work left would take
// seconds). Processor time, unlike a stopwatch, does not stretch with the
// machine's load; the second of Ctrl-C is kept end to end
// (cmd/nimbook's TestLimitsInterrupt and TestSignals).
func TestInterruptBuiltins(t *testing.T) {
	cells := []string{
		"min(range(1000000000000))",
		"sorted(range(5000000), key=lambda x: -x)",
		"x = list(range(20000000))",
		`octal("0.77").values(100000000)`,
		"game(moves=lambda p: [p - 1] if p > 0 else [], start=0).values(10000000)",
		"nim(30, 30, 30, 30, 30, 30).p_positions()",
	}
	// values(10⁷) of the user game is estimated at 1.9 GiB: the limit
	// leaves room for it beside the watchdog's margins (budget.Available).
	s, err := New(Options{Limits: job.Limits{Memory: 3 << 30, Positions: 1 << 40}})
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range cells {
		t.Run(code, func(t *testing.T) {
			r := stopcheck.InterruptBusy(100*time.Millisecond, time.Minute, func(ctx context.Context) error {
				_, err := s.Execute(ctx, code, nil)
				return err
			})
			switch {
			case r.Hung:
				t.Fatal("still running a minute after the interrupt")
			case r.Early:
				t.Fatalf("finished before the interrupt: %v", r.Err)
			}
			var ce *kernel.CellError
			if !errors.As(r.Err, &ce) || ce.Name != "Interrupted" {
				t.Fatalf("got %v, want Interrupted", r.Err)
			}
			if r.CPUAfter > time.Second {
				t.Errorf("%v of processor time after the interrupt", r.CPUAfter)
			}
			t.Logf("%v of processor time after the interrupt", r.CPUAfter.Round(time.Millisecond))
		})
	}
}

// TestLongResult: a result small in memory but long as text (the same
// string 10000 times) is shown cut, saying how much there is.
func TestLongResult(t *testing.T) {
	s := newSession(t)
	for code, end := range map[string]string{
		`["x" * 100000] * 10000`: "(10000 items)",
		`"y" * 3000000`:          "…  (3000000 characters)",
		`tuple(range(1000000))`:  "(1000000 items)",
	} {
		got, _, err := run(t, s, code)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		if len(got) > maxDisplay+200_000 || !strings.HasSuffix(got, end) {
			t.Errorf("%s: %d characters ending %q, want at most about %d ending %q", code, len(got), got[max(0, len(got)-40):], maxDisplay, end)
		}
	}
	if _, err := s.EvalJSON(context.Background(), `["x" * 100000] * 10000`, nil); err == nil || !strings.Contains(err.Error(), "too large for JSON") {
		t.Errorf("EvalJSON: %v", err)
	}
}
