package coins

import (
	"fmt"
	"testing"
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
