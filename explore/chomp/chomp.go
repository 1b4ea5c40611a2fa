package chomp

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/nimbook/nimbook/explore/budget"
)

// MaxRows bounds the number of rows.
const MaxRows = 8

// Position is the row lengths, bottom (poisoned) row first.
type Position []int

// Check reports whether p is a position: 1 to MaxRows rows, non-increasing,
// first row at least 1.
func Check(p Position) error {
	if len(p) == 0 || len(p) > MaxRows {
		return fmt.Errorf("chomp: %v: 1 to %d rows", []int(p), MaxRows)
	}
	if p[0] < 1 {
		return fmt.Errorf("chomp: %v: the first row holds the poisoned cell, so it is at least 1", []int(p))
	}
	for i := 1; i < len(p); i++ {
		if p[i] < 0 || p[i] > p[i-1] {
			return fmt.Errorf("chomp: %v: row lengths must be non-increasing and ≥ 0 (row %d is %d after %d)", []int(p), i+1, p[i], p[i-1])
		}
	}
	return nil
}

// Moves returns the positions one move leads to from p: for each cell (i,
// j) but the corner, rows i and above cut to at most j.
func Moves(p Position) []Position {
	var out []Position
	for i := range p {
		for j := 0; j < p[i]; j++ {
			if i == 0 && j == 0 {
				continue
			}
			q := slices.Clone(p)
			for k := i; k < len(q); k++ {
				q[k] = min(q[k], j)
			}
			out = append(out, q)
		}
	}
	return out
}

// space ranks the positions below a start: non-increasing tuples t with
// t[i] ≤ start[i] (the first row may be 0 here; such tuples are never
// reached). The rank is mixed-radix over (start[i]+1), simple and dense
// enough for the starts a table asks for.
type space struct {
	start  Position
	stride []int
	size   int
}

func newSpace(start Position, limit int64) (*space, error) {
	s := &space{start: start, stride: make([]int, len(start))}
	size := int64(1)
	for i := len(start) - 1; i >= 0; i-- {
		s.stride[i] = int(size)
		size *= int64(start[i] + 1)
		if size > 1<<34 {
			return nil, fmt.Errorf("chomp: %v: more than 2^34 positions", []int(start))
		}
	}
	if err := budget.Exceeds(fmt.Sprintf("Chomp values below %v", []int(start)), 2*size, limit); err != nil {
		return nil, fmt.Errorf("chomp: %w", err)
	}
	s.size = int(size)
	return s, nil
}

func (s *space) rank(p Position) int {
	r := 0
	for i, x := range p {
		r += x * s.stride[i]
	}
	return r
}

// Solver computes Grundy values below a start.
type Solver struct {
	sp   *space
	vals []uint16
}

// NewSolver returns a solver of the positions below start, refusing before
// it allocates when they need more than limit bytes (0: no limit).
func NewSolver(ctx context.Context, start Position, limit int64) (*Solver, error) {
	if err := Check(start); err != nil {
		return nil, err
	}
	sp, err := newSpace(slices.Clone(start), limit)
	if err != nil {
		return nil, err
	}
	s := &Solver{sp: sp, vals: make([]uint16, sp.size)}
	return s, s.fill(ctx)
}

// fill computes every value in increasing rank: a move lowers some rows
// and raises none, so its rank is lower.
func (s *Solver) fill(ctx context.Context) error {
	k := len(s.sp.start)
	p := make(Position, k)
	var seen []uint64
	steps := 0
	var rec func(i int) error
	rec = func(i int) error {
		if i == k {
			if p[0] == 0 {
				return nil
			}
			r := s.sp.rank(p)
			seen = seen[:0]
			q := make(Position, k)
			for a := range p {
				for j := 0; j < p[a]; j++ {
					if a == 0 && j == 0 {
						continue
					}
					copy(q, p)
					for b := a; b < k; b++ {
						q[b] = min(q[b], j)
					}
					v := int(s.vals[s.sp.rank(q)])
					for len(seen) <= v>>6 {
						seen = append(seen, 0)
					}
					seen[v>>6] |= 1 << uint(v&63)
				}
			}
			g := 0
			for w := 0; w < len(seen); w++ {
				if seen[w] != ^uint64(0) {
					g = w*64 + bits.TrailingZeros64(^seen[w])
					break
				}
				g = (w + 1) * 64
			}
			s.vals[r] = uint16(g)
			if steps++; steps%4096 == 0 && ctx != nil && ctx.Err() != nil {
				return fmt.Errorf("chomp: %w", budget.Err(ctx))
			}
			return nil
		}
		hi := s.sp.start[i]
		if i > 0 {
			hi = min(hi, p[i-1])
		}
		for x := 0; x <= hi; x++ {
			p[i] = x
			if err := rec(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return rec(0)
}

// Value returns the Grundy value of p, which must lie below the start.
func (s *Solver) Value(p Position) (uint64, error) {
	if err := Check(p); err != nil {
		return 0, err
	}
	if len(p) != len(s.sp.start) {
		return 0, fmt.Errorf("chomp: %v has %d rows, the start %d", []int(p), len(p), len(s.sp.start))
	}
	for i, x := range p {
		if x > s.sp.start[i] {
			return 0, fmt.Errorf("chomp: %v is not below the start %v", []int(p), []int(s.sp.start))
		}
	}
	return uint64(s.vals[s.sp.rank(p)]), nil
}

// WinningMoves returns the moves of p to a position of value 0.
func (s *Solver) WinningMoves(p Position) ([]Position, error) {
	if _, err := s.Value(p); err != nil {
		return nil, err
	}
	var win []Position
	for _, q := range Moves(p) {
		if v, _ := s.Value(q); v == 0 {
			win = append(win, q)
		}
	}
	return win, nil
}
