package game_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/game"
)

// A subtraction game where 1, 3 or 4 tokens may be taken from one heap.
func Example() {
	moves := game.MoveFunc[int](func(n int) ([]int, error) {
		var out []int
		for _, s := range []int{1, 3, 4} {
			if n >= s {
				out = append(out, n-s)
			}
		}
		return out, nil
	})
	s, _ := game.NewSolver[int](moves, game.Options{})
	var values []uint64
	for n := 0; n < 10; n++ {
		g, _ := s.Grundy(n)
		values = append(values, g)
	}
	fmt.Println(values)
	win, _ := s.WinningMoves(8)
	fmt.Println("from 8, move to", win)
	// Output:
	// [0 1 0 1 2 3 2 0 1 0]
	// from 8, move to [7]
}

// runs is Node Kayles on a path (Dawson's Kayles): a position is a set of
// vertices as a bitmask, a move removes a vertex and its neighbours.
// Components and Canonical make it a Splitter and a Canonicalizer: its
// parts are its runs of consecutive vertices, each moved to vertex 0.
type runs struct{}

func (runs) Moves(m uint64) ([]uint64, error) {
	var out []uint64
	for r := m; r != 0; r &= r - 1 {
		v := r & -r
		out = append(out, m&^(v|v<<1|v>>1))
	}
	return out, nil
}

func (runs) Components(m uint64) ([]uint64, error) {
	var out []uint64
	for m != 0 {
		low := m & -m
		run := m &^ (m + low) // the lowest run of ones
		out = append(out, run)
		m &^= run
	}
	return out, nil
}

func (runs) Canonical(m uint64) (uint64, error) {
	for m != 0 && m&1 == 0 {
		m >>= 1
	}
	return m, nil
}

// A game whose positions split into parts: the solver remembers each run
// once, whatever its place on the path, and nim-sums the runs' values.
func Example_components() {
	s, _ := game.NewSolver[uint64](runs{}, game.Options{})
	var values []uint64
	for n := range 12 {
		g, _ := s.Grundy(1<<n - 1) // a path of n vertices
		values = append(values, g)
	}
	fmt.Println(values)
	g, _ := s.Grundy(0b111_0_11111) // runs of 3 and 5
	fmt.Println("3 + 5:", g, "from", s.Len(), "runs solved")
	fmt.Println(game.CheckCapabilities[uint64](runs{}, []uint64{0b1110111}, game.Options{}))
	// Output:
	// [0 1 1 2 0 3 1 1 0 3 3 2]
	// 3 + 5: 1 from 11 runs solved
	// <nil>
}
