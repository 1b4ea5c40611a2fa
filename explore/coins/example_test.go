package coins_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/coins"
)

// Turning at most three coins (Mock Turtles): the values are the odious
// numbers, as in seed 000's table.
func Example() {
	g, err := coins.New(coins.AtMost, 3, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	vs, _ := g.Values(10)
	fmt.Println(vs)
	// Output:
	// [1 2 4 7 8 11 13 14 16 19]
}

// Turning at most two coins is Nim in disguise: a head at n is a heap of n.
// Heads 3, 5, 7 are the heaps (3, 5, 7), and each winning move shortens one
// heap by one.
func ExampleGame_WinningMoves() {
	g, _ := coins.New(coins.AtMost, 2, 1)
	v, _ := g.RowValue([]int{3, 5, 7})
	win, _ := g.WinningMoves(7, []int{3, 5, 7})
	fmt.Println(v, win)
	// Output:
	// 1 [[2 5 7] [3 4 7] [3 5 6]]
}

// The ruler game: a head at n is worth the largest power of 2 dividing n.
func ExampleGame_Values_ruler() {
	g, _ := coins.New(coins.Ruler, 0, 1)
	vs, _ := g.Values(12)
	fmt.Println(vs)
	// Output:
	// [1 2 1 4 1 2 1 8 1 2 1 4]
}

// Winning Ways numbers coins from 0: turning exactly two coins (Twins)
// is then worth n at coin n.
func ExampleNew_numbering() {
	g, _ := coins.New(coins.Exactly, 2, 0)
	vs, _ := g.Values(6)
	fmt.Println(g, vs)
	// Output:
	// exactly 2, coins from 0 [0 1 2 3 4 5]
}

// Nim × Nim on a grid numbered from 1: turn one coin, two in a row, two in
// a column or the four corners of a rectangle; a head at (a, b) is worth
// the nim-product a ⊗ b.
func ExampleProduct_Table() {
	nim, _ := coins.New(coins.AtMost, 2, 1)
	p, _ := coins.NewProduct(nim, nim)
	t, _ := p.Table2(4, 4)
	for _, row := range t {
		fmt.Println(row)
	}
	v, _ := p.Value([][]int{{2, 2}, {3, 3}})
	fmt.Println("value of heads (2,2) and (3,3):", v)
	// Output:
	// [1 2 3 4]
	// [2 3 1 8]
	// [3 1 2 12]
	// [4 8 12 6]
	// value of heads (2,2) and (3,3): 1
}

// Turning exactly two coins, heads on 2, 4 and 5 of five: the moves that
// leave the most game (the row read as a binary number, coin 5 the highest
// bit) come from the lowest head that can move, found without listing all
// the moves, which a long row may not allow.
func ExampleGame_LargestMoves() {
	g, _ := coins.New(coins.Exactly, 2, 1)
	n, _ := g.MoveCount(5, []int{2, 4, 5})
	ok, _ := g.HasMove(5, []int{2, 4, 5})
	top, _ := g.LargestMoves(5, []int{2, 4, 5}, 3)
	fmt.Println(n, ok, top)
	// Output:
	// 8 true [[1 4 5] [2 3 5] [1 2 5]]
}
