package code

import (
	"math/rand/v2"
	"slices"
)

// atMost returns the single-head values f_r(1..n) of "turn at most r
// coins" by the definition (MATH.md, seed 000): f(i) is the mex of the
// XORs of at most r−1 distinct earlier values.
func atMost(r, n int) []uint64 {
	var f []uint64
	for i := 0; i < n; i++ {
		seen := map[uint64]bool{}
		var rec func(start, left int, acc uint64)
		rec = func(start, left int, acc uint64) {
			seen[acc] = true
			if left == 0 {
				return
			}
			for j := start; j < i; j++ {
				rec(j+1, left-1, acc^f[j])
			}
		}
		rec(0, r-1, 0)
		m := uint64(0)
		for seen[m] {
			m++
		}
		f = append(f, m)
	}
	return f
}

// mustCode builds a code or panics (tests only).
func mustCode(values []uint64) *Code {
	c, err := FromValues(values)
	if err != nil {
		panic(err)
	}
	return c
}

// bruteWeights counts the P-positions by weight by testing every row.
func bruteWeights(values []uint64) []uint64 {
	n := len(values)
	out := make([]uint64, n+1)
	for row := uint64(0); row < 1<<n; row++ {
		var v uint64
		w := 0
		for i := 0; i < n; i++ {
			if row>>i&1 == 1 {
				v ^= values[i]
				w++
			}
		}
		if v == 0 {
			out[w]++
		}
	}
	return out
}

// permutations calls f on every permutation of 0..n−1 (Heap's algorithm).
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	c := make([]int, n)
	f(slices.Clone(p))
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				p[0], p[i] = p[i], p[0]
			} else {
				p[c[i]], p[i] = p[i], p[c[i]]
			}
			f(slices.Clone(p))
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6e696d626f6f6b)) }

// randomValues draws n values of a random bit width, so that codes of all
// dimensions, repeated values and zero values occur.
func randomValues(rng *rand.Rand, n int) []uint64 {
	width := rng.IntN(min(n, 12) + 1)
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = rng.Uint64() & (1<<width - 1)
		if rng.IntN(4) == 0 {
			vals[i] <<= rng.IntN(50) // high bits: coordinates must cope
		}
	}
	return vals
}
