package record_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/record"
)

// The game of seed 000 (Madore 2017), slide "Exemple de partie": which move
// was bad?
func Example() {
	nim := game.MoveFunc[[4]int](func(p [4]int) ([][4]int, error) {
		var out [][4]int
		for i, h := range p {
			for k := h - 1; k >= 0; k-- {
				q := p
				q[i] = k
				out = append(out, q)
			}
		}
		return out, nil
	})
	a, err := record.Analyse(nim, [][4]int{
		{1, 3, 5, 7}, {1, 3, 5, 5}, {1, 3, 3, 5}, {1, 3, 3, 1},
		{0, 3, 3, 1}, {0, 3, 3, 0}, {0, 3, 0, 0}, {0, 0, 0, 0},
	}, record.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(a)
	// Output:
	// normal play from [1 3 5 7] (P: player 2 should win), 7 moves
	// 1. player 1: [1 3 5 7] → [1 3 5 5]  P→N (g 0→2)
	// 2. player 2: [1 3 5 5] → [1 3 3 5]  N→N (g 2→4)  MISTAKE, missed [1 1 5 5]
	// 3. player 1: [1 3 3 5] → [1 3 3 1]  N→P (g 4→0)
	// 4. player 2: [1 3 3 1] → [0 3 3 1]  P→N (g 0→1)
	// 5. player 1: [0 3 3 1] → [0 3 3 0]  N→P (g 1→0)
	// 6. player 2: [0 3 3 0] → [0 3 0 0]  P→N (g 0→3)
	// 7. player 1: [0 3 0 0] → [0 0 0 0]  N→P (g 3→0)
	// game over: player 1 wins
	// mistakes: move 2
}

// A record with an illegal move: tokens taken from two heaps at once.
func ExampleAnalyse_illegal() {
	nim := game.MoveFunc[[2]int](func(p [2]int) ([][2]int, error) {
		var out [][2]int
		for i, h := range p {
			for k := h - 1; k >= 0; k-- {
				q := p
				q[i] = k
				out = append(out, q)
			}
		}
		return out, nil
	})
	a, _ := record.Analyse(nim, [][2]int{{2, 3}, {2, 2}, {1, 1}, {0, 1}}, record.Options{Play: game.Misere})
	fmt.Println("illegal move at index", a.Illegal)
	fmt.Println(a.Moves[a.Illegal])
	// Output:
	// illegal move at index 1
	// 2. player 2: [2 2] → [1 1]  ILLEGAL (from P, g 0)
}
