package chomp

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/nimbook/nimbook/explore/budget"
)

// none marks a tail that no first row up to the bound makes a P-position.
const none = ^uint16(0)

// Table holds, for every tail (rows 2…k, non-increasing, at most N), the
// one first row ≤ N that makes a P-position with it, if any.
type Table struct {
	K, N  int      // rows, bound on the first row
	first []uint16 // by tail rank (mixed radix N+1); none when no P-position
	count int64
}

// Count is the number of P-positions with first row ≤ N.
func (t *Table) Count() int64 { return t.count }

func (t *Table) rank(tail []int) int {
	r := 0
	for _, x := range tail {
		r = r*(t.N+1) + x
	}
	return r
}

// First returns the first row that makes tail a P-position, and whether
// there is one up to N.
func (t *Table) First(tail []int) (int, bool) {
	if len(tail) != t.K-1 {
		return 0, false
	}
	for i, x := range tail {
		if x < 0 || x > t.N || i > 0 && x > tail[i-1] {
			return 0, false
		}
	}
	a := t.first[t.rank(tail)]
	return int(a), a != none
}

// IsP reports whether p (K rows, first row ≤ N) is a P-position.
func (t *Table) IsP(p Position) bool {
	if len(p) != t.K || Check(p) != nil || p[0] > t.N {
		return false
	}
	a, ok := t.First(p[1:])
	return ok && a == p[0]
}

// List returns the P-positions, sorted (first row, then the tail).
func (t *Table) List() []Position {
	var out []Position
	t.tails(func(tail []int, r int) {
		if a := t.first[r]; a != none {
			out = append(out, append(Position{int(a)}, tail...))
		}
	})
	slices.SortFunc(out, func(a, b Position) int { return slices.Compare(a, b) })
	return out
}

// tails calls f with every tail in increasing order (lexicographic, which
// is the order of ranks), with its rank.
func (t *Table) tails(f func(tail []int, r int)) {
	tail := make([]int, t.K-1)
	var rec func(i, r int)
	rec = func(i, r int) {
		if i == len(tail) {
			f(tail, r)
			return
		}
		hi := t.N
		if i > 0 {
			hi = tail[i-1]
		}
		for x := 0; x <= hi; x++ {
			tail[i] = x
			rec(i+1, r*(t.N+1)+x)
		}
	}
	rec(0, 0)
}

// PPositions computes the P-positions of k-row Chomp with first row at
// most n, refusing before it allocates when the table needs more than
// limit bytes (0: no limit).
func PPositions(ctx context.Context, k, n int, limit int64) (*Table, error) {
	if k < 1 || k > MaxRows || n < 1 {
		return nil, fmt.Errorf("chomp: %d rows up to %d: 1 to %d rows and a first row of at least 1", k, n, MaxRows)
	}
	if n >= int(none) {
		return nil, fmt.Errorf("chomp: first row up to %d: at most %d", n, none-1)
	}
	size := int64(1)
	for i := 1; i < k; i++ {
		size *= int64(n + 1)
		if size > 1<<34 {
			return nil, fmt.Errorf("chomp: %d rows up to %d: more than 2^34 tails", k, n)
		}
	}
	if err := budget.Exceeds(fmt.Sprintf("the P-positions of %d-row Chomp up to %d", k, n), 2*size, limit); err != nil {
		return nil, fmt.Errorf("chomp: %w", err)
	}
	t := &Table{K: k, N: n, first: make([]uint16, size)}
	for i := range t.first {
		t.first[i] = none
	}
	killed := make([]uint64, (n+64)/64)
	q := make([]int, k-1)
	var err error
	steps := 0
	prog := budget.From(ctx)
	t.tails(func(tail []int, r int) {
		if err != nil {
			return
		}
		for i := range killed {
			killed[i] = 0
		}
		lost := false // a cut of the first row below tail[0] reaches a P-position
		for i := range tail {
			for j := 0; j < tail[i]; j++ {
				copy(q, tail)
				for b := i; b < len(q); b++ {
					q[b] = min(q[b], j)
				}
				a := t.first[t.rank(q)]
				if a == none {
					continue
				}
				killed[a>>6] |= 1 << (a & 63)
				// cutting the first row at j < tail[0] gives (j, q) with
				// q = tail cut at j from row 2: the same q as the cut of
				// row 2 at j
				if i == 0 && j >= 1 && int(a) == j {
					lost = true
				}
			}
		}
		if k == 1 {
			lost = false
		}
		if !lost {
			lo := 1
			if len(tail) > 0 {
				lo = max(1, tail[0])
			}
			if a := leastFree(killed, lo, n); a >= 0 {
				t.first[r] = uint16(a)
				t.count++
			}
		}
		if steps++; steps%65536 == 0 {
			prog.Add(65536)
			if ctx != nil && ctx.Err() != nil {
				err = fmt.Errorf("chomp: %w", budget.Err(ctx))
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// leastFree is the least a in [lo, n] not in set, -1 when none.
func leastFree(set []uint64, lo, n int) int {
	for a := lo; a <= n; {
		w := ^set[a>>6] >> uint(a&63)
		if w != 0 {
			a += bits.TrailingZeros64(w)
			if a <= n {
				return a
			}
			return -1
		}
		a = (a | 63) + 1
	}
	return -1
}
