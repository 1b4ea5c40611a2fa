package notebook

import (
	"context"
	"testing"

	"go.starlark.net/starlark"
)

// BenchmarkExecute is a small cell's round trip inside the session (the
// kernel adds its messaging).
func BenchmarkExecute(b *testing.B) {
	s := newSession(b)
	for b.Loop() {
		if _, err := s.Execute(context.Background(), "x = nim_mul(7, 9)\nx + 1", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSubtraction compares the built-in subtraction game's value
// sweep (fast) with the same game defined in a cell and solved by the
// generic solver through Starlark (reference).
func BenchmarkSubtraction(b *testing.B) {
	b.Run("fast", func(b *testing.B) {
		s := newSession(b)
		for b.Loop() {
			if _, err := s.Execute(context.Background(), "subtraction([1, 3, 4]).values(500)", nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		s := newSession(b)
		for b.Loop() {
			if _, err := s.Execute(context.Background(), "g = game(moves=lambda n: [n - s for s in (1, 3, 4) if s <= n])\n[g.grundy(n) for n in range(501)]", nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGuardedLoop measures what guarding a cell's operators costs: a
// loop of additions and products in a cell, and the same code run by
// Starlark unguarded.
func BenchmarkGuardedLoop(b *testing.B) {
	const code = "t = 0\nfor i in range(100000):\n    t = t + i * 3 % 7\n"
	b.Run("guarded", func(b *testing.B) {
		s := newSession(b)
		for b.Loop() {
			if _, err := s.Execute(context.Background(), code, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			th := &starlark.Thread{}
			if _, err := starlark.ExecFileOptions(fileOptions, th, "plain", code, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
