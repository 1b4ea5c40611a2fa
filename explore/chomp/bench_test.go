package chomp

import (
	"context"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// The values below (12, 10, 8, 6) (1 365 positions): the generic mex
// solver against the ranked dynamic programme, and the P-positions of
// 3-row Chomp up to 200 by tails.
func BenchmarkValuesGeneric(b *testing.B) {
	start := Position{12, 10, 8, 6}
	for i := 0; i < b.N; i++ {
		s, _ := game.NewSolver[key](generic(4), game.Options{})
		if _, err := s.Grundy(toKey(start)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValuesRanked(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := NewSolver(context.Background(), Position{12, 10, 8, 6}, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPPositions3x200(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := PPositions(context.Background(), 3, 200, 0); err != nil {
			b.Fatal(err)
		}
	}
}
