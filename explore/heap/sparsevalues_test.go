package heap

import (
	"testing"
)

// TestSparseValuesMatchPlain: the sparse-space sweep gives the plain
// sweep's values for splitting codes, under the split the first values
// choose and under splits chosen badly on purpose (the sweep is exact
// whatever the split; a bad one is only slower).
func TestSparseValuesMatchPlain(t *testing.T) {
	codes := []string{"0.77", "0.137", "0.07", "0.16", "0.51", "0.127", "0.56", "0.4", "4.07", "0.36", "0.6", "0.051", "0.007", "0.165", "0.35", "4.4", "0.754"}
	const upto, from = 3000, 300
	for _, cs := range codes {
		t.Run(cs, func(t *testing.T) {
			g, err := ParseOctal(cs)
			if err != nil {
				t.Fatal(err)
			}
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
				got, err := g.sparseValues(g, want[:from+1], sp, upto, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("split %v: g(%d) = %d, the plain sweep %d", sp, i, got[i], want[i])
				}
			}
		})
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
func TestSparsePublishedPeriods(t *testing.T) {
	if testing.Short() {
		t.Skip("values to 660 000")
	}
	tests := []struct {
		code          string
		lastException int
		period, upto  int
	}{
		{"0.127", 46577, 4, 94_000},
		{"0.56", 326639, 144, 660_000},
	}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			g, err := ParseOctal(tc.code)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := g.Values(tc.upto, Limits{MaxPositions: tc.upto + 1})
			if err != nil {
				t.Fatal(err)
			}
			c := Period(g, vs)
			if !c.Proven || c.Period != tc.period || c.Preperiod != tc.lastException+1 {
				t.Fatalf("certificate %+v, want period %d from %d", c, tc.period, tc.lastException+1)
			}
			if vs[tc.lastException] == vs[tc.lastException+tc.period] {
				t.Errorf("g(%d) = g(%d + %d): not an exception", tc.lastException, tc.lastException, tc.period)
			}
		})
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
			got, err := g.Values(sparseFrom+2000, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := g.splitValues(g, sparseFrom+2000, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("g(%d) = %d, the plain sweep %d", i, got[i], want[i])
			}
		})
	}
}
