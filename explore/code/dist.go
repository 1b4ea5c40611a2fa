package code

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"runtime"
	"sync"

	"github.com/nimbook/nimbook/explore/budget"
)

// Distribution counts rows by number of heads and Grundy value.
type Distribution struct {
	// Method is Enumeration or LinearAlgebra.
	Method Method
	// N is the number of coins.
	N int
	// Weights[w] is the number of P-positions with w heads (len N+1).
	Weights []uint64
	// Count is the number of P-positions, 2^k.
	Count *big.Int
	// MinDistance is the least positive weight of a P-position (the minimum
	// distance of the code), 0 when the only P-position is the empty row.
	MinDistance int
	// Values lists the Grundy values the rows take, ascending (Values[0] is
	// 0); nil when the (weight, value) table was beyond MaxCells.
	Values []uint64
	// ByWeight[w][j] is the number of rows with w heads and Grundy value
	// Values[j]; nil with Values.
	ByWeight [][]uint64
}

// Distribution runs Enumerate when 2^n is within lim.MaxRows and the
// (weight, value) table within lim.MaxCells, else LinearAlgebra.
func (c *Code) Distribution(ctx context.Context, lim Limits) (*Distribution, error) {
	l := lim.withDefaults()
	if c.n < 64 && uint64(1)<<c.n <= l.MaxRows {
		if cells, ok := c.tableCells(); ok && cells <= l.MaxCells {
			return c.Enumerate(ctx, lim)
		}
	}
	return c.LinearAlgebra(ctx, lim)
}

// tableCells returns (n+1)·2^rank, the size of a (weight, value) table.
func (c *Code) tableCells() (uint64, bool) {
	r := c.Rank()
	if r >= 57 { // (n+1) ≤ 65 < 2^7
		return 0, false
	}
	return uint64(c.n+1) << r, true
}

// Enumerate visits all 2^n rows in Gray-code order, one XOR per step,
// split into contiguous Gray ranges over runtime.GOMAXPROCS goroutines, and
// tallies them by (weight, value). It refuses when 2^n exceeds lim.MaxRows
// or the tables exceed lim.MaxCells.
func (c *Code) Enumerate(ctx context.Context, lim Limits) (*Distribution, error) {
	l := lim.withDefaults()
	if c.n >= 64 || uint64(1)<<c.n > l.MaxRows {
		return nil, fmt.Errorf("code: enumerating 2^%d rows is more than the limit of %d rows: %w (raise it with --max-positions or limits.positions in the job file)", c.n, l.MaxRows, ErrLimit)
	}
	cells, ok := c.tableCells()
	if !ok || cells > l.MaxCells {
		return nil, fmt.Errorf("code: a (weight, value) table of %d×2^%d counters is more than the limit of %d counters: %w (raise it with --max-memory or limits.memory)", c.n+1, c.Rank(), l.MaxCells, ErrLimit)
	}
	total := uint64(1) << c.n
	workers := runtime.GOMAXPROCS(0)
	if cells*uint64(workers) > l.MaxCells {
		workers = int(l.MaxCells / cells) // ≥ 1 since cells ≤ MaxCells
	}
	parts := split(total, workers)
	tables := make([][]uint64, len(parts))
	budget.From(ctx).Start(fmt.Sprintf("rows of %d coins", c.n), int64(total))
	err := parallel(ctx, len(parts), func(ctx context.Context, p int) error {
		t := make([]uint64, cells)
		tables[p] = t
		return c.walkRows(ctx, parts[p][0], parts[p][1], t)
	})
	if err != nil {
		return nil, err
	}
	// Merge in worker order: sums, so the result does not depend on timing.
	sum := tables[0]
	for _, t := range tables[1:] {
		for i, x := range t {
			sum[i] += x
		}
	}
	d := &Distribution{Method: Enumeration}
	c.fillTable(d, sum)
	return d, nil
}

// walkRows tallies the rows with Gray indices lo ≤ i < hi into
// t[w·2^rank + coordinate of the value].
func (c *Code) walkRows(ctx context.Context, lo, hi uint64, t []uint64) error {
	shift := uint(c.Rank())
	coord := c.coord
	row := lo ^ lo>>1
	var x uint64
	for r := row; r != 0; r &= r - 1 {
		x ^= coord[bits.TrailingZeros64(r)]
	}
	w := uint64(bits.OnesCount64(row))
	prog := budget.From(ctx)
	for i := lo; ; {
		t[w<<shift|x]++
		i++
		if i == hi {
			return nil
		}
		if i&0xffff == 0 {
			if err := budget.Err(ctx); err != nil {
				return fmt.Errorf("code: enumeration: %w", err)
			}
			prog.Add(0x10000)
		}
		// Gray codes of i−1 and i differ in the lowest set bit of i.
		b := bits.TrailingZeros64(i)
		row ^= 1 << b
		x ^= coord[b]
		w += 2*(row>>b&1) - 1 // +1 if the coin turned to heads, else −1 (wraps)
	}
}

// fillTable fills d from a (weight, coordinate) table.
func (c *Code) fillTable(d *Distribution, t []uint64) {
	size := uint64(1) << c.Rank()
	d.N = c.n
	d.Count = c.Count()
	d.Values = make([]uint64, size)
	for x := range size {
		d.Values[x] = c.valueOf(x) // ascending, see coordOf
	}
	d.ByWeight = make([][]uint64, c.n+1)
	d.Weights = make([]uint64, c.n+1)
	for w := range d.ByWeight {
		d.ByWeight[w] = t[uint64(w)*size : uint64(w+1)*size : uint64(w+1)*size]
		d.Weights[w] = d.ByWeight[w][0]
	}
	d.setMinDistance()
}

func (d *Distribution) setMinDistance() {
	d.MinDistance = 0
	for w := 1; w < len(d.Weights); w++ {
		if d.Weights[w] != 0 {
			d.MinDistance = w
			return
		}
	}
}

// LinearAlgebra computes the distribution from the structure of the code:
// the weights by walking the 2^k codewords spanned by the basis in Gray
// order (when 2^k ≤ lim.MaxRows), and the (weight, value) table by a
// dynamic programme over the coins on the group of values, O(n²·2^rank)
// (when (n+1)·2^rank ≤ lim.MaxCells). When only the programme fits, the
// weights are read from it; when neither fits, it refuses.
func (c *Code) LinearAlgebra(ctx context.Context, lim Limits) (*Distribution, error) {
	l := lim.withDefaults()
	k := c.Dim()
	wordsOK := k < 64 && uint64(1)<<k <= l.MaxRows
	cells, ok := c.tableCells()
	tableOK := ok && cells <= l.MaxCells
	// The programme does n·cells steps; count them against MaxRows too.
	if tableOK && (cells > l.MaxRows/uint64(c.n)) {
		tableOK = false
	}
	if !wordsOK && !tableOK {
		return nil, fmt.Errorf("code: the 2^%d codewords are more than the limit of %d rows, and a %d×2^%d table more than the limit of %d counters: %w (raise the limit with --max-positions/--max-memory or limits: {positions: N, memory: SIZE} in the job file)",
			k, l.MaxRows, c.n+1, c.Rank(), l.MaxCells, ErrLimit)
	}
	d := &Distribution{Method: LinearAlgebra, N: c.n, Count: c.Count()}
	if tableOK {
		t, err := c.valueTable(ctx, cells)
		if err != nil {
			return nil, err
		}
		c.fillTable(d, t)
	}
	if wordsOK {
		ws, err := c.codewordWeights(ctx)
		if err != nil {
			return nil, err
		}
		if d.Weights != nil {
			for w := range ws {
				if ws[w] != d.Weights[w] {
					// Two independent computations disagree: a bug.
					return nil, fmt.Errorf("code: internal error: weight %d: %d codewords but the value table says %d", w, ws[w], d.Weights[w])
				}
			}
		}
		d.Weights = ws
		d.setMinDistance()
	}
	return d, nil
}

// valueTable runs the programme count[w][x] = rows of the coins seen so far
// with w heads and value coordinates x.
func (c *Code) valueTable(ctx context.Context, cells uint64) ([]uint64, error) {
	size := uint64(1) << c.Rank()
	t := make([]uint64, cells)
	t[0] = 1
	for i, ci := range c.coord {
		if err := budget.Err(ctx); err != nil {
			return nil, fmt.Errorf("code: value table: %w", err)
		}
		// Adding coin i: a row of weight w+1 with value x either omits the
		// coin (old[w+1][x]) or holds it (old[w][x^ci]). Going down in w
		// reads row w before it is updated.
		for w := i; w >= 0; w-- {
			src := t[uint64(w)*size : uint64(w+1)*size]
			dst := t[uint64(w+1)*size : uint64(w+2)*size]
			for x, v := range src {
				dst[uint64(x)^ci] += v
			}
		}
	}
	return t, nil
}

// codewordWeights walks the 2^k codewords in Gray order over the basis.
func (c *Code) codewordWeights(ctx context.Context) ([]uint64, error) {
	k := c.Dim()
	parts := split(uint64(1)<<k, runtime.GOMAXPROCS(0))
	tables := make([][]uint64, len(parts))
	err := parallel(ctx, len(parts), func(ctx context.Context, p int) error {
		t := make([]uint64, c.n+1)
		tables[p] = t
		return walkWords(ctx, c.basis, parts[p][0], parts[p][1], func(word uint64) { t[bits.OnesCount64(word)]++ })
	})
	if err != nil {
		return nil, err
	}
	for _, t := range tables[1:] {
		for i, x := range t {
			tables[0][i] += x
		}
	}
	return tables[0], nil
}

// walkWords calls f on the codewords with Gray indices lo ≤ i < hi over
// the basis gens.
func walkWords(ctx context.Context, gens []uint64, lo, hi uint64, f func(uint64)) error {
	g := lo ^ lo>>1
	var word uint64
	for ; g != 0; g &= g - 1 {
		word ^= gens[bits.TrailingZeros64(g)]
	}
	for i := lo; ; {
		f(word)
		i++
		if i == hi {
			return nil
		}
		if i&0xffff == 0 {
			if err := budget.Err(ctx); err != nil {
				return fmt.Errorf("code: codewords: %w", err)
			}
		}
		word ^= gens[bits.TrailingZeros64(i)]
	}
}

// split cuts 0..total−1 into at most workers contiguous non-empty ranges,
// none smaller than 2^12 unless there is only one.
func split(total uint64, workers int) [][2]uint64 {
	if workers < 1 {
		workers = 1
	}
	if m := total >> 12; uint64(workers) > m {
		workers = int(max(m, 1))
	}
	parts := make([][2]uint64, workers)
	step := total / uint64(workers)
	for p := range parts {
		parts[p] = [2]uint64{uint64(p) * step, uint64(p+1) * step}
	}
	parts[workers-1][1] = total
	return parts
}

// parallel runs f(ctx, 0..n−1) in goroutines, cancelling the others when
// one fails, and returns the first error by index. The workers here fail
// only through the context, so every error is the same cancellation.
func parallel(ctx context.Context, n int, f func(context.Context, int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for p := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[p] = f(ctx, p); errs[p] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
