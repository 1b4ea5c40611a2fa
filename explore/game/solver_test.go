package game

import (
	"fmt"
	"slices"
	"testing"
)

// agree checks, on every position of ps, that solvers of rich (with its
// capabilities, on one and on two workers, and without them) give the
// Grundy values and misère outcomes of the old solver on the plain game.
func agree[T comparable](t *testing.T, rich Mover[T], ps []T) {
	t.Helper()
	ref, _ := newRefSolver(Plain(rich), Options{})
	refMis, _ := newRefSolver(Plain(rich), Options{Play: Misere})
	type variant struct {
		name string
		m    Mover[T]
		w    int
	}
	for _, v := range []variant{{"capabilities", rich, 1}, {"capabilities, 2 workers", rich, 2}, {"plain", Plain(rich), 1}, {"plain, 2 workers", Plain(rich), 2}} {
		t.Run(v.name, func(t *testing.T) {
			s, err := NewSolver(v.m, Options{Workers: v.w})
			if err != nil {
				t.Fatal(err)
			}
			ms, _ := NewSolver(v.m, Options{Workers: v.w, Play: Misere})
			bad := 0
			for _, p := range ps {
				want, err := ref.Grundy(p)
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.Grundy(p)
				if err != nil {
					t.Fatal(err)
				}
				wantO, _ := refMis.Outcome(p)
				gotO, err := ms.Outcome(p)
				if err != nil {
					t.Fatal(err)
				}
				if got != want || gotO != wantO {
					t.Errorf("%v: Grundy %d, misère %v; the old solver says %d, %v", p, got, gotO, want, wantO)
					if bad++; bad > 10 {
						t.FailNow()
					}
				}
			}
		})
	}
}

func TestAgreesWithReference(t *testing.T) {
	t.Run("node kayles 3×3 and 2×5 subsets", func(t *testing.T) {
		var ps []uint64
		for m := range uint64(1 << 9) {
			ps = append(ps, m)
		}
		for m := range uint64(1 << 10) { // 2 × 5: rows 0 and 1 of five columns
			var p uint64
			for c := range 5 {
				p |= (m >> (2 * c) & 3) << (3 * c)
			}
			ps = append(ps, p)
		}
		for n := 1; n <= 5; n++ {
			ps = append(ps, grid(3, n))
		}
		agree[uint64](t, splitGrid{}, ps)
	})
	t.Run("chomp", func(t *testing.T) {
		var ps [][3]uint8
		for a := uint8(1); a <= 8; a++ {
			for b := uint8(0); b <= a; b++ {
				for c := uint8(0); c <= b; c++ {
					ps = append(ps, [3]uint8{a, b, c})
				}
			}
		}
		agree[[3]uint8](t, chomp{}, ps)
	})
	t.Run("kayles sums", func(t *testing.T) {
		var ps [][10]uint8
		for a := uint8(0); a <= 9; a++ {
			for b := uint8(0); b <= a && b <= 5; b++ {
				for c := uint8(0); c <= b && c <= 3; c++ {
					ps = append(ps, [10]uint8{a, b, c}, [10]uint8{c, a, b})
				}
			}
		}
		agree[[10]uint8](t, splitKayles{}, ps)
	})
	t.Run("nim", func(t *testing.T) {
		var ps [][3]int
		for a := range 6 {
			for b := range 6 {
				for c := range 6 {
					ps = append(ps, [3]int{a, b, c})
				}
			}
		}
		agree[[3]int](t, MoveFunc[[3]int](nim3), ps)
	})
}

// TestNodeKayles2xN: on the 2 × n grid (the ladder) the values alternate
// 1, 0 (OEIS A316632, comments: A000035; Brown et al., Nimber Sequences
// of Node-Kayles Games, J. Integer Seq. 23 (2020), Article 20.3.5).
func TestNodeKayles2xN(t *testing.T) {
	s, _ := NewSolver[uint64](splitGrid{}, Options{})
	for n := 1; n <= 20; n++ {
		g, err := s.Grundy(grid(2, n))
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64(n % 2); g != want {
			t.Errorf("2 × %d: %d, want %d", n, g, want)
		}
	}
}

// TestNodeKayles3xN pins the 16 published terms of OEIS A316632, the
// values of Node Kayles on the 3 × n grid (https://oeis.org/A316632;
// Brown, Daugherty, Fiorini, Maldonado, Manzano-Ruiz, Rainville,
// Waechter and Wong, Nimber Sequences of Node-Kayles Games, J. Integer
// Seq. 23 (2020), Article 20.3.5). One solver serves the whole range.
func TestNodeKayles3xN(t *testing.T) {
	want := []uint64{2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3}
	// All 16 take about 0.15 s of CPU (34020 parts), so -short runs them
	// too.
	s, _ := NewSolver[uint64](splitGrid{}, Options{Workers: 2})
	for n := 1; n <= len(want); n++ {
		g, err := s.Grundy(grid(3, n))
		if err != nil {
			t.Fatal(err)
		}
		if g != want[n-1] {
			t.Errorf("3 × %d: %d, want %d", n, g, want[n-1])
		}
	}
	if st := s.Stats(); st.Solved != 34020 {
		t.Errorf("3 × 1..16 solved %d parts, want 34020 (as on one worker)", st.Solved)
	}
}

// TestChompThreeRows checks Brouwer's P-positions of Chomp with three
// rows whose third row has length 3: (6,3,3), (7,4,3) and (5,5,3)
// (A. E. Brouwer, The game of Chomp, https://www.win.tue.nl/~aeb/games/chomp.html).
// For given second and third rows at most one first row makes a
// P-position (from a longer one, a move shortens the first row to it), so
// every other (a, b, 3) with b = 3, 4, 5 must be an N-position.
func TestChompThreeRows(t *testing.T) {
	s, _ := NewSolver[[3]uint8](chomp{}, Options{})
	pos := map[[3]uint8]bool{{6, 3, 3}: true, {7, 4, 3}: true, {5, 5, 3}: true}
	for b := uint8(3); b <= 5; b++ {
		for a := b; a <= 12; a++ {
			p := [3]uint8{a, b, 3}
			o, err := s.Outcome(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := outcomeOf(pos[p]); o != want {
				t.Errorf("%v: %v, want %v", p, o, want)
			}
		}
	}
}

// TestListsWithCapabilities: Reachable, PPositions and WinningMoves list
// positions as the move function gives them, whatever the capabilities,
// and agree with the old solver (whose P-positions are read from its
// values) under both conventions.
func TestListsWithCapabilities(t *testing.T) {
	starts := []uint64{grid(3, 3), grid(2, 4), grid(3, 2) | grid(3, 1)<<9}
	for _, play := range []Play{Normal, Misere} {
		for _, start := range starts {
			t.Run(fmt.Sprintf("%v %b", play, start), func(t *testing.T) {
				ref, _ := newRefSolver(Plain[uint64](splitGrid{}), Options{Play: play})
				s, _ := NewSolver[uint64](splitGrid{}, Options{Play: play, Workers: 2})
				plain, _ := NewSolver(Plain[uint64](splitGrid{}), Options{Play: play})
				all, err := s.Reachable(start)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := plain.Reachable(start)
				if !slices.Equal(all, want) {
					t.Fatalf("Reachable: %d positions, %d without capabilities", len(all), len(want))
				}
				var wantP []uint64
				for _, p := range all {
					if o, _ := ref.Outcome(p); o == P {
						wantP = append(wantP, p)
					}
				}
				ps, err := s.PPositions(start)
				if err != nil || !slices.Equal(ps, wantP) {
					t.Fatalf("PPositions: %v, %v; want %v", ps, err, wantP)
				}
				for _, p := range all {
					win, err := s.WinningMoves(p)
					if err != nil {
						t.Fatal(err)
					}
					ms, _ := gridKayles{}.Moves(p)
					var wantW []uint64
					for _, q := range ms {
						if o, _ := ref.Outcome(q); o == P && !slices.Contains(wantW, q) {
							wantW = append(wantW, q)
						}
					}
					if !slices.Equal(win, wantW) {
						t.Fatalf("WinningMoves(%b) = %b, want %b", p, win, wantW)
					}
				}
			})
		}
	}
}
