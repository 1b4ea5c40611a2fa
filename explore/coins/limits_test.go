package coins

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
)

// TestCancelValues stops a computation of many seconds (exactly 10 on 64
// coins) soon after the cancellation, with its cause.
func TestCancelValues(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(50*time.Millisecond, func() { cancel(errors.New("interrupted")) })
	start := time.Now()
	_, err := mustNew(t, Exactly, 10, 1).WithLimits(Limits{MaxMemory: 4 << 30, Context: ctx}).Values(64)
	if err == nil || err.Error() != "coins: interrupted" || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled values: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("stopped after %v", d)
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
