package heap

import (
	"slices"
	"testing"
)

// sweepValues runs the sparse-space sweep from prefix to upto under sp,
// with the split chosen again as it goes when resplit is set, and a split
// digit scanned whole when dense·(rare parts) ≥ its heap (0: never).
func sweepValues(t *testing.T, g *Octal, prefix []uint64, sp SparseSpace, upto int, resplit bool, dense int) ([]uint64, *sweep) {
	t.Helper()
	w := newTestSweep(t, g, prefix, sp, upto)
	w.dense = dense
	if err := w.run(g, len(prefix), upto, upto, Limits{}, resplit); err != nil {
		t.Fatal(err)
	}
	out := make([]uint64, upto+1)
	for n, v := range w.vs {
		out[n] = uint64(v)
		// The copy backwards that the inner loops read.
		if r := w.mirror(n)[0]; r != v {
			t.Fatalf("mirror(%d)[0] = %d, vs[%d] = %d", n, r, n, v)
		}
	}
	return out, w
}

// newTestSweep starts a sweep of g's values to upto from prefix under sp.
func newTestSweep(t *testing.T, g *Octal, prefix []uint64, sp SparseSpace, upto int) *sweep {
	t.Helper()
	vs := make([]uint32, upto+1)
	for n, v := range prefix {
		vs[n] = uint32(v)
	}
	w, err := g.newSweep(g, vs, len(prefix), sp)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSparseValuesMatchPlain: the sparse-space sweep gives the plain
// sweep's values for splitting codes, under the split the first values
// choose and under splits chosen badly on purpose (the sweep is exact
// whatever the split; a bad one is only slower), with and without the
// whole scans of dense split digits, and with the split chosen again as it
// goes.
func TestSparseValuesMatchPlain(t *testing.T) {
	codes := []string{"0.77", "0.137", "0.07", "0.16", "0.51", "0.127", "0.56", "0.4", "4.07", "0.36", "0.6", "0.051",
		"0.007", "0.165", "0.35", "4.4", "0.754", "0.376", "0.354", "0.644", "4.64", "0.0404"}
	const upto, from = 3000, 300
	var full, partial int64
	for _, cs := range codes {
		t.Run(cs, func(t *testing.T) {
			g := mustOctal(t, cs)
			want, err := g.splitValues(g, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			td := NoDomain
			if d, ok := g.SplitDigit(); ok {
				td = d
			}
			best, err := FindSparseSpace(want[:from+1], td)
			if err != nil {
				t.Fatal(err)
			}
			splits := []SparseSpace{best, {Mask: 0}, {Mask: 1}, {Mask: 0b101}}
			if td != NoDomain {
				splits = append(splits, SparseSpace{Mask: 0, Domain: true, T: td}, SparseSpace{Mask: 3, Domain: true, T: td})
			}
			for _, sp := range splits {
				for _, dense := range []int{0, 2} {
					for _, resplit := range []bool{false, true} {
						got, w := sweepValues(t, g, want[:from+1], sp, upto, resplit, dense)
						if i := firstDiff(got, want); i >= 0 {
							t.Fatalf("split %v, dense %d, resplit %v: g(%d) = %d, the plain sweep %d", sp, dense, resplit, i, got[i], want[i])
						}
						full += w.fullScans
						if w.fullScans < int64(upto-from+1)*int64(len(w.splits)) {
							partial++
						}
					}
				}
			}
			// The sparse-space sweep also matches the plain one through
			// sparseValues, from heap 2 on.
			got, err := g.sparseValues(g, want[:2], best, upto, Limits{}, true)
			if err != nil {
				t.Fatal(err)
			}
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("sparseValues from heap 2: g(%d) = %d, the plain sweep %d", i, got[i], want[i])
			}
		})
	}
	if full == 0 || partial == 0 {
		t.Errorf("whole scans %d, sweeps with rare-part scans %d: both kinds should run", full, partial)
	}
}

// TestSparseSweepAgainstSolver: the sweep on small heaps, from heap 2,
// against the generic solver, for random codes that split in two, under
// good and bad splits and without whole scans (so every heap takes the
// rare-part route).
func TestSparseSweepAgainstSolver(t *testing.T) {
	upto := 22
	if testing.Short() {
		upto = 16
	}
	var games []*Octal
	for _, g := range randomGames(t, 40) {
		if o, ok := g.(*Octal); ok && o.parts() == 2 {
			games = append(games, o)
		}
	}
	games = append(games, mustOctal(t, "0.6"), mustOctal(t, "0.376"), mustOctal(t, "0.354"), mustOctal(t, "4.7"))
	for _, g := range games {
		t.Run(g.String(), func(t *testing.T) {
			want := referenceValues(t, g, upto)
			splits := []SparseSpace{{Mask: 0}, {Mask: 1}, {Mask: 0b10001}}
			if d, ok := g.SplitDigit(); ok {
				splits = append(splits, SparseSpace{Mask: 0, Domain: true, T: d}, SparseSpace{Mask: 2, Domain: true, T: d})
			}
			for _, sp := range splits {
				got, _ := sweepValues(t, g, want[:2], sp, upto, false, 0)
				if !slices.Equal(got, want) {
					t.Errorf("split %v: sweep %v\nsolver %v", sp, got, want)
				}
			}
		})
	}
}

// TestSparseSweepResplit: Officers (0.6) started under mask 1, a poor
// split for it (20284 rare positions up to 65536), finds the split of mask
// 10001 (1584 rare positions up to 2^21, the last at 20627, as in A.
// Flammenkamp's table of octal games, wwwhomes.uni-bielefeld.de/achim/
// octal.html) when the heap size doubles, and stays exact.
func TestSparseSweepResplit(t *testing.T) {
	g := mustOctal(t, "0.6")
	const upto = 20000
	want, err := g.splitValues(g, upto, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, w := sweepValues(t, g, want[:1001], SparseSpace{Mask: 1}, upto, true, 2)
	if i := firstDiff(got, want); i >= 0 {
		t.Fatalf("g(%d) = %d, the plain sweep %d", i, got[i], want[i])
	}
	if w.resplt == 0 || w.s.mask != 0b10001 || w.s.domain {
		t.Errorf("after %d new choices the split is %+v, want the range type with mask 10001", w.resplt, w.s)
	}
	best, _ := FindSparseSpace(want, NoDomain)
	if len(w.rare)+1 != len(best.Rare) { // w.rare leaves heap 0 out
		t.Errorf("%d rare positions ≥ 1, the finder %d in 0..%d", len(w.rare), len(best.Rare), upto)
	}
}

func firstDiff(a, b []uint64) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// TestSparsePublishedPeriods: periods of Gangolli and Plambeck (1989), as
// the OEIS gives them (heap sizes from 1), need the sparse sweep: the plain
// one would take about upto²/4 = 2·10⁹ and 10¹¹ steps.
//   - 0.127: period 4, last exception n = 46577 (A071464).
//   - 0.56: period 144 (A071436), whose comment puts the last exception
//     at n = 326637. We find it at 326639: g(326639) = 26 and
//     g(326639 + 144) = 16, and the plain sweep, run once to 330 000,
//     agrees with every value. The first terms match the OEIS's.
//
// And two long ones of A. Flammenkamp's table of octal games
// (wwwhomes.uni-bielefeld.de/achim/octal.html), as issue 13 quotes them:
//   - 0.376: period 4, last exception 2268247 (4.5·10⁶ values).
//   - 0.354: period 1180, preperiod 10061916 (2·10⁷ values, 230 MiB).
func TestSparsePublishedPeriods(t *testing.T) {
	// Long and independent of the rest: it runs beside the other tests,
	// so that the package holds go test's ten minutes on a loaded machine.
	t.Parallel()
	if testing.Short() {
		t.Skip("values to 2·10⁷")
	}
	tests := []struct {
		code          string
		lastException int
		period, upto  int
	}{
		{"0.127", 46577, 4, 94_000},
		{"0.56", 326639, 144, 660_000},
		// Exactly the values the Guy–Smith window needs: n0 ≤ n < 2n0 + p + t
		// compared with n + p.
		{"0.376", 2268247, 4, 2*2268248 + 4 + 3 - 1 + 4},
		{"0.354", 10061915, 1180, 2*10061916 + 1180 + 3 - 1 + 1180},
	}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			g, err := ParseOctal(tc.code)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := g.Values(tc.upto, Limits{MaxPositions: tc.upto + 1, MaxSteps: 2e10})
			if err != nil {
				t.Fatal(err)
			}
			c := Period(g, vs)
			if !c.Proven || c.Period != tc.period || c.Preperiod != tc.lastException+1 || c.CheckedTo > tc.upto {
				t.Fatalf("certificate %+v, want period %d from %d", c, tc.period, tc.lastException+1)
			}
			if vs[tc.lastException] == vs[tc.lastException+tc.period] {
				t.Errorf("g(%d) = g(%d + %d): not an exception", tc.lastException, tc.lastException, tc.period)
			}
		})
	}
}

// TestOfficersRare: Officers (0.6) has 1584 rare positions under the mask
// 10001, the last at 20627 (A. Flammenkamp's table counts them up to 2^21;
// we check to 2^17). Its period, if any, is unknown.
func TestOfficersRare(t *testing.T) {
	if testing.Short() {
		t.Skip("values to 2^17")
	}
	g := mustOctal(t, "0.6")
	vs := mustValues(t, g, 1<<17)
	s, err := SparseSpaceOf(g, vs)
	if err != nil {
		t.Fatal(err)
	}
	if s.Mask != 0b10001 || s.Domain || len(s.Rare) != 1584 || s.Rare[len(s.Rare)-1] != 20627 {
		t.Errorf("sparse space %v, want range type, mask 10001: 1584 rare positions, the last 20627", s)
	}
}

// TestValuesPastSparseFrom: Values past sparseFrom, whichever sweep it
// picks, agrees with the plain sweep.
func TestValuesPastSparseFrom(t *testing.T) {
	for _, cs := range []string{"0.77", "0.137", "0.16", "0.56", "0.051", "0.6", "0.127", "4.07"} {
		t.Run(cs, func(t *testing.T) {
			g, err := ParseOctal(cs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.Values(sparseTrial+2000, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := g.splitValues(g, sparseTrial+2000, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("g(%d) = %d, the plain sweep %d", i, got[i], want[i])
			}
		})
	}
}
