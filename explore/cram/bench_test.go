package cram

import (
	"context"
	"fmt"
	"syscall"
	"testing"

	"github.com/nimbook/nimbook/explore/cellgame"
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

// Cram on 4 × 8 (value 0) from empty tables: the full mex of every
// component (Solver) against the pruning search (Value). cpu-ns/op is the
// process's CPU time (the machine is shared).
func BenchmarkBoard4x8Solver(b *testing.B) {
	cpu := cpuNanos()
	for i := 0; i < b.N; i++ {
		s, _ := NewSolver(Options{})
		bd, _ := NewBoard(4, 8)
		if v, _ := s.Value(context.Background(), bd); v != 0 {
			b.Fatal(v)
		}
	}
	b.ReportMetric(float64(cpuNanos()-cpu)/float64(b.N), "cpu-ns/op")
}

func BenchmarkBoard4x8Search(b *testing.B) {
	cpu := cpuNanos()
	for i := 0; i < b.N; i++ {
		if v, _, _ := Value(context.Background(), 4, 8, SearchOptions{Exact: 16}); v != 0 {
			b.Fatal(v)
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

// The pruning search alone on 4 × 9 and 5 × 7 (both 1, Beling's table),
// from empty tables: its CPU and the bytes of its table (search-B/op, as
// the table counts them) and the nodes it visits.
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct{ m, n int }{{4, 9}, {5, 7}} {
		b.Run(fmt.Sprintf("%dx%d", c.m, c.n), func(b *testing.B) {
			cpu := cpuNanos()
			var st cellgame.SearchStats
			for i := 0; i < b.N; i++ {
				v, s, err := Value(context.Background(), c.m, c.n, SearchOptions{Exact: 16})
				if err != nil || v != 1 {
					b.Fatal(v, err)
				}
				st = s
			}
			b.ReportMetric(float64(cpuNanos()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(st.Nodes), "nodes/op")
			b.ReportMetric(float64(st.Entries), "entries/op")
		})
	}
}
