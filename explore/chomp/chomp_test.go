package chomp

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// key packs a position for the generic solver.
type key [MaxRows]int

func toKey(p Position) key {
	var k key
	copy(k[:], p)
	return k
}

// generic is Chomp for the generic mex solver, moves from Moves.
func generic(k int) game.MoveFunc[key] {
	return func(p key) ([]key, error) {
		var out []key
		for _, q := range Moves(Position(p[:k])) {
			out = append(out, toKey(q))
		}
		return out, nil
	}
}

// Every position below (7,6,5,4) and (9,7,3): the values, and the
// P-positions of the table, against the generic mex solver.
func TestAgainstGenericSolver(t *testing.T) {
	for _, start := range []Position{{12}, {9, 8}, {9, 7, 3}, {7, 6, 5, 4}, {4, 4, 3, 2, 2, 1}} {
		ref, _ := game.NewSolver[key](generic(len(start)), game.Options{})
		s, err := NewSolver(context.Background(), start, 0)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := PPositions(context.Background(), len(start), start[0], 0)
		if err != nil {
			t.Fatal(err)
		}
		ps, _ := ref.Reachable(toKey(start))
		for _, k := range ps {
			p := Position(k[:len(start)])
			want, _ := ref.Grundy(k)
			got, err := s.Value(p)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%v: %d, want %d", p, got, want)
			}
			if tab.IsP(p) != (want == 0) {
				t.Fatalf("%v: table says P %v, value %d", p, tab.IsP(p), want)
			}
		}
	}
}

// Two rows: the P-positions are (a+1, a) (the first player takes the
// corner-adjacent cell of the top row, then copies).
func TestTwoRows(t *testing.T) {
	tab, err := PPositions(context.Background(), 2, 300, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Count() != 300 {
		t.Errorf("count %d, want 300", tab.Count())
	}
	for a := 0; a < 300; a++ {
		if f, ok := tab.First([]int{a}); !ok || f != a+1 {
			t.Errorf("tail %d: %d %v, want %d", a, f, ok, a+1)
		}
	}
}

// The P-positions of three-rowed Chomp with third row r = 3, 4, 5, every
// row up to 200: A. E. Brouwer's Chomp page,
// https://www.win.tue.nl/~aeb/games/chomp.html ("r = 3: [6,3,3], [7,4,3],
// [5,5,3]; r = 4: [8,4,4], [9,5,4], [10,6,4], [7,7,4]; r = 5: [10,5,5],
// [9,6,5], [a+11,a+7,5]"); see also Brouwer, Horváth, Molnár-Sáska and
// Szabó, "On three-rowed Chomp", Integers 5 (2005) #G07.
func TestBrouwerThreeRows(t *testing.T) {
	const n = 200
	tab, err := PPositions(context.Background(), 3, n, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]Position{
		3: {{5, 5, 3}, {6, 3, 3}, {7, 4, 3}},
		4: {{7, 7, 4}, {8, 4, 4}, {9, 5, 4}, {10, 6, 4}},
		5: {{9, 6, 5}, {10, 5, 5}},
	}
	for a := 0; a+11 <= n; a++ {
		want[5] = append(want[5], Position{a + 11, a + 7, 5})
	}
	got := map[int][]Position{}
	for _, p := range tab.List() {
		if r := p[2]; r >= 3 && r <= 5 {
			got[r] = append(got[r], p)
		}
	}
	for r := 3; r <= 5; r++ {
		if !slices.EqualFunc(got[r], want[r], func(a, b Position) bool { return slices.Equal(a, b) }) {
			t.Errorf("third row %d: %v, want %v", r, got[r], want[r])
		}
	}
}

// The first ten P-positions of 4-row Chomp in lexicographic order: OEIS
// A395126 (https://oeis.org/A395126, Arnav Garg, 2026), whose terms are
// their fourth rows: (1,0,0,0), (2,1,0,0), (2,2,1,0), (2,2,2,1), (3,1,1,0),
// (3,2,0,0), (3,3,1,1), (4,1,1,1), (4,2,2,0), (4,3,0,0); and the sequence's
// first 87 terms.
func TestA395126(t *testing.T) {
	tab, err := PPositions(context.Background(), 4, 40, 0)
	if err != nil {
		t.Fatal(err)
	}
	list := tab.List()
	first := []Position{{1, 0, 0, 0}, {2, 1, 0, 0}, {2, 2, 1, 0}, {2, 2, 2, 1}, {3, 1, 1, 0}, {3, 2, 0, 0}, {3, 3, 1, 1}, {4, 1, 1, 1}, {4, 2, 2, 0}, {4, 3, 0, 0}}
	for i, p := range first {
		if !slices.Equal(list[i], p) {
			t.Errorf("P-position %d: %v, want %v", i+1, list[i], p)
		}
	}
	// A395126's data, n = 1…87
	terms := "0,0,0,1,0,0,1,1,0,0,1,0,2,0,2,0,2,0,0,0,2,0,2,0,2,3,4,0,3,0,3,2,0,2,0,2,0,2,2,3,3,0,2,2,0,4,0,4,0,4,0,5,6,7,3,4,0,0,2,3,2,3,4,5,6,0,2,3,4,5,7,0,5,2,4,4,3,3,0,2,0,2,3,0,2,0,2"
	for i, f := range strings.Split(terms, ",") {
		if got := list[i][3]; f != itoa(got) {
			t.Fatalf("A395126(%d) = %d, want %s (position %v)", i+1, got, f, list[i])
		}
	}
}

func itoa(x int) string {
	if x < 10 {
		return string(rune('0' + x))
	}
	return string(rune('0'+x/10)) + string(rune('0'+x%10))
}

// A395126's count: 4 316 097 P-positions with first row ≤ 500 (its
// comment). Long: 21 million tails, about 100 s of CPU and 250 MB, so
// only with NIMBOOK_LONG=1.
func TestA395126Count(t *testing.T) {
	if os.Getenv("NIMBOOK_LONG") == "" {
		t.Skip("set NIMBOOK_LONG=1 to count 4-row Chomp up to 500")
	}
	tab, err := PPositions(context.Background(), 4, 500, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Count() != 4316097 {
		t.Errorf("4-row P-positions up to 500: %d, want 4316097", tab.Count())
	}
}

func TestErrorsAndMoves(t *testing.T) {
	for _, p := range []Position{{}, {0}, {2, 3}, {3, -1}, {1, 1, 1, 1, 1, 1, 1, 1, 1}} {
		if err := Check(p); err == nil {
			t.Errorf("Check(%v) = nil", []int(p))
		}
	}
	if got := len(Moves(Position{3, 2})); got != 4 {
		t.Errorf("moves of (3,2): %d, want 4", got)
	}
	s, _ := NewSolver(context.Background(), Position{5, 3, 3}, 0)
	if _, err := s.Value(Position{6, 3, 3}); err == nil {
		t.Error("a position above the start: no error")
	}
	win, _ := s.WinningMoves(Position{5, 3, 3})
	for _, w := range win {
		if v, _ := s.Value(w); v != 0 {
			t.Errorf("winning move to %v of value %d", w, v)
		}
	}
	if _, err := PPositions(context.Background(), 4, 500, 1<<20); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("over the memory limit: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := PPositions(ctx, 4, 100, 0); err == nil {
		t.Error("cancelled: no error")
	}
}
