package misere

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
)

// bruteOutcome is the reference: the misère outcome of a position (sorted
// heaps) by its game tree, memoized (true = P).
type brute struct {
	g    heap.Game
	memo map[string]bool
	opts map[int][][]int
}

func newBrute(g heap.Game) *brute {
	return &brute{g: g, memo: map[string]bool{}, opts: map[int][][]int{}}
}

func (b *brute) options(n int) [][]int {
	o, ok := b.opts[n]
	if !ok {
		o = b.g.Options(n)
		b.opts[n] = o
	}
	return o
}

func (b *brute) p(heaps []int) bool {
	hs := slices.Clone(heaps)
	slices.Sort(hs)
	k := fmt.Sprint(hs)
	if v, ok := b.memo[k]; ok {
		return v
	}
	moved, p := false, true
	for i, n := range hs {
		if i > 0 && hs[i-1] == n {
			continue
		}
		for _, o := range b.options(n) {
			moved = true
			next := append(append(slices.Clone(hs[:i]), hs[i+1:]...), o...)
			if b.p(next) {
				p = false
				break
			}
		}
		if !p {
			break
		}
	}
	v := moved && p
	b.memo[k] = v
	return v
}

// multisets calls f with every multiset of heaps 1..h with total at most
// total, heaps in non-increasing order.
func multisets(h, total int, f func([]int)) {
	var rec func(cur []int, maxH, left int)
	rec = func(cur []int, maxH, left int) {
		f(cur)
		for x := min(maxH, left); x >= 1; x-- {
			rec(append(cur, x), x, left-x)
		}
	}
	rec(nil, h, total)
}

func octal(t testing.TB, code string) heap.Game {
	t.Helper()
	r, ok := heap.Lookup("octal")
	if !ok {
		t.Fatal("no octal rule")
	}
	g, err := r.NewGame(heap.Params{"code": code})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func nim(t testing.TB) heap.Game {
	t.Helper()
	g, err := heap.NewNim(0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func gameOf(t testing.TB, code string) heap.Game {
	if code == "nim" {
		return nim(t)
	}
	return octal(t, code)
}

// TestQuotientAgreesWithBruteForce checks the quotient's outcome of every
// position of heaps up to a bound, total size up to another, against the
// game tree.
func TestQuotientAgreesWithBruteForce(t *testing.T) {
	cases := []struct {
		code         string
		heaps, total int
	}{
		{"nim", 8, 20},
		{"0.75", 30, 24},
		{"0.77", 20, 22},
		{"0.07", 24, 26},
		{"0.137", 20, 22},
		{"0.31", 20, 24},
		{"4.7", 12, 18},
		{"0.15", 20, 22},
	}
	for _, c := range cases {
		t.Run(c.code, func(t *testing.T) {
			g := gameOf(t, c.code)
			q, err := NewQuotient(context.Background(), g, c.heaps, heap.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v up to %d: order %d, |P| %d, %s %s, period %+v, proven at %d", g, c.heaps, q.Order, len(q.P), q.TameName, q.Presentation(), q.Period, q.ProvenAt)
			if q.Order%2 != 0 {
				t.Errorf("order %d is odd: every misère quotient has even order (Plambeck–Siegel 2008)", q.Order)
			}
			b := newBrute(g)
			wrong := 0
			multisets(c.heaps, c.total, func(pos []int) {
				got, err := q.Outcome(pos)
				if err != nil {
					t.Fatal(err)
				}
				if want := b.p(pos); got != want {
					if wrong < 5 {
						t.Errorf("%v: quotient says P = %v, the game tree %v", pos, got, want)
					}
					wrong++
				}
			})
		})
	}
}

// TestKnownQuotients checks published quotients.
func TestKnownQuotients(t *testing.T) {
	cases := []struct {
		name   string
		code   string
		heaps  int
		order  int
		p      int
		tame   string
		source string
	}{
		// Misère Nim: T_1, T_2, T_3 of orders 2, 6, 10 with P-portions of
		// 1, 2, 2 elements (Plambeck and Siegel, "Misère quotients for
		// impartial games", JCTA 115, 2008).
		{"nim to 1", "nim", 1, 2, 1, "T_1", "Plambeck–Siegel 2008"},
		{"nim to 2", "nim", 2, 6, 2, "T_2", "Plambeck–Siegel 2008"},
		{"nim to 3", "nim", 3, 6, 2, "T_2", "Plambeck–Siegel 2008"},
		{"nim to 4", "nim", 4, 10, 2, "T_3", "Plambeck–Siegel 2008"},
		{"nim to 7", "nim", 7, 10, 2, "T_3", "Plambeck–Siegel 2008"},
		// T_n has order 2^n + 2 for n >= 2 (Plambeck–Siegel 2008).
		{"nim to 8", "nim", 8, 18, 2, "T_4", "Plambeck–Siegel 2008"},
		// 0.75 reaches R_8, the only quotient of order 8 (Siegel, "The
		// structure and classification of misère quotients"), P = {a, b^2}.
		{"0.75", "0.75", 30, 8, 2, "", "Siegel, classification"},
		// 0.31 is tame (Plambeck–Siegel 2008, appendix: tame two-digit codes).
		{"0.31", "0.31", 20, 6, 2, "T_2", "Plambeck–Siegel 2008"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := NewQuotient(context.Background(), gameOf(t, c.code), c.heaps, heap.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if q.Order != c.order || len(q.P) != c.p || q.TameName != c.tame || q.Tame != (c.tame != "") {
				t.Errorf("order %d, |P| %d, tame %q; want %d, %d, %q (%s)", q.Order, len(q.P), q.TameName, c.order, c.p, c.tame, c.source)
			}
		})
	}
}

func TestR8(t *testing.T) {
	q, err := NewQuotient(context.Background(), octal(t, "0.75"), 30, heap.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// R_8 = <a, b, c | a^2 = 1, b^3 = b, b c = a b, c^2 = b^2>, P = {a, b^2}
	// (Plambeck–Siegel 2008, Figure of R_8).
	want := "<a, b, c | a^2 = 1, b c = a b, c^2 = b^2, b^3 = b>"
	if got := q.Presentation(); got != want {
		t.Errorf("presentation %s, want %s", got, want)
	}
	var ps []string
	for _, i := range q.P {
		ps = append(ps, q.Elements[i].Word)
	}
	if fmt.Sprint(ps) != "[a b^2]" {
		t.Errorf("P-portion %v, want [a b^2]", ps)
	}
	if q.Period == nil || !q.Period.Proven || q.Period.Period != 2 {
		t.Errorf("period %+v, want a proven period 2", q.Period)
	}
	if q.Elements[0].Word != "1" || q.Elements[0].P || q.Elements[0].Parity != 0 {
		t.Errorf("identity %+v", q.Elements[0])
	}
}

// TestStructure checks the monoid laws, the presentation and parities on
// the computed tables.
func TestStructure(t *testing.T) {
	for _, c := range []struct {
		code  string
		heaps int
	}{{"nim", 7}, {"0.75", 30}, {"0.77", 16}, {"0.07", 20}, {"4.7", 10}} {
		t.Run(c.code, func(t *testing.T) {
			g := gameOf(t, c.code)
			q, err := NewQuotient(context.Background(), g, c.heaps, heap.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkStructure(t, g, q, c.heaps)
		})
	}
}

// checkStructure checks the monoid laws, the presentation and parities of
// q, the quotient of g over the heaps 1..heaps.
func checkStructure(t *testing.T, g heap.Game, q *Quotient, heaps int) {
	t.Helper()
	k := q.Order
	for x := range k {
		if q.mul[0][x] != int32(x) {
			t.Fatalf("1·%d = %d", x, q.mul[0][x])
		}
		for y := range k {
			if q.mul[x][y] != q.mul[y][x] {
				t.Fatalf("not commutative at %d, %d", x, y)
			}
			if q.Elements[q.mul[x][y]].Parity != q.Elements[x].Parity^q.Elements[y].Parity {
				t.Fatalf("parity is not a homomorphism at %d, %d", x, y)
			}
			for z := range k {
				if q.mul[q.mul[x][y]][z] != q.mul[x][q.mul[y][z]] {
					t.Fatalf("not associative at %d, %d, %d", x, y, z)
				}
			}
		}
	}
	// Distinct elements are told apart by some element (reduced).
	for x := range k {
		for y := x + 1; y < k; y++ {
			apart := false
			for z := range k {
				if q.inP[q.mul[x][z]] != q.inP[q.mul[y][z]] {
					apart = true
					break
				}
			}
			if !apart {
				t.Errorf("elements %s and %s are indistinguishable", q.Elements[x].Word, q.Elements[y].Word)
			}
		}
	}
	if len(q.Pretending) != heaps+1 || q.Pretending[0] != 0 {
		t.Errorf("pretending %v", q.Pretending)
	}
	vals, err := g.Values(heaps, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= heaps; n++ {
		if got := q.Elements[q.Pretending[n]].Parity; got != int(vals[n]&1) {
			t.Errorf("heap %d: parity %d, normal-play value %d", n, got, vals[n])
		}
	}
	if (k <= 64) != (q.Table != nil) {
		t.Errorf("table kept for order %d: %v", k, q.Table != nil)
	}
}

func TestWinningMovesAgreeWithBruteForce(t *testing.T) {
	for _, code := range []string{"0.75", "0.07", "nim"} {
		t.Run(code, func(t *testing.T) {
			g := gameOf(t, code)
			q, err := NewQuotient(context.Background(), g, 12, heap.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			b := newBrute(g)
			multisets(12, 14, func(pos []int) {
				moves, err := q.WinningMoves(g, pos)
				if err != nil {
					t.Fatal(err)
				}
				var want []Move
				for i, n := range pos {
					for _, o := range g.Options(n) {
						next := append(append(slices.Clone(pos[:i]), pos[i+1:]...), o...)
						if b.p(next) {
							want = append(want, Move{Heap: n, Index: i, To: o})
						}
					}
				}
				if fmt.Sprint(moves) != fmt.Sprint(want) {
					t.Fatalf("%v: moves %v, want %v", pos, moves, want)
				}
			})
		})
	}
}

func TestBeyondHeaps(t *testing.T) {
	q, err := NewQuotient(context.Background(), octal(t, "0.07"), 10, heap.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Outcome([]int{3, 11}); !errors.Is(err, ErrBeyond) || !strings.Contains(err.Error(), "heap 11") {
		t.Errorf("Outcome beyond the heaps: %v", err)
	}
	q75, err := NewQuotient(context.Background(), octal(t, "0.75"), 30, heap.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Through the proven period, heap 1001 is heap 9 and 1000 is heap 10.
	for _, c := range [][2][]int{{{1001}, {9}}, {{1000, 999, 3}, {10, 9, 3}}} {
		a, err1 := q75.Outcome(c[0])
		b, err2 := q75.Outcome(c[1])
		if err1 != nil || err2 != nil || a != b {
			t.Errorf("%v: %v %v, %v: %v %v", c[0], a, err1, c[1], b, err2)
		}
	}
}

func TestLimitsAndCancel(t *testing.T) {
	g := octal(t, "0.07")
	t.Run("steps", func(t *testing.T) {
		_, err := NewQuotient(context.Background(), g, 30, heap.Limits{MaxSteps: 1000}, nil)
		if !errors.Is(err, heap.ErrTooManySteps) || !strings.HasPrefix(err.Error(), "misere: ") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("steps while working", func(t *testing.T) {
		// Admitted by its estimate, 0.06 up to 17 recalibrates candidates
		// for heap 17 past it: the steps stop the work there.
		g := octal(t, "0.06")
		est, _ := EstimateQuotient(g, 17)
		done := 0
		_, err := NewQuotient(context.Background(), g, 17, heap.Limits{MaxSteps: est}, func(n, _ int) { done = n })
		if !errors.Is(err, heap.ErrTooManySteps) || !strings.HasPrefix(err.Error(), "misere: ") {
			t.Errorf("err = %v", err)
		}
		if done != 16 {
			t.Errorf("stopped after heap %d, want during the recalibrations past heap 16", done)
		}
	})
	t.Run("memory", func(t *testing.T) {
		_, err := NewQuotient(context.Background(), g, 30, heap.Limits{MaxMemory: 1000}, nil)
		if err == nil || !strings.Contains(err.Error(), "memory") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("memory while working", func(t *testing.T) {
		// The candidates for heap 17 of 0.06 pass 2000 elements, whose
		// tables pass the 16 MiB that 40 MiB leaves (24 MiB kept aside
		// by budget): the memory error stops the work.
		_, err := NewQuotient(context.Background(), octal(t, "0.06"), 30, heap.Limits{MaxMemory: 40 << 20}, nil)
		if !errors.Is(err, budget.ErrMemory) || !strings.HasPrefix(err.Error(), "misere: ") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := NewQuotient(ctx, g, 30, heap.Limits{}, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("cancelled while working", func(t *testing.T) {
		// Dawson's Kayles past heap 24 takes long: cancel after heap 24 and
		// check that the work stops with the context's error.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, err := NewQuotient(ctx, g, 30, heap.Limits{}, func(done, total int) {
			if done == 24 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestProgress(t *testing.T) {
	var seen []int
	_, err := NewQuotient(context.Background(), octal(t, "0.77"), 8, heap.Limits{}, func(done, total int) {
		if total != 8 {
			t.Errorf("total %d", total)
		}
		seen = append(seen, done)
	})
	if err != nil || fmt.Sprint(seen) != "[1 2 3 4 5 6 7 8]" {
		t.Errorf("progress %v, err %v", seen, err)
	}
}
