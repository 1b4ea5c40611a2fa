package stargame

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// gamesFile is examples/games.star, the games the README and the handout
// show.
var gamesFile = filepath.Join("..", "..", "examples", "games.star")

// TestGeneralizedWythoff: wythoff_like of examples/games.star with d = 1
// (take k and l from both heaps with |k − l| < 1, that is k = l) is
// Wythoff's game: equal to package wythoff's table on every cell of
// 30 × 30, solved from (29, 29) by the generic solver; with d = 2 (|k − l|
// ≤ 1) it is another game, whose table differs.
func TestGeneralizedWythoff(t *testing.T) {
	tab, err := wythoff.NewTableOptions(30, 30, wythoff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	diff := map[int]int{}
	for _, d := range []int{1, 2} {
		g, err := Load(gamesFile, "wythoff_like", map[string]any{"d": d, "a": 29, "b": 29}, family.Env{})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := game.NewSolver[string](g, game.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for a := range 30 {
			for b := range 30 {
				v, err := sol.Grundy(fmt.Sprintf("(%d, %d)", a, b))
				if err != nil {
					t.Fatal(err)
				}
				if v != tab.At(a, b) {
					diff[d]++
					if d == 1 {
						t.Errorf("d = 1: g(%d, %d) = %d, Wythoff's table %d", a, b, v, tab.At(a, b))
					}
				}
			}
		}
		g.Close()
	}
	if diff[2] == 0 {
		t.Error("d = 2 gives Wythoff's table: the generalization changes nothing")
	}
}

// TestFraenkelWythoff: wythoff_like with d = 2 is Fraenkel's a-Wythoff game
// for a = 2 (take k and l from both heaps with |k − l| < a), whose
// P-positions with a ≤ b are (A(n), A(n) + a·n), A(n) the least number
// not among the earlier A and B (A. S. Fraenkel, "How to beat your
// Wythoff games' opponent on three fronts", Amer. Math. Monthly 89 (1982)
// 353–361): (0, 0), (1, 3), (2, 6), (4, 10), (5, 13), (7, 17), …
func TestFraenkelWythoff(t *testing.T) {
	const d, rows, cols = 2, 25, 40
	want := map[[2]int]bool{}
	used := map[int]bool{}
	for n := 0; ; n++ {
		a := 0
		for used[a] {
			a++
		}
		b := a + d*n
		if a >= rows {
			break
		}
		used[a], used[b] = true, true
		if b < cols {
			want[[2]int{a, b}] = true
		}
	}
	g, err := Load(gamesFile, "wythoff_like", map[string]any{"d": d, "a": rows - 1, "b": cols - 1}, family.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	sol, err := game.NewSolver[string](g, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for a := range rows {
		for b := a; b < cols; b++ {
			v, err := sol.Grundy(fmt.Sprintf("(%d, %d)", a, b))
			if err != nil {
				t.Fatal(err)
			}
			if (v == 0) != want[[2]int{a, b}] {
				t.Errorf("(%d, %d): value %d; Fraenkel's P-position: %v", a, b, v, want[[2]int{a, b}])
			}
		}
	}
}
