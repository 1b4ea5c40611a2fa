package graph_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/graph"
)

// The subtraction game where 1 or 2 tokens may be taken from a single heap
// of 4: its P-positions are the multiples of 3.
func Example() {
	take12 := game.MoveFunc[int](func(n int) ([]int, error) {
		var out []int
		for _, s := range []int{1, 2} {
			if n >= s {
				out = append(out, n-s)
			}
		}
		return out, nil
	})
	g, err := graph.Build(take12, 4, graph.Options[int]{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range g.Nodes() {
		fmt.Printf("node %d: %s tokens, g=%d, %v\n", n.ID, n.Label, n.Grundy, n.Outcome)
	}
	for _, e := range g.Edges() {
		if e.Winning {
			fmt.Printf("winning move %d→%d\n", e.From, e.To)
		}
	}
	fmt.Print("kernel:")
	for _, n := range g.Kernel() {
		fmt.Print(" ", n.Label)
	}
	fmt.Println()
	// Output:
	// node 0: 4 tokens, g=1, N
	// node 1: 3 tokens, g=0, P
	// node 2: 2 tokens, g=2, N
	// node 3: 1 tokens, g=1, N
	// node 4: 0 tokens, g=0, P
	// winning move 0→1
	// winning move 2→4
	// winning move 3→4
	// kernel: 3 0
}

// A drawing of the game "take 1 token" from 2 tokens under misère play,
// where taking the last token loses.
func ExampleGraph_DOT() {
	take1 := game.MoveFunc[int](func(n int) ([]int, error) {
		if n == 0 {
			return nil, nil
		}
		return []int{n - 1}, nil
	})
	g, _ := graph.Build(take1, 2, graph.Options[int]{
		Play:  game.Misere,
		Label: func(n int) string { return fmt.Sprintf("%d left", n) },
	})
	b, _ := g.DOT("take1")
	fmt.Print(string(b))
	// Output:
	// strict digraph take1 {
	// 	graph [
	// 		label="misère play. P-positions: filled double circles; N-positions: circles; bold arrows: winning moves"
	// 		labelloc=b
	// 	];
	// 	node [
	// 		shape=circle
	// 	];
	//
	// 	// Node definitions.
	// 	0 [label="2 left"];
	// 	1 [
	// 		label="1 left"
	// 		shape=doublecircle
	// 		style=filled
	// 		fillcolor=lightgrey
	// 	];
	// 	2 [label="0 left"];
	//
	// 	// Edge definitions.
	// 	0 -> 1 [style=bold];
	// 	1 -> 2;
	// }
}
