package game

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
)

// TestStepBudget pins the steps of a search: the solver stops one step
// short of them, naming the limit, and finishes with them.
func TestStepBudget(t *testing.T) {
	s, _ := NewSolver[uint64](splitGrid{}, Options{})
	if _, err := s.Grundy(grid(3, 6)); err != nil {
		t.Fatal(err)
	}
	need := s.Stats().Steps
	// 3 × 6 with parts and symmetries: 82 parts expanded (two steps
	// each), one call of Components per option and one of Canonical per
	// part of an option, and the root's (measured when written).
	if need != 1941 {
		t.Errorf("3 × 6 took %d steps, want 1941", need)
	}
	s, _ = NewSolver[uint64](splitGrid{}, Options{MaxSteps: need - 1})
	_, err := s.Grundy(grid(3, 6))
	if !errors.Is(err, ErrTooManySteps) || !strings.Contains(err.Error(), "step limit of 1940") || !strings.Contains(err.Error(), "--max-steps") {
		t.Fatalf("one step short: %v", err)
	}
	s, _ = NewSolver[uint64](splitGrid{}, Options{MaxSteps: need})
	if g, err := s.Grundy(grid(3, 6)); err != nil || g != 3 {
		t.Fatalf("within the budget: %d, %v", g, err)
	}
}

// TestStepBudgetEndlessGame stops a move function that never ends: it
// always has a new position to offer.
func TestStepBudgetEndlessGame(t *testing.T) {
	up := MoveFunc[int](func(n int) ([]int, error) { return []int{n + 1}, nil })
	s, _ := NewSolver[int](up, Options{MaxSteps: 10_000})
	if _, err := s.Grundy(0); !errors.Is(err, ErrTooManySteps) {
		t.Fatalf("err = %v", err)
	}
	if got := s.Stats().Steps; got > 10_002 {
		t.Errorf("%d steps counted past the limit of 10000", got)
	}
}

// TestSharedMemo: a solver asked about 3 × 12 and then 3 × 13 holds
// exactly the union of the parts that each needs on its own, so the
// second reuses every part of the first that it needs.
func TestSharedMemo(t *testing.T) {
	keys := func(n int) map[uint64]bool {
		s, _ := NewSolver[uint64](splitGrid{}, Options{})
		if _, err := s.Grundy(grid(3, n)); err != nil {
			t.Fatal(err)
		}
		out := make(map[uint64]bool)
		for k := range s.grundy.shards[0].m {
			out[k] = true
		}
		return out
	}
	a, b := keys(12), keys(13)
	union := len(a)
	for k := range b {
		if !a[k] {
			union++
		}
	}
	s, _ := NewSolver[uint64](splitGrid{}, Options{})
	s.Grundy(grid(3, 12))
	before := s.Stats().Positions
	s.Grundy(grid(3, 13))
	st := s.Stats()
	if int(st.Solved) != union {
		t.Errorf("shared memo holds %d parts, the union is %d", st.Solved, union)
	}
	if added := st.Positions - before; int(added) != union-len(a) {
		t.Errorf("3 × 13 after 3 × 12 expanded %d parts, %d are new", added, union-len(a))
	}
	// Two copies of 3 × 10 side by side are two known parts: no new work.
	s.Grundy(grid(3, 10))
	before = s.Stats().Positions
	g, err := s.Grundy(grid(3, 10) | grid(3, 10)<<33)
	if err != nil || g != 0 || s.Stats().Positions != before {
		t.Errorf("3 × 10 + 3 × 10: %d, %v, %d new parts", g, err, s.Stats().Positions-before)
	}
}

func TestCheckCapabilities(t *testing.T) {
	honest := splitGrid{}
	samples := []uint64{grid(3, 3), grid(2, 4)}
	if err := CheckCapabilities[uint64](honest, samples, Options{}); err != nil {
		t.Fatalf("honest capabilities: %v", err)
	}
	if err := CheckCapabilities[uint64](honest, samples, Options{Play: Misere}); err != nil {
		t.Fatalf("honest capabilities, misère: %v", err)
	}
	if err := CheckCapabilities[uint64](gridKayles{}, samples, Options{}); err != nil {
		t.Fatalf("no capabilities: %v", err)
	}
	tests := []struct {
		name string
		m    Mover[uint64]
		want string
	}{
		{"components drop a part", WithCapabilities[uint64](gridKayles{}, func(m uint64) ([]uint64, error) {
			cs, _ := honest.Components(m)
			if len(cs) > 1 {
				cs = cs[1:]
			}
			return cs, nil
		}, nil), "components of "},
		{"canonical drops a cell", WithCapabilities[uint64](gridKayles{}, nil, func(m uint64) (uint64, error) {
			if m&(m-1) != 0 && m&(m-1)&(m-2) != 0 {
				return m & (m - 1), nil // fine on one or two cells, wrong beyond
			}
			return m, nil
		}), "the canonical form of "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckCapabilities(tt.m, samples, Options{})
			var ce *CapabilityError[uint64]
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want a CapabilityError saying %q", err, tt.want)
			}
			// The disagreement is real: the solver with the capability
			// gives another value than the plain one at that position.
			s, _ := NewSolver(tt.m, Options{})
			p, _ := NewSolver(Plain(tt.m), Options{})
			if ce.Capability == "Components" {
				gs, _ := s.Grundy(ce.Position)
				gp, _ := p.Grundy(ce.Position)
				if gs == gp {
					t.Errorf("%v: both solvers say %d", ce.Position, gs)
				}
			}
			if ce.Want == ce.Got {
				t.Errorf("error without a difference: %+v", ce)
			}
		})
	}
}

// TestProgress: Progress sees a search run, at most once a progressPace
// of the solver's clock. The clock is the test's: each reading moves it on
// one tick of 10 ms, and the pace is checked in readings between calls,
// at least progressPace / tick, without the wall clock.
func TestProgress(t *testing.T) {
	var calls []Stats
	var readings []int // the clock's readings at each call
	read := 0
	moves := MoveFunc[int](func(n int) ([]int, error) {
		var out []int
		for _, s := range []int{1, 2} {
			if n >= s {
				out = append(out, n-s)
			}
		}
		return out, nil
	})
	s, _ := NewSolver[int](moves, Options{Progress: func(st Stats) { calls = append(calls, st); readings = append(readings, read) }})
	const tick = 10 * time.Millisecond
	pace := int(progressPace / tick)
	clock := time.Unix(0, 0)
	s.now = func() time.Time { read++; clock = clock.Add(tick); return clock }
	if g, err := s.Grundy(6000); err != nil || g != 0 {
		t.Fatalf("g = %d, %v", g, err)
	}
	if len(calls) < 2 {
		t.Fatalf("Progress called %d times during 6000 expansions, want several", len(calls))
	}
	for i, st := range calls {
		if st.Steps <= 0 || st.Positions <= 0 || st.Solved > st.Positions || st.Workers != 1 || readings[i] < pace {
			t.Errorf("call %d: %+v", i, st)
		}
		if i > 0 && st.Steps < calls[i-1].Steps {
			t.Errorf("steps went back: %+v after %+v", st, calls[i-1])
		}
	}
	st := Stats{Solved: 34020, Steps: 2856713, MemoBytes: 2177280, Elapsed: 2 * time.Second}
	if got, want := st.String(), "34020 positions solved (17.0k/s), 2856713 steps, memo 2.1 MiB"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	for i := 1; i < len(calls); i++ {
		if d := readings[i] - readings[i-1]; d < pace {
			t.Errorf("calls %d and %d of Progress %d readings of the clock apart, want at least %d", i-1, i, d, pace)
		}
	}
}

// TestCancelWorkers cancels a search on two workers from inside the move
// function and counts the calls made after it: each worker stops at its
// next step.
func TestCancelWorkers(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls, after atomic.Int64
	var m Mover[uint64] = WithCapabilities[uint64](MoveFunc[uint64](func(p uint64) ([]uint64, error) {
		if ctx.Err() != nil {
			after.Add(1)
		}
		if calls.Add(1) == 5000 {
			cancel()
		}
		return gridKayles{}.Moves(p)
	}), splitGrid{}.Components, splitGrid{}.Canonical)
	s, _ := NewSolver(m, Options{Workers: 2, Context: ctx})
	_, err := s.Grundy(grid(3, 20))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if n := after.Load(); n > 2 {
		t.Errorf("%d calls of the move function after the cancellation", n)
	}
}

func TestMaxMemoryWorkers(t *testing.T) {
	s, _ := NewSolver[uint64](splitGrid{}, Options{MaxMemory: 1 << 16, Workers: 2})
	_, err := s.Grundy(grid(3, 20))
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "memory limit of 64 KiB") {
		t.Fatalf("err = %v", err)
	}
}

func TestCycleWorkers(t *testing.T) {
	cyc := MoveFunc[int](func(n int) ([]int, error) { return []int{(n + 1) % 5, (n + 2) % 5}, nil })
	s, _ := NewSolver[int](cyc, Options{Workers: 2})
	var ce *CycleError[int]
	if _, err := s.Grundy(0); !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a CycleError", err)
	}
}

// TestWorkersAgree solves 3 × 1..14 on two workers, twice over on the
// same solver, against one worker.
func TestWorkersAgree(t *testing.T) {
	one, _ := NewSolver[uint64](splitGrid{}, Options{})
	two, _ := NewSolver[uint64](splitGrid{}, Options{Workers: 2})
	for n := 1; n <= 14; n++ {
		a, err := one.Grundy(grid(3, n))
		if err != nil {
			t.Fatal(err)
		}
		b, err := two.Grundy(grid(3, n))
		if err != nil || a != b {
			t.Fatalf("3 × %d: %d on one worker, %d, %v on two", n, a, b, err)
		}
	}
	if one.Len() != two.Len() {
		t.Errorf("memos of %d and %d parts", one.Len(), two.Len())
	}
}

func TestEstimate(t *testing.T) {
	// Small enough for the pilot: measured exactly.
	c, err := Estimate[uint64](splitGrid{}, grid(3, 6), Options{})
	if err != nil || !c.Exact || c.Steps != 1941 || c.Positions != 82 {
		t.Fatalf("3 × 6: %+v, %v", c, err)
	}
	// Three heaps of 30 in Nim: 31³ = 29791 positions, past the pilot.
	n3 := MoveFunc[[3]int](nim3)
	c, err = Estimate[[3]int](n3, [3]int{30, 30, 30}, Options{})
	if err != nil || c.Exact {
		t.Fatalf("nim 30 30 30: %+v, %v", c, err)
	}
	if r := float64(c.Positions) / 29791; r < 0.5 || r > 2 {
		t.Errorf("nim 30 30 30: %d positions predicted, 29791 solved", c.Positions)
	}
	if err := c.Check(Options{MaxSteps: 1000}); !errors.Is(err, ErrTooManySteps) || !strings.Contains(err.Error(), "step limit of 1000") {
		t.Errorf("Check against 1000 steps: %v", err)
	}
	if err := c.Check(Options{MaxPositions: 1000}); !errors.Is(err, ErrTooManyPositions) {
		t.Errorf("Check against 1000 positions: %v", err)
	}
	if err := c.Check(Options{MaxMemory: 1 << 20}); !errors.Is(err, budget.ErrMemory) {
		t.Errorf("Check against 1 MiB: %v", err)
	}
	if err := c.Check(Options{}); err != nil {
		t.Errorf("Check without limits: %v", err)
	}
	// The estimate honours the step budget and the context.
	if _, err := Estimate[[3]int](n3, [3]int{30, 30, 30}, Options{MaxSteps: 5000}); !errors.Is(err, ErrTooManySteps) {
		t.Errorf("estimate within 5000 steps: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Estimate[[3]int](n3, [3]int{30, 30, 30}, Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled estimate: %v", err)
	}
}

// TestDeepChainWorkers: a chain of a million moves (100000 in -short), split (into itself)
// and folded (onto itself) on two workers, needs no deep Go stack either.
func TestDeepChainWorkers(t *testing.T) {
	chain := WithCapabilities[int](MoveFunc[int](func(n int) ([]int, error) {
		if n == 0 {
			return nil, nil
		}
		return []int{n - 1}, nil
	}), func(n int) ([]int, error) { return []int{n}, nil }, func(n int) (int, error) { return n, nil })
	s, _ := NewSolver(chain, Options{Workers: 2})
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	g, err := s.Grundy(n)
	if err != nil || g != 0 {
		t.Fatalf("g = %d, %v; want 0", g, err)
	}
}

func TestBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"negative steps", Options{MaxSteps: -1}, "negative step budget"},
		{"negative workers", Options{Workers: -2}, "negative number of workers"},
		{"negative positions", Options{MaxPositions: -1}, "negative position budget"},
		{"unknown play", Options{Play: Play(7)}, "unknown play"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSolver[int](MoveFunc[int](func(int) ([]int, error) { return nil, nil }), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestForecast: from the steps of 3 × 1..15 Node Kayles on one shared
// solver, each term alone, the forecast of 3 × 16 is within 10% of it.
func TestForecast(t *testing.T) {
	s, _ := NewSolver[uint64](splitGrid{}, Options{})
	var work []int64
	for n := 1; n <= 16; n++ {
		before := s.Stats().Steps
		if _, err := s.Grundy(grid(3, n)); err != nil {
			t.Fatal(err)
		}
		work = append(work, s.Stats().Steps-before)
	}
	got, want := Forecast(work[:15]), work[15]
	if r := float64(got) / float64(want); r < 0.9 || r > 1.1 {
		t.Errorf("forecast of 3 × 16: %d steps, it took %d", got, want)
	}
	if Forecast([]int64{5}) != 0 || Forecast([]int64{0, 0, 7}) != 0 {
		t.Error("a forecast from fewer than two terms")
	}
	if got := Forecast([]int64{10, 20, 40}); got != 80 {
		t.Errorf("Forecast(10, 20, 40) = %d, want 80", got)
	}
}
