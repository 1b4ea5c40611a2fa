package heap_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// Kayles: its values and the certificate of its period (MATH.md).
func ExamplePeriod() {
	kayles, err := heap.ParseOctal("0.77")
	if err != nil {
		panic(err)
	}
	vs, err := kayles.Values(200, heap.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println(kayles, vs[:12])
	c := heap.Period(kayles, vs)
	fmt.Println(c.Proven, c.Preperiod, c.Period, c.CheckedTo)
	// Output:
	// octal 0.77 [0 1 2 3 1 4 3 2 1 4 2 6]
	// true 71 12 167
}

// The game of seed 000: from (1,3,5,5) the winning move is to (1,1,5,5).
func ExampleWinningMoves() {
	nim, _ := heap.NewNim(0)
	moves, _ := heap.WinningMoves(nim, []int{1, 3, 5, 5}, game.Normal, heap.Limits{})
	fmt.Println(moves)
	misere, _ := heap.WinningMoves(nim, []int{1, 1, 2}, game.Misere, heap.Limits{})
	fmt.Println(misere)
	// Output:
	// [[1 1 5 5]]
	// [[1 1 1]]
}

// Seed 001: 48 of the 384 positions below (1,3,5,7) are P-positions.
func ExampleNim_PPositions() {
	nim, _ := heap.NewNim(0)
	set, _ := nim.PPositions([]int{1, 3, 5, 7}, game.Normal, heap.Limits{})
	fmt.Println(set.Count, "of", set.Total)
	fmt.Println(set.List[:4])
	// Output:
	// 48 of 384
	// [[0 0 0 0] [0 0 1 1] [0 0 2 2] [0 0 3 3]]
}

// The game graph of seed 003, positions as multisets of heaps.
func ExampleMultisetMover() {
	nim, _ := heap.NewNim(0)
	s, _ := game.NewSolver(heap.MultisetMover(nim), game.Options{})
	start, _ := heap.NewMultiset(1, 2, 3)
	ps, _ := s.PPositions(start)
	fmt.Println(ps)
	// Output:
	// [(1,2,3) (1,1) (2,2) ()]
}

// A hexadecimal code that splits a heap into three, and a subtraction game
// written as an octal code.
func ExampleParseHex() {
	g, _ := heap.ParseHex("0.f")
	vs, _ := g.Values(9, heap.Limits{})
	fmt.Println(g, vs, heap.Period(g, vs).Proven)
	s, _ := heap.NewSubtraction([]int{1, 3, 4})
	o, _ := s.Octal()
	fmt.Println(s, "=", o)
	// Output:
	// hex 0.f [0 1 0 1 0 1 0 1 0 1] true
	// subtraction {1,3,4} = octal 0.3033
}

// A. Flammenkamp's table of 0.051: a domain-type sparse space with t = 2
// and every bit counted (mask 0); seven sparse positions, none after 37.
func ExampleSparseSpaceOf() {
	g, _ := heap.ParseOctal("0.051")
	vs, _ := g.Values(200, heap.Limits{})
	s, err := heap.SparseSpaceOf(g, vs)
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Type(), s.T, s.Mask, s.Rare)
	fmt.Println(s)
	// Output:
	// domain 2 0 [0 3 7 13 17 27 37]
	// domain type (t = 2), mask 0: 7 rare positions in 0..200, the last 37
}

// Grundy's game: split a heap into two unequal heaps. Its values (OEIS
// A002188) have no known period, and a position of several heaps is won
// by the nim-sum of their values.
func ExampleGrundysGame() {
	g := heap.NewGrundysGame()
	vs, _ := g.Values(19, heap.Limits{})
	fmt.Println(g, vs)
	fmt.Println(heap.Period(g, vs).Proven)
	moves, _ := heap.WinningMoves(g, []int{5, 6, 7}, game.Normal, heap.Limits{})
	fmt.Println(moves)
	fmt.Println(g.Explain())
	// Output:
	// Grundy's game [0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3]
	// false
	// [[2 3 6 7] [5 1 5 7]]
	// split one heap into two unequal heaps (take no token).
}

// No move of Dawson's Kayles (0.07) takes a whole heap of 1, so a heap of 1
// is no heap, and the game on heaps one smaller is 0.4 (take one, leaving
// two heaps, one or none): the values of 0.07 are those of 0.4 one heap
// later, g(n) = g_0.4(n + 1), a shift of −1. In 0.01, taking a whole heap
// of 2 is taking a whole heap of 1 (0.1) one heap earlier.
func ExampleOctal_Standard() {
	for _, c := range []string{"0.07", "0.01", "0.77"} {
		g, _ := heap.ParseOctal(c)
		sf, _ := g.Standard()
		fmt.Println(c, sf.Code, sf.Shift)
	}
	// Output:
	// 0.07 0.4 -1
	// 0.01 0.1 1
	// 0.77 0.77 0
}
