package game_test

import (
	"math/bits"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// pathKayles is Node Kayles on a path: a position is a set of vertices
// (bit i is vertex i), a move removes a vertex and its neighbours. Its
// parts are its runs of consecutive vertices, each moved to vertex 0.
type pathKayles struct{}

func (pathKayles) Moves(m uint64) ([]uint64, error) {
	var out []uint64
	for r := m; r != 0; r &= r - 1 {
		v := r & -r
		out = append(out, m&^(v|v<<1|v>>1))
	}
	return out, nil
}

func (pathKayles) Components(m uint64) ([]uint64, error) {
	var out []uint64
	for m != 0 {
		m >>= bits.TrailingZeros64(m)
		n := bits.TrailingZeros64(^m) // the run's length
		out = append(out, m&(1<<n-1))
		m &^= 1<<n - 1
	}
	return out, nil
}

func (pathKayles) Canonical(m uint64) (uint64, error) {
	if m == 0 {
		return 0, nil
	}
	return m >> bits.TrailingZeros64(m), nil
}

// TestNodeKaylesPathIsDawson: Node Kayles on a path of n vertices is
// Dawson's Kayles, the octal game 0.137 (Winning Ways, ch. 4; OEIS
// A002187 and the comments of A316632).
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
	s, err := game.NewSolver[uint64](pathKayles{}, game.Options{})
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
	if err := game.CheckCapabilities[uint64](pathKayles{}, []uint64{0b1111111_0_11111, 0b110111011}, game.Options{}); err != nil {
		t.Error(err)
	}
}
