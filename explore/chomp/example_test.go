package chomp_test

import (
	"context"
	"fmt"

	"github.com/nimbook/nimbook/explore/chomp"
)

// The P-positions of 3-row Chomp with third row 3 (Brouwer), and the value
// of the 3 × 4 rectangle with its one winning bite (to (4, 2, 2)).
func Example() {
	t, _ := chomp.PPositions(context.Background(), 3, 50, 0)
	var r3 []chomp.Position
	for _, p := range t.List() {
		if p[2] == 3 {
			r3 = append(r3, p)
		}
	}
	fmt.Println(r3)
	s, _ := chomp.NewSolver(context.Background(), chomp.Position{4, 4, 4}, 0)
	v, _ := s.Value(chomp.Position{4, 4, 4})
	win, _ := s.WinningMoves(chomp.Position{4, 4, 4})
	fmt.Println(v, win)
	// Output:
	// [[5 5 3] [6 3 3] [7 4 3]]
	// 9 [[4 2 2]]
}
