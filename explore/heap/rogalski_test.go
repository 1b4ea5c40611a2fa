package heap

import (
	"maps"
	"testing"
)

// histogram counts the values of g(1..len(values)−1), the range of
// Rogalski's published tables.
func histogram(values []uint64) map[uint64]int64 {
	h := map[uint64]int64{}
	for _, v := range values[1:] {
		h[v]++
	}
	return h
}

// T. Rogalski's octal computations (github.com/rogalski-wmii-uni-lodz-pl/
// octal, results/0.167/1024 and results/0.167/16777216, commit 1fb4f7b)
// give the histogram of g(1..2^k) of 0.167 for each k, a line "value
// count" for each value up to the largest (zeros included). An
// independent program, so that the deep values of the sparse-space sweep
// are checked against another's. To 2^10 the whole histogram (the values
// with a non-zero count); to 2^24, its figures: 41 distinct values, the
// largest 58, and Σ value × count = 231 208 492.
func TestRogalski0167(t *testing.T) {
	g := must(ParseOctal("0.167"))
	small := map[uint64]int64{0: 1, 1: 122, 2: 10, 3: 138, 4: 68, 5: 8, 6: 67, 7: 5, 8: 133, 9: 5,
		10: 135, 11: 2, 12: 6, 13: 57, 14: 3, 15: 60, 16: 58, 17: 1, 18: 58, 20: 7, 21: 16, 22: 9,
		23: 27, 25: 8, 27: 6, 28: 2, 30: 5, 32: 7}
	vs, err := g.Values(1<<10, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if h := histogram(vs); !maps.Equal(h, small) {
		t.Errorf("g(1..2^10): %v, published %v", h, small)
	}
	if testing.Short() {
		t.Skip("0.167 to 2^24: a few seconds")
	}
	vs, err = g.Values(1<<24, Limits{MaxSteps: 1 << 40, MaxPositions: 1 << 25})
	if err != nil {
		t.Fatal(err)
	}
	h := histogram(vs)
	var top uint64
	var sum int64
	for v, c := range h {
		top = max(top, v)
		sum += int64(v) * c
	}
	if len(h) != 41 || top != 58 || sum != 231_208_492 {
		t.Errorf("g(1..2^24): %d distinct values, the largest %d, Σ value × count %d; published 41, 58, 231 208 492", len(h), top, sum)
	}
}
