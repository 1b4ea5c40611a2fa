package game

import (
	"fmt"
	"math/bits"
	"slices"
)

// This file holds the test games: Node Kayles on grids of up to three
// rows, Chomp with three rows and Kayles on several rows of pins, each
// with a move function and, as a separate type, its Components and
// Canonical, so that the same game is solved with and without them.

// Node Kayles (Winning Ways, ch. 2): a move picks a vertex and removes it
// with its neighbours. A position is a set of cells of a grid of at most
// three rows, as a bitmask: cell (r, c) is bit 3c + r, so that one
// encoding serves every number of columns (up to 21) and a solver is
// shared by 3 × 1, 3 × 2, ….
type gridKayles struct{}

const (
	row0 = 0o111111111111111111111 // bit 3c of every column c
	row2 = row0 << 2
)

// grid returns the full r × n grid.
func grid(r, n int) uint64 {
	var m uint64
	for c := range n {
		for i := range r {
			m |= 1 << (3*c + i)
		}
	}
	return m
}

// spread returns x with each cell's neighbours added.
func spread(x uint64) uint64 {
	return x | x<<3 | x>>3 | (x<<1)&^row0 | (x>>1)&^row2
}

func (gridKayles) Moves(m uint64) ([]uint64, error) {
	out := make([]uint64, 0, bits.OnesCount64(m))
	for r := m; r != 0; r &= r - 1 {
		v := r & -r
		out = append(out, m&^spread(v))
	}
	return out, nil
}

// splitGrid adds the capabilities to gridKayles.
type splitGrid struct{ gridKayles }

// Components returns the connected pieces of m, by flood fill.
func (splitGrid) Components(m uint64) ([]uint64, error) {
	var out []uint64
	for m != 0 {
		x := m & -m
		for {
			y := spread(x) & m
			if y == x {
				break
			}
			x = y
		}
		out = append(out, x)
		m &^= x
	}
	return out, nil
}

// Canonical returns the least of the four images of m under the
// rectangle's symmetries (the identity and the reflections), each moved
// to the lowest column and row.
func (splitGrid) Canonical(m uint64) (uint64, error) {
	m = gridShift(m)
	best := m
	h := gridShift(hflip(m))
	v := gridShift(vflip(m))
	hv := gridShift(vflip(h))
	for _, x := range []uint64{h, v, hv} {
		best = min(best, x)
	}
	return best, nil
}

// gridShift moves m to column 0 and to row 0.
func gridShift(m uint64) uint64 {
	if m == 0 {
		return 0
	}
	m >>= 3 * (bits.TrailingZeros64(m) / 3)
	for m&row0 == 0 {
		m >>= 1
	}
	return m
}

// hflip reverses the columns of m (shifted to column 0).
func hflip(m uint64) uint64 {
	w := (63-bits.LeadingZeros64(m))/3 + 1
	var out uint64
	for c := range w {
		out |= (m >> (3 * c) & 7) << (3 * (w - 1 - c))
	}
	return out
}

// vflip reverses the rows of every column: row r goes to row 2 − r.
func vflip(m uint64) uint64 {
	return (m&row0)<<2 | m&(row0<<1) | (m&row2)>>2
}

// chomp is Chomp with at most three rows (Gale 1974): a position is the
// rows' lengths a ≥ b ≥ c; a move takes a cell other than the poisoned
// corner (row 0, column 0) and every cell above and to the right of it
// (rows i' ≥ i, columns j' ≥ j). The player left with the poisoned cell
// alone cannot move, and loses.
type chomp struct{}

func (chomp) Moves(p [3]uint8) ([][3]uint8, error) {
	var out [][3]uint8
	for i := range 3 {
		for j := range int(p[i]) {
			if i == 0 && j == 0 {
				continue
			}
			q := p
			for k := i; k < 3; k++ {
				q[k] = min(q[k], uint8(j))
			}
			out = append(out, q)
		}
	}
	return out, nil
}

// kayles is Kayles (octal 0.77) on up to ten rows of pins: a move
// knocks down one pin or two adjacent ones, which may split a row in two.
// A position lists the rows' lengths, zeros last; rows beyond the tenth
// are not made (positions of the tests have at most three pins' worth of
// splits to spare).
type kayles struct{}

func (kayles) Moves(p [10]uint8) ([][10]uint8, error) {
	var out [][10]uint8
	for i, h := range p {
		for take := 1; take <= 2; take++ {
			for left := 0; left+take <= int(h); left++ {
				right := int(h) - take - left
				q := p
				q[i] = uint8(left)
				if right > 0 {
					j := slices.Index(q[:], 0)
					if j < 0 {
						return nil, fmt.Errorf("kayles: more than 10 rows from %v", p)
					}
					q[j] = uint8(right)
				}
				out = append(out, q)
			}
		}
	}
	return out, nil
}

// splitKayles adds the capabilities to kayles: its parts are its rows, its
// canonical form lists them in decreasing order.
type splitKayles struct{ kayles }

func (splitKayles) Components(p [10]uint8) ([][10]uint8, error) {
	var out [][10]uint8
	for _, h := range p {
		if h > 0 {
			out = append(out, [10]uint8{h})
		}
	}
	return out, nil
}

func (splitKayles) Canonical(p [10]uint8) ([10]uint8, error) {
	slices.Sort(p[:])
	slices.Reverse(p[:])
	return p, nil
}
