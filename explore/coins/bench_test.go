package coins

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/nimbook/nimbook/explore/internal/cref"
)

// BenchmarkValues compares the bitset knapsack with the mex over every
// subset of earlier coins.
func BenchmarkValues(b *testing.B) {
	for _, tc := range []struct {
		rule Rule
		r, n int
	}{{AtMost, 4, 16}, {AtMost, 7, 18}, {Exactly, 3, 18}} {
		name := fmt.Sprintf("%v_%d_n=%d", tc.rule, tc.r, tc.n)
		b.Run(name+"/fast", func(b *testing.B) {
			for b.Loop() {
				g, _ := New(tc.rule, tc.r, 1)
				if _, err := g.Values(tc.n); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/reference", func(b *testing.B) {
			for b.Loop() {
				refValues(tc.rule, tc.r, tc.n)
			}
		})
	}
	b.Run("at-most_7_n=24/fast", func(b *testing.B) {
		for b.Loop() {
			g, _ := New(AtMost, 7, 1)
			if _, err := g.Values(24); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWinningMoves compares the value lookup with filtering every
// move of a Golay-sized row.
func BenchmarkWinningMoves(b *testing.B) {
	g, _ := New(AtMost, 7, 1)
	heads := []int{1, 2, 5, 9, 14, 20, 24}
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.WinningMoves(24, heads); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			all, err := g.Moves(24, heads)
			if err != nil {
				b.Fatal(err)
			}
			for _, q := range all {
				g.RowValue(q)
			}
		}
	})
}

// BenchmarkProductIsMove compares checking one move of Nim × ruler on a
// 10×10 grid with 20 heads against finding it among every move.
func BenchmarkProductIsMove(b *testing.B) {
	nim, _ := New(AtMost, 2, 1)
	ruler, _ := New(Ruler, 0, 1)
	p, _ := NewProduct(nim, ruler)
	var heads [][]int
	for i := 1; i <= 10; i++ {
		heads = append(heads, []int{i, i}, []int{i, 11 - i})
	}
	heads = sortedUnique(heads)
	moves, err := p.Moves(heads)
	if err != nil || len(moves) == 0 {
		b.Fatal(err)
	}
	to := moves[len(moves)/2]
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if ok, err := p.IsMove(heads, to); err != nil || !ok {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			all, err := p.Moves(heads)
			if err != nil {
				b.Fatal(err)
			}
			if !slices.ContainsFunc(all, func(q [][]int) bool { return comparePositions(q, to) == 0 }) {
				b.Fatal("not found")
			}
		}
	})
}

func sortedUnique(cells [][]int) [][]int {
	slices.SortFunc(cells, slices.Compare)
	return slices.CompactFunc(cells, func(a, b []int) bool { return slices.Equal(a, b) })
}

// BenchmarkValuesBelow finds every value of at most r below 2^k (the
// lexicode), the command's `below:`, beside C references in
// testdata/cref run as one process each, checked to find the same values:
// "c-lazy" is the algorithm of lexicode.go (r ≥ 6), "c-layers" the plain
// construction with a bitset for every C_j.
func BenchmarkValuesBelow(b *testing.B) {
	lazy, layers := cref.Build(b, "testdata/cref/lazy.c"), cref.Build(b, "testdata/cref/layers.c")
	for _, tc := range []struct{ r, k int }{{4, 22}, {5, 22}, {7, 24}, {7, 26}, {9, 24}} {
		name := fmt.Sprintf("at-most_%d_below_2^%d", tc.r, tc.k)
		values := func(b *testing.B) string {
			g := mustNew(b, AtMost, tc.r, 1).WithLimits(Limits{MaxMemory: 1 << 30})
			var h uint64
			n, err := g.ValuesBelow(1<<tc.k, func(_ int, v uint64) error {
				h = h*1000003 + v
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			return fmt.Sprintf("%d %d", n, h) // as the C references print them
		}
		var want string
		b.Run(name+"/go", func(b *testing.B) {
			for b.Loop() {
				want = values(b)
			}
		})
		refs := []struct {
			name string
			prog *cref.Program
		}{{"c-lazy", lazy}, {"c-layers", layers}}
		for _, ref := range refs {
			if ref.prog == lazy && tc.r < 6 {
				continue
			}
			b.Run(name+"/"+ref.name, func(b *testing.B) {
				var out []byte
				for b.Loop() {
					out = ref.prog.Run(b, strconv.Itoa(tc.r), strconv.Itoa(tc.k))
				}
				if want == "" { // the Go sub-benchmark did not run
					want = values(b)
				}
				if got := string(bytes.TrimSpace(out)); got != want {
					b.Fatalf("C reference %s printed %q, the Go values give %q", ref.name, got, want)
				}
			})
		}
	}
}
