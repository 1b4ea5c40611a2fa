package nodekayles

import (
	"context"
	"syscall"
	"testing"

	"github.com/nimbook/nimbook/explore/cellgame"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/nodekayles/internal/strip"
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

// Node Kayles on 3 × 1 … 18 from an empty memo, one worker: the strip
// engine against explore/cellgame (folded), the two methods of the new
// terms. cpu-ns/op is the process's CPU time (the machine is shared, so
// wall time says little).
func BenchmarkGrid3Upto18Cellgame(b *testing.B) {
	cpu := cpuNanos()
	for i := 0; i < b.N; i++ {
		s, _ := cellgame.New(GridRule{}, cellgame.Options{Fold: true})
		for n := 1; n <= 18; n++ {
			if _, err := s.Value(context.Background(), cellgame.Full(3, n), 3, n); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(cpuNanos()-cpu)/float64(b.N), "cpu-ns/op")
}

func BenchmarkGrid3Upto18Strip(b *testing.B) {
	cpu := cpuNanos()
	for i := 0; i < b.N; i++ {
		s, _ := strip.New(strip.Options{})
		for n := 1; n <= 18; n++ {
			if _, err := s.Value(context.Background(), strip.Full(n)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(cpuNanos()-cpu)/float64(b.N), "cpu-ns/op")
}

// cpuNanos is the process's user and system time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
