package heap

import (
	"slices"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

func TestPPositionsSeed001(t *testing.T) {
	// seed 001 (Degraeve), section 3: « le jeu de nim possède un total de
	// 384 positions dont 48 sont perdantes » (ordered tuples ≤ (1,3,5,7)).
	set, err := (&Nim{}).PPositions([]int{1, 3, 5, 7}, game.Normal, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if set.Total != 384 || set.Count != 48 || len(set.List) != 48 {
		t.Errorf("total %d, count %d, listed %d; want 384, 48, 48", set.Total, set.Count, len(set.List))
	}
	if !slices.IsSortedFunc(set.List, slices.Compare) {
		t.Error("list not sorted")
	}
	if !slices.Equal(set.List[0], []int{0, 0, 0, 0}) || !slices.Equal(set.List[47], []int{1, 3, 5, 7}) {
		t.Errorf("first %v, last %v", set.List[0], set.List[47])
	}
}

// P-position counts of every family of Nim against the generic solver.
func TestPPositionsAgainstSolver(t *testing.T) {
	bounds := [][]int{{1, 3, 5, 7}, {2, 2, 2}, {4, 6}, {1, 1, 1, 1}, {9}, {}}
	for _, k := range []int{0, 1, 2, 3} {
		g := must(NewNim(k))
		for _, play := range []game.Play{game.Normal, game.Misere} {
			s, _ := game.NewSolver[tupleKey](tupleMover(g), game.Options{Play: play})
			for _, b := range bounds {
				set, err := g.PPositions(b, play, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				var want [][]int
				total := 0
				for _, p := range boxed(b) {
					total++
					if o, _ := s.Outcome(keyOf(p)); o == game.P {
						want = append(want, p)
					}
				}
				if set.Total != total || set.Count != len(want) || !slices.EqualFunc(set.List, want, slices.Equal) {
					t.Errorf("%v %v %v: total %d count %d %v; solver %d %d %v", g, play, b, set.Total, set.Count, set.List, total, len(want), want)
				}
				if k == 0 && play == game.Misere && slices.Equal(b, []int{1, 3, 5, 7}) {
					t.Logf("misère Nim ≤ (1,3,5,7): %d P-positions of %d", set.Count, set.Total)
				}
			}
		}
	}
}

// boxed lists the tuples 0 ≤ a_i ≤ b_i in lexicographic order.
func boxed(b []int) [][]int {
	out := [][]int{{}}
	for _, h := range b {
		var next [][]int
		for _, p := range out {
			for x := 0; x <= h; x++ {
				next = append(next, append(slices.Clone(p), x))
			}
		}
		out = next
	}
	return out
}

func TestPPositionsLimits(t *testing.T) {
	g := &Nim{}
	if _, err := g.PPositions([]int{99, 99, 99}, game.Normal, Limits{MaxPositions: 1000}); err == nil {
		t.Error("no error beyond the limit")
	}
	if _, err := g.PPositions([]int{1, -1}, game.Normal, Limits{}); err == nil {
		t.Error("negative heap accepted")
	}
	set, err := g.PPositions([]int{31, 31, 31}, game.Normal, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// a ⊕ b ⊕ c = 0 with a, b < 32: c is fixed by a and b, 32² tuples.
	if set.Count != 1024 || set.List != nil {
		t.Errorf("count %d, listed %d; want 1024 and no list (more than %d)", set.Count, len(set.List), MaxListed)
	}
}

func TestNimHugeHeaps(t *testing.T) {
	// Formulas only: no option list of a heap of a billion is built.
	heaps := []int{1_000_000_000, 3, 999_999_999}
	moves, err := WinningMoves(&Nim{}, heaps, game.Misere, Limits{})
	if err != nil || len(moves) != 1 {
		t.Fatalf("%v %v", moves, err)
	}
	if g, _ := Grundy(&Nim{}, moves[0], Limits{}); g != 0 {
		t.Errorf("move to %v, value %d", moves[0], g)
	}
}
