package nodekayles_test

import (
	"context"
	"fmt"

	"github.com/nimbook/nimbook/explore/nodekayles"
)

// Node Kayles on 3 × n grids, one memo for the whole range (OEIS A316632),
// and on the Petersen graph read as an edge list.
func Example() {
	s, _ := nodekayles.NewSolver(nodekayles.Options{Workers: 1}) // one worker: the count of components below is then exact
	var vs []uint64
	for n := 1; n <= 16; n++ {
		g, _ := nodekayles.Grid(3, n)
		v, _ := s.Value(context.Background(), g)
		vs = append(vs, v)
	}
	fmt.Println(vs)
	fmt.Println(s.Stats().Entries, "components")
	c, _ := nodekayles.Cycle(10)
	v, _ := s.Value(context.Background(), c)
	fmt.Println("cycle 10:", v)
	// Output:
	// [2 1 1 0 3 3 2 2 2 3 3 5 2 4 1 3]
	// 34505 components
	// cycle 10: 0
}
