package strip

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
)

// MaxCols is the widest strip: a row is one 32-bit word, and the three
// rows of a component make the memo's 96-bit key.
const MaxCols = 32

// Pos is a position: bit c of Pos[r] is cell (r, c).
type Pos [3]uint32

// Full returns the 3 × n strip, all cells present.
func Full(n int) Pos {
	row := uint32(1<<uint(n) - 1)
	if n >= 32 {
		row = ^uint32(0)
	}
	return Pos{row, row, row}
}

// Options tune a Solver.
type Options struct {
	// Workers is the number of goroutines that share the moves of a
	// component Value has to solve; 0 means one.
	Workers int
	// MaxBytes bounds the memo's tables; 0 means no bound. A growth that
	// would pass it stops the solver with ErrFull.
	MaxBytes int64
}

// ErrFull is the error of a solver whose memo reached Options.MaxBytes.
var ErrFull = errors.New("strip: memo full")

// Stats are a solver's counters.
type Stats struct {
	Solved  int64 // components solved (both tables)
	Entries int64 // entries of the memo (components wider than smallCols)
	Small   int64 // values in the table of narrow components
	Bytes   int64 // bytes of the memo's tables and of the narrow table
}

// Solver computes Node Kayles values of 3-row positions. It is safe for
// concurrent use, and its memo grows across calls.
type Solver struct {
	opts   Options
	memo   memo
	small  []uint32 // value+1 of narrow components, by their cells; 0 unknown
	nsmall atomic.Int64
	solved atomic.Int64
}

// smallCols is the widest component of the narrow table: 3 × 6 cells, an
// index of 18 bits.
const smallCols = 6

// New returns a solver.
func New(opts Options) (*Solver, error) {
	if opts.Workers < 0 || opts.MaxBytes < 0 {
		return nil, fmt.Errorf("strip: negative option (workers %d, bytes %d)", opts.Workers, opts.MaxBytes)
	}
	if opts.Workers == 0 {
		opts.Workers = 1
	}
	s := &Solver{opts: opts, small: make([]uint32, 1<<(3*smallCols))}
	s.memo.max = opts.MaxBytes
	s.memo.bytes.Store(int64(4 * len(s.small)))
	return s, nil
}

// Stats returns the solver's counters now.
func (s *Solver) Stats() Stats {
	return Stats{Solved: s.solved.Load(), Entries: s.memo.n.Load(), Small: s.nsmall.Load(), Bytes: s.memo.bytes.Load()}
}

// Value returns the Grundy value of p.
func (s *Solver) Value(ctx context.Context, p Pos) (uint64, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("strip: %w", err)
	}
	var total uint8
	var err error
	wk := s.newWorker(ctx)
	defer wk.flush()
	eachComponent(p, func(k Pos) bool {
		var v uint8
		if v, err = wk.top(k); err != nil {
			return false
		}
		total ^= v
		return true
	})
	return uint64(total), err
}

// top is the value of a component, its moves shared by the workers when
// it is not known.
func (wk *worker) top(k Pos) (uint8, error) {
	k, w := crop(k)
	if w <= smallCols || wk.s.opts.Workers == 1 {
		return wk.component(k, w)
	}
	key := canon(k, w)
	h := hash(key)
	if v, ok := wk.s.memo.get(key, h); ok {
		return v, nil
	}
	s := wk.s
	cells := moves(k, w)
	vals := make([]uint8, len(cells))
	var next atomic.Int64
	errs := make([]error, s.opts.Workers)
	var wg sync.WaitGroup
	for i := 0; i < s.opts.Workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			w := s.newWorker(wk.ctx)
			defer w.flush()
			for {
				j := int(next.Add(1)) - 1
				if j >= len(cells) {
					return
				}
				v, err := w.sum(move(k, cells[j]))
				if err != nil {
					errs[i] = err
					next.Store(int64(len(cells)))
					return
				}
				vals[j] = v
			}
		}(i)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	var seen [2]uint64
	for _, v := range vals {
		seen[v>>6] |= 1 << (v & 63)
	}
	v := mex(seen)
	if err := s.memo.put(key, h, v); err != nil {
		return 0, err
	}
	s.solved.Add(1)
	return v, nil
}

// worker is one goroutine's counters.
type worker struct {
	s      *Solver
	ctx    context.Context
	solved int64
	bufs   []*optBuf // by depth
	sink   uint64    // the memo's words read ahead, kept so the reads stay
}

func (s *Solver) newWorker(ctx context.Context) *worker { return &worker{s: s, ctx: ctx} }

func (wk *worker) flush() {
	wk.s.solved.Add(wk.solved)
	wk.solved = 0
}

// sum is the nim-sum of the values of the components of p.
func (wk *worker) sum(p Pos) (uint8, error) {
	var total uint8
	for r := 0; r < 3; r++ {
		for p[r] != 0 {
			k := fill(&p, r, p[r]&-p[r])
			p[0] &^= k[0]
			p[1] &^= k[1]
			p[2] &^= k[2]
			kc, w := crop(k)
			v, err := wk.component(kc, w)
			if err != nil {
				return 0, err
			}
			total ^= v
		}
	}
	return total, nil
}

// component is the value of a connected component cropped to its w
// columns, from a table or solved.
func (wk *worker) component(k Pos, w int) (uint8, error) {
	if w <= smallCols {
		return wk.narrow(k, w, 0)
	}
	key := canon(k, w)
	h := hash(key)
	if v, ok := wk.s.memo.get(key, h); ok {
		return v, nil
	}
	v, err := wk.solve(k, w, 1)
	if err != nil {
		return 0, err
	}
	return v, wk.s.memo.put(key, h, v)
}

// solve computes the value of a component: the mex of its options'
// values. A component symmetric under a mirror has isomorphic options on
// both sides of it, so only one side is listed. The options are listed
// first, each as the nim-sum of its narrow parts and the keys of its wide
// ones; then the memo slots of all the keys are read once, so that their
// cache misses overlap (they are independent loads), before the lookups
// proper: the memo is far larger than the cache, and a miss costs more
// than the rest of a lookup.
func (wk *worker) solve(k Pos, w, depth int) (uint8, error) {
	for len(wk.bufs) <= depth {
		wk.bufs = append(wk.bufs, &optBuf{})
	}
	b := wk.bufs[depth]
	b.keys, b.hashes, b.ends, b.xors = b.keys[:0], b.hashes[:0], b.ends[:0], b.xors[:0]
	lastCol := w - 1
	if rev(k[0], w) == k[0] && rev(k[1], w) == k[1] && rev(k[2], w) == k[2] {
		lastCol = (w - 1) / 2
	}
	rows := 3
	if k[0] == k[2] {
		rows = 2
	}
	colMask := uint32(1)<<uint(lastCol+1) - 1
	for r := 0; r < rows; r++ {
		for x := k[r] & colMask; x != 0; x &= x - 1 {
			p := move(k, cell{r, x & -x})
			var xor uint8
			for rr := 0; rr < 3; rr++ {
				for p[rr] != 0 {
					piece := fill(&p, rr, p[rr]&-p[rr])
					p[0] &^= piece[0]
					p[1] &^= piece[1]
					p[2] &^= piece[2]
					pc, pw := crop(piece)
					if pw <= smallCols {
						v, err := wk.narrow(pc, pw, depth)
						if err != nil {
							return 0, err
						}
						xor ^= v
						continue
					}
					key := canon(pc, pw)
					b.keys = append(b.keys, key)
					b.hashes = append(b.hashes, hash(key))
				}
			}
			b.ends = append(b.ends, int32(len(b.keys)))
			b.xors = append(b.xors, xor)
		}
	}
	wk.sink += wk.s.memo.touch(b.hashes)
	var seen [2]uint64
	start := 0
	for i, end := range b.ends {
		v := b.xors[i]
		for j := start; j < int(end); j++ {
			key, h := b.keys[j], b.hashes[j]
			u, ok := wk.s.memo.get(key, h)
			if !ok {
				var err error
				c := Pos{uint32(key[0]), uint32(key[0] >> 32), uint32(key[1])}
				if u, err = wk.solve(c, 32-bits.LeadingZeros32(c[0]|c[1]|c[2]), depth+1); err != nil {
					return 0, err
				}
				if err := wk.s.memo.put(key, h, u); err != nil {
					return 0, err
				}
				b = wk.bufs[depth]
			}
			v ^= u
		}
		start = int(end)
		seen[v>>6] |= 1 << (v & 63)
	}
	v := mex(seen)
	wk.solved++
	if wk.solved >= 1024 {
		wk.flush()
		if err := wk.ctx.Err(); err != nil {
			return 0, fmt.Errorf("strip: %w", err)
		}
	}
	return v, nil
}

// optBuf is the options of a component being solved: the keys of their
// wide parts (option i's are keys[ends[i−1]:ends[i]]) and the nim-sum of
// their narrow parts.
type optBuf struct {
	keys   []key
	hashes []uint64
	ends   []int32
	xors   []uint8
}

// narrow is the value of a component at most smallCols wide (cropped),
// from the table of narrow components or solved.
func (wk *worker) narrow(k Pos, w, depth int) (uint8, error) {
	i := k[0] | k[1]<<smallCols | k[2]<<(2*smallCols)
	if v := atomic.LoadUint32(&wk.s.small[i]); v != 0 {
		return uint8(v - 1), nil
	}
	v, err := wk.solve(k, w, depth+1)
	if err != nil {
		return 0, err
	}
	if atomic.SwapUint32(&wk.s.small[i], uint32(v)+1) == 0 {
		wk.s.nsmall.Add(1)
	}
	return v, nil
}

// cell is a move: a row and the bit of a column.
type cell struct {
	r   int
	bit uint32
}

// moves lists the cells of k (w columns wide).
func moves(k Pos, w int) []cell {
	var cs []cell
	for r := 0; r < 3; r++ {
		for x := k[r]; x != 0; x &= x - 1 {
			cs = append(cs, cell{r, x & -x})
		}
	}
	return cs
}

// move takes a cell with its neighbours.
func move(k Pos, c cell) Pos {
	b := c.bit
	k[c.r] &^= b | b<<1 | b>>1
	if c.r > 0 {
		k[c.r-1] &^= b
	}
	if c.r < 2 {
		k[c.r+1] &^= b
	}
	return k
}

// mex is the least value not in the set seen (values below 128: a
// component has at most 96 options).
func mex(seen [2]uint64) uint8 {
	if seen[0] != ^uint64(0) {
		return uint8(bits.TrailingZeros64(^seen[0]))
	}
	return uint8(64 + bits.TrailingZeros64(^seen[1]))
}

// eachComponent calls f with each connected component of p until f
// returns false.
func eachComponent(p Pos, f func(Pos) bool) {
	for r := 0; r < 3; r++ {
		for p[r] != 0 {
			k := fill(&p, r, p[r]&-p[r])
			p[0] &^= k[0]
			p[1] &^= k[1]
			p[2] &^= k[2]
			if !f(k) {
				return
			}
		}
	}
}

// runs returns the cells of the runs (maximal segments) of row s that
// hold a cell of x ⊆ s: upward by a carry from each run's lowest seed past
// its top, downward by doubling steps.
func runs(x, s uint32) uint32 {
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
	return up | g
}

// fill returns the component of *p holding the cell seed of row r: the
// outer rows grown from the middle one by runs, then the middle row from
// them, until the middle row gains nothing (the outer rows touch each
// other only through it).
func fill(p *Pos, r int, seed uint32) Pos {
	var t, m, b uint32
	switch r {
	case 0:
		t = runs(seed, p[0])
	case 1:
		m = runs(seed, p[1])
	default:
		b = runs(seed, p[2])
	}
	for {
		if y := m & p[0] &^ t; y != 0 {
			t = runs(t|y, p[0])
		}
		if y := m & p[2] &^ b; y != 0 {
			b = runs(b|y, p[2])
		}
		x := (t | b) & p[1] &^ m
		if x == 0 {
			return Pos{t, m, b}
		}
		m = runs(m|x, p[1])
	}
}

// crop moves a component to column 0 and returns its width.
func crop(k Pos) (Pos, int) {
	or := k[0] | k[1] | k[2]
	c0 := uint(bits.TrailingZeros32(or))
	k[0] >>= c0
	k[1] >>= c0
	k[2] >>= c0
	return k, 32 - bits.LeadingZeros32(or>>c0)
}

// rev reverses the w columns of a row.
func rev(x uint32, w int) uint32 { return bits.Reverse32(x) >> uint(32-w) }

// key is a component's canonical form: rows 0 and 1 in the first word,
// row 2 in the second.
type key [2]uint64

func mkKey(t, m, b uint32) key { return key{uint64(t) | uint64(m)<<32, uint64(b)} }

func less(a, b key) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }

// canon returns the least of the images of a cropped component (w
// columns) under the mirrors, each moved up to row 0 first.
func canon(k Pos, w int) key {
	t, m, b := k[0], k[1], k[2]
	if t == 0 {
		t, m, b = m, b, 0
		if t == 0 {
			t, m = m, 0
		}
	}
	// The flip of a shape of two rows is its rows swapped, of one row
	// itself; the reversed rows are flipped the same way.
	rt, rm, rb := rev(t, w), rev(m, w), rev(b, w)
	ft, fm, fb, rft, rfm, rfb := b, m, t, rb, rm, rt
	switch {
	case b == 0 && m == 0:
		ft, fm, fb, rft, rfm, rfb = t, 0, 0, rt, 0, 0
	case b == 0:
		ft, fm, fb, rft, rfm, rfb = m, t, 0, rm, rt, 0
	}
	best := mkKey(t, m, b)
	for _, c := range [3]key{mkKey(ft, fm, fb), mkKey(rt, rm, rb), mkKey(rft, rfm, rfb)} {
		if less(c, best) {
			best = c
		}
	}
	return best
}

// Canonical returns the canonical form of a connected component (its rows
// cropped, moved up and turned to the least image) and its width: two
// components have the same form exactly when a translation and a mirror
// take one to the other.
func Canonical(k Pos) (Pos, int) {
	k, w := crop(k)
	if w == 0 {
		return k, 0
	}
	c := canon(k, w)
	return Pos{uint32(c[0]), uint32(c[0] >> 32), uint32(c[1])}, w
}
