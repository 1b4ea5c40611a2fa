package misere

import (
	"errors"
	"fmt"

	"github.com/nimbook/nimbook/explore/heap"
)

// Quotient is the misère quotient of a heap game over the heaps 1..Heaps.
type Quotient struct {
	Game       string // e.g. "octal 0.75"
	Heaps      int    // the quotient holds for positions whose heaps are all <= Heaps
	Order      int
	Elements   []Element // index 0 is the identity
	Generators []Generator
	Relations  []Relation
	P          []int // indices of the P-portion
	// Pretending[n] is the element index of a heap of n, n = 0..Heaps
	// (0 -> identity).
	Pretending []int
	Tame       bool
	TameName   string  // "T_1", "T_2", ... when tame, else ""
	Period     *Period // non-nil when the pretending function is proven periodic (then Heaps may be exceeded: see Outcome)
	Table      [][]int // multiplication table (element indices) when Order <= 64, else nil
	// ProvenAt is the largest heap whose quotient was computed: Heaps, or
	// the heap at which the period was proven.
	ProvenAt int

	mul   [][]int32 // full multiplication table, always kept
	phi   []int32   // element of each heap 0..ProvenAt
	inP   []bool
	names []string // generator names by generator index
}

// Element is one element of a quotient.
type Element struct {
	Word   string // normal-form word such as "a b^2", "1" for the identity
	Parity int    // 0 or 1: the parity of the total size of every position mapped here
	P      bool   // in the P-portion: positions mapped here are P-positions
}

// Generator is the element a heap introduced: "a" for the first heap that
// did not map onto an existing element, then "b", ...
type Generator struct {
	Name string
	Heap int
}

// Relation says two words are the same element: "a^2" = "1".
type Relation struct{ Left, Right string }

// Period is a period of the pretending function n -> Pretending[n].
type Period struct {
	Preperiod, Period int
	Proven            bool
}

// Move is a winning move: heap Index of the position (its place in the
// list) became the heaps To.
type Move struct {
	Heap  int // the heap's size before the move
	Index int // the heap's index in the position
	To    []int
}

// ErrBeyond is wrapped by the error of Element, Outcome and WinningMoves
// when a heap is beyond what the quotient holds for.
var ErrBeyond = errors.New("heap beyond the quotient")

// heapElement is the element of one heap of n, through the period when
// n is beyond Heaps.
func (q *Quotient) heapElement(n int) (int, error) {
	if n < 0 {
		return 0, fmt.Errorf("misere: negative heap %d", n)
	}
	if n <= q.Heaps {
		return q.Pretending[n], nil
	}
	if p := q.Period; p != nil && p.Proven && p.Period > 0 && n >= p.Preperiod {
		m := p.Preperiod + (n-p.Preperiod)%p.Period
		return q.Pretending[m], nil
	}
	return 0, fmt.Errorf("misere: %s: heap %d: the quotient holds for heaps up to %d: %w", q.Game, n, q.Heaps, ErrBeyond)
}

// Element returns the element of a position: the product of its heaps'
// elements.
func (q *Quotient) Element(position []int) (int, error) {
	x := 0
	for _, n := range position {
		e, err := q.heapElement(n)
		if err != nil {
			return 0, err
		}
		x = int(q.mul[x][e])
	}
	return x, nil
}

// Outcome says whether a position is a P-position in misère play (the
// previous player wins).
func (q *Quotient) Outcome(position []int) (bool, error) {
	x, err := q.Element(position)
	if err != nil {
		return false, err
	}
	return q.inP[x], nil
}

// WinningMoves lists the moves of position to P-positions, in the order
// of the heaps and of g.Options; nil when the position is a P-position or
// has no winning move. g must be the game of the quotient.
func (q *Quotient) WinningMoves(g heap.Game, position []int) ([]Move, error) {
	if g.String() != q.Game {
		return nil, fmt.Errorf("misere: the quotient is of %s, not %v", q.Game, g)
	}
	// rest[i] is the product of every heap but heap i: prefix and suffix
	// products make the whole list linear in the number of heaps.
	k := len(position)
	els := make([]int, k)
	for i, n := range position {
		e, err := q.heapElement(n)
		if err != nil {
			return nil, err
		}
		els[i] = e
	}
	pre := make([]int, k+1)
	suf := make([]int, k+1)
	for i := range k {
		pre[i+1] = int(q.mul[pre[i]][els[i]])
		suf[k-1-i] = int(q.mul[suf[k-i]][els[k-1-i]])
	}
	var moves []Move
	for i := range k {
		rest := int(q.mul[pre[i]][suf[i+1]])
		for _, opt := range g.Options(position[i]) {
			x := rest
			ok := true
			for _, m := range opt {
				e, err := q.heapElement(m)
				if err != nil {
					ok = false
					break
				}
				x = int(q.mul[x][e])
			}
			if ok && q.inP[x] {
				moves = append(moves, Move{Heap: position[i], Index: i, To: append([]int(nil), opt...)})
			}
		}
	}
	return moves, nil
}
