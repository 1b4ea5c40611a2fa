package starrule

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// TestWithinSteps: the options an analysis lists through Within are
// computed within its step budget, shared by its calls (issue 29, class
// 9: a runaway rule had positions × 100 = 10^10 steps): each call has what
// is left, CallSteps at most, and the first that runs past it stops the
// analysis with its error, which names the function, the heap and the
// line.
func TestWithinSteps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "spin.star")
	// Heap n spins 330000·n + 23 steps (counted): heap 1 fits in the
	// budget of 600000, heap 2 not in the 269977 left.
	src := "def spin(n):\n    x = 0\n    for i in range(n * 30000):\n        x += i\n    return [[n - 1]] if n else []\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Load(p, "spin", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, b, release := g.Within(context.Background(), heap.Limits{MaxSteps: 600_000})
	defer release()
	if o := b.Options(1); len(o) != 1 {
		t.Fatalf("Options(1) = %v", o)
	}
	if o := b.Options(1); len(o) != 1 {
		t.Fatalf("Options(1) again (kept) = %v", o)
	}
	if o := b.Options(2); o != nil {
		t.Fatalf("Options(2) past the budget = %v", o)
	}
	err = budget.Err(ctx)
	if err == nil || !errors.Is(err, sandbox.ErrSteps) || !strings.Contains(err.Error(), "spin(2)") || !strings.Contains(err.Error(), "spin.star:") || !strings.Contains(err.Error(), "budget of 269977 steps") {
		t.Fatalf("the analysis's context: %v; want spin(2) past the 269977 steps left", err)
	}
	if errors.Is(err, context.Canceled) && !errors.Is(err, sandbox.ErrSteps) {
		t.Fatal("stopped as if interrupted")
	}
	if b.(interface{ Err() error }).Err() == nil {
		t.Error("Err() is nil after the rule failed")
	}
	// Released, the game lists options as it always did.
	release()
	if o, err := b.(heap.Game).(interface {
		OptionsErr(int) ([][]int, error)
	}).OptionsErr(3); len(o) != 1 || err != nil {
		t.Errorf("Options(3) after release = %v, %v", o, err)
	}
}

// TestWithinError: a rule's error stops the analysis that asked for the
// options (its context is cancelled with the error), where nil options
// would have been taken for a heap without moves.
func TestWithinError(t *testing.T) {
	g := loadRule(t, "broken.star", "fails", nil)
	ctx, b, release := g.Within(context.Background(), heap.Limits{})
	defer release()
	for n := 0; n < 3; n++ {
		if o := b.Options(n); len(o) != n {
			t.Fatalf("Options(%d) = %v", n, o)
		}
	}
	if o := b.Options(3); o != nil {
		t.Fatalf("Options(3) = %v, want nil", o)
	}
	if err := budget.Err(ctx); err == nil || !strings.Contains(err.Error(), "fails(3)") || !strings.Contains(err.Error(), "broken.star:20") {
		t.Fatalf("context: %v", err)
	}
	if o := b.Options(4); o != nil {
		t.Errorf("Options(4) after the error = %v, want nil", o)
	}
}

// TestWithinCancel: the context given to Within stops a call of the rule
// that would run for 10^9 steps; the steps it ran after are counted.
func TestWithinCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var th *starlark.Thread
	threads := func(ctx context.Context, lim sandbox.Limits) (*starlark.Thread, func()) {
		var release func()
		th, release = sandbox.NewThread(ctx, "slow", lim)
		th.Print = func(*starlark.Thread, string) { cancel() } // as the loop starts
		return th, release
	}
	slow := loadRule(t, "broken.star", "slow", nil)
	g, err := FromCallable(slow.fn, nil, threads)
	if err != nil {
		t.Fatal(err)
	}
	bctx, b, release := g.Within(ctx, heap.Limits{MaxSteps: 1 << 40})
	defer release()
	if o := b.Options(5); o != nil {
		t.Fatalf("Options(5) = %v", o)
	}
	if err := budget.Err(bctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("context: %v", err)
	}
	if steps := th.ExecutionSteps(); steps > 1e8 {
		t.Errorf("the loop ran %d steps after the cancel", steps)
	}
}
