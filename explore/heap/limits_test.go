package heap

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/internal/stopcheck"
)

func limitGames(t *testing.T) []Game {
	t.Helper()
	var gs []Game
	for _, k := range []int{0, 3} {
		g, err := NewNim(k)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	for _, s := range []string{"0.07", "0.77", "4.37", "0.137", "0.6"} {
		g, err := ParseOctal(s)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	for _, s := range []string{"0.f", "0.8", "0.b4"} {
		g, err := ParseHex(s)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	sub, _ := NewSubtraction([]int{1, 3, 4})
	allBut, _ := NewAllBut([]int{2, 5})
	return append(gs, sub, allBut, NewGrundysGame())
}

// TestOptionCount checks the counted options against the listed ones.
func TestOptionCount(t *testing.T) {
	for _, g := range limitGames(t) {
		for n := range 60 {
			got, ok := optionCount(g, n)
			if want := len(g.Options(n)); !ok || got != int64(want) {
				t.Errorf("%v, heap %d: optionCount = %d, %v; Options lists %d", g, n, got, ok, want)
			}
		}
	}
}

// TestHugeHeapsRefused: heaps of 2^31 − 1 have billions of moves, which
// must be refused before they are listed, in every entry point.
func TestHugeHeapsRefused(t *testing.T) {
	nim, _ := NewNim(0)
	hex, _ := ParseHex("0.f")
	huge := []int{1<<31 - 1, 5}
	if _, err := Moves(nim, huge, Limits{}); !errors.Is(err, game.ErrTooManyPositions) || !strings.Contains(err.Error(), "more than 10000000 moves") {
		t.Errorf("Moves: %v", err)
	}
	m, err := NewMultiset(huge...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MultisetMover(nim).Moves(m); !errors.Is(err, game.ErrTooManyPositions) {
		t.Errorf("MultisetMover: %v", err)
	}
	if _, err := WinningMoves(hex, []int{1 << 20}, game.Misere, Limits{}); !errors.Is(err, game.ErrTooManyPositions) {
		t.Errorf("misère WinningMoves: %v", err)
	}
	_, err = Moves(nim, []int{1 << 20}, Limits{MaxMemory: 1 << 20})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "listing the 1048576 moves of [1048576] needs about 80 MiB, more than the memory limit of 1 MiB") {
		t.Errorf("Moves over memory: %v", err)
	}
}

func TestValuesMemory(t *testing.T) {
	sub, _ := NewSubtraction([]int{1, 2})
	_, err := sub.Values(10_000_000, Limits{MaxPositions: 1 << 30, MaxMemory: 64 << 20})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "computing the values of subtraction {1,2} up to 10000000 needs about 76.3 MiB, more than the memory limit of 64 MiB") {
		t.Errorf("values over memory: %v", err)
	}
	kayles, _ := ParseHex("0.f")
	_, err = kayles.Values(2_000_000, Limits{MaxPositions: 1 << 30, MaxSteps: 1 << 62, MaxMemory: 32 << 20})
	if !errors.Is(err, budget.ErrMemory) {
		t.Errorf("hex sets over memory: %v", err)
	}
}

// TestCancelSweeps stops long value sweeps at the first check after the
// cancellation: the context cancels itself at the sweep's n-th check, and
// the sweep counts no heap after (its progress) and checks a few times at
// most on the way out, however loaded the machine.
func TestCancelSweeps(t *testing.T) {
	hex, _ := ParseHex("0.f")
	oct, _ := ParseOctal("0.6")
	for _, g := range []Game{hex, oct, NewGrundysGame()} {
		for _, at := range []int64{1, 20, 200} {
			ctx := stopcheck.At(budget.WithProgress(context.Background(), budget.NewProgress()), at, errors.New("interrupted"))
			_, err := g.Values(3_000_000, Limits{MaxPositions: 1 << 30, MaxSteps: 1 << 62, Context: ctx})
			if !ctx.Cancelled() {
				t.Fatalf("%v, check %d: finished after %d checks: %v", g, at, ctx.Checks(), err)
			}
			if err == nil || err.Error() != "heap: interrupted" || !errors.Is(err, context.Canceled) {
				t.Errorf("%v, check %d: %v", g, at, err)
			}
			if ctx.DoneAfter() > 0 || ctx.ChecksAfter() > 10 {
				t.Errorf("%v, check %d: %d heaps and %d checks after the cancel", g, at, ctx.DoneAfter(), ctx.ChecksAfter())
			}
		}
	}
}
