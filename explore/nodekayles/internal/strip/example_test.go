package strip_test

import (
	"context"
	"fmt"

	"github.com/nimbook/nimbook/explore/nodekayles/internal/strip"
)

// Node Kayles on 3 × 1 … 16, one memo for the range: A316632.
func Example() {
	s, _ := strip.New(strip.Options{})
	var vs []uint64
	for n := 1; n <= 16; n++ {
		v, _ := s.Value(context.Background(), strip.Full(n))
		vs = append(vs, v)
	}
	fmt.Println(vs)
	// Output: [2 1 1 0 3 3 2 2 2 3 3 5 2 4 1 3]
}
