package cram

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/cellgame"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// beling is the part of the table of Cram nimbers in P. Beling's
// impartial-games README (https://github.com/beling/impartial-games,
// "The results obtained so far", computed with igs; smaller boards first by
// Lemoine and Viennot's Glop and M. Schneider, 2009) that this solver
// reaches: rows 4–7 by columns.
// Cost: 1 short; 2 long (seconds); 3 only with NIMBOOK_LONG=1 (minutes:
// 4 × 9 takes 4.7 million components, 5 × 7 9.0 million, 6 × 6 12.5
// million; the three in one memo, 114 s of CPU and 347 MB).
var beling = []struct {
	m, n  int
	value uint64
	cost  int
}{
	{4, 4, 0, 1}, {4, 5, 2, 1}, {4, 6, 0, 1}, {4, 7, 3, 1},
	{5, 5, 0, 1}, {5, 6, 2, 2}, {4, 8, 0, 2}, {4, 9, 1, 3},
	{5, 7, 1, 3}, {6, 6, 0, 3},
}

func TestBelingTable(t *testing.T) {
	s, _ := NewSolver(Options{Workers: 2})
	for _, c := range beling {
		if c.cost == 2 && testing.Short() || c.cost == 3 && os.Getenv("NIMBOOK_LONG") == "" {
			continue
		}
		b, err := NewBoard(c.m, c.n)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.Value(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		if v != c.value {
			t.Errorf("%d × %d: %d, want %d (Beling)", c.m, c.n, v, c.value)
		}
	}
}

// Every even × even board is 0 by the half-turn answer, and every even ×
// odd board nonzero (the first player covers the two centre cells, then
// answers by the half-turn): checks of the solver, not shortcuts.
func TestSymmetryArguments(t *testing.T) {
	s, _ := NewSolver(Options{})
	for m := 1; m <= 4; m++ {
		for n := m; n <= 8; n++ {
			if m*n > 24 {
				continue
			}
			b, _ := NewBoard(m, n)
			v, err := s.Value(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case m%2 == 0 && n%2 == 0 && v != 0:
				t.Errorf("%d × %d (even × even): %d, want 0", m, n, v)
			case (m+n)%2 == 1 && v == 0:
				t.Errorf("%d × %d (even × odd): 0, want nonzero", m, n)
			}
		}
	}
}

// A board as a mask for the generic solver, moves written cell by cell.
func maskMoves(m, n int) game.MoveFunc[uint32] {
	return func(p uint32) ([]uint32, error) {
		var out []uint32
		for r := 0; r < m; r++ {
			for c := 0; c < n; c++ {
				i := uint(r*n + c)
				if p>>i&1 == 0 {
					continue
				}
				if c+1 < n && p>>(i+1)&1 == 1 {
					out = append(out, p&^(3<<i))
				}
				if r+1 < m && p>>(i+uint(n))&1 == 1 {
					out = append(out, p&^(1<<i|1<<(i+uint(n))))
				}
			}
		}
		return out, nil
	}
}

// Every position of boards up to 4 × 4 and 3 × 5, folded or not.
func TestAgainstGenericSolver(t *testing.T) {
	boards := [][2]int{{1, 10}, {2, 6}, {3, 4}, {4, 3}, {3, 5}, {4, 4}}
	if testing.Short() {
		boards = boards[:4]
	}
	for _, mn := range boards {
		m, n := mn[0], mn[1]
		ref, _ := game.NewSolver[uint32](maskMoves(m, n), game.Options{})
		for _, opts := range []Options{{}, {NoFold: true}} {
			s, _ := NewSolver(opts)
			for p := uint32(0); p < 1<<uint(m*n); p++ {
				b, _ := NewBoard(m, n)
				for r := 0; r < m; r++ {
					b.Free[r] = uint64(p>>uint(r*n)) & (1<<uint(n) - 1)
				}
				want, _ := ref.Grundy(p)
				got, err := s.Value(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("%d × %d %+v position %x: %d, want %d", m, n, opts, p, got, want)
				}
			}
		}
	}
}

func TestPlayAndErrors(t *testing.T) {
	b, _ := NewBoard(3, 3)
	s, _ := NewSolver(Options{})
	win, err := s.WinningMoves(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range win {
		next, err := Play(b, m)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := s.Value(context.Background(), next); v != 0 {
			t.Errorf("winning move %v leaves value %d", m, v)
		}
	}
	next, _ := Play(b, Move{1, 1, true})
	if _, err := Play(next, Move{0, 1, false}); err == nil {
		t.Error("a domino on a covered cell: no error")
	}
	if _, err := Play(b, Move{2, 2, true}); err == nil || !strings.Contains(err.Error(), "leaves") {
		t.Errorf("a domino off the board: %v", err)
	}
	if _, err := NewBoard(9, 9); err == nil {
		t.Error("9 × 9: no error")
	}
	small, _ := NewSolver(Options{MaxMemory: 50 * cellgame.EntryBytes})
	b5, _ := NewBoard(4, 5)
	if _, err := small.Value(context.Background(), b5); !errors.Is(err, cellgame.ErrMemoFull) {
		t.Errorf("memo of 50 entries: %v", err)
	}
	est, err := EstimateBoard(context.Background(), 4, 6, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if est.Sampled >= 6 || est.Entries < 1000 {
		t.Errorf("estimate of 4 × 6: %+v", est)
	}
	if err := CheckEstimate("Cram 7 × 7", Estimate{Entries: 1e10, Bytes: 32e10}, 1<<30); err == nil {
		t.Error("estimate over the limit: no error")
	}
}

// One row is octal 0.07: a domino takes two cells, leaving one or two rows.
func TestOneRowIsOctal007(t *testing.T) {
	g, err := heap.ParseOctal("0.07")
	if err != nil {
		t.Fatal(err)
	}
	want, err := g.Values(64, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSolver(Options{})
	for n := 1; n <= 64; n++ {
		b, _ := NewBoard(1, n)
		if v, _ := s.Value(context.Background(), b); v != want[n] {
			t.Errorf("1 × %d: %d, want %d (0.07)", n, v, want[n])
		}
	}
}
