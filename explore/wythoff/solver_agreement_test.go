package wythoff_test

import (
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// symmetric is Wythoff's game folded by its symmetry: (a, b) and (b, a)
// are the same game with the heaps named the other way.
type symmetric struct{ game.Mover[[2]int] }

func (symmetric) Canonical(p [2]int) ([2]int, error) {
	return [2]int{min(p[0], p[1]), max(p[0], p[1])}, nil
}

// pair is the sum of two Wythoff games, (a, b) + (c, d); its parts are
// the two games, each folded by its symmetry.
type pair struct{}

func (pair) Moves(p [4]int) ([][4]int, error) {
	var out [][4]int
	for _, q := range wythoff.Moves([2]int{p[0], p[1]}) {
		out = append(out, [4]int{q[0], q[1], p[2], p[3]})
	}
	for _, q := range wythoff.Moves([2]int{p[2], p[3]}) {
		out = append(out, [4]int{p[0], p[1], q[0], q[1]})
	}
	return out, nil
}

func (pair) Components(p [4]int) ([][4]int, error) {
	return [][4]int{{p[0], p[1]}, {p[2], p[3]}}, nil
}

func (pair) Canonical(p [4]int) ([4]int, error) {
	a, b := min(p[0], p[1]), max(p[0], p[1])
	c, d := min(p[2], p[3]), max(p[2], p[3])
	if [2]int{c, d} != [2]int{0, 0} && (c < a || c == a && d < b) {
		a, b, c, d = c, d, a, b
	}
	return [4]int{a, b, c, d}, nil
}

// TestTableMatchesFoldedSolver checks the table (the fast fill) against
// the generic solver folding symmetric positions, on every cell of a
// 30 × 30 table, on one worker and two; the misère outcomes of the
// package against the folded solver on 20 × 20; and sums of two games
// against the nim-sum of the table's cells, on every (a, b) + (c, d)
// below 8, split into their two games by the solver.
func TestTableMatchesFoldedSolver(t *testing.T) {
	const n = 30
	tb, err := wythoff.NewTable(n, n)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		s, err := game.NewSolver[[2]int](symmetric{wythoff.Mover}, game.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		for a := range n {
			for b := range n {
				got, err := s.Grundy([2]int{a, b})
				if err != nil {
					t.Fatal(err)
				}
				if want := tb.At(a, b); got != want {
					t.Fatalf("%d workers: g(%d, %d) = %d, table %d", workers, a, b, got, want)
				}
			}
		}
	}
	ms, _ := game.NewSolver[[2]int](symmetric{wythoff.Mover}, game.Options{Play: game.Misere})
	for a := range 20 {
		for b := range 20 {
			got, err := ms.Outcome([2]int{a, b})
			if err != nil {
				t.Fatal(err)
			}
			want, err := wythoff.Outcome(a, b, game.Misere)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("misère (%d, %d): solver %v, package %v", a, b, got, want)
			}
		}
	}
	var samples [][4]int
	for a := range 3 {
		for c := range 3 {
			samples = append(samples, [4]int{a, 2, c, 1})
		}
	}
	if err := game.CheckCapabilities[[4]int](pair{}, samples, game.Options{}); err != nil {
		t.Fatal(err)
	}
	s, _ := game.NewSolver[[4]int](pair{}, game.Options{Workers: 2})
	for a := range 8 {
		for b := range 8 {
			for c := range 8 {
				for d := range 8 {
					got, err := s.Grundy([4]int{a, b, c, d})
					if err != nil {
						t.Fatal(err)
					}
					if want := tb.At(a, b) ^ tb.At(c, d); got != want {
						t.Fatalf("(%d, %d) + (%d, %d): solver %d, table %d", a, b, c, d, got, want)
					}
				}
			}
		}
	}
}
