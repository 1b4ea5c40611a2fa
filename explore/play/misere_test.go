package play

import (
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// TestMisereQuotientPlay: misère play of an octal game answers through the
// misère quotient, as the generic solver does on every small position, and
// its hint names the element; a position of heaps up to 1000 is answered
// through the proven period of 0.75 (Plambeck and Siegel's R_8).
func TestMisereQuotientPlay(t *testing.T) {
	r, _ := heap.Lookup("octal")
	for _, code := range []string{"0.75", "0.07"} {
		t.Run(code, func(t *testing.T) {
			h, err := NewHeapRule(r, heap.Params{"code": code}, game.Misere, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			for a := 0; a <= 7; a++ {
				for b := a; b <= 7; b++ {
					p := []int{a, b, 5}
					got, err := h.Outcome(p)
					if err != nil {
						t.Fatal(err)
					}
					want, err := heap.Outcome(h.HeapGame(), p, game.Misere, heap.Limits{})
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("%v: %v, the generic solver says %v", p, got, want)
					}
				}
			}
			if hint := h.MisereHint([]int{3, 5}); !strings.Contains(hint, "misère quotient") {
				t.Errorf("hint %q", hint)
			}
		})
	}
	h, err := NewHeapRule(r, heap.Params{"code": "0.75"}, game.Misere, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if o, err := h.Outcome([]int{1000, 990, 2}); err != nil || o != game.N {
		t.Errorf("(1000, 990, 2): %v, %v; want N (b·b·b = b, not in {a, b^2})", o, err)
	}
	if hint := h.MisereHint([]int{1000, 990}); !strings.Contains(hint, "every heap") {
		t.Errorf("hint %q does not say the period", hint)
	}
}
