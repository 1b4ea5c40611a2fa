package misere

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/nimbook/nimbook/explore/heap"
)

func benchQuotient(b *testing.B, code string, heaps int) *Quotient {
	g := octal(b, code)
	var q *Quotient
	for b.Loop() {
		var err error
		q, err = NewQuotient(context.Background(), g, heaps, heap.Limits{}, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(q.Order), "order")
	return q
}

// BenchmarkQuotientDawson30 times Q_30 of Dawson's Kayles (order 360,
// Siegel), which recalibration reaches past heap 24.
func BenchmarkQuotientDawson30(b *testing.B) {
	if q := benchQuotient(b, "0.07", 30); q.Order != 360 {
		b.Fatalf("order %d, want 360", q.Order)
	}
}

// BenchmarkQuotientDawson24 times Q_24 of Dawson's Kayles (order 24).
func BenchmarkQuotientDawson24(b *testing.B) { benchQuotient(b, "0.07", 24) }

// BenchmarkQuotient075 times the proven quotient of 0.75 (R_8, period
// proven at heap 21).
func BenchmarkQuotient075(b *testing.B) {
	q := benchQuotient(b, "0.75", 30)
	if q.Period == nil {
		b.Fatal("no period")
	}
}

func hundredHeaps() []int {
	r := rand.New(rand.NewPCG(1, 2))
	pos := make([]int, 100)
	for i := range pos {
		pos[i] = 1 + r.IntN(1000)
	}
	return pos
}

// BenchmarkOutcome100Heaps times the outcome and the winning moves of 100
// heaps up to 1000 of 0.75 through its quotient (computed once).
func BenchmarkOutcome100Heaps(b *testing.B) {
	g := octal(b, "0.75")
	q, err := NewQuotient(context.Background(), g, 30, heap.Limits{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	pos := hundredHeaps()
	for b.Loop() {
		if _, err := q.Outcome(pos); err != nil {
			b.Fatal(err)
		}
		if _, err := q.WinningMoves(g, pos); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOutcome100HeapsWithQuotient includes computing the quotient.
func BenchmarkOutcome100HeapsWithQuotient(b *testing.B) {
	g := octal(b, "0.75")
	pos := hundredHeaps()
	for b.Loop() {
		q, err := NewQuotient(context.Background(), g, 30, heap.Limits{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := q.WinningMoves(g, pos); err != nil {
			b.Fatal(err)
		}
	}
}

// The brute-force reference on a position it can still solve, against the
// quotient (computed once) on the same position.
var smallPosition = []int{10, 9, 8, 7, 6}

func BenchmarkOutcomeBruteForce075(b *testing.B) {
	g := octal(b, "0.75")
	for b.Loop() {
		newBrute(g).p(smallPosition)
	}
}

func BenchmarkOutcomeQuotient075(b *testing.B) {
	g := octal(b, "0.75")
	q, err := NewQuotient(context.Background(), g, 30, heap.Limits{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := q.Outcome(smallPosition); err != nil {
			b.Fatal(err)
		}
	}
}
