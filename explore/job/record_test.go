package job

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
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
				played := make([][][]int, len(masks))
				for i, mask := range masks {
					played[i] = p.Heads(tc.sizes, mask)
				}
				got, table, err := productAnalysis(p, played)
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
				maskOf := func(i int) uint64 {
					mask, err := p.Mask(tc.sizes, table[i])
					if err != nil {
						t.Fatal(err)
					}
					return mask
				}
				for i := range got.Moves {
					g, w := got.Moves[i], want.Moves[i]
					var missed []uint64
					for _, k := range g.Missed {
						missed = append(missed, maskOf(k))
					}
					slices.Sort(missed)
					slices.Sort(w.Missed)
					if maskOf(g.From) != w.From || maskOf(g.To) != w.To || g.Legal != w.Legal || g.Before != w.Before ||
						g.After != w.After || g.GrundyBefore != w.GrundyBefore || g.GrundyAfter != w.GrundyAfter ||
						g.Mistake != w.Mistake || g.Player != w.Player || !slices.Equal(missed, w.Missed) {
						t.Fatalf("game %v move %d:\n got %+v (missed %v)\nwant %+v", masks, i, g, missed, w)
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

// TestProductRecordLargeGrid: under normal play a record on a grid of more
// than 64 cells is analysed from the values (seed 000: Nim × Nim, a head at
// (a, b) worth a ⊗ b). Heads at (9,9) and (10,10): 9 ⊗ 9 = 13 and
// 10 ⊗ 10 = 14, an N-position; turning (10,10) alone is a mistake.
func TestProductRecordLargeGrid(t *testing.T) {
	src := `sections:
  - game: {product: {factors: [{rule: at-most, r: 2}, {rule: at-most, r: 2}], size: [12, 12]}}
    show: [record]
    record:
      - [[9, 9], [10, 10]]
      - [[9, 9]]
      - []
`
	rep, err := runSrc(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := rep.Sections[0].Results.Record
	if rec == nil || len(rec.Moves) != 2 || rec.Mistakes != 1 || !rec.Moves[0].Mistake || rec.Winner != 2 {
		t.Fatalf("record %+v", rec)
	}
	if to, _ := rec.Moves[0].To.([][]int); !reflect.DeepEqual(to, [][]int{{9, 9}}) {
		t.Errorf("to %v", rec.Moves[0].To)
	}
	// Misère play needs the whole grid: refused with the limit named.
	_, err = runSrc(t, strings.Replace(src, "size: [12, 12]}}", "size: [12, 12], play: misere}}", 1), Options{})
	if err == nil || !strings.Contains(err.Error(), "64 cells") {
		t.Errorf("misère on 144 cells: %v", err)
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
