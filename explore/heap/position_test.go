package heap

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// tupleKey is a position in SPEC's position form, as a comparable key.
type tupleKey string

func keyOf(hs []int) tupleKey {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = strconv.Itoa(h)
	}
	return tupleKey(strings.Join(parts, ","))
}

func (k tupleKey) heaps() []int {
	if k == "" {
		return nil
	}
	var out []int
	for _, f := range strings.Split(string(k), ",") {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

// tupleMover is the reference game on positions in place: written
// independently of Moves, from Options alone.
func tupleMover(g Game) game.Mover[tupleKey] {
	return game.MoveFunc[tupleKey](func(k tupleKey) ([]tupleKey, error) {
		hs := k.heaps()
		var out []tupleKey
		for i, h := range hs {
			for _, parts := range g.Options(h) {
				var q []int
				q = append(q, hs[:i]...)
				if len(parts) == 0 {
					q = append(q, 0)
				}
				q = append(q, parts...)
				q = append(q, hs[i+1:]...)
				out = append(out, keyOf(q))
			}
		}
		return out, nil
	})
}

// tuples lists every tuple of k heaps, each at most top.
func tuples(k, top int) [][]int {
	out := [][]int{{}}
	for range k {
		var next [][]int
		for _, p := range out {
			for h := 0; h <= top; h++ {
				next = append(next, append(slices.Clone(p), h))
			}
		}
		out = next
	}
	return out
}

func checkPositions(t *testing.T, g Game, positions [][]int) {
	t.Helper()
	for _, play := range []game.Play{game.Normal, game.Misere} {
		s, err := game.NewSolver[tupleKey](tupleMover(g), game.Options{Play: play})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range positions {
			k := keyOf(p)
			if play == game.Normal {
				want, err := s.Grundy(k)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := Grundy(g, p, Limits{}); err != nil || got != want {
					t.Fatalf("%v %v: Grundy %d, %v; solver %d", g, p, got, err, want)
				}
			}
			wantO, _ := s.Outcome(k)
			if got, err := Outcome(g, p, play, Limits{}); err != nil || got != wantO {
				t.Fatalf("%v %v %v: outcome %v, %v; solver %v", g, p, play, got, err, wantO)
			}
			wk, _ := s.WinningMoves(k)
			want := [][]int{}
			for _, k := range wk {
				want = append(want, k.heaps())
			}
			slices.SortFunc(want, slices.Compare)
			got, err := WinningMoves(g, p, play, Limits{})
			if err != nil || !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%v %v %v: winning moves %v, %v; solver %v", g, p, play, got, err, want)
			}
		}
	}
}

func TestPositionsAgainstSolver(t *testing.T) {
	var small [][]int
	small = append(small, tuples(1, 12)...)
	small = append(small, tuples(2, 7)...)
	small = append(small, tuples(3, 4)...)
	games := []Game{&Nim{}, must(NewNim(1)), must(NewNim(2)), must(NewNim(3)),
		mustOctal(t, "0.77"), mustOctal(t, "0.07"), mustOctal(t, "4.3"), mustHex(t, "0.f"), mustHex(t, "8.1")}
	count := 10
	if testing.Short() {
		count = 3
	}
	games = append(games, randomGames(t, count)...)
	// A code with d0 ≠ 0 splits heaps without taking anything: its
	// ordered positions are compositions, many more, so use smaller ones.
	var tiny [][]int
	tiny = append(tiny, tuples(1, 8)...)
	tiny = append(tiny, tuples(2, 5)...)
	tiny = append(tiny, tuples(3, 3)...)
	for _, g := range games {
		ps := small
		if strings.Contains(g.String(), " 4.") || strings.Contains(g.String(), " 8.") || strings.Contains(g.String(), " c.") {
			ps = tiny
		}
		t.Run(g.String(), func(t *testing.T) { checkPositions(t, g, ps) })
	}
	// Larger Nim positions, where misère strategy matters most.
	for _, g := range []Game{&Nim{}, must(NewNim(2)), must(NewNim(4))} {
		t.Run(g.String()+" 4 heaps", func(t *testing.T) { checkPositions(t, g, tuples(4, 4)) })
	}
}

func TestMovesSeed001(t *testing.T) {
	// seed 001 (Degraeve), section 3: 16 moves from the start (1,3,5,7).
	ms, err := Moves(&Nim{}, []int{1, 3, 5, 7}, Limits{})
	if err != nil || len(ms) != 16 {
		t.Errorf("%d moves, %v; want 16", len(ms), err)
	}
	if _, err := Moves(&Nim{}, []int{1, 3, 5, 7}, Limits{MaxPositions: 10}); err == nil {
		t.Error("16 moves within a limit of 10")
	}
	if _, err := Moves(&Nim{}, []int{1 << 30}, Limits{}); err == nil {
		t.Error("a billion moves listed")
	}
	if g, _ := Grundy(&Nim{}, []int{1, 3, 5, 7}, Limits{}); g != 0 {
		t.Errorf("g(1,3,5,7) = %d, want 0 (seed 000: « La position initiale (1, 3, 5, 7) est P »)", g)
	}
}

// seed 000 (Madore 2017), slide "Exemple de partie": (1,3,5,7) → (1,3,5,5)
// → (1,3,3,5) → …; from (1,3,5,5) (value 2) the only winning move is to
// (1,1,5,5), so the move to (1,3,3,5) was the bad one. SPEC's JSON example
// prints the same "moves": [[1, 1, 5, 5]].
func TestWinningMoveSeed000(t *testing.T) {
	got, err := WinningMoves(&Nim{}, []int{1, 3, 5, 5}, game.Normal, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{1, 1, 5, 5}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("got %v, want %v", got, want)
	}
	if o, _ := Outcome(&Nim{}, []int{1, 3, 3, 5}, game.Normal, Limits{}); o != game.N {
		t.Errorf("(1,3,3,5) is %v, want N", o)
	}
	got, _ = WinningMoves(&Nim{}, []int{1, 3, 5, 7}, game.Normal, Limits{})
	if got == nil || len(got) != 0 {
		t.Errorf("from a P-position: %v, want []", got)
	}
}

func TestWinningMovesSplit(t *testing.T) {
	// Kayles (7), g = 2: take the middle one (twins 3, 3) or take one
	// leaving 1 and 4 (g(1) = g(4) = 1).
	got, err := WinningMoves(mustOctal(t, "0.77"), []int{7}, game.Normal, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{1, 4}, {3, 3}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("got %v, want %v", got, want)
	}
	// In place: the other heaps keep their places, smaller part first.
	// (6,2): g = 3 ⊕ 2 = 1; 6 must become worth 2: take 2, split 1 + 3.
	got, _ = WinningMoves(mustOctal(t, "0.77"), []int{6, 2}, game.Normal, Limits{})
	if want := [][]int{{1, 3, 2}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("(6,2): got %v, want %v", got, want)
	}
}

// seed 004, "Jeu à un seul tas": misère, a heap is P when its remainder
// mod N is 1; from remainder r > 1 take r − 1, from remainder 0 take N − 1.
func TestSeed004SingleHeap(t *testing.T) {
	g := must(NewNim(3)) // N = 4
	for n := 0; n <= 20; n++ {
		o, _ := Outcome(g, []int{n}, game.Misere, Limits{})
		if (o == game.P) != (n%4 == 1) {
			t.Errorf("misère %d: %v", n, o)
		}
		moves, _ := WinningMoves(g, []int{n}, game.Misere, Limits{})
		var want [][]int
		switch r := n % 4; {
		case r > 1:
			want = [][]int{{n - (r - 1)}}
		case r == 0 && n > 0:
			want = [][]int{{n - 3}}
		default:
			want = [][]int{}
		}
		if !slices.EqualFunc(moves, want, slices.Equal) {
			t.Errorf("misère %d: moves %v, want %v", n, moves, want)
		}
	}
	// Normal play: take the remainder.
	moves, _ := WinningMoves(g, []int{10}, game.Normal, Limits{})
	if want := [][]int{{8}}; !slices.EqualFunc(moves, want, slices.Equal) {
		t.Errorf("normal 10: %v", moves)
	}
}

func TestPositionErrors(t *testing.T) {
	if _, err := Grundy(&Nim{}, []int{1, -2}, Limits{}); err == nil || !strings.Contains(err.Error(), "heap 2") {
		t.Errorf("negative heap: %v", err)
	}
	// Misère positions of splitting games go to the solver, within the budget.
	_, err := Outcome(mustOctal(t, "0.77"), []int{30, 30}, game.Misere, Limits{MaxPositions: 100})
	if err == nil || !strings.Contains(err.Error(), "100") {
		t.Errorf("budget: %v", err)
	}
	if _, err := WinningMoves(mustOctal(t, "0.77"), []int{1000}, game.Normal, Limits{MaxPositions: 10}); err == nil {
		t.Error("values beyond the limit")
	}
}

func TestMultiset(t *testing.T) {
	m, err := NewMultiset(3, 0, 1, 2)
	if err != nil || m.String() != "(1,2,3)" {
		t.Errorf("%v %v", m, err)
	}
	if (Multiset{}).String() != "()" {
		t.Error("empty")
	}
	// seeds 001 and 003: (1,1,2) → (1,1,1), (1,2) or (1,1).
	ms, err := MultisetMover(&Nim{}).Moves(must(NewMultiset(1, 1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ms); got != "[(1,1) (1,1,1) (1,2)]" {
		t.Errorf("moves of (1,1,2): %s", got)
	}
	// seed 003 and MATH.md "Game graphs": the graph of (1,2,3) drawn as
	// multisets has 4 P-positions, (1,2,3), (2,2), (1,1) and ().
	s, _ := game.NewSolver[Multiset](MultisetMover(&Nim{}), game.Options{})
	ps, err := s.PPositions(must(NewMultiset(1, 2, 3)))
	if err != nil {
		t.Fatal(err)
	}
	// In Reachable's breadth-first order.
	if got := fmt.Sprint(ps); got != "[(1,2,3) (1,1) (2,2) ()]" {
		t.Errorf("P-positions of (1,2,3): %s", got)
	}
	all, _ := s.Reachable(must(NewMultiset(1, 2, 3)))
	t.Logf("%d multiset positions from (1,2,3)", len(all))
	// Ordered tuples are a different graph: 24 positions (MATH.md).
	ts, _ := game.NewSolver[tupleKey](tupleMover(&Nim{}), game.Options{})
	if all, _ := ts.Reachable(keyOf([]int{1, 2, 3})); len(all) != 24 {
		t.Errorf("%d ordered positions from (1,2,3), want 24", len(all))
	}
}
