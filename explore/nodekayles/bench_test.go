package nodekayles

import (
	"context"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// Node Kayles on 3 × 8 from an empty memo: the generic mex solver on whole
// positions (masks) against this package's solver (components, folding).
func BenchmarkGrid3x8Generic(b *testing.B) {
	g, _ := Grid(3, 8)
	moves := maskGame(g.N, graphEdges(g))
	for i := 0; i < b.N; i++ {
		s, _ := game.NewSolver[uint32](moves, game.Options{})
		if v, _ := s.Grundy(1<<24 - 1); v != a316632[7] {
			b.Fatal(v)
		}
	}
}

func BenchmarkGrid3x8Components(b *testing.B) {
	g, _ := Grid(3, 8)
	for i := 0; i < b.N; i++ {
		s, _ := NewSolver(Options{})
		if v, _ := s.Value(context.Background(), g); v != a316632[7] {
			b.Fatal(v)
		}
	}
}

// The general solver (vertex sets, no grid folding) on the same grid.
func BenchmarkGrid3x8General(b *testing.B) {
	g, _ := Grid(3, 8)
	gen := &Graph{N: g.N, Adj: g.Adj, Name: "grid as a graph"}
	for i := 0; i < b.N; i++ {
		s, _ := NewSolver(Options{})
		if v, _ := s.Value(context.Background(), gen); v != a316632[7] {
			b.Fatal(v)
		}
	}
}
