package heap

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// codesUpTo lists every octal code 0.d1…dj with j ≤ digits and dj ≠ 0, as
// the census does, and the same codes with 4 before the point.
func codesUpTo(t testing.TB, digits int) []*Octal {
	var out []*Octal
	for j := 1; j <= digits; j++ {
		pow := 1 << (3 * j)
		for x := range pow {
			if x%8 == 0 {
				continue
			}
			for _, d0 := range []string{"0", "4"} {
				out = append(out, mustOctal(t, fmt.Sprintf("%s.%0*o", d0, j, x)))
			}
		}
	}
	return out
}

// denseFrom runs the dense sweep of g to upto from the values below from,
// taken from want.
func denseFrom(t testing.TB, g *Octal, want []uint64, from, upto int) []uint64 {
	t.Helper()
	vs := make([]uint32, upto+1)
	for n := range from {
		vs[n] = uint32(want[n])
	}
	got, _, err := g.denseValues(g, vs, from, upto, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestDenseAgainstMex: the dense sweep is the mex of the listed options
// (MexValues, itself checked against the generic solver) on every heap up
// to 200 of every code with at most three digits that splits in two,
// started from heap 0 and from values already known (a switch from the
// sparse-space sweep).
func TestDenseAgainstMex(t *testing.T) {
	const upto = 200
	for _, g := range codesUpTo(t, 3) {
		if g.parts() != 2 {
			continue
		}
		want, err := MexValues(g, upto, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, from := range []int{0, 1, 3, 64, 150} {
			if got := denseFrom(t, g, want, from, upto); !slices.Equal(got, want) {
				n := 0
				for got[n] == want[n] {
					n++
				}
				t.Errorf("%v from %d: heap %d is %d, want %d", g, from, n, got[n], want[n])
			}
		}
	}
}

// TestDenseLongCodes: codes with several split digits far apart (the
// ring of sets spans them), and against the solver itself.
func TestDenseLongCodes(t *testing.T) {
	// Long and independent of the rest: it runs beside the other tests,
	// so that the package holds go test's ten minutes on a loaded machine.
	t.Parallel()
	for _, code := range []string{"0.4444", "4.0404", "0.70007", "0.404000004", "4.00000007", "0.6", "0.764"} {
		t.Run(code, func(t *testing.T) {
			g := mustOctal(t, code)
			want := referenceValues(t, g, 40)
			if got := denseFrom(t, g, want, 0, 40); !slices.Equal(got, want) {
				t.Errorf("dense %v\nsolver %v", got, want)
			}
			want, err := MexValues(g, 400, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := denseFrom(t, g, want, 0, 400); !slices.Equal(got, want) {
				t.Errorf("dense and MexValues differ")
			}
		})
	}
}

// TestDenseAgainstSparse: at larger heaps, the dense sweep agrees with the
// sparse-space sweep and the bit-set sweep, on dense codes and sparse
// ones.
func TestDenseAgainstSparse(t *testing.T) {
	upto := 3 * sparseFrom
	if testing.Short() {
		upto = sparseFrom + 500
	}
	for _, code := range []string{"0.76", "0.164", "0.244", "0.6", "0.04", "0.137", "0.764", "4.37"} {
		t.Run(code, func(t *testing.T) {
			g := mustOctal(t, code)
			want, err := g.splitValues(g, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := denseFrom(t, g, want, 0, upto); !slices.Equal(got, want) {
				t.Errorf("dense differs from the bit-set sweep")
			}
			if got := denseFrom(t, g, want, sparseFrom, upto); !slices.Equal(got, want) {
				t.Errorf("dense from %d differs from the bit-set sweep", sparseFrom)
			}
			sp, err := findSparse(want[:sparseFrom+1], g.sweepMoves().t)
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.sparseValues(g, want[:sparseFrom+1], sp, upto, Limits{}, true)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("sparse differs from the bit-set sweep")
			}
		})
	}
}

// TestDensePaired: the dense sweep on two cores, from small heaps on, and
// with a sweep that never waits for its helper (as on a busy machine),
// agrees with the bit-set sweep.
func TestDensePaired(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core")
	}
	const upto = 3000
	for _, code := range []string{"0.76", "0.164", "0.6", "0.764", "4.37", "0.4444", "0.70007"} {
		for _, wait := range []int{denseWait, 0, 3} {
			t.Run(fmt.Sprintf("%s/wait=%d", code, wait), func(t *testing.T) {
				g := mustOctal(t, code)
				want, err := g.splitValues(g, upto, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				for _, from := range []int{0, 100, 1000} {
					vs := make([]uint32, upto+1)
					for n := range from {
						vs[n] = uint32(want[n])
					}
					d := newDense(g.sweepMoves(), vs, from)
					d.pairFrom, d.wait = 16, wait
					if err := d.run(g, from, upto, Limits{}); err != nil {
						t.Fatal(err)
					}
					for n, v := range vs {
						if uint64(v) != want[n] {
							t.Fatalf("from %d: heap %d is %d, want %d", from, n, v, want[n])
						}
					}
					one := newDense(g.sweepMoves(), make([]uint32, upto+1), 0)
					one.paired = false
					if err := one.run(g, 0, upto, Limits{}); err != nil {
						t.Fatal(err)
					}
					if from == 0 && one.steps != d.steps {
						t.Errorf("steps %d paired, %d on one core", d.steps, one.steps)
					}
				}
			})
		}
	}
}

// TestBitsetAgainstMex: the bitset sweep (with its hand-over to the dense
// sweep when a value reaches bitsetMax) is the mex of the listed options
// on every heap up to 200 of every code with at most three digits that
// splits in two, from heap 0 and from values already known.
func TestBitsetAgainstMex(t *testing.T) {
	const upto = 200
	for _, g := range codesUpTo(t, 3) {
		if g.parts() != 2 {
			continue
		}
		want, err := MexValues(g, upto, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, from := range []int{0, 1, 3, 64, 150} {
			if slices.Max(want[:from+1]) >= bitsetMax {
				continue
			}
			vs := make([]uint32, upto+1)
			for n := range from {
				vs[n] = uint32(want[n])
			}
			got, _, err := g.bitsetValues(g, vs, from, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				n := 0
				for got[n] == want[n] {
					n++
				}
				t.Errorf("%v from %d: heap %d is %d, want %d", g, from, n, got[n], want[n])
			}
		}
	}
}

// TestBitsetAgainstSparse: at larger heaps, across word boundaries of the
// shifted sets, the bitset sweep agrees with the bit-set sweep of every
// split, on the codes it is for and on some it hands over.
func TestBitsetAgainstSparse(t *testing.T) {
	upto := 3000
	for _, code := range []string{"0.07", "0.4", "0.17", "0.504", "0.724", "0.137", "0.226", "0.16", "0.6", "4.37", "0.4444"} {
		t.Run(code, func(t *testing.T) {
			g := mustOctal(t, code)
			want, err := g.splitValues(g, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := g.bitsetValues(g, make([]uint32, upto+1), 0, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("bitset differs from the bit-set sweep of every split")
			}
		})
	}
}

// TestValuesSweep: Values chooses per code, says which sweep ran, and
// fills the values past a period the values prove; all agree with the
// bit-set sweep of every split.
func TestValuesSweep(t *testing.T) {
	upto := sparseTrial + 3000
	for _, tc := range []struct {
		code      string
		algorithm string
		periodic  bool
	}{
		{"0.07", AlgorithmSparse, true}, // Dawson's Kayles: period 34 proven by the trial
		{"0.76", AlgorithmDense, false},
		{"0.164", AlgorithmDense, false},
		{"0.6", AlgorithmSparse, false},
		{"0.16", AlgorithmSparse, false},
	} {
		t.Run(tc.code, func(t *testing.T) {
			g := mustOctal(t, tc.code)
			got, sw, err := g.ValuesSweep(upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if sw.Algorithm != tc.algorithm || (sw.PeriodFrom > 0) != tc.periodic {
				t.Errorf("sweep %+v, want %s (periodic %v)", sw, tc.algorithm, tc.periodic)
			}
			want, err := g.splitValues(g, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("values differ from the bit-set sweep")
			}
		})
	}
}

// TestFillPeriodic: the values filled past a proven period are the values
// swept, for codes whose period the dense and bitset sweeps find between
// their looks.
func TestFillPeriodic(t *testing.T) {
	const upto = 3 * periodFrom
	for _, code := range []string{"0.07", "0.4", "0.137", "0.724", "0.504", "0.14", "0.6"} {
		t.Run(code, func(t *testing.T) {
			g := mustOctal(t, code)
			want, err := g.splitValues(g, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := g.denseValues(g, make([]uint32, upto+1), 0, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("dense with periods differs")
			}
			got, _, err = g.bitsetValues(g, make([]uint32, upto+1), 0, upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("bitset with periods differs")
			}
		})
	}
}
