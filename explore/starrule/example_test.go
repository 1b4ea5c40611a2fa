package starrule_test

import (
	"fmt"
	"path/filepath"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/starrule"
)

// A rule of examples/rules.star: take 1 to k tokens, or split a heap into
// two unequal heaps.
func ExampleLoad() {
	file := filepath.Join("..", "..", "examples", "rules.star")
	g, err := starrule.Load(file, "split_or_take", map[string]any{"k": 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(g)
	fmt.Println(g.Options(5))
	vs, err := g.Values(15, heap.Limits{})
	fmt.Println(vs, err)

	// A parameter the function does not take is refused, naming its line.
	_, err = starrule.Load(file, "squares", map[string]any{"k": 2})
	fmt.Println(err)
	// Output:
	// rule split_or_take(k=2) from rules.star
	// [[1 4] [2 3] [3] [4]]
	// [0 1 2 0 3 1 2 0 3 1 2 0 3 1 2 0] <nil>
	// params: ../../examples/rules.star:21: squares(n) takes no parameter k
}
