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
