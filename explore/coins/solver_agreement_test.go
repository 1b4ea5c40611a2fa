package coins

import (
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// headParts is a coin-turning game for the generic solver with its one
// capability: a row's parts are its heads, each alone on the row (the
// value of a row is the nim-sum of its heads' values, Winning Ways ch. 14).
type headParts struct{ game.Mover[uint64] }

func (headParts) Components(p uint64) ([]uint64, error) {
	var out []uint64
	for ; p != 0; p &= p - 1 {
		out = append(out, p&-p)
	}
	return out, nil
}

// TestValuesMatchSplitSolver checks, for every rule with r = 1..4 and
// both numberings, the package's single-head values (Values) and row
// values (RowValue) against the generic solver splitting rows into heads,
// on every row of up to 10 coins (8 in -short), on one worker and on two;
// and checks the splitting itself against the solver of whole rows
// (game.CheckCapabilities) on rows of up to 6 coins.
func TestValuesMatchSplitSolver(t *testing.T) {
	maxN := 10
	if testing.Short() {
		maxN = 8
	}
	for _, g := range allGames(t, 4) {
		t.Run(g.String(), func(t *testing.T) {
			m, err := g.Mover(maxN)
			if err != nil {
				t.Fatal(err)
			}
			split := headParts{m}
			var samples []uint64
			for p := uint64(0); p < 1<<6; p++ {
				samples = append(samples, p)
			}
			if err := game.CheckCapabilities[uint64](split, samples, game.Options{}); err != nil {
				t.Fatal(err)
			}
			vs, err := g.Values(maxN)
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2} {
				s, err := game.NewSolver[uint64](split, game.Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				for i, want := range vs {
					got, err := s.Grundy(1 << i)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Fatalf("%d workers, head on coin %d: solver %d, Values %d", workers, i+g.First(), got, want)
					}
				}
				for p := uint64(0); p < 1<<maxN; p++ {
					got, err := s.Grundy(p)
					if err != nil {
						t.Fatal(err)
					}
					want, err := g.RowValue(g.Heads(p))
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Fatalf("%d workers, row %v: solver %d, RowValue %d", workers, g.Heads(p), got, want)
					}
				}
			}
		})
	}
}
