package play

import (
	"bytes"
	"context"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/job"
)

type factorCase struct {
	rule     coins.Rule
	r, first int
}

type productCase struct {
	name    string
	factors []factorCase
	sizes   []int
	play    game.Play
	start   [][]int // cells, factors' numbering
}

// productCases are small enough for the generic solver to check every
// position (all subsets of cells).
var productCases = []productCase{
	{"at-most 2 × at-most 2 on 3×3", []factorCase{{coins.AtMost, 2, 1}, {coins.AtMost, 2, 1}}, []int{3, 3}, game.Normal, [][]int{{1, 2}, {3, 3}}},
	{"exactly 2 × ruler on 3×4", []factorCase{{coins.Exactly, 2, 0}, {coins.Ruler, 0, 1}}, []int{3, 4}, game.Normal, [][]int{{1, 2}, {2, 4}}},
	{"misère at-most 2 × at-most 3 on 3×3", []factorCase{{coins.AtMost, 2, 1}, {coins.AtMost, 3, 1}}, []int{3, 3}, game.Misere, [][]int{{2, 2}, {3, 3}}},
	{"at-most 2 × ruler × at-most 2 on 2×3×2", []factorCase{{coins.AtMost, 2, 1}, {coins.Ruler, 0, 1}, {coins.AtMost, 2, 0}}, []int{2, 3, 2}, game.Normal, [][]int{{1, 1, 1}, {2, 3, 1}}},
}

func newProductCase(t testing.TB, c productCase) (*Product, *coins.Product, []int) {
	t.Helper()
	var fs []*coins.Game
	for _, f := range c.factors {
		fs = append(fs, must(coins.New(f.rule, f.r, f.first)))
	}
	p := must(coins.NewProduct(fs...))
	g := must(NewProduct(p, c.sizes, c.play))
	var flat []int
	for _, cell := range c.start {
		flat = append(flat, cell...)
	}
	return g, p, must(g.Position(flat))
}

// bitsOf lists the set bits of m: the encoded position of a bitmask, since
// a cell's index is its bit in coins.Product.Mask.
func bitsOf(m uint64) []int {
	out := []int{}
	for ; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros64(m))
	}
	return out
}

func sortedPositions(ms []uint64) [][]int {
	out := make([][]int, len(ms))
	for i, m := range ms {
		out[i] = bitsOf(m)
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// TestProductAgainstSolver checks Moves, Outcome and WinningMoves on every
// position of small grids against the generic solver over the product's
// bitmask mover, and that every move reads back from its notation.
func TestProductAgainstSolver(t *testing.T) {
	for _, c := range productCases {
		t.Run(c.name, func(t *testing.T) {
			g, p, _ := newProductCase(t, c)
			m := must(p.Mover(c.sizes...))
			s := must(game.NewSolver(m, game.Options{Play: c.play}))
			cells := g.cells
			for mask := uint64(0); mask < 1<<cells; mask++ {
				pos := bitsOf(mask)
				if err := g.Check(pos); err != nil {
					t.Fatal(err)
				}
				if got := must(p.Mask(c.sizes, g.heads(pos))); got != mask {
					t.Fatalf("the encoding of %v is not Mask's: %#x", pos, got)
				}
				moves := must(g.Moves(pos))
				sm := must(m.Moves(mask))
				if want := sortedPositions(sm); !equalPositions(moves, want) {
					t.Fatalf("Moves(%v) = %v, solver %v", pos, moves, want)
				}
				o := must(g.Outcome(pos))
				if want := must(s.Outcome(mask)); o != want {
					t.Fatalf("Outcome(%v) = %v, solver %v", pos, o, want)
				}
				w := must(g.WinningMoves(pos))
				if want := sortedPositions(must(s.WinningMoves(mask))); !equalPositions(nonNilList(w), want) {
					t.Fatalf("WinningMoves(%v) = %v, solver %v", pos, w, want)
				}
				if c.play == game.Normal {
					var x uint64
					for _, part := range must(g.Values(pos)) {
						x ^= part.Value
					}
					if want := must(s.Grundy(mask)); x != want {
						t.Fatalf("the values of %v add to %d, Grundy value %d", pos, x, want)
					}
				}
				if mask%7 != 0 { // a sample suffices for the notation
					continue
				}
				for _, q := range moves {
					if g.Size(q) >= g.Size(pos) {
						t.Fatalf("%v → %v does not make Size smaller", pos, q)
					}
					typed := g.FormatMove(pos, q)
					got, err := g.ParseMove(pos, typed)
					if err != nil || !slices.Equal(got, q) {
						t.Fatalf("from %v, %q reads as %v, %v; want %v", pos, typed, got, err, q)
					}
				}
			}
		})
	}
}

func nonNilList(ps [][]int) [][]int {
	if ps == nil {
		return [][]int{}
	}
	return ps
}

func nimTimesNim(t testing.TB, sizes []int) *Product {
	t.Helper()
	p := must(coins.NewProduct(must(coins.New(coins.AtMost, 2, 1)), must(coins.New(coins.AtMost, 2, 1))))
	return must(NewProduct(p, sizes, game.Normal))
}

func TestProductNotation(t *testing.T) {
	g := nimTimesNim(t, []int{7, 7})
	p := must(g.Position([]int{2, 4, 2, 6, 6, 4, 6, 6}))
	want := []int{}
	for _, typed := range []string{
		"(2,4) (2,6) (6,4) (6,6)",
		"2,4 2,6 6,4 6,6",
		"2 4 2 6 6 4 6 6",
		"(6,6) (2,4) (6,4) (2,6)",
		"[6, 6]; [2, 4]; [6, 4]; [2, 6]",
	} {
		got, err := g.ParseMove(p, typed)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v, %v; want %v", typed, got, err, want)
		}
	}
	to := []int{}
	if s := g.FormatMove(p, to); s != "(2,4) (2,6) (6,4) (6,6)" {
		t.Errorf("FormatMove = %q", s)
	}
	if s := g.Describe(p, to); s != "turn coins (2,4), (2,6), (6,4), (6,6)" {
		t.Errorf("Describe = %q", s)
	}
	one := must(g.ParseMove(p, "6 6"))
	if s := g.Describe(p, one); s != "turn coin (6,6)" {
		t.Errorf("Describe = %q", s)
	}
}

func TestProductIllegalMoves(t *testing.T) {
	nn := nimTimesNim(t, []int{7, 7})
	heads := must(nn.Position([]int{2, 4, 6, 6}))
	rp := must(coins.NewProduct(must(coins.New(coins.Ruler, 0, 1)), must(coins.New(coins.Exactly, 2, 0))))
	ruler := must(NewProduct(rp, []int{5, 5}, game.Normal))
	rheads := must(ruler.Position([]int{4, 4}))
	tests := []struct {
		name  string
		g     *Product
		p     []int
		typed string
		want  string
	}{
		{"odd count", nn, heads, "2 4 6", "type the coins to turn as pairs of coordinates, e.g. (6,6)"},
		{"empty", nn, heads, "", "pairs of coordinates"},
		{"words", nn, heads, "six six", "I do not understand"},
		{"off the grid", nn, heads, "8 1", "there is no row 8: the rows are numbered 1 to 7"},
		{"column 0", nn, heads, "1 0", "there is no column 0: the columns are numbered 1 to 7"},
		{"twice", nn, heads, "6 6 6,6", "coin (6,6) is listed twice"},
		{"not a product", nn, heads, "(2,4) (6,6)", "every listed row crossed with every listed column"},
		{"corner tails", nn, heads, "(6,4) (6,5)", "coin (6,5) is tails: the coin turned in the last row and the last column must go from heads to tails"},
		{"three rows", nn, heads, "(1,6) (2,6) (6,6)", "turn coins in at most 2 rows (you listed 3)"},
		{"ruler gap", ruler, rheads, "(2,4) (2,3) (4,4) (4,3)", "the rows turned must be consecutive (you listed 2 and 4)"},
		{"exactly 2 columns", ruler, rheads, "4 4", "turn coins in exactly 2 columns (you listed 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.g.ParseMove(tt.p, tt.typed)
			if !IsIllegal(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%q: %v; want an IllegalMove saying %q", tt.typed, err, tt.want)
			}
		})
	}
	if _, err := ruler.ParseMove(rheads, "(3,3) (3,4) (4,3) (4,4)"); err != nil {
		t.Errorf("a legal ruler × exactly 2 move: %v", err)
	}
}

func TestProductRender(t *testing.T) {
	g := nimTimesNim(t, []int{3, 4})
	got := g.Render(must(g.Position([]int{1, 2, 3, 4})))
	want := "" +
		"  1 2 3 4\n" +
		"1 ○ ● ○ ○\n" +
		"2 ○ ○ ○ ○\n" +
		"3 ○ ○ ○ ●\n"
	if got != want {
		t.Errorf("Render:\n%s\nwant\n%s", got, want)
	}
	box, _, start := newProductCase(t, productCases[3])
	got = box.Render(start)
	want = "" +
		"layer 1\n" +
		"  0 1\n" +
		"1 ○ ●\n" +
		"2 ○ ○\n" +
		"3 ○ ○\n" +
		"\n" +
		"layer 2\n" +
		"  0 1\n" +
		"1 ○ ○\n" +
		"2 ○ ○\n" +
		"3 ○ ●\n"
	if got != want {
		t.Errorf("Render:\n%s\nwant\n%s", got, want)
	}
	if s := box.FormatMove(start, nil); s != "(1,1,1) (2,3,1)" {
		t.Errorf("FormatMove = %q", s)
	}
}

func TestProductValues(t *testing.T) {
	g := nimTimesNim(t, []int{7, 7})
	// Nim × Nim with coins from 1: a head at (a, b) is worth a ⊗ b.
	// seed 000 (Madore 2017), slide "Calcul du produit de nim", ⊗ table:
	// 2 ⊗ 4 = 8, 6 ⊗ 6 = 5, 7 ⊗ 3 = 14.
	parts := must(g.Values(must(g.Position([]int{2, 4, 6, 6, 7, 3}))))
	want := []Part{{"(2,4)", 8}, {"(6,6)", 5}, {"(7,3)", 14}}
	if !slices.Equal(parts, want) {
		t.Errorf("Values = %v, want %v", parts, want)
	}
}

func TestNewProductErrors(t *testing.T) {
	p := must(coins.NewProduct(must(coins.New(coins.AtMost, 2, 1)), must(coins.New(coins.AtMost, 2, 1))))
	for _, tc := range []struct {
		name  string
		sizes []int
		play  game.Play
	}{
		{"one size", []int{3}, game.Normal},
		{"zero side", []int{3, 0}, game.Normal},
		{"too big", []int{40, 40}, game.Normal},
		{"misère over 64 cells", []int{9, 8}, game.Misere},
	} {
		if _, err := NewProduct(p, tc.sizes, tc.play); err == nil || !strings.HasPrefix(err.Error(), "play: ") {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if _, err := NewProduct(nil, []int{1, 1}, game.Normal); err == nil {
		t.Error("nil product accepted")
	}
	g := nimTimesNim(t, []int{3, 3})
	for _, p := range [][]int{{9}, {2, 1}, {-1}, {4, 4}} {
		if g.Check(p) == nil {
			t.Errorf("Check(%v) accepted", p)
		}
	}
	for _, coords := range [][]int{{1}, {1, 4}, {1, 1, 1, 1}} {
		if _, err := g.Position(coords); err == nil {
			t.Errorf("Position(%v) accepted", coords)
		}
	}
}

// TestProductFromSection plays the sections of examples/products.yaml that
// have a position.
func TestProductFromSection(t *testing.T) {
	j, err := job.ParseFile("../../examples/products.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !Playable("product") {
		t.Fatal("products are not playable")
	}
	if s := must(FindSection(j, "")); s.Family != "product" {
		t.Errorf("the first playable section is a %s", s.Family)
	}
	for i, want := range map[int]string{2: "(2,4) (6,6)", 3: "(2,3) (4,4)"} {
		g, start, err := FromSection(j.Sections[i-1])
		if err != nil {
			t.Fatalf("section %d: %v", i, err)
		}
		if s := g.FormatMove(start, []int{}); s != want {
			t.Errorf("section %d starts at %s, want %s", i, s, want)
		}
		if o := must(g.Outcome(start)); o != game.N {
			t.Errorf("section %d: %v", i, o)
		}
	}
	g, start, err := FromSection(j.Sections[0])
	if err != nil || start != nil || !strings.Contains(g.String(), "8×8") {
		t.Errorf("section 1: %v, %v, %v", g, start, err)
	}
}

func productFamily(t testing.TB, c productCase) family {
	g, _, start := newProductCase(t, c)
	m := must(g.p.Mover(c.sizes...))
	s := must(game.NewSolver(m, game.Options{Play: c.play}))
	mask := func(p []int) uint64 { return g.mask(p) }
	return family{name: c.name, g: g, start: start,
		outcome: func(p []int) (game.Outcome, error) { return s.Outcome(mask(p)) },
		winning: func(p []int) ([][]int, error) {
			ms, err := s.WinningMoves(mask(p))
			return sortedPositions(ms), err
		}}
}

// TestProductComputerNeverLoses plays products against a random bot: the
// computer never misses a winning move, and wins when it had a won game.
func TestProductComputerNeverLoses(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 3
	}
	cases := append(slices.Clone(productCases),
		productCase{"nim × nim on 7×7", []factorCase{{coins.AtMost, 2, 1}, {coins.AtMost, 2, 1}}, []int{7, 7}, game.Normal, [][]int{{2, 4}, {6, 6}, {7, 1}, {3, 3}}})
	for _, c := range cases {
		f := productFamily(t, c)
		if c.sizes[0]*c.sizes[1] > 20 { // the solver above is for the small grids
			g := f.g.(*Product)
			f.outcome = g.Outcome
		}
		t.Run(c.name, func(t *testing.T) { botGames(t, f, games, 5) })
	}
}

// TestProductRecord writes a played product as a job file: the game in
// flow form with its cells, and the record as lists of cells; the job
// runner's analysis marks no computer move.
func TestProductRecord(t *testing.T) {
	c := productCases[0]
	g, _, start := newProductCase(t, c)
	rec := &Record{Game: g, Positions: [][]int{start, must(g.ParseMove(start, "3 3")), {}}, First: Human, Winner: Computer}
	wantGame := "{product: {factors: [{rule: at-most, r: 2, first: 1}, {rule: at-most, r: 2, first: 1}], size: [3, 3], position: [[1, 2], [3, 3]]}}"
	if s := g.JobGame(start); s != wantGame {
		t.Errorf("JobGame = %s\nwant %s", s, wantGame)
	}
	var file bytes.Buffer
	if err := rec.WriteJob(&file); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(file.String(), "      - [[1, 2], [3, 3]]\n      - [[1, 2]]\n      - []\n") {
		t.Errorf("the record is not written as cells:\n%s", file.String())
	}
	j, err := job.Parse("game.yaml", file.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, file.String())
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, file.String())
	}
	a := rep.Sections[0].Results.Record
	// (1,2) ⊕ (3,3) is worth 1⊗2 ⊕ 3⊗3 = 2 ⊕ 2 = 0: a P-position; the
	// human's move to (1,2) alone is no mistake (every move loses), and the
	// computer's reply takes the last head.
	if a == nil || len(a.Moves) != 2 || a.Mistakes != 0 || a.Winner != 2 {
		t.Fatalf("analysis %+v of\n%s", a, file.String())
	}
}

func FuzzParseProduct(f *testing.F) {
	g := nimTimesNim(f, []int{7, 7})
	p := must(g.Position([]int{2, 4, 2, 6, 6, 4, 6, 6, 7, 7}))
	fuzzParse(f, g, p, []string{"(2,4) (2,6) (6,4) (6,6)", "7 7", "7,7 7,1", "2 4 6", "(8,8)", "", "1,1,1,1", "6 6 6 6"})
}

// BenchmarkProductWinningMoves compares the engine's winning moves (values
// and distributivity) with the reference: every move's outcome from the
// generic solver.
func BenchmarkProductWinningMoves(b *testing.B) {
	g := nimTimesNim(b, []int{4, 4}) // the reference visits up to 2^16 positions
	p := must(g.Position([]int{2, 4, 3, 3, 4, 3, 4, 4}))
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.WinningMoves(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			m := must(g.p.Mover(4, 4))
			s := must(game.NewSolver(m, game.Options{}))
			if _, err := s.WinningMoves(g.mask(p)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
