package misere

import (
	"context"
	"fmt"
	"math"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
)

// NewQuotient computes the misère quotient of g over the heaps 1..heaps,
// heap by heap. It stops early, with Period set, when the pretending
// function is proven periodic (octal and hexadecimal codes); Heaps is then
// still heaps and Pretending is filled through the period. progress, when
// not nil, is called after each heap. Work is refused before it starts when
// EstimateQuotient exceeds lim, and stopped when ctx (or lim.Context) is
// done or the steps exceed lim.MaxSteps.
func NewQuotient(ctx context.Context, g heap.Game, heaps int, lim heap.Limits, progress func(done, total int)) (*Quotient, error) {
	if ctx == nil {
		ctx = lim.Context
	}
	if heaps < 0 {
		return nil, fmt.Errorf("misere: %v: negative heap %d", g, heaps)
	}
	maxSteps := lim.MaxSteps
	if maxSteps <= 0 {
		maxSteps = heap.DefaultMaxSteps
	}
	// A rule's code (its options) runs within the limits and ctx.
	ctx, g, release := Bind(ctx, g, lim)
	defer release()
	lim.Context = ctx
	steps, bytes := EstimateQuotient(g, heaps)
	if steps > maxSteps {
		return nil, fmt.Errorf("misere: %v: the quotient of heaps up to %d needs about %d steps, more than the limit of %d: %w (lower upto, or raise the limit)",
			g, heaps, steps, maxSteps, heap.ErrTooManySteps)
	}
	if err := budget.Exceeds(fmt.Sprintf("the misère quotient of %v up to %d", g, heaps), bytes, lim.MaxMemory); err != nil {
		return nil, fmt.Errorf("misere: %w (raise it with --max-memory or limits.memory)", err)
	}
	if ctx != nil {
		if err := budget.Err(ctx); err != nil {
			return nil, fmt.Errorf("misere: %w", err)
		}
	}
	l := newLearner(ctx, g, heaps, maxSteps)
	l.maxMemory = lim.MaxMemory
	m := &monoid{mul: [][]int32{{0}}, inP: []bool{false}, phi: []int32{0}}
	shape, periodic := codeShape(g)
	var period *Period
	provenAt := heaps
	for n := 1; n <= heaps; n++ {
		var err error
		var prev *monoid
		if n > 1 {
			prev = m
		}
		m, err = l.learnHeap(n, prev)
		if err != nil {
			return nil, err
		}
		l.prevMul, l.prevPhi, l.prevP = m.mul, m.phi, m.inP
		if progress != nil {
			progress(n, heaps)
		}
		if periodic {
			if p := provePeriod(m.phi, shape); p != nil {
				period, provenAt = p, n
				break
			}
		}
	}
	if err := budget.Err(ctx); err != nil {
		return nil, fmt.Errorf("misere: %w", err) // a rule failed since the last look
	}
	q := present(g.String(), m)
	q.Heaps = heaps
	q.ProvenAt = provenAt
	q.Period = period
	q.Pretending = make([]int, heaps+1)
	for n := 0; n <= heaps; n++ {
		if n < len(q.phi) {
			q.Pretending[n] = int(q.phi[n])
		} else {
			q.Pretending[n] = int(q.phi[period.Preperiod+(n-period.Preperiod)%period.Period])
		}
	}
	q.parity(g)
	return q, nil
}

// EstimateQuotient is an estimate, not a bound, of the steps and bytes
// NewQuotient needs for the heaps 1..heaps of g: the work grows with the
// options of the heaps and with the order of the quotient, which is not
// known before it is computed (Dawson's Kayles up to 30, order 360, needs
// far more than Kayles up to 30, order 2 and 8). The model charges every
// option of every heap against every heap.
func EstimateQuotient(g heap.Game, heaps int) (steps int64, bytes int64) {
	var opts int64
	for n := 1; n <= heaps; n++ {
		c, ok := heap.OptionCount(g, n)
		if !ok {
			c = int64(n)
		}
		opts += c
	}
	// In floating point, saturated: 1000·opts·heaps passes 2^63 from
	// heaps of a few million, and a product that wrapped round let any
	// work through.
	sat := func(x float64) int64 {
		if x >= math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(x)
	}
	h := float64(heaps + 1)
	steps = sat(1000 * float64(opts) * h)
	bytes = sat(4096*h*h + 64*float64(opts))
	return steps, bytes
}

// codeShape returns t, the last non-zero digit, and r, the most parts a
// move leaves, of an octal or hexadecimal code; ok is false for other
// games, whose pretending functions are never proven periodic.
func codeShape(g heap.Game) (shape [2]int, ok bool) {
	var d heap.Splitter
	switch c := g.(type) {
	case *heap.Octal:
		d = c
	case *heap.Hex:
		d = c
	default:
		return shape, false
	}
	t, r := 0, 1
	for k := 0; k < 256; k++ {
		v := d.Digit(k)
		if v == 0 {
			continue
		}
		t = k
		if v&4 != 0 && r < 2 {
			r = 2
		}
		if v&8 != 0 {
			r = 3
		}
	}
	return [2]int{t, r}, true
}

// provePeriod returns the least period p, with the least preperiod n0 for
// it, of the pretending function phi of the heaps 0..N when the values
// prove it for every heap (doc.go, "Periods"), else nil.
func provePeriod(phi []int32, shape [2]int) *Period {
	t, r := shape[0], shape[1]
	N := len(phi) - 1
	for p := 1; p <= N; p++ {
		// The least n0: phi(m) = phi(m-p) for n0+p <= m <= N.
		m := N
		for m-p >= 0 && phi[m] == phi[m-p] {
			m--
		}
		n0 := max(m+1-p, 1)
		if N+1 >= r*(n0+p)+t && N+1-p > t {
			return &Period{Preperiod: n0, Period: p, Proven: true}
		}
	}
	return nil
}
