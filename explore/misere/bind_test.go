package misere

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/sandbox"
	"github.com/nimbook/nimbook/explore/starrule"
)

// TestRuleInsideLimits: a Starlark rule's code runs inside the limits and
// the context of the misère analyses that list its options (issue 29,
// class 2): a rule that fails at a heap, or runs past the steps, stops
// the genus and the quotient with its error, where its heap was taken for
// one without moves; a cancelled context stops them before any call.
func TestRuleInsideLimits(t *testing.T) {
	dir := t.TempDir()
	src := "def kayles(n):\n    if n == 7:\n        fail(\"no seven\")\n    return [[n - t - k, k] for t in (1, 2) for k in range(0, (n - t) // 2 + 1) if n - t >= 0]\n" +
		"def spin(n):\n    while True:\n        n += 1\n"
	p := filepath.Join(dir, "r.star")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	kayles, err := starrule.Load(p, "kayles", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Below the failing heap the rule is Kayles: its genera are those of
	// the octal game 0.77 (cross-checked with the built-in rule).
	gs, err := Genera(context.Background(), kayles, 6, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Genera(context.Background(), octal(t, "0.77"), 6, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if gs[i].String() != want[i].String() {
			t.Errorf("genus of heap %d: %v, want %v (0.77)", i, gs[i], want[i])
		}
	}
	for _, tc := range []struct {
		name string
		run  func(g heap.Game, steps int64) error
	}{
		{"genus", func(g heap.Game, steps int64) error {
			_, err := Genera(context.Background(), g, 10, heap.Limits{MaxSteps: steps})
			return err
		}},
		{"quotient", func(g heap.Game, steps int64) error {
			_, err := NewQuotient(context.Background(), g, 10, heap.Limits{MaxSteps: steps}, nil)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(kayles, 1<<30)
			if err == nil || !strings.Contains(err.Error(), "kayles(7)") || !strings.Contains(err.Error(), "no seven") {
				t.Fatalf("%s of a rule failing at 7: %v", tc.name, err)
			}
			spin, err := starrule.Load(p, "spin", nil)
			if err != nil {
				t.Fatal(err)
			}
			err = tc.run(spin, 1_000_000)
			if !errors.Is(err, sandbox.ErrSteps) && !errors.Is(err, heap.ErrTooManySteps) {
				t.Fatalf("%s of a rule that never ends: %v", tc.name, err)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	spin, _ := starrule.Load(p, "spin", nil)
	if _, err := Genera(ctx, spin, 10, heap.Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("genus in a cancelled context: %v", err)
	}
}

// TestEstimateQuotientSaturates: the estimate of a quotient over heaps of
// millions saturates instead of wrapping round (issue 29, class 10): a
// larger piece of work never looks smaller.
func TestEstimateQuotientSaturates(t *testing.T) {
	steps, bytes := EstimateQuotient(octal(t, "0.07"), 5_000_000)
	if steps <= 0 || bytes <= 0 {
		t.Fatalf("EstimateQuotient(0.07, 5e6) = %d steps, %d bytes", steps, bytes)
	}
	small, _ := EstimateQuotient(octal(t, "0.07"), 100)
	if steps < small {
		t.Errorf("5e6 heaps estimated at %d steps, fewer than 100 heaps' %d", steps, small)
	}
}
