package play

import (
	"testing"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// fuzzParse checks that whatever is typed, ParseMove either refuses it as an
// illegal move or returns one of the position's moves.
func fuzzParse(f *testing.F, g Game, p []int, seeds []string) {
	moves, err := g.Moves(p)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := g.ParseMove(p, s)
		if err != nil {
			if !IsIllegal(err) {
				t.Fatalf("%q: %v is not an IllegalMove", s, err)
			}
			return
		}
		if _, ok := findMove(moves, q); !ok {
			t.Fatalf("%q from %v gave %v, not a move", s, p, q)
		}
	})
}

func FuzzParseHeaps(f *testing.F) {
	kayles, _ := heap.ParseOctal("0.77")
	g, _ := NewHeaps(kayles, game.Normal, heap.Limits{})
	fuzzParse(f, g, []int{7, 0, 4}, []string{"1 1", "1 1 2 4", "(7,0,1,2)", "3 4", "2 1", "1 0 3 4", "x", "1,,2", "[", "99999999999999999999 1", "-1 -1", "3 -2", "1-1", "(-7,0,4)"})
}

func FuzzParseWythoff(f *testing.F) {
	g, _ := NewWythoff(game.Normal, wythoff.Options{})
	fuzzParse(f, g, []int{7, 12}, []string{"a 3", "both 7", "(4,9)", "4 9", "b 13", "ab0", "(8,12)"})
}

func FuzzParseCoins(f *testing.F) {
	rule, _ := coins.New(coins.AtMost, 3, 1)
	g, _ := NewCoins(rule, 10, game.Normal)
	fuzzParse(f, g, []int{2, 5, 9}, []string{"9 4 1", "5", "(2,5)", "10", "9 9", "0", "()"})
}

// BenchmarkWinningMoves compares the family's fast winning moves with the
// reference: every move's outcome from the generic solver.
func BenchmarkWinningMoves(b *testing.B) {
	kayles, _ := heap.ParseOctal("0.77")
	g, _ := NewHeaps(kayles, game.Normal, heap.Limits{})
	p := []int{9, 7, 5}
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.WinningMoves(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			s, _ := game.NewSolver(heap.MultisetMover(kayles), game.Options{})
			ms, _ := g.Moves(p)
			for _, m := range ms {
				ps, _ := heap.NewMultiset(m...)
				if _, err := s.Outcome(ps); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkOpponent measures a computer move from a P-position, where it
// looks one exchange ahead.
func BenchmarkOpponent(b *testing.B) {
	sub, _ := heap.NewSubtraction([]int{1, 3, 4})
	g, _ := NewHeaps(sub, game.Normal, heap.Limits{})
	nim, _ := newNim(0, game.Normal)
	b.Run("subtraction/prolong", func(b *testing.B) {
		o := NewOpponent(g, Perfect, 1)
		for b.Loop() {
			if _, err := o.Move([]int{14, 21, 7}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("nim/winning", func(b *testing.B) {
		o := NewOpponent(nim, Perfect, 1)
		for b.Loop() {
			if _, err := o.Move([]int{100, 200, 300, 401}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
