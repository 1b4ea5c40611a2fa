package code

import (
	"reflect"
	"testing"
)

func BenchmarkGolayDistribution(b *testing.B) {
	vals := atMost(7, 24)
	c := mustCode(vals)
	b.Run("enumeration", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Enumerate(ctx, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("linear-algebra", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.LinearAlgebra(ctx, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			bruteWeights(vals)
		}
	})
}

func BenchmarkAutomorphisms(b *testing.B) {
	ham := mustCode(atMost(2, 7))
	b.Run("hamming7/fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := ham.Automorphisms(ctx, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hamming7/reference", func(b *testing.B) {
		for b.Loop() {
			autBrute(ham)
		}
	})
	golay := mustCode(atMost(7, 24))
	b.Run("golay/fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := golay.Automorphisms(ctx, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkGolayDesign(b *testing.B) {
	c := mustCode(atMost(7, 24))
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Design(ctx, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	words, _, _ := c.MinWeightWords(ctx, Limits{})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			designBrute(c.n, words)
		}
	})
}

// FuzzAnalyses checks, on value vectors drawn from the input, that the
// two distribution methods agree with each other and with brute force,
// and that the design and automorphism group match their references.
func FuzzAnalyses(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{1, 2, 4, 7, 8, 11, 13, 14})
	f.Add([]byte{0, 0, 1, 1})
	f.Add([]byte{255, 3, 3, 200, 17})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 12 {
			return
		}
		vals := make([]uint64, len(data))
		for i, x := range data {
			vals[i] = uint64(x&0x1f) << (x >> 5 * 8) // spread high bits
		}
		c := mustCode(vals)
		e, err := c.Enumerate(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.LinearAlgebra(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		e.Method = l.Method
		if !reflect.DeepEqual(e, l) || !reflect.DeepEqual(e.Weights, bruteWeights(vals)) {
			t.Fatalf("%v: methods disagree", vals)
		}
		d, err := c.Design(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want := designBrute(c.n, minWordsBrute(c))
		want.Method = d.Method
		if d != want {
			t.Fatalf("%v: design %+v, brute %+v", vals, d, want)
		}
		if c.n <= 7 {
			a, err := c.Automorphisms(ctx, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Order.Int64() != autBrute(c) {
				t.Fatalf("%v: order %v, brute %d", vals, a.Order, autBrute(c))
			}
		}
	})
}
