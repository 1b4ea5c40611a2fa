package play_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/play"
)

// A short game of Nim from piped input: the human leaves a P-position, and
// the computer, with no winning move, takes one token to make it last.
func ExampleRun() {
	nim, _ := heap.Lookup("nim")
	g, _ := play.NewHeapRule(nim, nil, game.Normal, heap.Limits{})
	in := play.NewLines(context.Background(), strings.NewReader("2 2\nquit\n"), os.Stdout)
	in.Echo = true
	rec, _ := play.Run(context.Background(), g, []int{1, 3}, in, os.Stdout, play.Options{Seed: 1})
	fmt.Println(rec.Positions)
	// Output:
	// Nim. Normal play: whoever makes the last move wins.
	// Type help for how to move, undo to take back a move, quit to stop.
	//
	//   heap 1  |      1
	//   heap 2  | | |  3
	// your move> 2 2
	// You play 2 2: take 2 from heap 2.
	//
	//   heap 1  |  1
	//   heap 2  |  1
	// Computer plays 1 1: take the whole heap 1 (1 token).
	//
	//   heap 1     empty
	//   heap 2  |  1
	// your move> quit
	// Game left unfinished.
	// [[1 3] [1 1] [0 1]]
}

func ExampleCoins_Render() {
	rule, _ := coins.New(coins.AtMost, 3, 1)
	g, _ := play.NewCoins(rule, 10, game.Normal)
	fmt.Print(g.Render([]int{2, 5, 9}))
	q, err := g.ParseMove([]int{2, 5, 9}, "9 4 1")
	fmt.Println(q, err)
	_, err = g.ParseMove([]int{2, 5, 9}, "6 5")
	fmt.Println(err)
	// Output:
	//    ○  ●  ○  ○  ●  ○  ○  ○  ●  ○
	//    1  2  3  4  5  6  7  8  9 10
	// [1 2 4 5] <nil>
	// coin 6 is tails: the rightmost coin turned must go from heads to tails
}

func ExampleProduct() {
	nim, _ := coins.New(coins.AtMost, 2, 1)
	p, _ := coins.NewProduct(nim, nim)
	g, _ := play.NewProduct(p, []int{3, 4}, game.Normal)
	start, _ := g.Position([]int{2, 3, 3, 4}) // cells (2,3) and (3,4)
	fmt.Print(g.Render(start))
	to, _ := g.ParseMove(start, "(2,3) (2,4) (3,3) (3,4)")
	fmt.Println(g.Describe(start, to))
	fmt.Print(g.Render(to))
	// Output:
	//   1 2 3 4
	// 1 ○ ○ ○ ○
	// 2 ○ ○ ● ○
	// 3 ○ ○ ○ ●
	// turn coins (2,3), (2,4), (3,3), (3,4)
	//   1 2 3 4
	// 1 ○ ○ ○ ○
	// 2 ○ ○ ○ ●
	// 3 ○ ○ ● ○
}
