package cellgame_test

import (
	"context"
	"fmt"

	"github.com/nimbook/nimbook/explore/cellgame"
)

// dominoes is Cram's move: two free cells side by side.
type dominoes struct{}

func (dominoes) Options(dst []cellgame.Board, s cellgame.Board, h, w int) []cellgame.Board {
	for r := 0; r < h; r++ {
		for c := 0; c+1 < w; c++ {
			if s.Has(r, c) && s.Has(r, c+1) {
				o := s
				o[r] &^= 3 << uint(c)
				dst = append(dst, o)
			}
			if r+1 < h && s.Has(r, c) && s.Has(r+1, c) {
				o := s
				o[r] &^= 1 << uint(c)
				o[r+1] &^= 1 << uint(c)
				dst = append(dst, o)
			}
		}
		if r+1 < h && s.Has(r, w-1) && s.Has(r+1, w-1) {
			o := s
			o[r] &^= 1 << uint(w-1)
			o[r+1] &^= 1 << uint(w-1)
			dst = append(dst, o)
		}
	}
	return dst
}

// A rule of one's own on the solver: Cram on 3 × 4, and the canonical form
// of an L-shaped region (turned so that its short side is the height).
func Example() {
	s, _ := cellgame.New(dominoes{}, cellgame.Options{Fold: true})
	v, _ := s.Value(context.Background(), cellgame.Full(3, 4), 3, 4)
	fmt.Println(v, s.Stats().Entries)
	var l cellgame.Board
	l[0], l[1], l[2] = 0b1, 0b1, 0b11 // a column of three with a foot
	c, h, w := cellgame.Canonical(l, 3, true)
	fmt.Println(h, w)
	for r := 0; r < h; r++ {
		fmt.Printf("%03b\n", c[r])
	}
	// Output:
	// 1 56
	// 2 3
	// 001
	// 111
}
