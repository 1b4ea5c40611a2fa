package nimber_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/nimbook/nimbook/explore/internal/cref"
	"github.com/nimbook/nimbook/explore/nimber"
)

// The benchmarks cycle through 1024 random operands; consecutive calls are
// independent, so the figures are throughputs, except BenchmarkMulChain's
// latency. Each loop XORs every result into one value, so that none can
// be optimized away. "go" is Mul, Inv, Sqrt; "go-tower" the byte-tower
// reference; "pow" the power formulas of MATH.md; "c-field" and "c-tower"
// the same algorithms as "go" and "go-tower" in C (testdata/cref, issue 13),
// run with b.N operations in one process, whose start and table building
// (about 1 ms) count in the time, and checked to compute the same value.

var sink uint64

// operands returns 1024 splitmix64 values from seed 1, the operands of the
// C references too.
func operands() []uint64 {
	xs := make([]uint64, 1024)
	state := uint64(1)
	for i := range xs {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		xs[i] = z ^ z>>31
	}
	return xs
}

// xorCycle returns the XOR of f(i) for i < n, f depending on i mod 1024
// only: whole cycles cancel in pairs.
func xorCycle(n int, f func(i int) uint64) uint64 {
	var r uint64
	if n/1024%2 == 1 {
		for i := range 1024 {
			r ^= f(i)
		}
	}
	for i := range n % 1024 {
		r ^= f(i)
	}
	return r
}

// runC runs the C reference p in mode with b.N operations and checks that
// it prints want(b.N).
func runC(b *testing.B, p *cref.Program, mode string, want func(n int) uint64) {
	out := p.Run(b, mode, strconv.Itoa(b.N))
	b.StopTimer()
	got, err := strconv.ParseUint(string(bytes.TrimSpace(out)), 10, 64)
	if err != nil {
		b.Fatalf("C reference printed %q: %v", out, err)
	}
	if w := want(b.N); got != w {
		b.Fatalf("C reference %s %d = %d, Go computes %d", mode, b.N, got, w)
	}
}

func BenchmarkMul(b *testing.B) {
	xs := operands()
	nimber.Mul(1, 1) // build the tables outside the timing
	want := func(n int) uint64 {
		return xorCycle(n, func(i int) uint64 { return nimber.Mul(xs[i], xs[(i+1)&1023]) })
	}
	b.Run("go", func(b *testing.B) {
		var r uint64
		for i := 0; b.Loop(); i++ {
			r ^= nimber.Mul(xs[i&1023], xs[(i+1)&1023])
		}
		sink = r
	})
	b.Run("go-tower", func(b *testing.B) {
		var r uint64
		for i := 0; b.Loop(); i++ {
			r ^= nimber.MulTower(xs[i&1023], xs[(i+1)&1023])
		}
		sink = r
	})
	b.Run("go-small", func(b *testing.B) { // operands below 2^16: most words are 0
		var r uint64
		for i := 0; b.Loop(); i++ {
			r ^= nimber.Mul(xs[i&1023]&0xffff, xs[(i+1)&1023]&0xffff)
		}
		sink = r
	})
	b.Run("go-mixed", func(b *testing.B) { // a quarter of the words are 0, at random
		rng := rand.New(rand.NewPCG(1, 2))
		ys := make([]uint64, 1024)
		for i := range ys {
			ys[i] = operand(rng)
		}
		var r uint64
		for i := 0; b.Loop(); i++ {
			r ^= nimber.Mul(ys[i&1023], ys[(i+1)&1023])
		}
		sink = r
	})
	field, tower := cref.Build(b, "testdata/cref/field.c"), cref.Build(b, "testdata/cref/tower.c")
	b.Run("c-field", func(b *testing.B) { runC(b, field, "mul", want) })
	b.Run("c-tower", func(b *testing.B) { runC(b, tower, "mul", want) })
}

// BenchmarkMulChain multiplies each product by the next operand: the
// latency of a product.
func BenchmarkMulChain(b *testing.B) {
	xs := operands()
	nimber.Mul(1, 1)
	want := func(n int) uint64 {
		x := xs[0]
		for i := range n {
			x = nimber.Mul(x, xs[i&1023])
		}
		return x
	}
	b.Run("go", func(b *testing.B) {
		x := xs[0]
		for i := 0; b.Loop(); i++ {
			x = nimber.Mul(x, xs[i&1023])
		}
		sink = x
	})
	field, tower := cref.Build(b, "testdata/cref/field.c"), cref.Build(b, "testdata/cref/tower.c")
	b.Run("c-field", func(b *testing.B) { runC(b, field, "chain", want) })
	b.Run("c-tower", func(b *testing.B) { runC(b, tower, "chain", want) })
}

func BenchmarkInv(b *testing.B) {
	xs := operands()
	nimber.Mul(1, 1)
	want := func(n int) uint64 {
		return xorCycle(n, func(i int) uint64 { v, _ := nimber.Inv(xs[i] | 1); return v })
	}
	b.Run("go", func(b *testing.B) {
		var r uint64
		for i := 0; b.Loop(); i++ {
			v, _ := nimber.Inv(xs[i&1023] | 1)
			r ^= v
		}
		sink = r
	})
	b.Run("go-tower", func(b *testing.B) {
		var r uint64
		for i := 0; b.Loop(); i++ {
			r ^= nimber.InvTower(xs[i&1023] | 1)
		}
		sink = r
	})
	b.Run("pow", func(b *testing.B) { // the (2^64 − 2)-th power
		var r uint64
		for i := 0; b.Loop(); i++ {
			r ^= nimber.Pow(xs[i&1023]|1, ^uint64(0)-1)
		}
		sink = r
	})
	field, tower := cref.Build(b, "testdata/cref/field.c"), cref.Build(b, "testdata/cref/tower.c")
	b.Run("c-field", func(b *testing.B) { runC(b, field, "inv", want) })
	b.Run("c-tower", func(b *testing.B) { runC(b, tower, "inv", want) })
}

func BenchmarkSqrt(b *testing.B) {
	xs := operands()
	nimber.Mul(1, 1)
	b.Run("go", func(b *testing.B) {
		var r uint64
		for i := 0; b.Loop(); i++ {
			r ^= nimber.Sqrt(xs[i&1023])
		}
		sink = r
	})
	b.Run("pow", func(b *testing.B) { // the 2^63-th power
		var r uint64
		for i := 0; b.Loop(); i++ {
			r ^= nimber.Pow(xs[i&1023], 1<<63)
		}
		sink = r
	})
	field := cref.Build(b, "testdata/cref/field.c")
	b.Run("c-field", func(b *testing.B) {
		runC(b, field, "sqrt", func(n int) uint64 {
			return xorCycle(n, func(i int) uint64 { return nimber.Sqrt(xs[i]) })
		})
	})
}
