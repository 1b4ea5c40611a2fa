package notebook

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/internal/stopcheck"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/nbformat"
)

// fuzzMemory is the memory a fuzzed cell may use above what the test
// process holds when it starts.
const fuzzMemory = 256 << 20

// fuzzSession is a session under small limits.
func fuzzSession(t *testing.T) *Session {
	s, err := New(Options{MaxSteps: 200_000, MaxPositions: 20_000,
		Limits: job.Limits{Positions: 20_000, Memory: budget.InUse() + fuzzMemory}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkCell runs code and fails on what no cell may do: panic (a recovered
// panic is an InternalError), show Go internals, outlive its interrupt, or
// hold more memory than its limit once stopped.
func checkCell(t *testing.T, s *Session, code string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	// What this looks for is a built-in that ignores its interrupt: the
	// processor time spent past it (the work, which a loaded machine does
	// not stretch as it stretches the clock's time) stays small.
	var mu sync.Mutex
	var atInterrupt time.Duration
	stop := context.AfterFunc(ctx, func() {
		cpu, _ := stopcheck.ProcessCPU()
		mu.Lock()
		atInterrupt = cpu
		mu.Unlock()
	})
	_, err := s.Execute(ctx, code, nil)
	if !stop() {
		end, ok := stopcheck.ProcessCPU()
		mu.Lock()
		past := end - atInterrupt
		mu.Unlock()
		if ok && atInterrupt > 0 && past > 5*time.Second {
			t.Errorf("%q ran %v of processor time past its 2 s interrupt", code, past)
		}
	}
	var ce *kernel.CellError
	if errors.As(err, &ce) {
		if ce.Name == "InternalError" {
			t.Fatalf("%q: %s", code, ce.Value)
		}
		for _, l := range append([]string{ce.Value}, ce.Traceback...) {
			if strings.Contains(l, "goroutine ") || strings.Contains(l, ".go:") || strings.Contains(l, "context canceled") {
				t.Errorf("%q: Go internals in %q", code, l)
			}
		}
	} else if err != nil && !errors.Is(err, ErrExit) {
		t.Errorf("%q: error %v is not a cell error", code, err)
	}
	if used := budget.InUse(); used > s.ceil.memory+100<<20 {
		t.Errorf("%q: %s in use after the cell, limit %s", code, budget.FormatSize(used), budget.FormatSize(s.ceil.memory))
	}
}

// FuzzCell runs cells of random source, seeded with the cells of the
// example notebooks and the hostile cells of the tests.
func FuzzCell(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.ipynb"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.ipynb"))
	for _, name := range append(files, more...) {
		nb, err := nbformat.ReadFile(name)
		if err != nil {
			continue
		}
		for _, c := range nb.Cells {
			if c.Type == "code" {
				f.Add(c.Source)
			}
		}
	}
	for _, c := range hostileCells {
		f.Add(c.code)
	}
	f.Fuzz(func(t *testing.T, code string) {
		checkCell(t, fuzzSession(t), code)
	})
}

// calls are the built-ins and methods FuzzBuiltins calls, each with two
// numbers and a string from the fuzzer.
var calls = []func(a, b int64, s string) string{
	func(a, b int64, s string) string { return fmt.Sprintf("nim(%d, %d).p_positions()", a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("nim(%d, max_take=%d).options()", a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("nim(%d).values(%d)", a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("octal(%q).values(%d)", s, a) },
	func(a, b int64, s string) string { return fmt.Sprintf("octal(%q).period()", s) },
	func(a, b int64, s string) string { return fmt.Sprintf("octal(%q).options([%d, %d])", s, a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("hex_game(%q).rare(%d)", s, a) },
	func(a, b int64, s string) string { return fmt.Sprintf("hex_game(%q).moves([%d])", s, a) },
	func(a, b int64, s string) string { return fmt.Sprintf("subtraction([%d, %d]).period()", a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("subtraction(all_but=[%d]).values(%d)", a, b) },
	// Coin games are bounded: their engine cannot be interrupted yet, and
	// product(coins(r=15), coins(rule="ruler"), size=[51, 4]) computes for
	// a minute (found by this fuzzer).
	func(a, b int64, s string) string {
		return fmt.Sprintf("coins(rule=%q, r=%d, n=%d).weights()", s, a%12, b%24)
	},
	func(a, b int64, s string) string { return fmt.Sprintf("coins(r=%d).outcome([%d])", a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("wythoff(%d, %d).table()", a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("wythoff().grundy((%d, %d))", a, b) },
	func(a, b int64, s string) string {
		return fmt.Sprintf("product(coins(r=%d), coins(rule=\"ruler\"), size=[%d, 4]).table()", a%12, b%24)
	},
	func(a, b int64, s string) string { return fmt.Sprintf("nimbers(op=%q, size=%d)", s, a) },
	func(a, b int64, s string) string { return fmt.Sprintf("nimber(%d) * nimber(%d) + %d", a, b, a) },
	func(a, b int64, s string) string {
		return fmt.Sprintf("(nim_inv(%d), nim_sqrt(%d), nim_pow(%d, %d))", a, b, a, b)
	},
	func(a, b int64, s string) string { return fmt.Sprintf("mex([%d, %d, %d])", a, b, a+b) },
	func(a, b int64, s string) string { return fmt.Sprintf("[%d] * %d", a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("%q * %d + %q", s, a, s) },
	func(a, b int64, s string) string { return fmt.Sprintf("list(range(%d, %d))", a, b) },
	func(a, b int64, s string) string {
		return fmt.Sprintf("sorted(range(%d), key=lambda x: x %% %d)", a, b)
	},
	func(a, b int64, s string) string {
		return fmt.Sprintf("x = %d\nfor i in range(%d):\n    x = x * x + %d", a, b, a)
	},
	func(a, b int64, s string) string { return fmt.Sprintf("%q.join([%q] * %d)", s, s, a) },
	func(a, b int64, s string) string { return fmt.Sprintf("(%q * %d).split(%q)", s, a, s) },
	func(a, b int64, s string) string { return fmt.Sprintf("(%q * %d) %% tuple(range(%d))", s, a, b) },
	func(a, b int64, s string) string {
		return fmt.Sprintf("g = game(moves=lambda p: [p - 1, p // 2] if p > 0 else [], start=%d)\n(g.grundy(), g.values(%d), g.period(%d))", a, b, b)
	},
	func(a, b int64, s string) string {
		return fmt.Sprintf("(game(moves=lambda p: [], start=0) + nim(%d)).options()", a)
	},
	func(a, b int64, s string) string {
		return fmt.Sprintf("(octal(%q) + nim(%d)).grundy(([%d], [%d]))", s, a, a, b)
	},
	func(a, b int64, s string) string { return fmt.Sprintf("limits(steps=%d, positions=%d)", a, b) },
	func(a, b int64, s string) string { return fmt.Sprintf("limits(memory=%q)", s) },
	func(a, b int64, s string) string { return fmt.Sprintf("%s?", s) },
	func(a, b int64, s string) string { return fmt.Sprintf("help(%s)", s) },
}

// FuzzBuiltins calls the built-ins and methods with random arguments
// under small limits.
func FuzzBuiltins(f *testing.F) {
	f.Add(uint8(0), int64(1), int64(3), "0.77")
	f.Add(uint8(4), int64(100), int64(0), "0.07")
	f.Add(uint8(19), int64(7), int64(1000000000), "x")
	f.Add(uint8(24), int64(100000000), int64(2), "ab")
	f.Add(uint8(28), int64(99999999), int64(0), "")
	f.Add(uint8(23), int64(3), int64(40), "")
	f.Add(uint8(31), int64(0), int64(0), "64GiB")
	f.Fuzz(func(t *testing.T, k uint8, a, b int64, s string) {
		code := calls[int(k)%len(calls)](a, b, s)
		checkCell(t, fuzzSession(t), code)
	})
}
