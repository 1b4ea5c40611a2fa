package wythoff_test

import (
	"context"
	"fmt"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/wythoff"
)

func ExampleNewTable() {
	t, err := wythoff.NewTable(4, 6)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range t.Values() {
		fmt.Println(row)
	}
	fmt.Println("P:", t.PPositions())
	// Output:
	// [0 1 2 3 4 5]
	// [1 2 0 4 5 3]
	// [2 0 1 5 3 4]
	// [3 4 5 6 2 0]
	// P: [[0 0] [1 2] [2 1] [3 5]]
}

func ExampleTable_AppendRow() {
	t, _ := wythoff.NewTable(4, 6)
	fmt.Println(t.AppendRow(nil, 3), t.ValueBits(), "bits a value")
	big, _ := wythoff.NewTable(40, 8192)
	fmt.Println(big.AppendRow(nil, 39)[:8], big.ValueBits(), "bits a value")
	// Output:
	// [3 4 5 6 2 0] 8 bits a value
	// [39 40 41 42 34 37 43 36] 16 bits a value
}

func ExamplePPairs() {
	ps, _ := wythoff.PPairs(10)
	fmt.Println(ps)
	// Output: [[0 0] [1 2] [2 1] [3 5] [4 7] [5 3] [6 10] [7 4] [10 6]]
}

func ExampleWinningMoves() {
	normal, _ := wythoff.WinningMoves(2, 3, game.Normal)
	misere, _ := wythoff.WinningMoves(2, 3, game.Misere)
	fmt.Println("normal:", normal)
	fmt.Println("misère:", misere)
	// Output:
	// normal: [[1 2] [2 1]]
	// misère: [[0 1] [2 2]]
}

func ExampleTable_RowPeriods() {
	t, _ := wythoff.NewTable(4, 64)
	ps, _ := t.RowPeriods(context.Background())
	for _, p := range ps {
		fmt.Printf("row %d: g(x, y+%d) = g(x, y) + %d for y ≥ %d (%d periods seen)\n", p.Row, p.Period, p.Period, p.Start, p.Periods)
	}
	// Output:
	// row 0: g(x, y+1) = g(x, y) + 1 for y ≥ 0 (64 periods seen)
	// row 1: g(x, y+3) = g(x, y) + 3 for y ≥ 0 (21 periods seen)
	// row 2: g(x, y+3) = g(x, y) + 3 for y ≥ 0 (21 periods seen)
	// row 3: g(x, y+6) = g(x, y) + 6 for y ≥ 8 (9 periods seen)
}
