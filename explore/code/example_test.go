package code_test

import (
	"context"
	"fmt"

	"github.com/nimbook/nimbook/explore/code"
)

// Turning at most seven of 24 coins: the P-positions are the extended
// Golay code (seed 000).
func Example() {
	values := []uint64{1, 2, 4, 8, 16, 32, 64, 127, 128, 256, 512, 911,
		1024, 1459, 1749, 1897, 2048, 2518, 2787, 2874, 3320, 3357, 3662, 4004}
	c, err := code.FromValues(values)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	d, _ := c.Distribution(ctx, code.Limits{})
	fmt.Println(d.Method, d.Count, d.MinDistance)
	for w, x := range d.Weights {
		if x != 0 {
			fmt.Printf("weight %d: %d\n", w, x)
		}
	}
	s, _ := c.Design(ctx, code.Limits{})
	fmt.Printf("%d-(%d,%d,%d) design\n", s.T, s.V, s.K, s.Lambda)
	a, _ := c.Automorphisms(ctx, code.Limits{})
	fmt.Println("automorphisms:", a.Order)
	// Output:
	// enumeration 4096 8
	// weight 0: 1
	// weight 8: 759
	// weight 12: 2576
	// weight 16: 759
	// weight 24: 1
	// 5-(24,8,1) design
	// automorphisms: 244823040
}

// Nim in disguise: turning at most two coins, values 1..7.
func ExampleCode_LinearAlgebra() {
	c, _ := code.FromValues([]uint64{1, 2, 3, 4, 5, 6, 7})
	d, _ := c.LinearAlgebra(context.Background(), code.Limits{})
	fmt.Println(d.Method, d.Weights)
	fmt.Printf("basis: %07b\n", c.Basis())
	// Output:
	// linear-algebra [1 0 0 7 7 0 0 1]
	// basis: [0000111 0011001 0101010 1001011]
}
