package heap

import (
	"fmt"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
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
// sweep, in values per second as upto grows (issue 13: a C program of the
// same sweep is the yardstick; the bit-set sweep took 28 s to 2^18).
func BenchmarkOfficers(b *testing.B) {
	g := must(ParseOctal("0.6"))
	for _, e := range []int{16, 17, 18, 20} {
		upto := 1 << e
		b.Run(fmt.Sprintf("2^%d", e), func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Values(upto, Limits{MaxSteps: 1 << 40}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(upto+1)*float64(b.N)/b.Elapsed().Seconds(), "values/s")
		})
	}
}
