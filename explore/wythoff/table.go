package wythoff

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/nimbook/nimbook/explore/budget"
)

// DefaultMaxCells is the cell budget of NewTable: 2^24 cells take 128 MiB.
const DefaultMaxCells = 1 << 24

// DefaultMaxMemory is the memory budget of a zero Options.MaxMemory.
const DefaultMaxMemory = 1 << 30

// ErrTooLarge is wrapped by the errors of work refused for its size.
var ErrTooLarge = errors.New("too large")

// Options bound the work of NewTableOptions, Outcome and WinningMoves.
type Options struct {
	// MaxCells bounds rows × cols (or the (a+1)(b+1) positions solved under
	// misère play); 0 means DefaultMaxCells.
	MaxCells int
	// MaxMemory bounds the bytes a computation allocates, estimated before
	// it starts (budget.Exceeds); 0 means DefaultMaxMemory, < 0 no limit.
	MaxMemory int64
	// Context, when not nil, stops a long computation once it is done; the
	// error is then budget.Err of it.
	Context context.Context
}

func (o Options) maxMemory() int64 {
	if o.MaxMemory == 0 {
		return DefaultMaxMemory
	}
	return o.MaxMemory
}

// checkMemory refuses work estimated to need more than the memory budget.
func (o Options) checkMemory(what string, need int64) error {
	if err := budget.Exceeds(what, need, o.maxMemory()); err != nil {
		return fmt.Errorf("wythoff: %w (raise it with --max-memory or limits.memory)", err)
	}
	return nil
}

// stopped returns the reason the context is done, or nil.
func (o Options) stopped() error {
	if o.Context == nil {
		return nil
	}
	if err := budget.Err(o.Context); err != nil {
		return fmt.Errorf("wythoff: %w", err)
	}
	return nil
}

// ctxEvery is how many cells run between two context checks: a few
// microseconds of work, so a cancellation is seen at once.
const ctxEvery = 1 << 12

// TableBytes estimates the bytes NewTableOptions allocates for a rows ×
// cols table: the values and the seen sets of the lines of the shorter
// side. The sides must already be checked against the cell budget.
func TableBytes(rows, cols int) int64 {
	w := int64(min(rows, cols))
	// A seen set is a header and a short window; 64 bytes on average.
	return int64(rows)*int64(cols)*8 + 2*w*(48+64)
}

func (o Options) maxCells() (int, error) {
	switch {
	case o.MaxCells < 0:
		return 0, fmt.Errorf("wythoff: negative cell budget %d", o.MaxCells)
	case o.MaxCells == 0:
		return DefaultMaxCells, nil
	}
	return o.MaxCells, nil
}

// checkCells validates a rows × cols rectangle against the budget.
func (o Options) checkCells(rows, cols int) error {
	max, err := o.maxCells()
	if err != nil {
		return err
	}
	if rows < 1 || cols < 1 {
		return fmt.Errorf("wythoff: table size %d×%d: both sides must be at least 1", rows, cols)
	}
	if rows > max/cols {
		return fmt.Errorf("wythoff: %d×%d table is more than %d cells: %w (raise it with --max-positions or limits.positions in the job file)", rows, cols, max, ErrTooLarge)
	}
	return nil
}

// Table is the Grundy table of Wythoff's game on 0 ≤ a < Rows, 0 ≤ b < Cols.
// It is immutable.
type Table struct {
	rows, cols int
	g          []uint64 // row-major
}

// NewTable computes the Grundy table of rows × cols cells within
// DefaultMaxCells.
func NewTable(rows, cols int) (*Table, error) {
	return NewTableOptions(rows, cols, Options{})
}

// seenSet is a set of naturals that keeps only a window of words: every
// value below 64·full is in the set, and words[k] holds the values
// 64·(off+k) … 64·(off+k)+63 (off ≥ full; words between are empty). A line
// far from the origin starts at large values, and its full prefix keeps
// growing, so the window stays short. Rows, columns and diagonals hold
// distinct values, so a value below the full prefix is never added.
type seenSet struct {
	full, off int
	words     []uint64
}

func (s *seenSet) word(i int) uint64 {
	switch {
	case i < s.full:
		return ^uint64(0)
	case i < s.off || i >= s.off+len(s.words):
		return 0
	}
	return s.words[i-s.off]
}

// reset empties the set, keeping its window's memory: a table of many
// lines would otherwise leave one window of garbage per line.
func (s *seenSet) reset() {
	s.full, s.off = 0, 0
	s.words = s.words[:0]
}

func (s *seenSet) add(v uint64) {
	i := int(v / 64)
	switch {
	case i < s.full:
		return
	case len(s.words) == 0:
		s.off = i
	case i < s.off:
		grown := make([]uint64, s.off-i+len(s.words), s.off-i+cap(s.words))
		copy(grown[s.off-i:], s.words)
		s.words, s.off = grown, i
	}
	for len(s.words) <= i-s.off {
		s.words = append(s.words, 0)
	}
	s.words[i-s.off] |= 1 << (v % 64)
	for len(s.words) > 0 && s.off == s.full && s.words[0] == ^uint64(0) {
		s.words = s.words[1:]
		s.off++
		s.full++
	}
}

// mex3 returns the least natural in none of r, c, d. It is at least each
// set's own full prefix, so the scan starts at the largest one.
func mex3(r, c, d *seenSet) uint64 {
	i := max(r.full, c.full, d.full)
	for {
		w := r.word(i) | c.word(i) | d.word(i)
		if w != ^uint64(0) {
			return uint64(i*64 + bits.TrailingZeros64(^w))
		}
		i++
	}
}

// NewTableOptions computes the Grundy table of rows × cols cells, refusing
// tables of more than opts.MaxCells cells.
func NewTableOptions(rows, cols int, opts Options) (*Table, error) {
	if err := opts.checkCells(rows, cols); err != nil {
		return nil, err
	}
	if err := opts.checkMemory(fmt.Sprintf("a %d×%d Wythoff table", rows, cols), TableBytes(rows, cols)); err != nil {
		return nil, err
	}
	if err := opts.stopped(); err != nil {
		return nil, err
	}
	t := &Table{rows: rows, cols: cols, g: make([]uint64, rows*cols)}
	// g is symmetric, so fill the table along its longer side: the sets then
	// number O(shorter side), and a 1 × 2^24 table needs no 2^24 of them.
	h, w := rows, cols
	at := func(i, j int) int { return i*cols + j }
	if cols > rows {
		h, w = cols, rows
		at = func(i, j int) int { return j*cols + i }
	}
	colSets := make([]seenSet, w)
	// Row i touches the diagonals j − i for 0 ≤ j < w; diagonal j − i + w
	// was last touched in row i − 1, so w slots reused in turn suffice.
	diagSets := make([]seenSet, w)
	var prog *budget.Progress
	if opts.Context != nil {
		prog = budget.From(opts.Context)
		prog.Start("Wythoff table", int64(h))
	}
	every := max(1, ctxEvery/w) // lines between two checks
	for i := range h {
		if i%every == 0 {
			if err := opts.stopped(); err != nil {
				return nil, err
			}
			prog.Set(int64(i))
		}
		var row seenSet
		first := (w - i%w) % w // slot of diagonal −i, a new one
		diagSets[first].reset()
		for j := range w {
			col, diag := &colSets[j], &diagSets[(first+j)%w]
			v := mex3(&row, col, diag)
			t.g[at(i, j)] = v
			row.add(v)
			col.add(v)
			diag.add(v)
		}
	}
	prog.Set(int64(h))
	return t, nil
}

// Rows returns the number of rows (values of a).
func (t *Table) Rows() int { return t.rows }

// Cols returns the number of columns (values of b).
func (t *Table) Cols() int { return t.cols }

// At returns g(a, b). It panics when (a, b) is outside the table, like an
// index out of range.
func (t *Table) At(a, b int) uint64 {
	if a < 0 || a >= t.rows || b < 0 || b >= t.cols {
		panic(fmt.Sprintf("wythoff: cell (%d, %d) outside the %d×%d table", a, b, t.rows, t.cols))
	}
	return t.g[a*t.cols+b]
}

// Values returns a copy of the table: Values()[a][b] = g(a, b).
func (t *Table) Values() [][]uint64 {
	flat := append([]uint64(nil), t.g...)
	out := make([][]uint64, t.rows)
	for a := range out {
		out[a] = flat[a*t.cols : (a+1)*t.cols : (a+1)*t.cols]
	}
	return out
}

// PPositions returns the cells with g = 0 in row-major order.
func (t *Table) PPositions() [][2]int {
	var ps [][2]int
	for i, v := range t.g {
		if v == 0 {
			ps = append(ps, [2]int{i / t.cols, i % t.cols})
		}
	}
	return ps
}
