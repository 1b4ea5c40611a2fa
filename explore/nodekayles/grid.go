package nodekayles

import (
	"math/bits"

	"github.com/nimbook/nimbook/explore/cellgame"
)

// GridRule is Node Kayles on a set of cells of the square grid: a move
// takes a cell and removes it with its four neighbours.
type GridRule struct{}

// Options appends the positions one move leads to from s (a frame of h
// rows, w columns).
func (GridRule) Options(dst []cellgame.Board, s cellgame.Board, h, w int) []cellgame.Board {
	for r := 0; r < h; r++ {
		for x := s[r]; x != 0; x &= x - 1 {
			c := bits.TrailingZeros64(x)
			o := s
			bit := x & -x
			o[r] &^= bit | bit<<1 | bit>>1
			if r > 0 {
				o[r-1] &^= bit
			}
			if r+1 < h {
				o[r+1] &^= bit
			}
			_ = c
			dst = append(dst, o)
		}
	}
	return dst
}
