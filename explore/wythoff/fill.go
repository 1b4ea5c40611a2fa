package wythoff

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/nimbook/nimbook/explore/budget"
)

// ctxEvery is how many cells run between two context checks: a few
// microseconds of work, so a cancellation is seen at once.
const ctxEvery = 1 << 12

// A table is filled by tiles of tileHeight lines of tileWidth cells, or
// fewer lines when their seen sets would take more than rowSetBytes or
// the workers would have few tile rows each (newLayout). A
// tile's cells touch a few words of each set of its lines, which stay in
// the core's cache while it is filled; a tall tile reads a column's words
// from memory once for many lines, where a 64 × 64 tile left 10% of an
// 8192² fill's time to reading them. Tests set the sides smaller, to run
// many tiles and workers on small tables.
var (
	tileHeight  = 512
	tileWidth   = 64
	rowSetBytes = 2 << 20
)

// A table is filled along its longer side: h lines of w ≤ h cells (the
// transpose when cols > rows, g being symmetric), so that the seen sets
// number O(w) and a 1 × 2^24 table needs no 2^24 of them.
//
// Every line (row, column, diagonal) has a seen set: a bitset of the
// values in it so far (words words, enough for every value of the table:
// the values of a line are distinct, but a line need not start at 0), a
// summary (sum words: bit k is set when word k is full), and the index of
// the summary's first word not full, in one block of words + sum + 1
// words. A cell's mex is the first zero bit of the OR of its three sets.
// The OR is full on the words where one set is: the OR of the summaries
// gives the candidate words, 64 at a time. Past the sets' full prefixes an
// 8192² fill would scan 26 words a cell, of which one on average has no
// set full.
//
// The cells are filled tile by tile, a tile's cells row by row. Cell (a, b)
// needs the cells left of it, above it and up-left on its diagonal: all in
// tiles (I', J') with I' ≤ I and J' ≤ J. Worker p fills the tile rows
// I ≡ p (mod workers), tile (I, J) once tile (I−1, J) is done; two tiles
// filled at once are then in different tile rows and tile columns, and on
// different diagonals, so they share no set.
type layout struct {
	h, w    int
	th, tw  int // tile height (lines) and width (cells)
	workers int
	words   int // words of a seen set
	sum     int // words of a set's summary
	block   int // words + sum + 1
	ring    int // diagonal sets, reused in turn
	bits    int // width of a stored value
}

// maxValue bounds the values of a rows × cols table: g(a, b) is at most
// the number of options of (a, b), a + b + min(a, b), largest at the last
// cell.
func maxValue(rows, cols int) uint64 {
	h, w := uint64(max(rows, cols)-1), uint64(min(rows, cols)-1)
	return h + 2*w
}

func newLayout(rows, cols, workers int) layout {
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	l := layout{h: max(rows, cols), w: min(rows, cols)}
	v := maxValue(rows, cols)
	// One empty word past the values ends every scan for a full word.
	l.words = int(v/64) + 2
	l.sum = (l.words + 63) / 64
	l.block = l.words + l.sum + 1
	l.tw = min(tileWidth, l.w)
	// Each worker holds the sets of th rows and of as many diagonals: many
	// workers take lower tiles, so that the sets stay few and every worker
	// has tile rows to fill.
	l.th = min(l.h, max(l.tw, min(tileHeight, rowSetBytes/(8*l.block), l.h/(4*workers))))
	tileRows, tileCols := (l.h+l.th-1)/l.th, (l.w+l.tw-1)/l.tw
	// A worker waits for the tile row above it: with one tile a row, no two
	// tiles can be filled at once.
	l.workers = max(1, min(workers, tileRows, tileCols))
	// Diagonal a − b of a cell (a, b) in a tile row being filled lies in a
	// range of w − 1 + workers·th; a set is reused once no tile row being
	// filled can reach its diagonal.
	l.ring = l.w + l.workers*l.th
	switch {
	case v <= math.MaxUint8:
		l.bits = 8
	case v <= math.MaxUint16:
		l.bits = 16
	case v <= math.MaxUint32:
		l.bits = 32
	default:
		l.bits = 64
	}
	return l
}

// sets returns the number of seen sets: columns, diagonals, and the rows
// of one tile row per worker.
func (l layout) sets() int64 { return int64(l.w + l.ring + l.workers*l.th) }

// bytes returns the memory a fill allocates: the cells and the sets'
// blocks.
func (l layout) bytes() int64 {
	cells := int64(l.h) * int64(l.w) * int64(l.bits/8)
	return cells + l.sets()*int64(l.block)*8 + int64(l.workers)*64
}

// store holds a table's values, row-major, in one unsigned type.
type store interface {
	at(i int) uint64
	appendRange(dst []uint64, i, n int) []uint64
	zeros() []int
	bits() int
}

type value interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

type cells[T value] []T

func (c cells[T]) at(i int) uint64 { return uint64(c[i]) }

func (c cells[T]) appendRange(dst []uint64, i, n int) []uint64 {
	for _, v := range c[i : i+n] {
		dst = append(dst, uint64(v))
	}
	return dst
}

func (c cells[T]) zeros() []int {
	var zs []int
	for i, v := range c {
		if v == 0 {
			zs = append(zs, i)
		}
	}
	return zs
}

func (c cells[T]) bits() int {
	var v T
	return bits.Len64(uint64(v - 1))
}

// counter is an atomic counter alone on its cache line, so that two
// workers' counters do not slow each other down.
type counter struct {
	atomic.Int64
	_ [56]byte
}

// filler is the state the workers of one fill share.
type filler[T value] struct {
	l      layout
	g      []T
	rs, cs int // g[i·rs + j·cs] is cell (i, j) of the h × w fill
	opts   Options
	prog   *budget.Progress

	cols, diags []uint64 // the sets' blocks

	tileCols int
	done     []counter // done[p]: tiles worker p has filled
	mu       sync.Mutex
	cond     sync.Cond
	waiting  atomic.Int32
	stop     atomic.Bool
	err      error // the first worker's error, under mu
}

func fill[T value](rows, cols int, l layout, opts Options) (store, error) {
	f := &filler[T]{
		l:        l,
		g:        make([]T, rows*cols),
		rs:       cols,
		cs:       1,
		opts:     opts,
		cols:     make([]uint64, l.w*l.block),
		diags:    make([]uint64, l.ring*l.block),
		tileCols: (l.w + l.tw - 1) / l.tw,
		done:     make([]counter, l.workers),
	}
	if cols > rows {
		f.rs, f.cs = 1, cols
	}
	f.cond.L = &f.mu
	if opts.Context != nil {
		f.prog = budget.From(opts.Context)
		f.prog.Start("Wythoff table", int64(rows)*int64(cols))
	}
	var wg sync.WaitGroup
	for p := range l.workers {
		rows := make([]uint64, l.th*l.block)
		wg.Go(func() { f.work(p, rows) })
	}
	wg.Wait()
	if f.err != nil {
		return nil, f.err
	}
	return cells[T](f.g), nil
}

// work fills the tile rows p, p + workers, … with rows, the blocks of the
// seen sets of one tile row.
func (f *filler[T]) work(p int, rows []uint64) {
	l := f.l
	// Check the context every few thousand cells, however small the tiles.
	every := max(1, ctxEvery/(l.th*l.tw))
	n := 0
	for ti := p; ti*l.th < l.h; ti += l.workers {
		a0, a1 := ti*l.th, min(l.h, ti*l.th+l.th)
		for tj := range f.tileCols {
			if n++; n%every == 0 {
				if err := f.opts.stopped(); err != nil {
					f.halt(err)
					return
				}
			}
			if ti > 0 && !f.wait(ti-1, tj+1) {
				return
			}
			b0, b1 := tj*l.tw, min(l.w, tj*l.tw+l.tw)
			f.tile(rows, a0, a1, b0, b1)
			f.done[p].Store(f.tiles(ti, tj+1))
			if f.waiting.Load() > 0 {
				f.mu.Lock()
				f.cond.Broadcast()
				f.mu.Unlock()
			}
			f.prog.Add(int64((a1 - a0) * (b1 - b0)))
		}
		for a := a0; a < a1; a++ {
			i := a - a0
			f.empty(rows[i*l.block:(i+1)*l.block], a, 0, 0, l.w)
		}
	}
}

// tiles returns what the counter of tile row ti's worker reads once tj
// tiles of it are done: it counts its earlier tile rows too, so it only
// grows.
func (f *filler[T]) tiles(ti, tj int) int64 {
	return int64(ti/f.l.workers)*int64(f.tileCols) + int64(tj)
}

// wait blocks until tj tiles of tile row ti are done, or the fill stops;
// it reports whether to go on. A waiter counts itself in waiting before it
// reads the counter, and a worker stores its counter before it reads
// waiting, so one of them sees the other.
func (f *filler[T]) wait(ti, tj int) bool {
	c, need := &f.done[ti%f.l.workers], f.tiles(ti, tj)
	if c.Load() >= need {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waiting.Add(1)
	for c.Load() < need && !f.stop.Load() {
		f.cond.Wait()
	}
	f.waiting.Add(-1)
	return !f.stop.Load()
}

// empty clears a set's block for reuse: its summary, and the words of the
// values of the n cells (a + k·da, b + k) of the line it was filled from.
// Those values are below the last cell's number of options (maxValue),
// so when that bound spans few words next to the n cells (a diagonal of a
// square table: 3n/64 words against n cells scattered over the table),
// the words up to it are cleared at once, a sixth of a 4096² fill's time
// less. Otherwise each cell's word is cleared: that costs the line's
// length where clearing every word would cost the table's largest value,
// for every line of a table 1 cell wide.
func (f *filler[T]) empty(set []uint64, a, b, da, n int) {
	clear(set[f.l.words:])
	if n == 0 {
		return
	}
	if words := int(maxValue(a+(n-1)*da+1, b+n))/64 + 1; words <= 4*n {
		clear(set[:min(words, f.l.words)])
		return
	}
	for k := range n {
		set[uint64(f.g[(a+k*da)*f.rs+(b+k)*f.cs])/64] = 0
	}
}

// halt stops every worker with err.
func (f *filler[T]) halt(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.stop.Store(true)
	f.cond.Broadcast()
	f.mu.Unlock()
}

// tile fills the cells a0 ≤ a < a1, b0 ≤ b < b1 of the h × w fill, rows
// holding the blocks of the seen sets of rows a0, a0+1, ….
func (f *filler[T]) tile(rows []uint64, a0, a1, b0, b1 int) {
	B, W, ring := f.l.block, f.l.words, f.l.ring
	cols, diags := f.cols, f.diags
	g, rs, cs := f.g, f.rs, f.cs
	for a := a0; a < a1; a++ {
		r := rows[(a-a0)*B : (a-a0+1)*B]
		// Diagonal a − b lives in set (a − b + w − 1) mod ring; diagonal a
		// starts at (a, 0) in a set last used by a finished diagonal.
		di := (a - b0 + f.l.w - 1) % ring
		if b0 == 0 {
			// Diagonal a − ring, last in this set, lies in tile rows this
			// worker has filled: its cells (k + j, j) for j ≥ max(0, −k).
			k := a - ring
			j0 := max(0, -k)
			f.empty(diags[di*B:(di+1)*B], k+j0, j0, 1, max(0, min(f.l.w, f.l.h-k)-j0))
		}
		gi := a*rs + b0*cs // g[gi] is cell (a, b)
		for b := b0; b < b1; b++ {
			c := cols[b*B : (b+1)*B]
			d := diags[di*B : (di+1)*B]
			// The summaries' words before q are full in some set; the
			// last word of the sets is empty in all, so a candidate word
			// with an OR not full comes.
			q := W + int(max(r[B-1], c[B-1], d[B-1]))
			var s int
			var x uint64
		search:
			for ; ; q++ {
				for z := ^(r[q] | c[q] | d[q]); z != 0; z &= z - 1 {
					s = (q-W)*64 + bits.TrailingZeros64(z)
					if x = r[s] | c[s] | d[s]; x != math.MaxUint64 {
						break search
					}
				}
			}
			g[gi] = T(s*64 + bits.TrailingZeros64(^x))
			gi += cs
			// Only the word of the new value changed.
			m := (x + 1) &^ x
			r[s] |= m
			c[s] |= m
			d[s] |= m
			if r[s] == math.MaxUint64 {
				markFull(r, W, s)
			}
			if c[s] == math.MaxUint64 {
				markFull(c, W, s)
			}
			if d[s] == math.MaxUint64 {
				markFull(d, W, s)
			}
			if di--; di < 0 {
				di = ring - 1
			}
		}
	}
}

// markFull marks word s of the set in block set (words W words) full in its
// summary, and moves the index of the summary's first word not full past
// the full ones.
func markFull(set []uint64, W, s int) {
	q := W + s/64
	set[q] |= 1 << (s % 64)
	if set[q] != math.MaxUint64 {
		return
	}
	last := len(set) - 1
	for set[W+int(set[last])] == math.MaxUint64 {
		set[last]++
	}
}
