package heap

import (
	"fmt"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// splitHeaps is a heap game for the generic solver with its one
// capability: a position's parts are its heaps (a Multiset is already
// canonical: its heaps are sorted).
type splitHeaps struct {
	game.Mover[Multiset]
}

func (splitHeaps) Components(p Multiset) ([]Multiset, error) {
	var out []Multiset
	for _, h := range p.Heaps() {
		m, err := NewMultiset(h)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// TestFastValuesMatchSolver checks the package's values (the sweeps
// behind Grundy) against the generic solver splitting positions into
// heaps, on every heap up to 40 and every sum of three heaps up to 10,
// on one worker and on two; and checks the splitting itself against the
// solver of whole positions (game.CheckCapabilities) on small sums.
func TestFastValuesMatchSolver(t *testing.T) {
	games := []Game{mustOctal(t, "0.137"), mustOctal(t, "0.77"), mustOctal(t, "0.07"), mustOctal(t, "4.07"), mustOctal(t, "0.6"), mustHex(t, "0.F"), NewGrundysGame(), &Nim{}}
	for _, g := range games {
		t.Run(fmt.Sprint(g), func(t *testing.T) {
			m := splitHeaps{MultisetMover(g)}
			var samples []Multiset
			for a := 0; a <= 4; a++ {
				for b := 0; b <= a; b++ {
					p, _ := NewMultiset(a, b, 2)
					samples = append(samples, p)
				}
			}
			if err := game.CheckCapabilities[Multiset](m, samples, game.Options{}); err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2} {
				s, err := game.NewSolver[Multiset](m, game.Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				check := func(heaps ...int) {
					t.Helper()
					p, _ := NewMultiset(heaps...)
					want, err := Grundy(g, heaps, Limits{})
					if err != nil {
						t.Fatal(err)
					}
					got, err := s.Grundy(p)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Fatalf("%d workers, heaps %v: solver %d, package %d", workers, heaps, got, want)
					}
				}
				for n := 0; n <= 40; n++ {
					check(n)
				}
				for a := 1; a <= 10; a++ {
					for b := 1; b <= a; b++ {
						for c := 1; c <= b; c++ {
							check(a, b, c)
						}
					}
				}
			}
		})
	}
}
