package heap

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/game"
)

// OEIS A002188, "Sprague-Grundy values for Grundy's game", n = 0..104
// (oeis.org/A002188; Guy and Smith 1956, table 4).
var a002188 = []uint64{
	0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1, 2, 4,
	1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2, 4, 3, 2, 4,
	3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3,
}

// TestGrundysGameValues: the values against the generic solver on whole
// positions (every multiset of heaps a heap may break into), against the
// plain mex over Options to 400, and against the OEIS.
func TestGrundysGameValues(t *testing.T) {
	g := NewGrundysGame()
	upto := 36
	if testing.Short() {
		upto = 25
	}
	t.Run("solver", func(t *testing.T) {
		if got, want := mustValues(t, g, upto), referenceValues(t, g, upto); !slices.Equal(got, want) {
			t.Errorf("fast %v\nsolver %v", got, want)
		}
	})
	t.Run("mex of options", func(t *testing.T) {
		if got, want := mustValues(t, g, 400), directValues(g, 400); !slices.Equal(got, want) {
			t.Errorf("fast %v\ndirect %v", got, want)
		}
	})
	t.Run("A002188", func(t *testing.T) {
		if got := mustValues(t, g, len(a002188)-1); !slices.Equal(got, a002188) {
			t.Errorf("got %v\nOEIS %v", got, a002188)
		}
	})
}

// TestGrundysGameSweep: the sparse-space sweep of Grundy's game, from
// heap 2 and from heap 300, under the best split and under bad ones, with
// and without whole scans and new choices of split, against the plain
// quadratic sweep; and Values past the trial, whichever sweep it picks.
func TestGrundysGameSweep(t *testing.T) {
	g := NewGrundysGame()
	const upto = 3000
	want, err := g.splitValues(upto, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	best, err := FindSparseSpace(want[:301], 0)
	if err != nil {
		t.Fatal(err)
	}
	splits := []SparseSpace{best, {Mask: 0}, {Mask: 1}, {Mask: 0b101},
		{Mask: 0, Domain: true}, {Mask: 3, Domain: true}}
	for _, from := range []int{2, 300} {
		for _, sp := range splits {
			for _, dense := range []int{0, 2} {
				for _, resplit := range []bool{false, true} {
					vs := make([]uint32, upto+1)
					for n, v := range want[:from+1] {
						vs[n] = uint32(v)
					}
					w, err := newSweep(g, g.sweepMoves(), vs, from+1, sp)
					if err != nil {
						t.Fatal(err)
					}
					w.dense = dense
					if err := w.run(g, from+1, upto, upto, Limits{}, resplit); err != nil {
						t.Fatal(err)
					}
					for n, v := range w.vs {
						if uint64(v) != want[n] {
							t.Fatalf("from %d, split %v, dense %d, resplit %v: g(%d) = %d, the plain sweep %d",
								from, sp, dense, resplit, n, v, want[n])
						}
					}
				}
			}
		}
	}
	t.Run("past the trial", func(t *testing.T) {
		upto := sparseTrial + 6000
		want, err := g.splitValues(upto, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(mustValues(t, g, upto), want); i >= 0 {
			t.Fatalf("g(%d) differs from the plain sweep", i)
		}
	})
}

// TestGrundysGameRare: up to 2^21, under the split with the fewest rare
// positions (range type, the last bit ignored), the largest value is 231,
// first at heap 763 622, and 1274 heaps are rare, the last 82 860: the
// line "Grundy's | 2^21 | 763622 | 231 | fe | 1274 | 82860" of
// tczajka/octal-games, UnsolvedGames.md, whose "rare mask" fe lists the
// bits counted, ours (1) those ignored. A. Flammenkamp's page on the game
// (wwwhomes.uni-bielefeld.de/achim/grundy.html) gives the same split.
func TestGrundysGameRare(t *testing.T) {
	// Long and independent of the rest: it runs beside the other tests,
	// so that the package holds go test's ten minutes on a loaded machine.
	t.Parallel()
	if testing.Short() {
		t.Skip("values to 2^21")
	}
	g := NewGrundysGame()
	vs, err := g.Values(1<<21, Limits{MaxPositions: 1 << 22, MaxSteps: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	top := slices.Max(vs)
	if at := slices.Index(vs, top); top != 231 || at != 763_622 {
		t.Errorf("largest value %d, first at %d; want 231 at 763622", top, at)
	}
	s, err := SparseSpaceOf(g, vs)
	if err != nil {
		t.Fatal(err)
	}
	if s.Mask != 1 || s.Domain || len(s.Rare) != 1274 || s.Rare[len(s.Rare)-1] != 82_860 {
		t.Errorf("sparse space %v, want range type, mask 1: 1274 rare positions, the last 82860", s)
	}
}

// TestGrundysGameLong: the values up to 2^24, timed, when
// NIMBOOK_LONG is set: `NIMBOOK_LONG=1 go test -run GrundysGameLong -v`.
// The time is logged, not checked.
func TestGrundysGameLong(t *testing.T) {
	if os.Getenv("NIMBOOK_LONG") == "" {
		t.Skip("set NIMBOOK_LONG=1 to sweep Grundy's game to 2^24")
	}
	g := NewGrundysGame()
	const upto = 1 << 24
	lim := Limits{MaxPositions: upto + 1, MaxSteps: 1 << 40}
	c, err := Estimate(g, upto, lim)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	vs, err := g.Values(upto, lim)
	if err != nil {
		t.Fatal(err)
	}
	d := time.Since(start)
	s, err := SparseSpaceOf(g, vs)
	if err != nil {
		t.Fatal(err)
	}
	top := slices.Max(vs)
	t.Logf("g(0..2^24) in %v (estimate: %v); largest value %d, first at %d; %v", d, c, top, slices.Index(vs, top), s)
}

func TestGrundysGameOptions(t *testing.T) {
	g := NewGrundysGame()
	for _, tc := range []struct {
		n    int
		want [][]int
	}{
		{0, nil}, {1, nil}, {2, nil}, {3, [][]int{{1, 2}}}, {4, [][]int{{1, 3}}},
		{7, [][]int{{1, 6}, {2, 5}, {3, 4}}}, {8, [][]int{{1, 7}, {2, 6}, {3, 5}}},
	} {
		got := g.Options(tc.n)
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("Options(%d) = %v, want %v", tc.n, got, tc.want)
		}
		if c := g.optionCount(tc.n); c != int64(len(tc.want)) {
			t.Errorf("optionCount(%d) = %d, want %d", tc.n, c, len(tc.want))
		}
	}
}

// TestGrundysGamePositions: outcomes and winning moves of positions of
// several heaps, both plays, against the generic solver on positions in
// place; and a heap of 100 000, whose winning moves need its values (the
// sparse-space sweep).
func TestGrundysGamePositions(t *testing.T) {
	g := NewGrundysGame()
	var ps [][]int
	ps = append(ps, tuples(1, 14)...)
	ps = append(ps, tuples(2, 9)...)
	ps = append(ps, tuples(3, 6)...)
	checkPositions(t, g, ps)
	if testing.Short() {
		return
	}
	heaps := []int{100_000, 5}
	o, err := Outcome(g, heaps, game.Normal, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	moves, err := WinningMoves(g, heaps, game.Normal, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	vs := mustValues(t, g, heaps[0])
	if (o == game.P) != (vs[heaps[0]] == vs[5]) || (o == game.N) != (len(moves) > 0) {
		t.Errorf("%v: outcome %v with %d winning moves; g = %d ⊕ %d", heaps, o, len(moves), vs[heaps[0]], vs[5])
	}
	for _, m := range moves {
		var s uint64
		for _, h := range m {
			s ^= vs[h]
		}
		if s != 0 {
			t.Errorf("winning move to %v has value %d", m, s)
		}
	}
}

// TestGrundysGamePeriod: no period is ever claimed for Grundy's game, and
// the certificate says why.
func TestGrundysGamePeriod(t *testing.T) {
	g := NewGrundysGame()
	for _, upto := range []int{0, 10, 2000} {
		c := Period(g, mustValues(t, g, upto))
		if want := (Certificate{CheckedTo: upto, Method: MethodGrundy}); c != want {
			t.Errorf("upto %d: %+v, want %+v", upto, c, want)
		}
	}
}

// TestGrundysGameEstimate: the plain sweep up to sparseTrial, about
// upto²/4 steps; past it the sparse-space sweep under the range type,
// mask 1, a few thousand steps a heap; both within the limits they name.
func TestGrundysGameEstimate(t *testing.T) {
	g := NewGrundysGame()
	c, err := Estimate(g, 1000, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Method != SweepSplits || c.Steps != 1001.0*1001/4 || c.Memory < 8*1001 {
		t.Errorf("Estimate(1000) = %v", c)
	}
	const upto = 1 << 22
	c, err = Estimate(g, upto, Limits{MaxPositions: upto + 1})
	if err != nil {
		t.Fatal(err)
	}
	if c.Method != SweepSparse || !strings.HasPrefix(c.Detail, "range type, mask 1: ") ||
		c.Steps < 1e3*upto || c.Steps > 1e4*upto || c.Memory < 12*upto || c.Memory > 13*upto {
		t.Errorf("Estimate(2^22) = %v", c)
	}
	_, err = g.Values(upto, Limits{MaxPositions: upto + 1, MaxSteps: 1e9})
	if !errors.Is(err, ErrTooManySteps) {
		t.Errorf("2^22 under 1e9 steps: %v", err)
	}
	if _, err := g.Values(1000, Limits{MaxPositions: 1000}); !errors.Is(err, game.ErrTooManyPositions) {
		t.Errorf("past the position limit: %v", err)
	}
}

// TestGrundysGameRule: the rule as job files and the notebook know it.
func TestGrundysGameRule(t *testing.T) {
	r, ok := Lookup("grundy")
	if !ok {
		t.Fatal("no rule grundy")
	}
	if r.Order != 50 || !slices.Equal(r.Keys(), []string{Upto}) || !slices.Equal(r.Analyses, []string{"rare"}) ||
		r.Signature != `grundy(upto=1000, play="normal", position=None)` || r.Text["en"] == "" || r.Text["fr"] == "" {
		t.Errorf("rule %+v", r)
	}
	p := Params{}
	g, err := r.NewGame(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g.(*GrundysGame); !ok || p.Int(Upto) != 1000 || g.String() != "Grundy's game" {
		t.Errorf("NewGame = %v, params %v", g, p)
	}
	if err := r.CheckParams(Params{"code": "0.77"}); err == nil {
		t.Error("grundy takes a code")
	}
}
