package game_test

import (
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// TestNodeKaylesPathIsDawson: Node Kayles on a path of n vertices (runs,
// of example_test.go) is Dawson's Kayles, the octal game 0.137 (Winning
// Ways, ch. 4; OEIS A002187 and the comments of A316632).
func TestNodeKaylesPathIsDawson(t *testing.T) {
	const upto = 60
	g, err := heap.ParseOctal("0.137")
	if err != nil {
		t.Fatal(err)
	}
	want, err := heap.MexValues(g, upto, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := game.NewSolver[uint64](runs{}, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= upto; n++ {
		got, err := s.Grundy(1<<n - 1)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[n] {
			t.Errorf("path of %d vertices: %d, octal 0.137 gives %d", n, got, want[n])
		}
	}
	// Two runs of the path, 5 and 7 vertices apart by a gap: the nim-sum.
	if got, _ := s.Grundy(0b1111111_0_11111); got != want[7]^want[5] {
		t.Errorf("runs of 7 and 5: %d, want %d", got, want[7]^want[5])
	}
	if err := game.CheckCapabilities[uint64](runs{}, []uint64{0b1111111_0_11111, 0b110111011}, game.Options{}); err != nil {
		t.Error(err)
	}
}
