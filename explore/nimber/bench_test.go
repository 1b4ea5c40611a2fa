package nimber_test

import (
	"math/rand/v2"
	"testing"

	"github.com/nimbook/nimbook/explore/nimber"
)

// The benchmarks cycle through 1024 random operands; consecutive calls are
// independent, so the figures are throughputs, except Mul/chain's latency.
// "tower" is the byte-tower reference, "pow" the power formulas of MATH.md.

var sink uint64

func randomOperands() []uint64 {
	r := rand.New(rand.NewPCG(1, 1))
	xs := make([]uint64, 1024)
	for i := range xs {
		xs[i] = r.Uint64()
	}
	return xs
}

func BenchmarkMul(b *testing.B) {
	xs := randomOperands()
	nimber.Mul(1, 1) // build the tables outside the timing
	b.Run("fast", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = nimber.Mul(xs[i&1023], xs[(i+1)&1023])
		}
	})
	b.Run("tower", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = nimber.MulTower(xs[i&1023], xs[(i+1)&1023])
		}
	})
	b.Run("small", func(b *testing.B) { // operands below 2^16: most words are 0
		for i := 0; b.Loop(); i++ {
			sink = nimber.Mul(xs[i&1023]&0xffff, xs[(i+1)&1023]&0xffff)
		}
	})
	b.Run("mixed", func(b *testing.B) { // a quarter of the words are 0, at random
		r := rand.New(rand.NewPCG(1, 2))
		ys := make([]uint64, 1024)
		for i := range ys {
			ys[i] = operand(r)
		}
		for i := 0; b.Loop(); i++ {
			sink = nimber.Mul(ys[i&1023], ys[(i+1)&1023])
		}
	})
	b.Run("chain", func(b *testing.B) { // each product waits for the previous one: latency
		x := xs[0]
		for i := 0; b.Loop(); i++ {
			x = nimber.Mul(x, xs[i&1023])
		}
		sink = x
	})
}

func BenchmarkInv(b *testing.B) {
	xs := randomOperands()
	nimber.Mul(1, 1)
	b.Run("fast", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink, _ = nimber.Inv(xs[i&1023] | 1)
		}
	})
	b.Run("tower", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = nimber.InvTower(xs[i&1023] | 1)
		}
	})
	b.Run("pow", func(b *testing.B) { // the (2^64 − 2)-th power
		for i := 0; b.Loop(); i++ {
			sink = nimber.Pow(xs[i&1023]|1, ^uint64(0)-1)
		}
	})
}

func BenchmarkSqrt(b *testing.B) {
	xs := randomOperands()
	nimber.Mul(1, 1)
	b.Run("fast", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = nimber.Sqrt(xs[i&1023])
		}
	})
	b.Run("pow", func(b *testing.B) { // the 2^63-th power
		for i := 0; b.Loop(); i++ {
			sink = nimber.Pow(xs[i&1023], 1<<63)
		}
	})
}
