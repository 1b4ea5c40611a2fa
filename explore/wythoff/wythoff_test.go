package wythoff_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/internal/stopcheck"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// naiveTable is the reference: each cell takes the mex of all its options'
// values, straight from the definition (MATH.md, "Wythoff's game").
func naiveTable(rows, cols int) [][]uint64 {
	g := make([][]uint64, rows)
	for a := range g {
		g[a] = make([]uint64, cols)
		for b := range g[a] {
			seen := make([]bool, a+b+min(a, b)+1)
			for _, q := range wythoff.Moves([2]int{a, b}) {
				seen[g[q[0]][q[1]]] = true
			}
			var m uint64
			for seen[m] {
				m++
			}
			g[a][b] = m
		}
	}
	return g
}

func solver(t testing.TB, play game.Play) *game.Solver[[2]int] {
	t.Helper()
	s, err := game.NewSolver(wythoff.Mover, game.Options{Play: play})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTableMatchesSolver(t *testing.T) {
	const n = 20
	tb, err := wythoff.NewTable(n, n)
	if err != nil {
		t.Fatal(err)
	}
	s := solver(t, game.Normal)
	for a := range n {
		for b := range n {
			want, err := s.Grundy([2]int{a, b})
			if err != nil {
				t.Fatal(err)
			}
			if got := tb.At(a, b); got != want {
				t.Errorf("g(%d, %d) = %d, solver says %d", a, b, got, want)
			}
		}
	}
}

func TestTableMatchesNaive(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {1, 50}, {50, 1}, {7, 90}, {90, 7}, {130, 130}} {
		rows, cols := size[0], size[1]
		tb, err := wythoff.NewTable(rows, cols)
		if err != nil {
			t.Fatal(err)
		}
		want := naiveTable(rows, cols)
		if got := tb.Values(); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%d×%d table differs from the naive mex", rows, cols)
		}
	}
}

// a317205 is OEIS A317205, the Grundy values of Wythoff's game read by
// rows of the lower triangle: g(a, 0), …, g(a, a) for a = 0, 1, … (Winning
// Ways, vol. 1, p. 76; Blass and Fraenkel 1990, table 2).
var a317205 = []uint64{
	0, 1, 2, 2, 0, 1, 3, 4, 5, 6, 4, 5, 3, 2, 7, 5, 3, 4, 0, 6, 8, 6, 7, 8, 1, 9, 10, 3, 7, 8, 6, 9, 0, 1,
	4, 5, 8, 6, 7, 10, 1, 2, 5, 3, 4, 9, 10, 11, 12, 8, 7, 13, 14, 15, 16, 10, 11, 9, 8, 13, 12, 0,
	15, 16, 17, 14, 11, 9, 10, 7, 12, 14, 2, 13, 17, 6, 18, 15,
}

func TestTableOEIS(t *testing.T) {
	tb, err := wythoff.NewTable(12, 12)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for a := range 12 {
		for b := 0; b <= a; b++ {
			if got := tb.At(a, b); got != a317205[i] {
				t.Errorf("g(%d, %d) = %d, A317205 says %d", a, b, got, a317205[i])
			}
			i++
		}
	}
}

// TestTableAllSmall compares every table up to 64×64 with the top-left
// corner of the naive 64×64 table (g(a, b) depends only on the cells up
// and left of it), with tiles of many sides and several workers, so that
// small tables run the tiling and the hand-over between workers.
func TestTableAllSmall(t *testing.T) {
	const n = 64
	want := naiveTable(n, n)
	configs := []struct {
		height, width, workers int
		step                   int // test every step-th side only
	}{
		{512, 64, 0, 1},
		{64, 64, 0, 1},
		{3, 3, 2, 1},
		{1, 1, 3, 7},
		{2, 2, 4, 5},
		{5, 5, 2, 3},
		{16, 16, 2, 1},
		{7, 2, 2, 1},
		{24, 5, 3, 3},
	}
	for _, cf := range configs {
		t.Run(fmt.Sprintf("tiles %d×%d workers %d", cf.height, cf.width, cf.workers), func(t *testing.T) {
			defer wythoff.SetTileSize(cf.height, cf.width)()
			for rows := 1; rows <= n; rows += cf.step {
				for cols := 1; cols <= n; cols += cf.step {
					tb, err := wythoff.NewTableOptions(rows, cols, wythoff.Options{Workers: cf.workers})
					if err != nil {
						t.Fatal(err)
					}
					if d, ok := differs(tb, want); ok {
						t.Fatalf("%d×%d: %s", rows, cols, d)
					}
				}
			}
		})
	}
}

// differs returns the first cell where tb and the reference want differ.
func differs(tb *wythoff.Table, want [][]uint64) (string, bool) {
	var row []uint64
	for a := range tb.Rows() {
		row = tb.AppendRow(row[:0], a)
		if len(row) != tb.Cols() {
			return fmt.Sprintf("row %d has %d cells", a, len(row)), true
		}
		for b, v := range row {
			if v != want[a][b] || tb.At(a, b) != v {
				return fmt.Sprintf("g(%d, %d) = %d (At %d), reference %d", a, b, v, tb.At(a, b), want[a][b]), true
			}
		}
	}
	return "", false
}

// TestTableRandomShapes compares random rectangles, thin ones among them,
// with the naive table of the same shape.
func TestTableRandomShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 3))
	shapes := [][2]int{{1, 3000}, {3000, 1}, {2, 1500}, {700, 5}, {65, 129}, {129, 65}, {200, 200}}
	for range 12 {
		shapes = append(shapes, [2]int{1 + rng.IntN(250), 1 + rng.IntN(250)})
	}
	for _, sh := range shapes {
		want := naiveTable(sh[0], sh[1])
		for _, side := range [][2]int{{512, 64}, {7, 7}, {20, 6}} {
			for _, workers := range []int{1, 2, 3} {
				restore := wythoff.SetTileSize(side[0], side[1])
				tb, err := wythoff.NewTableOptions(sh[0], sh[1], wythoff.Options{Workers: workers})
				restore()
				if err != nil {
					t.Fatal(err)
				}
				if d, ok := differs(tb, want); ok {
					t.Errorf("%d×%d, tiles of %d×%d, %d workers: %s", sh[0], sh[1], side[0], side[1], workers, d)
				}
			}
		}
	}
}

// TestValueBits checks that a table takes the smallest unsigned type that
// holds a + b + min(a, b) for its last cell, and that its memory estimate
// follows that type.
func TestValueBits(t *testing.T) {
	tests := []struct {
		rows, cols, bits int
	}{
		{1, 1, 8},
		{86, 86, 8},  // 85 + 85 + 85 = 255
		{86, 87, 16}, // 256
		{1, 256, 8},  // 255
		{1, 257, 16}, // 256
		{1, 65536, 16},
		{65537, 1, 32},
		{300, 5, 16},
	}
	for _, tt := range tests {
		tb, err := wythoff.NewTable(tt.rows, tt.cols)
		if err != nil {
			t.Fatal(err)
		}
		if got := tb.ValueBits(); got != tt.bits {
			t.Errorf("%d×%d: %d-bit values, want %d", tt.rows, tt.cols, got, tt.bits)
		}
		var top uint64
		for a := range tt.rows {
			for b := range tt.cols {
				top = max(top, tb.At(a, b))
			}
		}
		if top >= 1<<tt.bits {
			t.Errorf("%d×%d: value %d in %d bits", tt.rows, tt.cols, top, tt.bits)
		}
	}
	// 8192 × 8192 takes 16 bits a value: 128 MiB, and the seen sets.
	const n = 8192
	if got, cells := wythoff.TableBytes(n, n), int64(n*n*2); got < cells || got > cells+cells/2 {
		t.Errorf("TableBytes(%d, %d) = %d, want 128 MiB and the sets", n, n, got)
	}
	if got := wythoff.TableBytes(1, 1<<24); got < 4<<24 || got > 5<<24 {
		t.Errorf("TableBytes(1, 2^24) = %d, want 64 MiB of 32-bit values and a few sets", got)
	}
}

// TestTableBytesCoversAllocations checks the memory estimate against what
// filling a table allocates, for square, long and thin tables and several
// workers: at least what is allocated, and not much more.
func TestTableBytesCoversAllocations(t *testing.T) {
	for _, sh := range [][2]int{{1000, 1000}, {3000, 200}, {200, 3000}, {1, 100000}, {2048, 2048}} {
		for _, workers := range []int{1, 2, 4} {
			rows, cols := sh[0], sh[1]
			opts := wythoff.Options{Workers: workers}
			want := wythoff.TableBytesOptions(rows, cols, opts)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if _, err := wythoff.NewTableOptions(rows, cols, opts); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			got := int64(after.TotalAlloc - before.TotalAlloc)
			// Go rounds a large allocation up to 8 KiB pages: the cells,
			// the columns' and diagonals' sets, each worker's rows; the
			// goroutines and the table's header take a few KiB more.
			if slack := int64(3+workers+1) * 8 << 10; got > want+slack || got < want*9/10 {
				t.Errorf("%d×%d, %d workers: allocated %d bytes, estimate %d", rows, cols, workers, got, want)
			}
		}
	}
}

// TestPPositionsBeatty checks a large rectangle's zeros against the
// Beatty pairs computed with big integers.
func TestPPositionsBeatty(t *testing.T) {
	const rows, cols = 1500, 2500
	tb, err := wythoff.NewTable(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	var want [][2]int
	for k := int64(0); ; k++ {
		a := int(bigBeatty(k))
		b := a + int(k)
		if a >= max(rows, cols) {
			break
		}
		if a < rows && b < cols {
			want = append(want, [2]int{a, b})
		}
		if k > 0 && b < rows && a < cols {
			want = append(want, [2]int{b, a})
		}
	}
	slices.SortFunc(want, func(p, q [2]int) int { return cmp.Or(cmp.Compare(p[0], q[0]), cmp.Compare(p[1], q[1])) })
	if got := tb.PPositions(); !slices.Equal(got, want) {
		t.Errorf("%d×%d: %d P-positions, %d Beatty pairs", rows, cols, len(got), len(want))
	}
}

func TestDistinctLines(t *testing.T) {
	const rows, cols = 150, 220
	tb, err := wythoff.NewTable(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	// MATH.md: each row, column and diagonal holds distinct values.
	lines := map[string]map[uint64][2]int{}
	for a := range rows {
		for b := range cols {
			for _, key := range []string{"row " + strconv.Itoa(a), "col " + strconv.Itoa(b), "diag " + strconv.Itoa(b-a)} {
				if lines[key] == nil {
					lines[key] = map[uint64][2]int{}
				}
				v := tb.At(a, b)
				if p, dup := lines[key][v]; dup {
					t.Fatalf("%s holds %d twice: at %v and (%d, %d)", key, v, p, a, b)
				}
				lines[key][v] = [2]int{a, b}
			}
		}
	}
}

func TestSymmetric(t *testing.T) {
	tb, err := wythoff.NewTable(60, 60)
	if err != nil {
		t.Fatal(err)
	}
	for a := range 60 {
		for b := range 60 {
			if tb.At(a, b) != tb.At(b, a) {
				t.Fatalf("g(%d, %d) ≠ g(%d, %d)", a, b, b, a)
			}
		}
	}
}

// seed 002 (Badin de Montjoye, "Jeux de soustraction"), item 20, and
// MATH.md: the P-positions of Wythoff with at most 5 in each heap.
var seedPPairs = [][2]int{{0, 0}, {1, 2}, {2, 1}, {3, 5}, {5, 3}}

func TestPPairs(t *testing.T) {
	got, err := wythoff.PPairs(5)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, seedPPairs) {
		t.Errorf("PPairs(5) = %v, want %v (seed 002)", got, seedPPairs)
	}
	tb, err := wythoff.NewTable(6, 6)
	if err != nil {
		t.Fatal(err)
	}
	if got := tb.PPositions(); !slices.Equal(got, seedPPairs) {
		t.Errorf("6×6 table P-positions = %v, want %v (seed 002)", got, seedPPairs)
	}
	for _, max := range []int{0, 1, 2, 3, 10, 100, 777} {
		tb, err := wythoff.NewTable(max+1, max+1)
		if err != nil {
			t.Fatal(err)
		}
		pp, err := wythoff.PPairs(max)
		if err != nil {
			t.Fatal(err)
		}
		if want := tb.PPositions(); !slices.Equal(pp, want) {
			t.Errorf("PPairs(%d) = %v, table says %v", max, pp, want)
		}
	}
	if pp, err := wythoff.PPairs(-1); err != nil || len(pp) != 0 {
		t.Errorf("PPairs(-1) = %v, %v", pp, err)
	}
	_, err = wythoff.PPairs(wythoff.MaxPPairs + 1)
	if !errors.Is(err, wythoff.ErrTooLarge) || !strings.Contains(err.Error(), "MaxPPairs = 4194304") {
		t.Errorf("PPairs above the limit: %v", err)
	}
}

// bigBeatty returns ⌊kφ⌋ = ⌊(k + √(5k²))/2⌋ with big integers.
func bigBeatty(k int64) int64 {
	n := big.NewInt(k)
	n.Mul(n, n).Mul(n, big.NewInt(5)).Sqrt(n).Add(n, big.NewInt(k)).Rsh(n, 1)
	return n.Int64()
}

func TestOutcomeLargeHeaps(t *testing.T) {
	for _, k := range []int64{1<<30 - 1, 1 << 30, 3_000_000_017, 1 << 61} {
		a := bigBeatty(k)
		b := a + k
		if b < 0 {
			continue // overflowed int64
		}
		for _, tc := range []struct {
			a, b int64
			want game.Outcome
		}{{a, b, game.P}, {b, a, game.P}, {a - 1, b - 1, game.N}, {a + 1, b + 1, game.N}, {a, b + 1, game.N}} {
			o, err := wythoff.Outcome(int(tc.a), int(tc.b), game.Normal)
			if err != nil || o != tc.want {
				t.Errorf("Outcome(%d, %d) = %v, %v; want %v", tc.a, tc.b, o, err, tc.want)
			}
		}
	}
}

func TestOutcomesAndMovesMatchSolver(t *testing.T) {
	const n = 30
	for _, play := range []game.Play{game.Normal, game.Misere} {
		s := solver(t, play)
		for a := range n {
			for b := range n {
				p := [2]int{a, b}
				want, err := s.Outcome(p)
				if err != nil {
					t.Fatal(err)
				}
				got, err := wythoff.Outcome(a, b, play)
				if err != nil || got != want {
					t.Errorf("%v %v: Outcome = %v, %v; solver says %v", play, p, got, err, want)
				}
				wantMoves, err := s.WinningMoves(p)
				if err != nil {
					t.Fatal(err)
				}
				slices.SortFunc(wantMoves, func(x, y [2]int) int {
					if x[0] != y[0] {
						return x[0] - y[0]
					}
					return x[1] - y[1]
				})
				gotMoves, err := wythoff.WinningMoves(a, b, play)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(gotMoves, wantMoves) {
					t.Errorf("%v %v: WinningMoves = %v, solver says %v", play, p, gotMoves, wantMoves)
				}
			}
		}
	}
}

// TestMisereKnownPPositions checks the misère rule of Winning Ways (ch. 13):
// the P-positions are those of normal play except that (0, 0), (1, 2) and
// (2, 1) give way to (0, 1), (1, 0) and (2, 2).
func TestMisereKnownPPositions(t *testing.T) {
	const n = 120
	swapped := map[[2]int]bool{{0, 0}: true, {1, 2}: true, {2, 1}: true, {0, 1}: true, {1, 0}: true, {2, 2}: true}
	for a := range n {
		for b := range n {
			normal, _ := wythoff.Outcome(a, b, game.Normal)
			want := normal
			if swapped[[2]int{a, b}] {
				want = game.P + game.N - normal
			}
			if got, err := wythoff.Outcome(a, b, game.Misere); err != nil || got != want {
				t.Fatalf("misère (%d, %d) = %v, %v; want %v", a, b, got, err, want)
			}
		}
	}
}

func TestMoves(t *testing.T) {
	tests := []struct {
		name string
		p    [2]int
		want [][2]int
	}{
		{"terminal", [2]int{0, 0}, [][2]int{}},
		{"one heap", [2]int{0, 2}, [][2]int{{0, 0}, {0, 1}}},
		{"two heaps", [2]int{2, 1}, [][2]int{{0, 1}, {1, 0}, {1, 1}, {2, 0}}},
		{"negative", [2]int{-1, 3}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := wythoff.Moves(tt.p); !slices.Equal(got, tt.want) {
				t.Errorf("Moves(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
	if _, err := wythoff.Mover.Moves([2]int{-1, 0}); err == nil {
		t.Error("Mover accepted a negative heap")
	}
}

func TestRowPeriods(t *testing.T) {
	tb, err := wythoff.NewTable(8, 64)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tb.RowPeriods(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// MATH.md: row 0: p = 1; row 1: p = 3; row 3: p = 6 from 8. Rows 2 and 4
	// are as later tables confirm (Dress–Flammenkamp–Pink 1999); row 6's
	// (12 from 37) is just seen twice at 64 columns; rows 5 and 7 need more.
	want := []wythoff.RowPeriod{
		{Row: 0, Period: 1, Start: 0, Periods: 64},
		{Row: 1, Period: 3, Start: 0, Periods: 21},
		{Row: 2, Period: 3, Start: 0, Periods: 21},
		{Row: 3, Period: 6, Start: 8, Periods: 9},
		{Row: 4, Period: 12, Start: 9, Periods: 4},
		{Row: 6, Period: 12, Start: 37, Periods: 2},
	}
	if !slices.Equal(got, want) {
		t.Errorf("RowPeriods() =\n%v\nwant\n%v", got, want)
	}
	// A wider table sees rows 5 and 7 too.
	tb, err = wythoff.NewTable(8, 256)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := tb.RowPeriods(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rp) != 8 || rp[5] != (wythoff.RowPeriod{Row: 5, Period: 24, Start: 27, Periods: 9}) || rp[7] != (wythoff.RowPeriod{Row: 7, Period: 24, Start: 92, Periods: 6}) {
		t.Errorf("8×256 RowPeriods() = %v", rp)
	}
}

// TestRowPeriodsWide checks the periods seen in 8192 columns (issue 13)
// against their definition: g(x, y + p) = g(x, y) + p from Start to the
// edge and not from Start − 1, at least two whole periods. Row x of a table
// depends only on the rows above it, so 40 rows are those of 8192 × 8192.
func TestRowPeriodsWide(t *testing.T) {
	const rows, cols = 40, 8192
	tb, err := wythoff.NewTable(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := tb.RowPeriods(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// 8192 columns show two periods of rows 0 to 34 (row 34: 768 from 6065).
	if len(ps) != 35 {
		t.Errorf("%d rows with a period, want 35", len(ps))
	}
	var row []uint64
	for i, p := range ps {
		row = tb.AppendRow(row[:0], p.Row)
		if p.Row != i || p.Periods < 2 || p.Periods != (cols-p.Start)/p.Period {
			t.Errorf("row %d: %+v", i, p)
		}
		for y := p.Start; y+p.Period < cols; y++ {
			if row[y+p.Period] != row[y]+uint64(p.Period) {
				t.Fatalf("row %d: g(%d) = %d, g(%d) = %d, not %d more", p.Row, y, row[y], y+p.Period, row[y+p.Period], p.Period)
			}
		}
		if y := p.Start - 1; y >= 0 && row[y+p.Period] == row[y]+uint64(p.Period) {
			t.Errorf("row %d: the period holds from %d, before its start %d", p.Row, y, p.Start)
		}
	}
	// MATH.md: row 0: p = 1; row 1: p = 3; row 3: p = 6 from 8.
	for _, want := range []wythoff.RowPeriod{{Row: 0, Period: 1, Start: 0}, {Row: 1, Period: 3, Start: 0}, {Row: 3, Period: 6, Start: 8}} {
		if got := ps[want.Row]; got.Period != want.Period || got.Start != want.Start {
			t.Errorf("row %d: period %d from %d, MATH.md says %d from %d", want.Row, got.Period, got.Start, want.Period, want.Start)
		}
	}
}

func TestTableLimits(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted"))
	tests := []struct {
		name       string
		rows, cols int
		opts       wythoff.Options
		want       string
	}{
		{"zero rows", 0, 5, wythoff.Options{}, "both sides must be at least 1"},
		{"negative cols", 5, -1, wythoff.Options{}, "both sides must be at least 1"},
		{"default budget", 1 << 12, 1<<12 + 1, wythoff.Options{}, "more than 16777216 cells"},
		{"budget", 10, 11, wythoff.Options{MaxCells: 100}, "more than 100 cells"},
		{"negative budget", 1, 1, wythoff.Options{MaxCells: -1}, "negative cell budget"},
		{"overflow", 1 << 62, 1 << 62, wythoff.Options{}, "more than"},
		{"cancelled", 3, 3, wythoff.Options{Context: ctx}, "wythoff: interrupted"},
		{"memory", 5000, 5000, wythoff.Options{MaxCells: 1 << 30, MaxMemory: 64 << 20, Workers: 1}, "a 5000×5000 Wythoff table needs about 68 MiB, more than the memory limit of 64 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := wythoff.NewTableOptions(tt.rows, tt.cols, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "wythoff: ") {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := wythoff.NewTableOptions(10, 10, wythoff.Options{MaxCells: 100}); err != nil {
		t.Errorf("10×10 within 100 cells: %v", err)
	}
}

func TestPlayErrors(t *testing.T) {
	if _, err := wythoff.Outcome(-1, 0, game.Normal); err == nil {
		t.Error("Outcome accepted a negative heap")
	}
	if _, err := wythoff.WinningMoves(1, 2, game.Play(7)); err == nil {
		t.Error("WinningMoves accepted an unknown play")
	}
	_, err := wythoff.WinningMovesOptions(10, 10, game.Misere, wythoff.Options{MaxCells: 100})
	if !errors.Is(err, wythoff.ErrTooLarge) || !strings.Contains(err.Error(), "11×11") {
		t.Errorf("misère over budget: %v", err)
	}
	if _, err := wythoff.Outcome(1<<62, 0, game.Misere); !errors.Is(err, wythoff.ErrTooLarge) {
		t.Errorf("misère huge heap: %v", err)
	}
	// Normal play needs no budget.
	if o, err := wythoff.Outcome(1<<40, 1<<40, game.Normal); err != nil || o != game.N {
		t.Errorf("Outcome(2^40, 2^40) = %v, %v", o, err)
	}
}

func TestValuesIsACopy(t *testing.T) {
	tb, _ := wythoff.NewTable(3, 3)
	v := tb.Values()
	v[1][1] = 99
	if tb.At(1, 1) != 2 {
		t.Errorf("Values shares memory with the table")
	}
}

func BenchmarkTable(b *testing.B) {
	const n = 200
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := wythoff.NewTable(n, n); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			naiveTable(n, n)
		}
	})
}

func BenchmarkMisereOutcome(b *testing.B) {
	const n = 40
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := wythoff.Outcome(n, n, game.Misere); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			if _, err := solver(b, game.Misere).Outcome([2]int{n, n}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestHugePositions checks that positions near 2^40, as a job file may
// give, are answered or refused at once, never allocated.
func TestHugePositions(t *testing.T) {
	const a, b = 1<<40 - 1, 1 << 40
	ms, err := wythoff.WinningMoves(a, b, game.Normal)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 {
		t.Fatalf("WinningMoves(%d, %d) = none; (a, a+1) is not a P-position for a this large", a, b)
	}
	for _, m := range ms {
		if o, _ := wythoff.Outcome(m[0], m[1], game.Normal); o != game.P {
			t.Errorf("winning move to %v, an N-position", m)
		}
		if !(m[0] == a && m[1] < b) && !(m[1] == b && m[0] < a) && !(b-m[1] == a-m[0] && m[0] < a) {
			t.Errorf("%v is not a move from (%d, %d)", m, a, b)
		}
	}
	_, err = wythoff.MovesOptions([2]int{a, b}, wythoff.Options{})
	if !errors.Is(err, wythoff.ErrTooLarge) || !strings.Contains(err.Error(), "more than the limit of 16777216 positions") {
		t.Errorf("MovesOptions near 2^40: %v", err)
	}
	if _, err := wythoff.Mover.Moves([2]int{a, b}); !errors.Is(err, wythoff.ErrTooLarge) {
		t.Errorf("Mover near 2^40: %v", err)
	}
	_, err = wythoff.MovesOptions([2]int{1 << 20, 1 << 20}, wythoff.Options{MaxCells: 1 << 30, MaxMemory: 1 << 20})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "listing the 3145728 moves of (1048576, 1048576) needs about 48 MiB, more than the memory limit of 1 MiB") {
		t.Errorf("MovesOptions over memory: %v", err)
	}
	if _, err := wythoff.WinningMoves(a, b, game.Misere); !errors.Is(err, wythoff.ErrTooLarge) {
		t.Errorf("misère near 2^40: %v", err)
	}
	if got := wythoff.Reachable(3, 4); got != 20 {
		t.Errorf("Reachable(3, 4) = %d, want 20", got)
	}
	if got := wythoff.Reachable(a, b); got != math.MaxUint64 {
		t.Errorf("Reachable near 2^40 = %d, want saturated", got)
	}
}

// TestNormalWinningFar checks the row, column and diagonal P-positions of
// WinningMoves far from the origin against the Beatty pairs.
func TestNormalWinningFar(t *testing.T) {
	for _, p := range [][2]int{{1000, 5000}, {123456, 654321}, {1 << 35, 1<<35 + 7}, {1<<40 + 3, 12}} {
		ms, err := wythoff.WinningMoves(p[0], p[1], game.Normal)
		if err != nil {
			t.Fatal(err)
		}
		o, _ := wythoff.Outcome(p[0], p[1], game.Normal)
		if (o == game.P) != (len(ms) == 0) {
			t.Errorf("%v is %v with winning moves %v", p, o, ms)
		}
		for _, m := range ms {
			if o, _ := wythoff.Outcome(m[0], m[1], game.Normal); o != game.P {
				t.Errorf("%v: move to N-position %v", p, m)
			}
		}
	}
}

func TestCancelLong(t *testing.T) {
	// One worker, and three: those waiting for the tile row above must stop
	// too.
	// The context cancels itself at the fill's n-th check: each worker
	// then fills at most the tile it is on (a tile is at most 512 × 64
	// cells), and none waits for ever (the minute is a hang guard only).
	const tileCells = 512 * 64
	for _, workers := range []int{1, 3} {
		for _, at := range []int64{1, 10, 100} {
			ctx := stopcheck.At(budget.WithProgress(context.Background(), budget.NewProgress()), at, errors.New("interrupted"))
			done := make(chan error, 1)
			go func() {
				_, err := wythoff.NewTableOptions(1<<13, 1<<13, wythoff.Options{MaxCells: 1 << 30, MaxMemory: -1, Context: ctx, Workers: workers})
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				t.Fatalf("cancelled table, %d workers, check %d: still running after a minute", workers, at)
			}
			if !ctx.Cancelled() {
				t.Fatalf("cancelled table, %d workers, check %d: finished after %d checks: %v", workers, at, ctx.Checks(), err)
			}
			if err == nil || err.Error() != "wythoff: interrupted" || !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled table, %d workers, check %d: %v", workers, at, err)
			}
			if after := ctx.DoneAfter(); after > int64(workers)*tileCells || ctx.ChecksAfter() > 10 {
				t.Errorf("cancelled table, %d workers, check %d: %d cells and %d checks after the cancel", workers, at, after, ctx.ChecksAfter())
			}
		}
	}
	tb, err := wythoff.NewTable(1, 1<<14)
	if err != nil {
		t.Fatal(err)
	}
	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := tb.RowPeriods(done); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled RowPeriods: %v", err)
	}
	_, err = wythoff.WinningMovesOptions(1<<13, 1<<13, game.Misere, wythoff.Options{MaxCells: 1 << 30, Context: done})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled misère: %v", err)
	}
}

// TestProgress: the table advances the progress counter of its context.
func TestProgress(t *testing.T) {
	p := budget.NewProgress()
	ctx := budget.WithProgress(context.Background(), p)
	if _, err := wythoff.NewTableOptions(300, 200, wythoff.Options{Context: ctx}); err != nil {
		t.Fatal(err)
	}
	if s := p.Snapshot(); s.Label != "Wythoff table" || s.Done != 300*200 || s.Total != 300*200 {
		t.Errorf("progress %+v, want 60000 of 60000 cells", s)
	}
}
