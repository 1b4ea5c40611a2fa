package game

import (
	"fmt"
	"testing"
)

// The benchmarks solve one position with a fresh solver per iteration:
// the new solver with the game's Components and Canonical (on one and
// two workers), the new solver on whole positions, and the old solver
// (reference_test.go) on whole positions.

func benchNew[T comparable](b *testing.B, m Mover[T], p T, workers int) {
	b.Helper()
	for b.Loop() {
		s, _ := NewSolver(m, Options{Workers: workers})
		if _, err := s.Grundy(p); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(s.Len()), "positions")
	}
}

func benchRef[T comparable](b *testing.B, m Mover[T], p T) {
	b.Helper()
	for b.Loop() {
		s, _ := newRefSolver(Plain(m), Options{})
		if _, err := s.Grundy(p); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(s.memo)), "positions")
	}
}

func BenchmarkNodeKayles(b *testing.B) {
	for _, n := range []int{8, 10} {
		p := grid(3, n)
		b.Run(fmt.Sprintf("3x%d/parts", n), func(b *testing.B) { benchNew[uint64](b, splitGrid{}, p, 1) })
		b.Run(fmt.Sprintf("3x%d/parts-2workers", n), func(b *testing.B) { benchNew[uint64](b, splitGrid{}, p, 2) })
		b.Run(fmt.Sprintf("3x%d/whole", n), func(b *testing.B) { benchNew[uint64](b, gridKayles{}, p, 1) })
		b.Run(fmt.Sprintf("3x%d/old", n), func(b *testing.B) { benchRef[uint64](b, gridKayles{}, p) })
	}
	p := grid(3, 18)
	b.Run("3x18/parts", func(b *testing.B) { benchNew[uint64](b, splitGrid{}, p, 1) })
	b.Run("3x18/parts-2workers", func(b *testing.B) { benchNew[uint64](b, splitGrid{}, p, 2) })
}

func BenchmarkChomp(b *testing.B) {
	p := [3]uint8{40, 40, 40}
	b.Run("40-40-40/new", func(b *testing.B) { benchNew[[3]uint8](b, chomp{}, p, 1) })
	b.Run("40-40-40/new-2workers", func(b *testing.B) { benchNew[[3]uint8](b, chomp{}, p, 2) })
	b.Run("40-40-40/old", func(b *testing.B) { benchRef[[3]uint8](b, chomp{}, p) })
}

// BenchmarkKaylesRows is a Go mover (no Starlark) whose positions are
// sums: Kayles on rows of 9, 5 and 3 pins.
func BenchmarkKaylesRows(b *testing.B) {
	p := [10]uint8{9, 5, 3}
	b.Run("parts", func(b *testing.B) { benchNew[[10]uint8](b, splitKayles{}, p, 1) })
	b.Run("whole", func(b *testing.B) { benchNew[[10]uint8](b, kayles{}, p, 1) })
	b.Run("old", func(b *testing.B) { benchRef[[10]uint8](b, kayles{}, p) })
}

func BenchmarkNim3(b *testing.B) {
	p := [3]int{30, 30, 30}
	b.Run("new", func(b *testing.B) { benchNew[[3]int](b, MoveFunc[[3]int](nim3), p, 1) })
	b.Run("old", func(b *testing.B) { benchRef[[3]int](b, MoveFunc[[3]int](nim3), p) })
}
