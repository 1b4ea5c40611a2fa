package heap

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// referenceValues computes g(0..upto) with the generic solver on whole
// positions (multisets of heaps): the definition, with no nim-sum.
func referenceValues(t testing.TB, g Game, upto int) []uint64 {
	t.Helper()
	s, err := game.NewSolver[Multiset](MultisetMover(g), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]uint64, upto+1)
	for n := range out {
		m, _ := NewMultiset(n)
		if out[n], err = s.Grundy(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func mustOctal(t testing.TB, s string) *Octal {
	t.Helper()
	g, err := ParseOctal(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustHex(t testing.TB, s string) *Hex {
	t.Helper()
	g, err := ParseHex(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustValues(t testing.TB, g Game, upto int) []uint64 {
	t.Helper()
	vs, err := g.Values(upto, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// randomGames returns a fixed list of random codes and sets (seeded).
func randomGames(t testing.TB, count int) []Game {
	r := rand.New(rand.NewPCG(1, 2))
	var out []Game
	for range count {
		digits := func(base int, d0 []string) string {
			s := d0[r.IntN(len(d0))] + "."
			for range 1 + r.IntN(3) {
				s += fmt.Sprintf("%x", r.IntN(base))
			}
			return s
		}
		out = append(out, mustOctal(t, digits(8, []string{"0", "0", "4"})))
		out = append(out, mustHex(t, digits(16, []string{"0", "0", "4", "8", "c"})))
		var set []int
		for range 1 + r.IntN(4) {
			set = append(set, 1+r.IntN(7))
		}
		s, _ := NewSubtraction(set)
		a, _ := NewAllBut(set)
		out = append(out, s, a)
	}
	return out
}

func TestValuesAgainstSolver(t *testing.T) {
	n3, _ := NewNim(3)
	games := []Game{&Nim{}, n3, mustOctal(t, "0.77"), mustOctal(t, "0.07"),
		mustOctal(t, "0.137"), mustOctal(t, "4."), mustHex(t, "0.f"), mustHex(t, "8.4"), mustHex(t, "0.8f")}
	upto := 30
	if testing.Short() {
		upto = 20
	}
	for _, g := range games {
		t.Run(g.String(), func(t *testing.T) {
			got, want := mustValues(t, g, upto), referenceValues(t, g, upto)
			if !slices.Equal(got, want) {
				t.Errorf("fast %v\nsolver %v", got, want)
			}
		})
	}
	for _, g := range randomGames(t, 25) {
		t.Run("random "+g.String(), func(t *testing.T) {
			upto := 18
			if _, ok := g.(*Subtraction); ok {
				upto = 40
			}
			got, want := mustValues(t, g, upto), referenceValues(t, g, upto)
			if !slices.Equal(got, want) {
				t.Errorf("fast %v\nsolver %v", got, want)
			}
		})
	}
}

// The Kayles values to 40 against the solver (about 2·10^5 positions).
func TestKaylesAgainstSolver(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	g := mustOctal(t, "0.77")
	if got, want := mustValues(t, g, 40), referenceValues(t, g, 40); !slices.Equal(got, want) {
		t.Errorf("fast %v\nsolver %v", got, want)
	}
}

func TestKnownValues(t *testing.T) {
	tests := []struct {
		name string
		g    Game
		want []uint64
	}{
		// MATH.md "Heap games": S = {1,2,3} gives n mod 4.
		{"subtraction 1,2,3", must(NewSubtraction([]int{1, 2, 3})), []uint64{0, 1, 2, 3, 0, 1, 2, 3, 0, 1}},
		// explore/game's example (and Winning Ways ch. 4): S = {1,3,4}.
		{"subtraction 1,3,4", must(NewSubtraction([]int{1, 3, 4})), []uint64{0, 1, 0, 1, 2, 3, 2, 0, 1, 0}},
		// Kayles 0.77, Winning Ways ch. 4 table: 0 1 2 3 1 4 3 2 1 4 2 6.
		{"kayles", mustOctal(t, "0.77"), []uint64{0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6}},
		// Dawson's chess 0.137, OEIS A002187: 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5.
		{"dawson's chess", mustOctal(t, "0.137"), []uint64{0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5}},
		// seed 004: g = n mod N with N = k + 1 (here k = 3).
		{"bounded nim", must(NewNim(3)), []uint64{0, 1, 2, 3, 0, 1, 2, 3, 0}},
		{"nim", must(NewNim(0)), []uint64{0, 1, 2, 3, 4, 5}},
		// All-but {1}: take any number but 1; g(n) = ⌊n/2⌋ here (and the
		// solver agrees in TestValuesAgainstSolver).
		{"all-but 1", must(NewAllBut([]int{1})), []uint64{0, 0, 1, 1, 2, 2, 3, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustValues(t, tc.g, len(tc.want)-1); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// MATH.md: a subtraction game S is the octal game with digit 3 at each s.
func TestSubtractionIsOctal(t *testing.T) {
	sets := [][]int{{1, 2, 3}, {1, 3, 4}, {2, 5, 6}, {2, 4, 7}, {5}, {1, 10, 11}}
	for _, g := range randomGames(t, 20) {
		if s, ok := g.(*Subtraction); ok && !s.AllBut() {
			sets = append(sets, s.Set())
		}
	}
	for _, set := range sets {
		s := must(NewSubtraction(set))
		o, err := s.Octal()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(s.String()+" = "+o.String(), func(t *testing.T) {
			a, b := mustValues(t, s, 500), mustValues(t, o, 500)
			if !slices.Equal(a, b) {
				t.Errorf("values differ: %v\n%v", a[:30], b[:30])
			}
			if pa, pb := Period(s, a), Period(o, b); pa.Period != pb.Period || pa.Preperiod != pb.Preperiod {
				t.Errorf("periods differ: %+v, %+v", pa, pb)
			}
		})
	}
	if o := must(must(NewSubtraction([]int{1, 3, 4})).Octal()); o.Code() != "0.3033" {
		t.Errorf("code of {1,3,4} = %s, want 0.3033", o.Code())
	}
	if _, err := must(NewAllBut([]int{1})).Octal(); err == nil {
		t.Error("all-but game has an octal code")
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name string
		g    Game
		n    int
		want [][]int
	}{
		// Kayles: take 1 or 2, leaving 0, 1 or 2 heaps.
		{"kayles 3", mustOctal(t, "0.77"), 3, [][]int{{2}, {1, 1}, {1}}},
		{"kayles 2", mustOctal(t, "0.77"), 2, [][]int{{1}, {}}},
		{"4. 4", mustOctal(t, "4."), 4, [][]int{{1, 3}, {2, 2}}},
		{"0.8 7", mustHex(t, "0.8"), 7, [][]int{{1, 1, 4}, {1, 2, 3}, {2, 2, 2}}},
		{"nim≤2 4", must(NewNim(2)), 4, [][]int{{2}, {3}}},
		{"nim 2", must(NewNim(0)), 2, [][]int{{}, {1}}},
		{"all-but 1 3", must(NewAllBut([]int{1})), 3, [][]int{{}, {1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.g.Options(tc.n)
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestValuesLimits(t *testing.T) {
	kayles := mustOctal(t, "0.77")
	tests := []struct {
		name string
		g    Game
		upto int
		lim  Limits
	}{
		{"positions", kayles, 100, Limits{MaxPositions: 100}},
		{"steps", kayles, 10_000, Limits{MaxSteps: 1000}},
		{"negative", kayles, -1, Limits{}},
		{"nim positions", &Nim{}, 1000, Limits{MaxPositions: 10}},
		{"subtraction steps", must(NewSubtraction([]int{1, 2})), 1000, Limits{MaxSteps: 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.g.Values(tc.upto, tc.lim); err == nil {
				t.Error("no error")
			} else {
				t.Log(err)
			}
		})
	}
	if _, err := kayles.Values(99, Limits{MaxPositions: 100}); err != nil {
		t.Errorf("upto 99 with 100 positions: %v", err)
	}
}

func TestConstructorErrors(t *testing.T) {
	if _, err := NewNim(-1); err == nil {
		t.Error("NewNim(-1)")
	}
	if _, err := NewSubtraction(nil); err == nil {
		t.Error("empty subtraction set")
	}
	if _, err := NewSubtraction([]int{0, 1}); err == nil {
		t.Error("0 in a subtraction set")
	}
	if _, err := NewAllBut([]int{-3}); err == nil {
		t.Error("-3 in an all-but set")
	}
}

// directValues is the plain definition on one heap: the mex of the
// nim-sums of the parts of every option, with no bit sets.
func directValues(g Game, upto int) []uint64 {
	vs := make([]uint64, upto+1)
	for n := range vs {
		var opts []uint64
		for _, parts := range g.Options(n) {
			var v uint64
			for _, a := range parts {
				v ^= vs[a]
			}
			opts = append(opts, v)
		}
		vs[n] = game.Mex(opts)
	}
	return vs
}

// Long sequences against the direct definition, including codes whose
// values pass 64 and 128, so the bit sets of the sweep widen.
func TestSplitValuesAgainstDirect(t *testing.T) {
	upto := 300
	if testing.Short() {
		upto = 160
	}
	games := []Game{mustHex(t, "0.8f"), mustHex(t, "0.c"), mustHex(t, "4.8"), mustOctal(t, "0.77"),
		mustOctal(t, "0.4"), mustOctal(t, "4.7"), mustOctal(t, "0.6"), mustHex(t, "0.9"), mustOctal(t, "0.07")}
	for _, g := range games {
		t.Run(g.String(), func(t *testing.T) {
			got, want := mustValues(t, g, upto), directValues(g, upto)
			if !slices.Equal(got, want) {
				t.Errorf("fast %v\ndirect %v", got, want)
			}
			t.Logf("largest value %d", slices.Max(got))
		})
	}
}
