package coins

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

func mustProduct(t testing.TB, fs ...*Game) *Product {
	t.Helper()
	p, err := NewProduct(fs...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// seed 000 (Madore 2017), slide "Calcul du produit de nim": the table of
// a ⊗ b for a, b = 0..7 (also in MATH.md "Nimbers").
var seedNimProduct = [][]uint64{
	{0, 0, 0, 0, 0, 0, 0, 0},
	{0, 1, 2, 3, 4, 5, 6, 7},
	{0, 2, 3, 1, 8, 10, 11, 9},
	{0, 3, 1, 2, 12, 15, 13, 14},
	{0, 4, 8, 12, 6, 2, 14, 10},
	{0, 5, 10, 15, 2, 7, 8, 13},
	{0, 6, 11, 13, 14, 8, 5, 3},
	{0, 7, 9, 14, 10, 13, 3, 4},
}

// Nim × Nim (seed 000, "Un jeu bidimensionnel : nim ⊗ nim"): a head at
// (a, b) is worth a ⊗ b. Numbered from 1 it is at most 2 × at most 2;
// numbered from 0, exactly 2 × exactly 2 (Twins, whose coin n is worth n),
// which gives the whole seed table, row and column 0 included.
func TestProductSeedTable(t *testing.T) {
	twins := mustProduct(t, mustNew(t, Exactly, 2, 0), mustNew(t, Exactly, 2, 0))
	got, err := twins.Table2(8, 8)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, seedNimProduct, slices.Equal) {
		t.Errorf("twins × twins = %v, seed 000 says %v", got, seedNimProduct)
	}
	nim := mustProduct(t, mustNew(t, AtMost, 2, 1), mustNew(t, AtMost, 2, 1))
	any7, err := nim.Table(7, 7)
	if err != nil {
		t.Fatal(err)
	}
	t7 := any7.([][]uint64)
	for i := range 7 {
		if !slices.Equal(t7[i], seedNimProduct[i+1][1:]) {
			t.Errorf("nim × nim row %d = %v, seed 000 says %v", i+1, t7[i], seedNimProduct[i+1][1:])
		}
	}
}

// seed 000's example move on the 7 × 7 diagonal: turn (2, 4), (2, 6),
// (6, 4) and (6, 6).
func TestProductSeedMove(t *testing.T) {
	nim := mustProduct(t, mustNew(t, AtMost, 2, 1), mustNew(t, AtMost, 2, 1))
	var diag [][]int
	for i := 1; i <= 7; i++ {
		diag = append(diag, []int{i, i})
	}
	moves, err := nim.Moves(diag)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{1, 1}, {2, 2}, {2, 4}, {2, 6}, {3, 3}, {4, 4}, {5, 5}, {6, 4}, {7, 7}}
	if !slices.ContainsFunc(moves, func(q [][]int) bool { return slices.EqualFunc(q, want, slices.Equal) }) {
		t.Errorf("the seed's move to %v is not among the %d moves", want, len(moves))
	}
}

func TestProductTable3(t *testing.T) {
	nim := mustNew(t, Exactly, 2, 0)
	p := mustProduct(t, nim, nim, nim)
	tab, err := p.Table3(4, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	// a ⊗ b ⊗ c from the seed table: associativity by a second route.
	for a := range 4 {
		for b := range 4 {
			for c := range 4 {
				want := seedNimProduct[a][seedNimProduct[b][c]]
				if tab[a][b][c] != want {
					t.Errorf("%d⊗%d⊗%d = %d, want %d", a, b, c, tab[a][b][c], want)
				}
			}
		}
	}
}

// positionsOf turns solver masks into sorted lists of cells.
func positionsOf(p *Product, sizes []int, ms []uint64) [][][]int {
	out := [][][]int{}
	for _, m := range ms {
		out = append(out, p.Heads(sizes, m))
	}
	slices.SortFunc(out, comparePositions)
	return out
}

func equalPositions(a, b [][][]int) bool {
	return slices.EqualFunc(a, b, func(x, y [][]int) bool { return slices.EqualFunc(x, y, slices.Equal) })
}

// Every position of small grids: the generic solver, fed the product's
// moves, agrees with the nim-sum of nim-products and with the winning
// moves found through distributivity.
func TestProductMatchesSolver(t *testing.T) {
	g := func(rule Rule, r, first int) *Game { return mustNew(t, rule, r, first) }
	tests := []struct {
		name    string
		factors []*Game
		sizes   []int
	}{
		{"nim × nim", []*Game{g(AtMost, 2, 1), g(AtMost, 2, 1)}, []int{3, 4}},
		{"twins × twins", []*Game{g(Exactly, 2, 0), g(Exactly, 2, 0)}, []int{4, 3}},
		{"turn a rectangle (ruler × ruler)", []*Game{g(Ruler, 0, 1), g(Ruler, 0, 1)}, []int{3, 4}},
		{"at most 3 × at most 2", []*Game{g(AtMost, 3, 1), g(AtMost, 2, 1)}, []int{3, 4}},
		{"at most 2 × at most 3 from 0", []*Game{g(AtMost, 2, 0), g(AtMost, 3, 0)}, []int{3, 4}},
		{"rows and columns (at most 4 × at most 4)", []*Game{g(AtMost, 4, 1), g(AtMost, 4, 1)}, []int{3, 4}},
		{"exactly 3 × ruler", []*Game{g(Exactly, 3, 0), g(Ruler, 0, 1)}, []int{4, 3}},
		{"at most 1 × at most 3", []*Game{g(AtMost, 1, 1), g(AtMost, 3, 1)}, []int{2, 6}},
		{"nim × nim × nim", []*Game{g(AtMost, 2, 1), g(AtMost, 2, 1), g(AtMost, 2, 1)}, []int{2, 2, 3}},
		{"ruler × at most 3 × twins", []*Game{g(Ruler, 0, 1), g(AtMost, 3, 1), g(Exactly, 2, 0)}, []int{2, 3, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustProduct(t, tc.factors...)
			m, err := p.Mover(tc.sizes...)
			if err != nil {
				t.Fatal(err)
			}
			s, err := game.NewSolver[uint64](m, game.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cells := 1
			for _, x := range tc.sizes {
				cells *= x
			}
			step := uint64(1)
			if testing.Short() {
				step = 5
			}
			var all [][][]int // every position, by mask
			for pos := uint64(0); pos < 1<<cells; pos += step {
				heads := p.Heads(tc.sizes, pos)
				if back, err := p.Mask(tc.sizes, heads); err != nil || back != pos {
					t.Fatalf("Mask(Heads(%#x)) = %#x, %v", pos, back, err)
				}
				want, err := s.Grundy(pos)
				if err != nil {
					t.Fatal(err)
				}
				got, err := p.Value(heads)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("%v: value %d, solver %d", heads, got, want)
				}
				win, err := p.WinningMoves(heads)
				if err != nil {
					t.Fatal(err)
				}
				sw, err := s.WinningMoves(pos)
				if err != nil {
					t.Fatal(err)
				}
				if wantWin := positionsOf(p, tc.sizes, sw); !equalPositions(win, wantWin) {
					t.Fatalf("%v: winning moves %v, solver %v", heads, win, wantWin)
				}
				if pos%307 == 0 {
					// IsMove against the solver's moves, on every target.
					opts, _ := m.Moves(pos)
					if all == nil {
						all = make([][][]int, 1<<cells)
						for q := range all {
							all[q] = p.Heads(tc.sizes, uint64(q))
						}
					}
					for q := uint64(0); q < 1<<cells; q++ {
						got, err := p.IsMove(heads, all[q])
						if err != nil {
							t.Fatal(err)
						}
						if want := slices.Contains(opts, q); got != want {
							t.Fatalf("IsMove(%v, %v) = %v, the solver says %v", heads, all[q], got, want)
						}
					}
				}
				if pos%11 == 0 {
					moves, err := p.Moves(heads)
					if err != nil {
						t.Fatal(err)
					}
					opts, _ := m.Moves(pos)
					if wantMoves := positionsOf(p, tc.sizes, opts); !equalPositions(moves, wantMoves) {
						t.Fatalf("%v: moves %v, solver %v", heads, moves, wantMoves)
					}
					if has, err := p.HasMove(heads); err != nil || has != (len(opts) > 0) {
						t.Fatalf("%v: HasMove %v (%v), the solver has %d moves", heads, has, err, len(opts))
					}
				}
			}
		})
	}
}

func TestProductErrors(t *testing.T) {
	nim := mustNew(t, AtMost, 2, 1)
	for _, fs := range [][]*Game{{nim}, {nim, nim, nim, nim}, {nim, nil}, nil} {
		if _, err := NewProduct(fs...); err == nil {
			t.Errorf("NewProduct of %d factors accepted", len(fs))
		}
	}
	p := mustProduct(t, nim, nim)
	tests := []struct {
		name string
		run  func() error
	}{
		{"three sizes", func() error { _, err := p.Table(2, 2, 2); return err }},
		{"negative size", func() error { _, err := p.Table2(-1, 2); return err }},
		{"short head", func() error { _, err := p.Value([][]int{{1}}); return err }},
		{"head below first", func() error { _, err := p.Value([][]int{{0, 1}}); return err }},
		{"head twice", func() error { _, err := p.WinningMoves([][]int{{1, 2}, {1, 2}}); return err }},
		{"head outside grid", func() error { _, err := p.Mask([]int{2, 2}, [][]int{{3, 1}}); return err }},
		{"grid above 64 cells", func() error { _, err := p.Mover(8, 9); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.run(); err == nil || !strings.HasPrefix(err.Error(), "coins: ") {
				t.Errorf("error %v, want a coins: error", err)
			}
		})
	}
	big := p.WithLimits(Limits{MaxSteps: 100})
	if _, err := big.Table2(20, 20); !errors.Is(err, ErrLimit) {
		t.Errorf("400 cells with a 100-step limit: %v", err)
	}
	if _, err := big.Moves([][]int{{20, 20}}); !errors.Is(err, ErrLimit) {
		t.Errorf("400 moves with a 100-step limit: %v", err)
	}
}
