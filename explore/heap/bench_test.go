package heap

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/internal/cref"
)

// Each fast algorithm against the generic solver on the same work.
func BenchmarkValues(b *testing.B) {
	games := []struct {
		name string
		g    Game
		upto int
	}{
		{"kayles-30", must(ParseOctal("0.77")), 30},
		{"hex-0.8f-25", must(ParseHex("0.8f")), 25},
		{"subtraction-1,3,4-1000", must(NewSubtraction([]int{1, 3, 4})), 1000},
		{"all-but-2,3-1000", must(NewAllBut([]int{2, 3})), 1000},
	}
	for _, tc := range games {
		b.Run(tc.name+"/fast", func(b *testing.B) {
			for b.Loop() {
				if _, err := tc.g.Values(tc.upto, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/reference", func(b *testing.B) {
			for b.Loop() {
				referenceValues(b, tc.g, tc.upto)
			}
		})
	}
}

// The fast sweep alone, on sizes the solver cannot reach.
func BenchmarkValuesLarge(b *testing.B) {
	for _, tc := range []struct {
		name string
		g    Game
		upto int
	}{
		{"kayles-3000", must(ParseOctal("0.77")), 3000},
		{"hex-0.8f-500", must(ParseHex("0.8f")), 500},
	} {
		b.Run(tc.name+"/fast", func(b *testing.B) {
			for b.Loop() {
				if _, err := tc.g.Values(tc.upto, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/direct", func(b *testing.B) {
			for b.Loop() {
				directValues(tc.g, tc.upto)
			}
		})
	}
}

func BenchmarkWinningMoves(b *testing.B) {
	heaps := []int{5, 6, 7, 9}
	for _, play := range []game.Play{game.Normal, game.Misere} {
		b.Run("nim-"+play.String()+"/fast", func(b *testing.B) {
			for b.Loop() {
				WinningMoves(&Nim{}, heaps, play, Limits{})
			}
		})
		b.Run("nim-"+play.String()+"/reference", func(b *testing.B) {
			for b.Loop() {
				s, _ := game.NewSolver[tupleKey](tupleMover(&Nim{}), game.Options{Play: play})
				s.WinningMoves(keyOf(heaps))
			}
		})
	}
}

// The transform against the enumeration of every mask, on long runs.
func BenchmarkSparseSpace(b *testing.B) {
	for _, tc := range []struct {
		code string
		upto int
	}{{"0.051", 200}, {"0.16", 2000}, {"0.376", 2000}, {"0.16", 20000}} {
		g := must(ParseOctal(tc.code))
		vs := mustValues(b, g, tc.upto)
		t := splitDigit(g)
		name := fmt.Sprintf("%s-%d", tc.code, tc.upto)
		b.Run(name+"/fast", func(b *testing.B) {
			for b.Loop() {
				if _, err := FindSparseSpace(vs, t); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/reference", func(b *testing.B) {
			for b.Loop() {
				sparseReference(vs, t)
			}
		})
	}
}

// BenchmarkSparseValues compares the sparse-space sweep with the plain
// bit-set sweep on games whose rare positions die out.
func BenchmarkSparseValues(b *testing.B) {
	for _, tc := range []struct {
		code string
		upto int
	}{{"0.16", 30000}, {"0.56", 30000}} {
		g := must(ParseOctal(tc.code))
		name := fmt.Sprintf("%s-%d", tc.code, tc.upto)
		b.Run(name+"/sparse", func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Values(tc.upto, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/plain", func(b *testing.B) {
			for b.Loop() {
				if _, err := g.splitValues(g, tc.upto, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOfficers: the values of Officers (0.6) by the sparse-space
// sweep (with its look-ahead helper, sparselook.go), in values per second
// as upto grows (the bit-set sweep took 28 s to 2^18); "one-worker" is the
// same sweep without the helper, "one-worker-scalar" that one with
// scanMissing where the machine would scan on the vector unit. "c-sweep" is the same sweep in C (testdata/cref/sweep.c,
// issue 13's yardstick) under the split nimbook finds, mask 10001, run as
// one process a sweep and checked to compute the same values.
func BenchmarkOfficers(b *testing.B) {
	g := must(ParseOctal("0.6"))
	sweep := cref.Build(b, "testdata/cref/sweep.c")
	for _, e := range []int{16, 18, 20} {
		upto := 1 << e
		var want string // what the C reference prints, once known
		values := func(b *testing.B) []uint64 {
			vs, err := g.Values(upto, Limits{MaxSteps: 1 << 40})
			if err != nil {
				b.Fatal(err)
			}
			return vs
		}
		b.Run(fmt.Sprintf("n=2^%d/go", e), func(b *testing.B) {
			var vs []uint64
			for b.Loop() {
				vs = values(b)
			}
			b.ReportMetric(float64(upto+1)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
			want = sweepHash(vs)
		})
		oneWorker := func(b *testing.B) {
			lim := Limits{MaxSteps: 1 << 40}
			for b.Loop() {
				p, err := g.plan(g, upto, lim)
				if err != nil {
					b.Fatal(err)
				}
				p.sweep.lookahead = false
				if _, err := p.sweep.finish(g, upto, lim); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(upto+1)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
		}
		b.Run(fmt.Sprintf("n=2^%d/one-worker", e), oneWorker)
		b.Run(fmt.Sprintf("n=2^%d/one-worker-scalar", e), func(b *testing.B) {
			defer func(had bool) { haveScanSet = had }(haveScanSet)
			haveScanSet = false
			oneWorker(b)
		})
		b.Run(fmt.Sprintf("n=2^%d/c-sweep", e), func(b *testing.B) {
			var out []byte
			for b.Loop() {
				out = sweep.Run(b, "0.6", "10001", strconv.Itoa(upto))
			}
			b.ReportMetric(float64(upto+1)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
			if want == "" { // the Go sub-benchmark did not run
				want = sweepHash(values(b))
			}
			if got := string(bytes.TrimSpace(out)); got != want {
				b.Fatalf("C reference printed %q, the Go values give %q", got, want)
			}
		})
	}
}

// sweepHash returns what testdata/cref/sweep.c prints for g(0..upto):
// "upto h", h = 1000003·h + g(n) over n = 0..upto (mod 2^64).
func sweepHash(vs []uint64) string {
	var h uint64
	for _, v := range vs {
		h = h*1000003 + v
	}
	return fmt.Sprintf("%d %d", len(vs)-1, h)
}

// BenchmarkGrundysGame: the values of Grundy's game by Values (the
// sparse-space sweep, on two workers), by the same sweep on one worker,
// and by the plain quadratic sweep of every split (GrundysGame.splitValues,
// upto²/4 splits: 2.7·10¹¹ at 2^20, minutes, so it stops at 2^18), in
// values per second.
func BenchmarkGrundysGame(b *testing.B) {
	g := NewGrundysGame()
	lim := Limits{MaxPositions: 1 << 25, MaxSteps: 1 << 40}
	for _, e := range []int{16, 18, 20} {
		upto := 1 << e
		rate := func(b *testing.B) {
			b.ReportMetric(float64(upto+1)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
		}
		b.Run(fmt.Sprintf("n=2^%d/fast", e), func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Values(upto, lim); err != nil {
					b.Fatal(err)
				}
			}
			rate(b)
		})
		b.Run(fmt.Sprintf("n=2^%d/one-worker", e), func(b *testing.B) {
			for b.Loop() {
				p, err := g.plan(upto, lim)
				if err != nil {
					b.Fatal(err)
				}
				p.sweep.paired = false
				if _, err := p.sweep.finish(g, upto, lim); err != nil {
					b.Fatal(err)
				}
			}
			rate(b)
		})
		if e > 18 {
			continue
		}
		b.Run(fmt.Sprintf("n=2^%d/quadratic", e), func(b *testing.B) {
			for b.Loop() {
				if _, err := g.splitValues(upto, lim); err != nil {
					b.Fatal(err)
				}
			}
			rate(b)
		})
	}
}

// BenchmarkDenseValues compares, on codes whose values are not sparse
// (issue 20), on Officers and on codes with few values whose rare
// positions do not die out (0.07, 0.724), the bitset sweep (bitset.go;
// with values past 63 it hands over to the dense sweep at once), the
// dense sweep on one core and on two (dense.go, densepair.go), the
// sparse-space sweep from the values up to
// sparseFrom, and the plain bit-set sweep of every split (the
// reference), in the same run.
func BenchmarkDenseValues(b *testing.B) {
	for _, tc := range []struct {
		code string
		upto int
	}{{"0.76", 1 << 15}, {"0.164", 1 << 15}, {"0.764", 1 << 15}, {"0.6", 1 << 15}, {"0.07", 1 << 15}, {"0.724", 1 << 15}} {
		g := must(ParseOctal(tc.code))
		name := fmt.Sprintf("%s-%d", tc.code, tc.upto)
		dense := func(b *testing.B, paired bool) {
			for b.Loop() {
				d := newDense(g.sweepMoves(), make([]uint32, tc.upto+1), 0)
				d.paired = paired
				if err := d.run(g, 0, tc.upto, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(name+"/bitset", func(b *testing.B) {
			for b.Loop() {
				// The sweep itself, without the hand-over or a look for a
				// period.
				bs := newBitset(g.sweepMoves(), make([]uint32, tc.upto+1), 0)
				n, err := bs.run(g, 0, tc.upto, Limits{})
				if err != nil {
					b.Fatal(err)
				}
				if n <= tc.upto {
					b.Skipf("a value reaches %d at heap %d: the bitset sweep hands over", bitsetMax, n)
				}
			}
		})
		b.Run(name+"/dense", func(b *testing.B) { dense(b, false) })
		b.Run(name+"/dense-paired", func(b *testing.B) { dense(b, true) })
		b.Run(name+"/sparse", func(b *testing.B) {
			prefix, err := g.splitValues(g, sparseFrom, Limits{})
			if err != nil {
				b.Fatal(err)
			}
			sp, err := findSparse(prefix, g.sweepMoves().t)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := g.sparseValues(g, prefix, sp, tc.upto, Limits{MaxSteps: 1 << 40}, false); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/reference", func(b *testing.B) {
			for b.Loop() {
				if _, err := g.splitValues(g, tc.upto, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPeriodValues: the stages of a period-only section
// (PeriodValues, going on from each other) against one sweep alone to the
// same heap, the same stages each afresh (as before issue 31), and the
// plain bit-set sweep of every split, on codes with long preperiods
// (0.376, 0.354: not proven below 2^21) and on Officers (no period).
func BenchmarkPeriodValues(b *testing.B) {
	lim := Limits{MaxSteps: 1 << 40}
	for _, tc := range []struct {
		code string
		upto int
	}{{"0.376", 1<<16 - 1}, {"0.354", 1<<16 - 1}, {"0.6", 1 << 16}} {
		g := must(ParseOctal(tc.code))
		name := fmt.Sprintf("%s-%d", tc.code, tc.upto)
		run := func(f func(Game, int, Limits) ([]uint64, Sweep, error)) func(b *testing.B) {
			return func(b *testing.B) {
				defer cpuPerOp(b)()
				for b.Loop() {
					if _, _, err := f(g, tc.upto, lim); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		b.Run(name+"/staged", run(PeriodValues))
		b.Run(name+"/alone", run(ValuesSweep))
		b.Run(name+"/fresh-stages", run(freshStages))
		b.Run(name+"/plain", func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, err := g.splitValues(g, tc.upto, lim); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cpuPerOp reports, when the returned function is called after the loop,
// the process's CPU time (user + system) per operation as "cpu-ns/op":
// on a machine shared with other work the wall clock of ns/op measures
// the load as much as the code (the team's machine ran at load 30).
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
