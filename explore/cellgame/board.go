package cellgame

import "math/bits"

// MaxRows and MaxCols bound a frame: a row is one word, and a frame has at
// most MaxRows of them.
const (
	MaxRows = 8
	MaxCols = 64
)

// MaxCells bounds the cells of a frame: a shape's key is three words less
// the 16 bits of its height and width.
const MaxCells = 3*64 - 16

// Board is a set of cells of a frame: bit c of row r is cell (r, c). Rows
// past the frame's height are zero.
type Board [MaxRows]uint64

// Cell returns the board holding cell (r, c) alone.
func Cell(r, c int) Board {
	var b Board
	b[r] = 1 << uint(c)
	return b
}

// Full returns all the cells of an h × w frame.
func Full(h, w int) Board {
	var b Board
	for r := 0; r < h; r++ {
		b[r] = 1<<uint(w) - 1
		if w == 64 {
			b[r] = ^uint64(0)
		}
	}
	return b
}

// Has reports whether cell (r, c) is in b.
func (b *Board) Has(r, c int) bool { return b[r]>>uint(c)&1 == 1 }

// Len is the number of cells of b.
func (b *Board) Len() int {
	n := 0
	for _, x := range b {
		n += bits.OnesCount64(x)
	}
	return n
}

// Empty reports whether b has no cell.
func (b *Board) Empty() bool {
	var x uint64
	for _, r := range b {
		x |= r
	}
	return x == 0
}

// Closed returns the cell (r, c) and its four neighbours that are in s, in
// a frame of h rows.
func Closed(s *Board, r, c, h int) Board {
	var n Board
	bit := uint64(1) << uint(c)
	n[r] = (bit | bit<<1 | bit>>1) & s[r]
	if r > 0 {
		n[r-1] = bit & s[r-1]
	}
	if r+1 < h {
		n[r+1] = bit & s[r+1]
	}
	return n
}

// runs returns the cells of the runs (maximal horizontal segments) of row s
// that hold a cell of x ⊆ s. Upward: adding x to s carries from the
// lowest seed of each run past its top, clearing the run's bits above it
// (a later seed's bit stays set, hence the | x). Downward: doubling steps.
func runs(x, s uint64) uint64 {
	up := s&^(s+x) | x
	g, p := x, s
	g |= p & (g >> 1)
	p &= p >> 1
	g |= p & (g >> 2)
	p &= p >> 2
	g |= p & (g >> 4)
	p &= p >> 4
	g |= p & (g >> 8)
	p &= p >> 8
	g |= p & (g >> 16)
	p &= p >> 16
	g |= p & (g >> 32)
	return up | g
}

// component returns the connected component (4-neighbourhood) of s that
// holds cell (r, c), in a frame of h rows: rows are filled by runs and the
// fill is swept down and up until it no longer grows.
func component(s *Board, r, c, h int) Board {
	var k Board
	k[r] = runs(1<<uint(c), s[r])
	for {
		grew := false
		for i := 1; i < h; i++ { // down
			if x := k[i-1] & s[i] &^ k[i]; x != 0 {
				k[i] = runs(k[i]|x, s[i])
				grew = true
			}
		}
		for i := h - 2; i >= 0; i-- { // up
			if x := k[i+1] & s[i] &^ k[i]; x != 0 {
				k[i] = runs(k[i]|x, s[i])
				grew = true
			}
		}
		if !grew {
			return k
		}
	}
}

// Components calls f with each connected component of s, in a frame of h
// rows, lowest row and column first.
func Components(s Board, h int, f func(Board)) {
	for r := 0; r < h; r++ {
		for s[r] != 0 {
			k := component(&s, r, bits.TrailingZeros64(s[r]), h)
			for i := 0; i < h; i++ {
				s[i] &^= k[i]
			}
			f(k)
		}
	}
}
