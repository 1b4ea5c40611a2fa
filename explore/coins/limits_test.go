package coins

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/internal/stopcheck"
)

// TestCancelValues stops a computation of many seconds (exactly 10 on 64
// coins) at the first check after the cancellation, with its cause: the
// context cancels itself at the work's n-th check, and the values counted
// after are none.
func TestCancelValues(t *testing.T) {
	for _, at := range []int64{1, 10, 30} {
		ctx := stopcheck.At(budget.WithProgress(context.Background(), budget.NewProgress()), at, errors.New("interrupted"))
		_, err := mustNew(t, Exactly, 10, 1).WithLimits(Limits{MaxMemory: 4 << 30, Context: ctx}).Values(64)
		if !ctx.Cancelled() {
			t.Fatalf("check %d: finished after %d checks: %v", at, ctx.Checks(), err)
		}
		if err == nil || err.Error() != "coins: interrupted" || !errors.Is(err, context.Canceled) {
			t.Errorf("check %d: cancelled values: %v", at, err)
		}
		if ctx.DoneAfter() > 0 || ctx.ChecksAfter() > 10 {
			t.Errorf("check %d: %d values and %d checks after the cancel", at, ctx.DoneAfter(), ctx.ChecksAfter())
		}
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	g := mustNew(t, AtMost, 3, 1).WithLimits(Limits{Context: done})
	if _, err := g.Values(30); !errors.Is(err, context.Canceled) {
		t.Errorf("values, cancelled: %v", err)
	}
	if _, err := g.Outcome(16, []int{16}, game.Misere); !errors.Is(err, context.Canceled) {
		t.Errorf("misère outcome, cancelled: %v", err)
	}
	p, err := NewProduct(mustNew(t, AtMost, 2, 1), mustNew(t, AtMost, 2, 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.WithLimits(Limits{Context: done}).Table(100, 100); !errors.Is(err, context.Canceled) {
		t.Errorf("product table, cancelled: %v", err)
	}
}

// TestMemoryRefusals: work over the memory limit is refused before it
// starts, naming the limit, and still wraps ErrLimit.
func TestMemoryRefusals(t *testing.T) {
	lim := Limits{MaxMemory: 1 << 20, MaxSteps: 1 << 40}
	p, err := NewProduct(mustNew(t, AtMost, 2, 1), mustNew(t, AtMost, 2, 1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.WithLimits(lim).Table(1000, 1000)
	if !errors.Is(err, budget.ErrMemory) || !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "coins: a 1000×1000 table needs about 7.7 MiB, more than the memory limit of 1 MiB (raise it with --max-memory or limits.memory)") {
		t.Errorf("product table: %v", err)
	}
	_, err = mustNew(t, Exactly, 8, 1).WithLimits(lim).Values(64)
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "exactly 8 on 64 coins (values of") {
		t.Errorf("exactly 8 values: %v", err)
	}
	_, err = mustNew(t, AtMost, 12, 1).WithLimits(lim).Moves(64, []int{64})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "listing the") {
		t.Errorf("moves: %v", err)
	}
	// Under the limit, the bitsets stay within it: Golay in 64 KiB beside
	// the program's own reserve.
	if _, err := mustNew(t, AtMost, 7, 1).WithLimits(Limits{MaxMemory: budget.Reserve + 64<<10}).Values(24); err != nil {
		t.Errorf("Golay values in 64 KiB: %v", err)
	}
}
