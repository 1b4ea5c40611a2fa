package sandbox

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
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

// execCode runs code as the file test.star on a thread within lim.
func execCode(ctx context.Context, code string, lim Limits) (starlark.StringDict, error) {
	th, stop := NewThread(ctx, "test", lim)
	defer stop()
	return ExecFile(th, "test.star", code, nil)
}

const testMemory = 512 << 20

// hostile is code that would take gigabytes, or escape the step budget in
// one built-in call: each stops with an error that says what and how to do
// less.
var hostile = []struct {
	name, code, want string
	memory           bool // the error wraps budget.ErrMemory
}{
	{"list of a huge range", "x = list(range(1000000000))", "list() of 1000000000 items needs about 14.9 GiB, more than the memory limit of 512 MiB allows", true},
	{"list repetition", "x = [0] * 1000000000", "a list of 1000000000 items needs about 14.9 GiB", true},
	{"tuple repetition", "x = 100000000 * (1, 2, 3)", "a tuple of 300000000 items needs about 4.5 GiB", true},
	{"string repetition", `x = "ab" * 500000000`, "a string of 1000000000 characters needs about 953.7 MiB", true},
	{"augmented repetition", "x = [1, 2]\nx *= 300000000", "a list of 600000000 items", true},
	{"indexed augmented repetition", "x = [[1]]\nx[0] *= 300000000", "a list of 300000000 items", true},
	{"doubling a string", "s = \"x\"\nfor i in range(40):\n    s = s + s", "a string of 536870912 characters needs about 512 MiB", true},
	{"doubling a list in place", "l = [0]\nfor i in range(40):\n    l += l", "a list of 16777216 items needs about 512 MiB", true},
	{"squaring an int", "x = 3\nfor i in range(40):\n    x = x * x", "the result of * would have about", false},
	{"shifting an int", "x = 1\nfor i in range(100000):\n    x = x << 500", "the result of << would have about", false},
	{"int of a long string", `x = int("9" * 1000000)`, "int() would have about", false},
	{"sorted", "x = sorted(range(100000000))", "sorted() of 100000000 items needs about 1.5 GiB", true},
	{"set", "x = set(range(100000000))", "set() of 100000000 items", true},
	{"enumerate", "x = enumerate(range(100000000))", "enumerate() of 100000000 items", true},
	{"zip", "x = zip(range(100000000), range(200000000))", "zip() of 100000000 items", true},
	{"extend", "l = []\nl.extend(range(20000000))", "list.extend() needs about", true},
	{"join with a long separator", `x = ("x" * 10000000).join(["a"] * 1000)`, "string.join() needs about 9.3 GiB", true},
	{"replace", `x = ("a" * 10000000).replace("a", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")`, "string.replace() needs about", true},
	{"split", `x = ("," * 100000000).split(",")`, "string.split() needs about 3 GiB", true},
	{"format", `x = ("{}" * 10000).format("x" * 100000)`, "format: the text would be about", false},
	{"percent", `x = ("%s" * 10000) % tuple(["x" * 100000] * 10000)`, "%: the formatted text would be about", false},
	{"str of a big list", "x = str([list(range(1000000))] * 100)", "str: the text would be more than", false},
	{"getattr of join", `x = getattr("x" * 10000000, "join")(["a"] * 1000)`, "string.join() needs about", true},
	{"a list grown step by step", "l = []\nfor i in range(100000000):\n    l.append(i)", "growing a list past", true},
	{"in a function", "def f(n):\n    return [0] * n\n\nx = f(1000000000)", "test.star:2: a list of 1000000000 items", true},
}

// TestHostile runs code that would take gigabytes, or escape the step
// budget in one built-in call, under a 512 MiB limit: each stops with an
// error that names the file, the line and what to do less, and memory stays
// under the limit (plus 100 MiB for the sampling's lag).
func TestHostile(t *testing.T) {
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			var err error
			top := peak(func() { _, err = execCode(context.Background(), tc.code, Limits{MaxMemory: testMemory}) })
			var se *Error
			if !errors.As(err, &se) || se.File != "test.star" || se.Line == 0 {
				t.Fatalf("got %v, want an *Error at a line of test.star", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant it to contain %q", err, tc.want)
			}
			if got := errors.Is(err, budget.ErrMemory); got != tc.memory {
				t.Errorf("errors.Is(err, budget.ErrMemory) = %v, want %v", got, tc.memory)
			}
			if top > testMemory+100<<20 {
				t.Errorf("memory peaked at %s, limit %s", budget.FormatSize(top), budget.FormatSize(testMemory))
			}
		})
	}
}

// interrupter cancels a thread's context from inside the thread's work, at
// a point the test names: the atCheck-th time the work asks whether it must
// stop (Tick, through the State's context), or the atProbe-th call of the
// built-in probe. It notes the thread's steps then, and counts the probes
// after, so that a test sees how much work went on after the interrupt
// instead of timing it. The thread's goroutine alone uses it.
type interrupter struct {
	context.Context // the thread's own, which the cancel reaches
	cancel          context.CancelFunc
	th              *starlark.Thread
	atCheck         int
	atProbe         int
	checks, probes  int
	cancelled       bool
	steps           uint64 // the thread's steps at the cancel
	probesAfter     int
}

// interrupt installs an interrupter on th, whose context cancel cancels.
func interrupt(th *starlark.Thread, cancel context.CancelFunc, atCheck, atProbe int) *interrupter {
	st := StateOf(th)
	in := &interrupter{Context: st.ctx, cancel: cancel, th: th, atCheck: atCheck, atProbe: atProbe}
	st.ctx = in
	return in
}

func (in *interrupter) trigger() {
	in.steps, in.cancelled = in.th.ExecutionSteps(), true
	in.cancel()
}

func (in *interrupter) Err() error {
	in.checks++
	if in.checks == in.atCheck {
		in.trigger()
	}
	return in.Context.Err()
}

// probe is a built-in that returns its argument (None without one).
func (in *interrupter) probe(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if in.cancelled {
		in.probesAfter++
	}
	in.probes++
	if in.probes == in.atProbe {
		in.trigger()
	}
	if len(args) > 0 {
		return args[0], nil
	}
	return starlark.None, nil
}

// TestInterruptBuiltins interrupts code that spends its time in one call
// of a built-in, from inside that call: each stops with an error that
// wraps context.Canceled. Built-ins that count their work with Tick stop
// at the next check: at most one chunk of steps after the cancel, however
// loaded the machine. Starlark code (a key function, a loop) stops once
// the interrupt reaches the interpreter, from another goroutine: long
// before the work's end (a probe counts the calls after), and before the
// step budget (the error would be another).
func TestInterruptBuiltins(t *testing.T) {
	tests := []struct {
		code             string
		atCheck, atProbe int
		probesLeft       int // probes the work would still make without the interrupt
	}{
		{code: "x = min(range(1000000000000))", atCheck: 10},
		{code: "x = any([x < 0 for x in []] + list(range(1, 10))) and all(range(1, 1000000000000))", atCheck: 10},
		{code: "x = sum(range(1000000000000))", atCheck: 10},
		{code: "x = sorted(range(5000000), key=lambda x: -x)", atCheck: 10},                                 // collecting
		{code: "x = sorted(range(5000000), key=lambda x: -probe(x))", atProbe: 100000, probesLeft: 4900000}, // the keys
		{code: "x = sorted(list(range(5000000)), reverse=True)", atCheck: 400},                              // sorting
		{code: "x = list(range(20000000))", atCheck: 10},
		{code: "x = [None] * 60000000", atCheck: 30},
		{code: "l = []\nl.extend(range(20000000))", atCheck: 10},
		{code: "n = 0\nwhile True:\n    n += probe(1)", atProbe: 100000, probesLeft: 1 << 30},
	}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			th, stop := NewThread(ctx, "test", Limits{MaxMemory: 2 << 30})
			defer stop()
			in := interrupt(th, cancel, tc.atCheck, tc.atProbe)
			_, err := ExecFile(th, "test.star", tc.code, starlark.StringDict{"probe": starlark.NewBuiltin("probe", in.probe)})
			if !in.cancelled {
				t.Fatalf("finished before the interrupt (%d checks, %d probes): %v", in.checks, in.probes, err)
			}
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
				t.Fatalf("got %v, want an interrupt", err)
			}
			after := th.ExecutionSteps() - in.steps
			if tc.atCheck > 0 && after > chunk {
				t.Errorf("%d steps after the interrupt, want at most one chunk (%d)", after, chunk)
			}
			if tc.atProbe > 0 && in.probesAfter >= tc.probesLeft {
				t.Errorf("%d probes after the interrupt: the work ran to its end", in.probesAfter)
			}
			t.Logf("%d steps, %d probes after the interrupt", after, in.probesAfter)
		})
	}
}

// TestStepBudget: the budget counts the interpreter's steps and the work
// of built-ins, and its error names the line and wraps ErrSteps.
func TestStepBudget(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"loop", "n = 0\nwhile True:\n    n += 1", "test.star:3: ran past the budget of 100000 steps"},
		{"built-in", "x = 1\ny = sorted(range(10000000))", "test.star:2: ran past the budget of 100000 steps"},
		{"sum", "x = sum(range(10000000))", "test.star:1: ran past the budget of 100000 steps"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := execCode(context.Background(), tc.code, Limits{MaxSteps: 100000})
			if !errors.Is(err, ErrSteps) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q wrapping ErrSteps", err, tc.want)
			}
		})
	}
}

// TestTick: Go code that works for a thread counts its steps with Tick,
// which stops it past the budget and once the context is done.
func TestTick(t *testing.T) {
	th, stop := NewThread(context.Background(), "tick", Limits{MaxSteps: 1000})
	defer stop()
	if err := Tick(th, 999); err != nil {
		t.Fatalf("within the budget: %v", err)
	}
	if err := Tick(th, 1); err != ErrStopped || !StateOf(th).Exceeded() {
		t.Fatalf("past the budget: %v, exceeded %v", err, StateOf(th).Exceeded())
	}

	ctx, cancel := context.WithCancel(context.Background())
	th2, stop2 := NewThread(ctx, "tick", Limits{})
	defer stop2()
	cancel()
	if err := Tick(th2, 1); err != ErrStopped {
		t.Fatalf("after cancel: %v", err)
	}
}
