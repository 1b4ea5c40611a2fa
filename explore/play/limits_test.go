package play

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// The winning moves found from the Beatty pairs are those of the listing
// filtered by outcome, on every position up to 60×60, and beyond the
// float precision near 2^40.
func TestWythoffWinningMatchesListing(t *testing.T) {
	w, err := NewWythoff(game.Normal, wythoff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref := func(p []int) [][]int {
		ms, err := w.Moves(p)
		if err != nil {
			t.Fatal(err)
		}
		win, err := filterWinning(ms, w.Outcome)
		if err != nil {
			t.Fatal(err)
		}
		if win == nil {
			win = [][]int{}
		}
		return win
	}
	for a := range 60 {
		for b := range 60 {
			p := []int{a, b}
			got, err := w.WinningMoves(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := ref(p); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%v: got %v, want %v", p, got, want)
			}
		}
	}
	// Far out, every move found is winning, and from an N-position there
	// is one.
	for _, p := range [][]int{{1 << 40, 1 << 40}, {1<<40 - 7, 1 << 39}, {123456789, 987654321}, {0, 1 << 40}} {
		got, err := w.WinningMoves(p)
		if err != nil {
			t.Fatal(err)
		}
		o, _ := w.Outcome(p)
		if (o == game.N) != (len(got) > 0) {
			t.Errorf("%v is %v with winning moves %v", p, o, got)
		}
		for _, q := range got {
			if o, _ := w.Outcome(q); o != game.P {
				t.Errorf("%v → %v: not a P-position", p, q)
			}
		}
	}
}

// Random and largest moves are moves of the game, and a random move can
// be any of them.
func TestLargeMovers(t *testing.T) {
	w, _ := NewWythoff(game.Normal, wythoff.Options{})
	nim, _ := newNim(0, game.Normal)
	bounded, _ := newNim(2, game.Normal)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		g Game
		p []int
	}{{w, []int{3, 5}}, {w, []int{0, 4}}, {nim, []int{1, 3, 5}}, {bounded, []int{4, 0, 3}}} {
		ms, err := tc.g.Moves(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for range 2000 {
			q, err := tc.g.(randomMover).randomMove(tc.p, rng)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := findMove(ms, q); !ok {
				t.Fatalf("%v: random move %v is not a move", tc.p, q)
			}
			seen[formatPos(q)] = true
		}
		if len(seen) != len(ms) {
			t.Errorf("%v %v: random moves reached %d of %d moves", tc.g, tc.p, len(seen), len(ms))
		}
		if lm, ok := tc.g.(largeMover); ok {
			if n := lm.moveCount(tc.p); n != float64(len(ms)) {
				t.Errorf("%v: moveCount %v, want %d", tc.p, n, len(ms))
			}
			for _, q := range lm.largestMoves(tc.p, 4) {
				if _, ok := findMove(ms, q); !ok {
					t.Errorf("%v: largest move %v is not a move", tc.p, q)
				}
			}
		}
	}
}

// A huge Wythoff position is played without listing its moves; misère
// play of one is refused before the game, naming the limit and the flag.
func TestWythoffLimits(t *testing.T) {
	w, _ := NewWythoff(game.Normal, wythoff.Options{MaxCells: 1000})
	p := []int{100_000_000, 100_000_000}
	if err := w.Check(p); err != nil {
		t.Fatal(err)
	}
	opp := NewOpponent(w, Perfect, 1)
	if q, err := opp.Move([]int{100_000_000, 161_803_399}); err != nil || len(q) != 2 {
		t.Errorf("move from a huge position: %v %v", q, err)
	}
	if _, err := w.Moves(p); !IsRefusal(err) {
		t.Errorf("listing 3×10^8 moves: err = %v, want a refusal", err)
	}
	m, _ := NewWythoff(game.Misere, wythoff.Options{MaxCells: 1000})
	err := m.Check([]int{100, 100})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "--max-positions") || !strings.Contains(err.Error(), "1000") {
		t.Errorf("misère 100×100 under 1000 cells: %v", err)
	}
}

func TestNegativeMoves(t *testing.T) {
	h, _ := NewHeaps(mustNim(t), game.Normal, heap.Limits{})
	for _, s := range []string{"-1 -1", "1 -1", "(1,-3)"} {
		_, err := h.ParseMove([]int{2, 2}, s)
		if !IsIllegal(err) || !strings.Contains(err.Error(), "negative") {
			t.Errorf("%q: err = %v, want negative refused", s, err)
		}
	}
	if q, err := h.ParseMove([]int{2, 2}, "1-1"); err != nil || !slices.Equal(q, []int{1, 2}) {
		t.Errorf("1-1: %v %v, want (1,2)", q, err)
	}
}

func mustNim(t *testing.T) heap.Game {
	g, err := heap.NewNim(0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
