package job

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/record"
)

// TestProductAnalysisAgainstSolver plays random games on small tartan
// products and checks that the analysis from the heads' values (what the
// runner uses under normal play) agrees with record.Analyse, which runs the
// generic solver on every position of the grid.
func TestProductAnalysisAgainstSolver(t *testing.T) {
	mk := func(rule coins.Rule, r, first int) *coins.Game {
		g, err := coins.New(rule, r, first)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	cases := []struct {
		name    string
		factors []*coins.Game
		sizes   []int
	}{
		{"nim × nim 3×4", []*coins.Game{mk(coins.AtMost, 2, 1), mk(coins.AtMost, 2, 1)}, []int{3, 4}},
		{"ruler × at-most 3, 3×3", []*coins.Game{mk(coins.Ruler, 0, 1), mk(coins.AtMost, 3, 1)}, []int{3, 3}},
		{"twins × twins from 0, 3×3", []*coins.Game{mk(coins.Exactly, 2, 0), mk(coins.Exactly, 2, 0)}, []int{3, 3}},
		{"three factors 2×2×3", []*coins.Game{mk(coins.AtMost, 2, 1), mk(coins.AtMost, 1, 1), mk(coins.Ruler, 0, 1)}, []int{2, 2, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := coins.NewProduct(tc.factors...)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.Mover(tc.sizes...)
			if err != nil {
				t.Fatal(err)
			}
			cells := 1
			for _, s := range tc.sizes {
				cells *= s
			}
			rng := rand.New(rand.NewPCG(1, uint64(cells)))
			mistakes := 0
			for game_ := 0; game_ < 40; game_++ {
				masks := []uint64{rng.Uint64N(1<<cells-1) + 1}
				for {
					next, err := m.Moves(masks[len(masks)-1])
					if err != nil {
						t.Fatal(err)
					}
					if len(next) == 0 {
						break
					}
					masks = append(masks, next[rng.IntN(len(next))])
				}
				if game_%5 == 4 && len(masks) > 2 { // an illegal move: a position repeated
					masks = append(masks[:2], masks[0])
				}
				got, err := productAnalysis(p, tc.sizes, m, masks)
				if err != nil {
					t.Fatal(err)
				}
				want, err := record.Analyse(m, masks, record.Options{Play: game.Normal})
				if err != nil {
					t.Fatal(err)
				}
				if got.Illegal != want.Illegal || got.Over != want.Over || got.Winner != want.Winner || len(got.Moves) != len(want.Moves) {
					t.Fatalf("game %v: got illegal %d over %v winner %d (%d moves), want %d %v %d (%d)", masks,
						got.Illegal, got.Over, got.Winner, len(got.Moves), want.Illegal, want.Over, want.Winner, len(want.Moves))
				}
				for i := range got.Moves {
					g, w := got.Moves[i], want.Moves[i]
					slices.Sort(g.Missed)
					slices.Sort(w.Missed)
					if !reflect.DeepEqual(g, w) {
						t.Fatalf("game %v move %d:\n got %+v\nwant %+v", masks, i, g, w)
					}
					if g.Mistake {
						mistakes++
					}
				}
			}
			if mistakes == 0 {
				t.Error("no random game had a mistake: the comparison of missed moves never ran")
			}
		})
	}
}

// TestProductRecord runs a record of seed 000's Nim × Nim from a job file.
// With at most 2 coins from 1, f(n) = n, so heads at (2,4) and (6,6) are
// worth 2 ⊗ 4 = 8 and 6 ⊗ 6 = 5: an N-position. Turning (6,6) alone
// leaves (2,4), still N (a mistake); the reply turning (2,4) wins.
func TestProductRecord(t *testing.T) {
	src := `sections:
  - game: {product: {factors: [{rule: at-most, r: 2}, {rule: at-most, r: 2}], size: [7, 7]}}
    show: [record]
    record:
      - [[2, 4], [6, 6]]
      - [[2, 4]]
      - []
`
	rep, err := runSrc(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := rep.Sections[0].Results.Record
	if rec == nil || len(rec.Moves) != 2 || rec.Mistakes != 1 || rec.Winner != 2 {
		t.Fatalf("record %+v", rec)
	}
	first := rec.Moves[0]
	if !first.Mistake || first.Before != "N" || first.After != "N" {
		t.Errorf("first move %+v", first)
	}
	missed, _ := first.Missed.([]any)
	if len(missed) != 5 {
		t.Errorf("missed %v, want the 5 winning moves of the hint", first.Missed)
	}
	// A repeated position is an illegal move, reported by its rank.
	bad := `sections:
  - game: {product: {factors: [{rule: at-most, r: 2}, {rule: at-most, r: 2}], size: [3, 3]}}
    show: [record]
    record: [[[1, 1]], [[1, 1]]]
`
	rep, err = runSrc(t, bad, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec := rep.Sections[0].Results.Record; rec.Illegal != 1 {
		t.Errorf("illegal %d, want 1", rec.Illegal)
	}
}
