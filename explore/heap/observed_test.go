package heap_test

import (
	"testing"

	"github.com/nimbook/nimbook/explore/heap"
)

func TestObservedPeriod(t *testing.T) {
	for _, tc := range []struct {
		name    string
		values  []uint64
		repeats int
		n0, p   int
		ok      bool
	}{
		{"constant", []uint64{0, 0, 0, 0}, 2, 0, 1, true},
		{"period 2 twice", []uint64{0, 1, 0, 1}, 2, 0, 2, true},
		{"period 2 not thrice", []uint64{0, 1, 0, 1}, 3, 0, 0, false},
		{"preperiod", []uint64{5, 0, 1, 0, 1, 0, 1}, 3, 1, 2, true},
		{"none", []uint64{0, 1, 2, 3}, 2, 0, 0, false},
		{"empty", nil, 2, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n0, p, ok := heap.ObservedPeriod(tc.values, tc.repeats)
			if n0 != tc.n0 || p != tc.p || ok != tc.ok {
				t.Errorf("ObservedPeriod(%v, %d) = %d, %d, %v; want %d, %d, %v", tc.values, tc.repeats, n0, p, ok, tc.n0, tc.p, tc.ok)
			}
		})
	}
}
