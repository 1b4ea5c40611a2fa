package cram_test

import (
	"context"
	"fmt"

	"github.com/nimbook/nimbook/explore/cram"
)

// Cram on 4 × 5 (Beling's table: 2) and a winning first domino.
func Example() {
	s, _ := cram.NewSolver(cram.Options{})
	b, _ := cram.NewBoard(4, 5)
	v, _ := s.Value(context.Background(), b)
	win, _ := s.WinningMoves(context.Background(), b)
	fmt.Println(v, win[0])
	// Output:
	// 2 (1,0) down
}

// The 4 × 5 board by the pruning search: nimber 2 (Beling's table).
func ExampleValue() {
	v, _, err := cram.Value(context.Background(), 4, 5, cram.SearchOptions{})
	fmt.Println(v, err)
	// Output: 2 <nil>
}
