package heap

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
)

// TestEstimateMethods: Estimate names the sweep Values uses for each kind
// of game, and Values returns the same values whichever it is.
func TestEstimateMethods(t *testing.T) {
	tests := []struct {
		g      Game
		upto   int
		method string
	}{
		{must(NewNim(0)), 100, SweepFormula},
		{must(NewSubtraction([]int{1, 3, 4})), 100, SweepPlain},
		{must(NewAllBut([]int{2, 3})), 100, SweepAllBut},
		{mustOctal(t, "0.33"), 100_000, SweepPlain},
		{mustOctal(t, "0.77"), 1000, SweepSets},
		{mustOctal(t, "0.6"), sparseTrial, SweepSets},
		{mustOctal(t, "0.6"), sparseTrial + 1, SweepSparse},
		{mustHex(t, "0.f"), 30_000, SweepSets},
		{NewGrundysGame(), 1000, SweepSplits},
		{NewGrundysGame(), sparseTrial + 1, SweepSparse},
	}
	for _, tc := range tests {
		t.Run(tc.g.String(), func(t *testing.T) {
			c, err := Estimate(tc.g, tc.upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if c.Method != tc.method || c.Memory < 8*int64(tc.upto+1) || c.Steps < float64(tc.upto) {
				t.Errorf("Estimate = %+v, want method %q, at least the values' memory and a step a heap", c, tc.method)
			}
		})
	}
	if _, err := Estimate(mustOctal(t, "0.6"), -1, Limits{}); err == nil {
		t.Error("negative upto: no error")
	}
	if _, err := Estimate(mustOctal(t, "0.6"), 1000, Limits{MaxPositions: 1000}); !errors.Is(err, game.ErrTooManyPositions) {
		t.Errorf("upto past the position limit: %v", err)
	}
}

// TestEstimateOfficers: the sparse estimate for Officers (0.6) follows the
// sweep: its split is the one of Flammenkamp's table (mask 10001), its
// steps are within a factor 2 of the sweep's own count, and its memory is
// the values kept twice (4 and 8 bytes a heap) plus little.
func TestEstimateOfficers(t *testing.T) {
	upto := 100_000
	if testing.Short() {
		upto = 40_000
	}
	g := mustOctal(t, "0.6")
	c, err := Estimate(g, upto, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Method != SweepSparse || !strings.HasPrefix(c.Detail, "range type, mask 10001: ") {
		t.Fatalf("Estimate = %v", c)
	}
	if lo, hi := 12*int64(upto+1), 12*int64(upto+1)+1<<20; c.Memory < lo || c.Memory > hi {
		t.Errorf("memory %d, want %d to %d", c.Memory, lo, hi)
	}
	p, err := g.plan(g, upto, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.sweep.finish(g, upto, Limits{}); err != nil {
		t.Fatal(err)
	}
	if r := c.Steps / float64(p.sweep.steps); r < 0.5 || r > 2 {
		t.Errorf("estimated %.3g steps, the sweep took %d", c.Steps, p.sweep.steps)
	}
}

// TestValuesRefusedFromEstimate: Values refuses a sweep whose estimate is
// over a limit before it starts, naming the limit.
func TestValuesRefusedFromEstimate(t *testing.T) {
	g := mustOctal(t, "0.6")
	_, err := g.Values(1<<20, Limits{MaxSteps: 1e8})
	if !errors.Is(err, ErrTooManySteps) || !strings.Contains(err.Error(), "more than the limit of 100000000") {
		t.Errorf("over the step limit: %v", err)
	}
	_, err = g.Values(10_000_000, Limits{MaxPositions: 1 << 30, MaxSteps: 1 << 50, MaxMemory: 110 << 20})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "(sparse-space sweep) needs about 114") {
		t.Errorf("over the memory limit: %v", err)
	}
}

// TestSparseProjectionStops: when the rare positions make the sweep
// dearer than the limit allows, it stops at its first projection rather
// than run out of steps later.
func TestSparseProjectionStops(t *testing.T) {
	g := mustOctal(t, "0.6")
	prefix, err := g.splitValues(g, sparseFrom, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := findSparse(prefix, NoDomain)
	if err != nil {
		t.Fatal(err)
	}
	const upto = 10_000_000
	w := newTestSweep(t, g, prefix, sp, upto)
	err = w.run(g, len(prefix), upto, upto, Limits{MaxSteps: 1e9}, true)
	want := "(projected at heap 20481, with 1582 rare positions), more than the limit of 1000000000"
	if !errors.Is(err, ErrTooManySteps) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error containing %q", err, want)
	}
}

// TestSparseProgressLabel: the progress line of the sparse-space sweep
// says which sweep runs and what it was estimated to need.
func TestSparseProgressLabel(t *testing.T) {
	p := budget.NewProgress()
	ctx := budget.WithProgress(context.Background(), p)
	g := mustOctal(t, "0.6")
	if _, err := g.Values(40_000, Limits{Context: ctx}); err != nil {
		t.Fatal(err)
	}
	s := p.Snapshot()
	if want := "octal 0.6: sparse-space sweep, mask 10001, about "; !strings.HasPrefix(s.Label, want) || !strings.Contains(s.Label, " KiB and ") || s.Total != 40_001 {
		t.Errorf("progress %q of %d, want a label starting %q, with the memory in KiB, of 40001", s.Label, s.Total, want)
	}
}
