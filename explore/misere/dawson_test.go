package misere

import (
	"context"
	"fmt"
	"testing"

	"github.com/nimbook/nimbook/explore/heap"
)

// TestDawsonQ30 checks the quotient of Dawson's Kayles (0.07) over the
// heaps 1..30, which recalibration reaches: its order is 360 (Siegel,
// "Some MisereSolver questions answered", miseregames.wordpress.com,
// 28 August 2007: "Q_30(0.07) has size 360"; Plambeck and Siegel, "Misère
// quotients for impartial games", 2008, where MisereSolver computed it),
// and its outcomes are the game tree's on every position of heaps 1..30
// of total at most 36.
func TestDawsonQ30(t *testing.T) {
	g := octal(t, "0.07")
	q, err := NewQuotient(context.Background(), g, 30, heap.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("order %d, |P| %d, %d generators", q.Order, len(q.P), len(q.Generators))
	if q.Order != 360 {
		t.Errorf("order %d, want 360 (Siegel, MisereSolver)", q.Order)
	}
	checkStructure(t, g, q, 30)

	// Q_n is the submonoid the heaps 1..n generate in Q_30, reduced by
	// what those heaps tell apart: 24 at heap 24 as computed heap by heap
	// (TestQuotientAgreesWithBruteForce), then these orders, each even
	// (Plambeck–Siegel 2008: every misère quotient has even order).
	m := &monoid{mul: q.mul, inP: q.inP, phi: q.phi}
	for _, c := range []struct{ heaps, order int }{{24, 24}, {25, 144}, {26, 144}, {27, 176}, {28, 176}, {29, 176}, {30, 360}} {
		n, want := c.heaps, c.order
		t.Run(fmt.Sprint("heap ", n), func(t *testing.T) {
			got := len(reduce(restrict(m, n+1)).mul)
			if got != want || got%2 != 0 {
				t.Errorf("Q_%d has order %d, want %d (even)", n, got, want)
			}
		})
	}

	b := newBrute(g)
	wrong, count := 0, 0
	multisets(30, 36, func(pos []int) {
		count++
		got, err := q.Outcome(pos)
		if err != nil {
			t.Fatal(err)
		}
		if want := b.p(pos); got != want {
			if wrong < 5 {
				t.Errorf("%v: quotient says P = %v, the game tree %v", pos, got, want)
			}
			wrong++
		}
	})
	if wrong > 0 {
		t.Errorf("%d of %d positions wrong", wrong, count)
	}
}
