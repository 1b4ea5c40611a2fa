package coins

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

func mustNew(t testing.TB, rule Rule, r, first int) *Game {
	t.Helper()
	g, err := New(rule, r, first)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestParseRule(t *testing.T) {
	for _, rule := range []Rule{AtMost, Exactly, Ruler} {
		got, err := ParseRule(rule.String())
		if err != nil || got != rule {
			t.Errorf("ParseRule(%q) = %v, %v", rule.String(), got, err)
		}
	}
	for _, s := range []string{"", "atmost", "Ruler", "at most"} {
		if _, err := ParseRule(s); err == nil || !strings.HasPrefix(err.Error(), "coins: ") {
			t.Errorf("ParseRule(%q): error %v, want a coins: error", s, err)
		}
	}
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"at-most", "exactly", "ruler", "", "at-most ", "RULER"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rule, err := ParseRule(s)
		if err != nil {
			return
		}
		if rule.String() != s {
			t.Errorf("ParseRule(%q) = %v, which prints differently", s, rule)
		}
	})
}

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		rule     Rule
		r, first int
		ok       bool
	}{
		{"at-most 7 from 1", AtMost, 7, 1, true},
		{"at-most 3 from 0", AtMost, 3, 0, true},
		{"exactly 2 from 0", Exactly, 2, 0, true},
		{"ruler from 1", Ruler, 0, 1, true},
		{"ruler with r", Ruler, 5, 1, true},
		{"at-most 0", AtMost, 0, 1, false},
		{"exactly -1", Exactly, -1, 0, false},
		{"first 2", AtMost, 2, 2, false},
		{"first -1", Exactly, 2, -1, false},
		{"ruler from 0", Ruler, 0, 0, false},
		{"ruler negative r", Ruler, -1, 1, false},
		{"unknown rule", Rule(9), 2, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(tc.rule, tc.r, tc.first)
			if tc.ok != (err == nil) {
				t.Fatalf("New(%v, %d, %d) = %v, %v", tc.rule, tc.r, tc.first, g, err)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "coins: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if err == nil && (g.Rule() != tc.rule || g.First() != tc.first) {
				t.Errorf("got %v", g)
			}
		})
	}
}

// seed 000 (Madore 2017, "Le jeu de nim : thème et variations"), slide
// "Retournement de ≤ r pièces", table of f_r(n) for n = 1..10, coins
// numbered from 1; MATH.md "Coin-turning games" reproduces rows 4..9.
var seedFr = [][]uint64{
	1: {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
	2: {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
	3: {1, 2, 4, 7, 8, 11, 13, 14, 16, 19},
	4: {1, 2, 4, 8, 15, 16, 32, 51, 64, 85},
	5: {1, 2, 4, 8, 16, 31, 32, 64, 103, 128},
	6: {1, 2, 4, 8, 16, 32, 63, 64, 128, 256},
	7: {1, 2, 4, 8, 16, 32, 64, 127, 128, 256},
	8: {1, 2, 4, 8, 16, 32, 64, 128, 255, 256},
	9: {1, 2, 4, 8, 16, 32, 64, 128, 256, 511},
}

func TestSeedTable(t *testing.T) {
	for r := 1; r <= 9; r++ {
		for _, first := range []int{1, 0} {
			g := mustNew(t, AtMost, r, first)
			got, err := g.Values(10)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, seedFr[r]) {
				t.Errorf("%v: f(1..10) = %v, seed 000 says %v", g, got, seedFr[r])
			}
		}
	}
}

// exactly r: the first r − 1 coins are worth 0, then the values of at
// most r follow (MATH.md; Winning Ways numbers from 0: exactly 2 is Twins).
func TestExactly(t *testing.T) {
	tests := []struct {
		name string
		r    int
		want []uint64
	}{
		{"exactly 1", 1, []uint64{1, 1, 1, 1, 1}},
		{"exactly 2 (Twins)", 2, []uint64{0, 1, 2, 3, 4, 5, 6, 7}},
		{"exactly 3", 3, []uint64{0, 0, 1, 2, 4, 7, 8, 11, 13}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mustNew(t, Exactly, tc.r, 0).Values(len(tc.want))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("values from coin 0 = %v, want %v", got, tc.want)
			}
		})
	}
	for r := 1; r <= 9; r++ {
		got, err := mustNew(t, Exactly, r, 0).Values(r - 1 + 10)
		if err != nil {
			t.Fatal(err)
		}
		want := append(make([]uint64, r-1), seedFr[r]...)
		if !slices.Equal(got, want) {
			t.Errorf("exactly %d = %v, want %d zeros then seed 000's f_%d %v", r, got, r-1, r, seedFr[r])
		}
	}
}

// seed 000, slide "Un jeu plus facile": g(n) = the largest power of 2 dividing n.
func TestRuler(t *testing.T) {
	g := mustNew(t, Ruler, 0, 1)
	vs, err := g.Values(1000)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		n := uint64(i + 1)
		if want := n & -n; v != want {
			t.Fatalf("g(%d) = %d, want %d", n, v, want)
		}
	}
}

// refValues computes the single-head values from the mex definition,
// enumerating every set of earlier coins (MATH.md "Coin-turning games").
func refValues(rule Rule, r, n int) []uint64 {
	out := make([]uint64, n)
	for i := 0; i < n; i++ {
		var opts []uint64
		for s := uint64(0); s < 1<<i; s++ {
			size := bits.OnesCount64(s)
			ok := size < r
			switch rule {
			case Exactly:
				ok = size == r-1
			case Ruler:
				// a run i−k..i−1: the bits of s are the top k of [0, i)
				ok = s == 0 || bits.Len64(s) == i && bits.TrailingZeros64(s) == i-size
			}
			if !ok {
				continue
			}
			var x uint64
			for q := s; q != 0; q &= q - 1 {
				x ^= out[bits.TrailingZeros64(q)]
			}
			opts = append(opts, x)
		}
		out[i] = game.Mex(opts)
	}
	return out
}

func TestValuesMatchMexDefinition(t *testing.T) {
	n := 16
	if testing.Short() {
		n = 13
	}
	check := func(g *Game) {
		got, err := g.Values(n)
		if err != nil {
			t.Fatal(err)
		}
		if want := refValues(g.Rule(), g.R(), n); !slices.Equal(got, want) {
			t.Errorf("%v: fast %v, mex definition %v", g, got, want)
		}
	}
	for r := 1; r <= 9; r++ {
		check(mustNew(t, AtMost, r, 1))
		check(mustNew(t, AtMost, r, 0))
		check(mustNew(t, Exactly, r, 0))
	}
	check(mustNew(t, Ruler, 0, 1))
}

// Values grown past several bitset doublings agree with a fresh, shorter
// computation (the cache and the growth keep earlier values).
func TestValuesPrefix(t *testing.T) {
	g := mustNew(t, AtMost, 4, 1)
	long, err := g.Values(200)
	if err != nil {
		t.Fatal(err)
	}
	short, err := mustNew(t, AtMost, 4, 1).Values(50)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(long[:50], short) {
		t.Error("prefix differs")
	}
	again, _ := g.Values(30)
	if !slices.Equal(again, short[:30]) {
		t.Error("cached values differ")
	}
}

// MATH.md: the P-positions of at most 7 on 24 coins are the extended
// Golay code, 4096 = 2^12 rows. Row values are a linear map onto the span
// of the f's, which is [0, 2^k) with k the number of values that are
// powers of two, so there are 2^(24−k) P-positions.
func TestGolayDimension(t *testing.T) {
	vs, err := mustNew(t, AtMost, 7, 1).Values(24)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, v := range vs {
		if v&(v-1) == 0 {
			k++
		}
	}
	if k != 12 || slices.Max(vs) >= 1<<12 {
		t.Errorf("at most 7 on 24 coins: %d new dimensions, max value %d; want 12 and below 4096", k, slices.Max(vs))
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"memory", func() error {
			_, err := mustNew(t, AtMost, 30, 1).WithLimits(Limits{MaxMemory: 1 << 20}).Values(40)
			return err
		}, "coins: at-most 30 on 40 coins (at least 54863119744 distinct values) needs about 208 GiB, more than the memory limit of 1 MiB (raise it with --max-memory or limits.memory)"},
		{"ruler steps", func() error {
			_, err := mustNew(t, Ruler, 0, 1).WithLimits(Limits{MaxSteps: 1000}).Values(100)
			return err
		}, "coins: ruler: the 5050 steps of 100 coins are more than the step limit of 1000"},
		{"moves", func() error {
			_, err := mustNew(t, AtMost, 10, 1).WithLimits(Limits{MaxSteps: 1000}).Moves(20, []int{20})
			return err
		}, "the move sets to enumerate are more than the step limit of 1000"},
		{"winning moves", func() error {
			_, err := mustNew(t, AtMost, 10, 1).WithLimits(Limits{MaxSteps: 1000}).WinningMoves(20, []int{20})
			return err
		}, "the partial move sets to enumerate are more than the step limit of 1000"},
		{"misere positions", func() error {
			_, err := mustNew(t, AtMost, 3, 1).WithLimits(Limits{MaxPositions: 100}).Outcome(20, []int{20}, game.Misere)
			return err
		}, "misère play on 20 coins may visit 1048576 rows, more than the limit of 100 positions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrLimit naming %s", err, tc.want)
			}
		})
	}
}

func TestBadHeads(t *testing.T) {
	g := mustNew(t, AtMost, 3, 1)
	for name, heads := range map[string][]int{
		"below first": {0, 2},
		"beyond n":    {3, 9},
		"twice":       {2, 2},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := g.WinningMoves(5, heads); err == nil {
				t.Errorf("WinningMoves(5, %v) accepted", heads)
			}
			if _, err := g.Moves(5, heads); err == nil {
				t.Errorf("Moves(5, %v) accepted", heads)
			}
		})
	}
	if _, err := g.RowValue([]int{0}); err == nil {
		t.Error("RowValue accepted coin 0 in a game numbered from 1")
	}
}

func allGames(t testing.TB, maxR int) []*Game {
	var gs []*Game
	for r := 1; r <= maxR; r++ {
		for _, first := range []int{1, 0} {
			gs = append(gs, mustNew(t, AtMost, r, first), mustNew(t, Exactly, r, first))
		}
	}
	return append(gs, mustNew(t, Ruler, 0, 1))
}

// Every row of up to 10 coins, for every rule with r = 1..5 and both
// numberings: the generic solver's Grundy value is the nim-sum of the
// single-head values, and the moves and winning moves are the solver's.
func TestRowsMatchSolver(t *testing.T) {
	maxN := 10
	if testing.Short() {
		maxN = 8
	}
	for _, g := range allGames(t, 5) {
		t.Run(g.String(), func(t *testing.T) {
			m, err := g.Mover(maxN)
			if err != nil {
				t.Fatal(err)
			}
			s, err := game.NewSolver[uint64](m, game.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for p := uint64(0); p < 1<<maxN; p++ {
				heads := g.Heads(p)
				want, err := s.Grundy(p)
				if err != nil {
					t.Fatal(err)
				}
				got, err := g.RowValue(heads)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("row %v: value %d, solver %d", heads, got, want)
				}
				// A row of n coins: the smallest n holding the heads, and maxN.
				n := bits.Len64(p)
				if p%7 == 0 { // spot-check the rows as part of the longest row too
					n = maxN
				}
				moves, err := g.Moves(n, heads)
				if err != nil {
					t.Fatal(err)
				}
				opts, _ := m.Moves(p)
				if wantMoves := asHeads(g, opts); !equalLists(moves, wantMoves) {
					t.Fatalf("row %v: moves %v, solver %v", heads, moves, wantMoves)
				}
				win, err := g.WinningMoves(n, heads)
				if err != nil {
					t.Fatal(err)
				}
				sw, err := s.WinningMoves(p)
				if err != nil {
					t.Fatal(err)
				}
				if wantWin := asHeads(g, sw); !equalLists(win, wantWin) {
					t.Fatalf("row %v: winning moves %v, solver %v", heads, win, wantWin)
				}
				o, err := g.Outcome(maxN, heads, game.Normal)
				if err != nil {
					t.Fatal(err)
				}
				if so, _ := s.Outcome(p); o != so {
					t.Fatalf("row %v: outcome %v, solver %v", heads, o, so)
				}
			}
		})
	}
}

func asHeads(g *Game, ps []uint64) [][]int {
	out := [][]int{}
	for _, p := range ps {
		out = append(out, g.Heads(p))
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

func equalLists(a, b [][]int) bool { return slices.EqualFunc(a, b, slices.Equal) }

// Misère outcomes, solved by the generic solver, agree with a direct
// recursion over every row of up to 7 coins whose moves are every set of
// coins the rule allows, found by enumerating all subsets.
func TestMisere(t *testing.T) {
	const n = 7
	for _, g := range allGames(t, 4) {
		t.Run(g.String(), func(t *testing.T) {
			memo := map[uint64]bool{} // row → misère P
			var isP func(p uint64) bool
			isP = func(p uint64) bool {
				if v, ok := memo[p]; ok {
					return v
				}
				moved := false
				res := true
				for s := uint64(1); s < 1<<n; s++ {
					top := uint64(1) << (bits.Len64(s) - 1)
					size := bits.OnesCount64(s)
					low := s &^ top
					ok := size <= g.R()
					switch g.Rule() {
					case Exactly:
						ok = size == g.R()
					case Ruler:
						ok = low == 0 || bits.Len64(low)+1 == bits.Len64(s) && bits.Len64(s)-bits.TrailingZeros64(s) == size
					}
					if !ok || p&top == 0 {
						continue
					}
					moved = true
					if isP(p ^ s) {
						res = false
					}
				}
				if !moved {
					res = false // the player to move made no last move: they win
				}
				memo[p] = res
				return res
			}
			for p := uint64(0); p < 1<<n; p++ {
				heads := g.Heads(p)
				want := game.N
				if isP(p) {
					want = game.P
				}
				got, err := g.Outcome(n, heads, game.Misere)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("misère %v: %v, want %v", heads, got, want)
				}
				win, err := g.MisereWinningMoves(n, heads)
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range win {
					if o, _ := g.Outcome(n, q, game.Misere); o != game.P {
						t.Fatalf("misère %v: winning move to %v, an N-position", heads, q)
					}
				}
				// A row without moves is an N-position without winning moves.
				opts, _ := g.Moves(n, heads)
				if len(opts) > 0 && (len(win) == 0) != (want == game.P) {
					t.Fatalf("misère %v (%v): winning moves %v", heads, want, win)
				}
			}
		})
	}
}

// Larger rows than the solver can take: every winning move found by the
// lookup reaches value 0, and their number matches a plain enumeration.
func TestWinningMovesLargeRows(t *testing.T) {
	g := mustNew(t, AtMost, 7, 1)
	heads := []int{1, 2, 5, 9, 14, 20, 24}
	win, err := g.WinningMoves(24, heads)
	if err != nil {
		t.Fatal(err)
	}
	all, err := g.Moves(24, heads)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]int
	for _, q := range all {
		if v, _ := g.RowValue(q); v == 0 {
			want = append(want, q)
		}
	}
	if len(win) == 0 || !equalLists(win, want) {
		t.Errorf("%d winning moves, enumeration finds %d", len(win), len(want))
	}
}

// TestHasMove: HasMove agrees with listing the moves on every row of up to
// 7 coins, for every rule, r and numbering.
func TestHasMove(t *testing.T) {
	for _, rule := range []Rule{AtMost, Exactly, Ruler} {
		for r := 1; r <= 4; r++ {
			for first := 0; first <= 1; first++ {
				if rule == Ruler && first == 0 {
					continue // the ruler numbers its coins from 1
				}
				g := mustNew(t, rule, r, first)
				t.Run(fmt.Sprintf("%v r=%d first=%d", rule, r, first), func(t *testing.T) {
					for n := 0; n <= 7; n++ {
						for mask := 0; mask < 1<<n; mask++ {
							var heads []int
							for i := range n {
								if mask>>i&1 != 0 {
									heads = append(heads, i+first)
								}
							}
							ms, err := g.Moves(n, heads)
							if err != nil {
								t.Fatal(err)
							}
							got, err := g.HasMove(n, heads)
							if err != nil {
								t.Fatal(err)
							}
							if got != (len(ms) > 0) {
								t.Fatalf("n=%d heads %v: HasMove %v, %d moves", n, heads, got, len(ms))
							}
						}
					}
					if _, err := g.HasMove(3, []int{first + 3}); err == nil {
						t.Error("a head off the row: no error")
					}
				})
			}
		}
	}
}

// TestLargestMoves: the k moves that leave the most game, and the count of
// moves, agree with listing every move and sorting, on every row of up to
// 7 coins, for every rule and r.
func TestLargestMoves(t *testing.T) {
	for _, rule := range []Rule{AtMost, Exactly, Ruler} {
		for r := 1; r <= 4; r++ {
			g := mustNew(t, rule, r, 1)
			t.Run(fmt.Sprintf("%v r=%d", rule, r), func(t *testing.T) {
				for n := 0; n <= 7; n++ {
					for mask := 0; mask < 1<<n; mask++ {
						var heads []int
						for i := range n {
							if mask>>i&1 != 0 {
								heads = append(heads, i+1)
							}
						}
						all, err := g.Moves(n, heads)
						if err != nil {
							t.Fatal(err)
						}
						// Sizes as numbers: the reference order.
						size := func(m []int) int {
							s := 0
							for _, h := range m {
								s += 1 << (h - 1)
							}
							return s
						}
						slices.SortFunc(all, func(a, b []int) int { return size(b) - size(a) })
						if c, err := g.MoveCount(n, heads); err != nil || c != int64(len(all)) {
							t.Fatalf("n=%d heads %v: MoveCount %d, %v; %d moves", n, heads, c, err, len(all))
						}
						for _, k := range []int{0, 1, 3, 1000} {
							got, err := g.LargestMoves(n, heads, k)
							if err != nil {
								t.Fatal(err)
							}
							want := all[:min(k, len(all))]
							if !slices.EqualFunc(got, want, slices.Equal) {
								t.Fatalf("n=%d heads %v, k=%d: %v, want %v", n, heads, k, got, want)
							}
						}
					}
				}
			})
		}
	}
}

// TestRandomMove: every move drawn is a move, and on rows of 5 and 6 coins
// each move comes up about equally often (20 000 draws, a fixed seed;
// within 30% of the mean, six standard deviations at 400 a move).
func TestRandomMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		rule  Rule
		r, n  int
		heads []int
	}{
		{AtMost, 3, 6, []int{2, 4, 5, 6}},
		{Exactly, 3, 6, []int{1, 3, 6}},
		{Exactly, 2, 5, []int{2, 3, 5}},
		{Ruler, 1, 6, []int{1, 4, 6}},
		{AtMost, 1, 5, []int{1, 2, 5}},
	} {
		g := mustNew(t, c.rule, c.r, 1)
		t.Run(fmt.Sprintf("%v r=%d %v", c.rule, c.r, c.heads), func(t *testing.T) {
			all, err := g.Moves(c.n, c.heads)
			if err != nil {
				t.Fatal(err)
			}
			if len(all) > 50 {
				t.Fatalf("%d moves: too many for 20 000 draws", len(all))
			}
			seen := map[string]int{}
			const draws = 20000
			for range draws {
				q, err := g.RandomMove(c.n, c.heads, rng)
				if err != nil {
					t.Fatal(err)
				}
				seen[fmt.Sprint(q)]++
			}
			mean := float64(draws) / float64(len(all))
			for _, m := range all {
				if got := float64(seen[fmt.Sprint(m)]); got < 0.7*mean || got > 1.3*mean {
					t.Errorf("move to %v drawn %v times, about %.0f expected", m, got, mean)
				}
				delete(seen, fmt.Sprint(m))
			}
			if len(seen) > 0 {
				t.Errorf("drawn, and not moves: %v", seen)
			}
		})
	}
	if _, err := mustNew(t, Exactly, 3, 1).RandomMove(5, []int{1, 2}, rng); err == nil {
		t.Error("no move, and no error")
	}
}
