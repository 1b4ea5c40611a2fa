package cram

import (
	"context"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// Cram on 4 × 5 (value 2) from an empty memo: the generic mex solver on
// whole boards against the cell-game solver.
func BenchmarkBoard4x5Generic(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, _ := game.NewSolver[uint32](maskMoves(4, 5), game.Options{})
		if v, _ := s.Grundy(1<<20 - 1); v != 2 {
			b.Fatal(v)
		}
	}
}

func BenchmarkBoard4x5Components(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, _ := NewSolver(Options{})
		bd, _ := NewBoard(4, 5)
		if v, _ := s.Value(context.Background(), bd); v != 2 {
			b.Fatal(v)
		}
	}
}
