package misere

import (
	"context"
	"fmt"
	"slices"
	"testing"

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

func TestQuotientAgreesWithBruteForce(t *testing.T) {
	cases := []struct {
		name         string
		code         string // "" for Nim
		heaps, total int
	}{
		{"nim", "", 7, 14},
		{"0.75", "0.75", 20, 16},
		{"0.77", "0.77", 14, 16},
		{"0.07", "0.07", 14, 16},
		{"0.137", "0.137", 14, 16},
		{"0.31", "0.31", 14, 16},
		{"4.7", "4.7", 12, 14},
		{"0.15", "0.15", 14, 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var g heap.Game
			if c.code == "" {
				g = nim(t)
			} else {
				g = octal(t, c.code)
			}
			q, err := NewQuotient(context.Background(), g, c.heaps, heap.Limits{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: order %d, P %d, %s %s, period %+v, proven at %d, pretending %v", g, q.Order, len(q.P), q.TameName, q.Presentation(), q.Period, q.ProvenAt, q.Pretending)
			b := newBrute(g)
			count := 0
			multisets(c.heaps, c.total, func(pos []int) {
				got, err := q.Outcome(pos)
				if err != nil {
					t.Fatal(err)
				}
				if want := b.p(pos); got != want {
					if count < 5 {
						t.Errorf("%v: quotient says P=%v, brute force %v", pos, got, want)
					}
					count++
				}
			})
		})
	}
}
