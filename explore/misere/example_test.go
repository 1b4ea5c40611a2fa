package misere_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/misere"
)

// The quotient of misère Nim on heaps up to 3 is the tame T_2.
func ExampleNewQuotient() {
	g, _ := heap.NewNim(0)
	q, err := misere.NewQuotient(context.Background(), g, 3, heap.Limits{}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q.Order, q.TameName, q.Presentation())
	var ps, heaps []string
	for _, i := range q.P {
		ps = append(ps, q.Elements[i].Word)
	}
	for n := 0; n <= 3; n++ {
		heaps = append(heaps, q.Elements[q.Pretending[n]].Word)
	}
	fmt.Println(strings.Join(ps, ", "))
	fmt.Println(strings.Join(heaps, "; "))
	// Output:
	// 6 T_2 <a, b | a^2 = 1, b^3 = b>
	// a, b^2
	// 1; a; b; a b
}

// 0.75 has the quotient R_8 with a proven period, so positions of heaps
// of any size are solved at once.
func ExampleQuotient_WinningMoves() {
	r, _ := heap.Lookup("octal")
	g, _ := r.NewGame(heap.Params{"code": "0.75"})
	q, err := misere.NewQuotient(context.Background(), g, 30, heap.Limits{}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q.Order, q.Period.Preperiod, q.Period.Period)
	pos := []int{1000, 999, 5}
	p, _ := q.Outcome(pos)
	moves, _ := q.WinningMoves(g, pos)
	fmt.Println(p, len(moves), moves[0])
	// Output:
	// 8 8 2
	// false 998 {1000 0 [1 997]}
}
