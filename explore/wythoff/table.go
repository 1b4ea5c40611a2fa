package wythoff

import (
	"context"
	"errors"
	"fmt"

	"github.com/nimbook/nimbook/explore/budget"
)

// DefaultMaxCells is the cell budget of NewTable: a 4096 × 4096 table,
// 32 MiB of 16-bit values.
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
	// Workers bounds the goroutines that fill a table together; 0 means
	// runtime.GOMAXPROCS.
	Workers int
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

// TableBytes estimates the bytes NewTableOptions allocates for a rows ×
// cols table with the default number of workers: the values, in the
// smallest unsigned type that holds them (ValueBits), and the seen sets.
// The sides must already be checked against the cell budget.
func TableBytes(rows, cols int) int64 {
	return newLayout(rows, cols, 0).bytes()
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
// It stores its values in the smallest unsigned type that holds every
// value the table may have (ValueBits), row-major. It is immutable.
type Table struct {
	rows, cols int
	cells      store
}

// NewTable computes the Grundy table of rows × cols cells within
// DefaultMaxCells.
func NewTable(rows, cols int) (*Table, error) {
	return NewTableOptions(rows, cols, Options{})
}

// NewTableOptions computes the Grundy table of rows × cols cells, refusing
// tables of more than opts.MaxCells cells or estimated to need more than
// opts.MaxMemory bytes. Up to opts.Workers goroutines fill it.
func NewTableOptions(rows, cols int, opts Options) (*Table, error) {
	if err := opts.checkCells(rows, cols); err != nil {
		return nil, err
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("wythoff: negative number of workers %d", opts.Workers)
	}
	l := newLayout(rows, cols, opts.Workers)
	if err := opts.checkMemory(fmt.Sprintf("a %d×%d Wythoff table", rows, cols), l.bytes()); err != nil {
		return nil, err
	}
	if err := opts.stopped(); err != nil {
		return nil, err
	}
	t := &Table{rows: rows, cols: cols}
	var err error
	switch l.bits {
	case 8:
		t.cells, err = fill[uint8](rows, cols, l, opts)
	case 16:
		t.cells, err = fill[uint16](rows, cols, l, opts)
	case 32:
		t.cells, err = fill[uint32](rows, cols, l, opts)
	default:
		t.cells, err = fill[uint64](rows, cols, l, opts)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Rows returns the number of rows (values of a).
func (t *Table) Rows() int { return t.rows }

// Cols returns the number of columns (values of b).
func (t *Table) Cols() int { return t.cols }

// ValueBits returns the width of the unsigned integers the table stores
// its values in: 8, 16, 32 or 64, the least that holds a + b + min(a, b),
// the number of options of the last cell and so a bound on every value.
// An 8192 × 8192 table takes 16 bits a value.
func (t *Table) ValueBits() int { return t.cells.bits() }

// At returns g(a, b). It panics when (a, b) is outside the table, like an
// index out of range.
func (t *Table) At(a, b int) uint64 {
	if a < 0 || a >= t.rows || b < 0 || b >= t.cols {
		panic(fmt.Sprintf("wythoff: cell (%d, %d) outside the %d×%d table", a, b, t.rows, t.cols))
	}
	return t.cells.at(a*t.cols + b)
}

// AppendRow appends g(a, 0), …, g(a, Cols−1) to dst and returns the
// result: one row at a time, where Values would copy the whole table into
// 8 bytes a cell. It panics when a is outside the table.
func (t *Table) AppendRow(dst []uint64, a int) []uint64 {
	if a < 0 || a >= t.rows {
		panic(fmt.Sprintf("wythoff: row %d outside the %d×%d table", a, t.rows, t.cols))
	}
	return t.cells.appendRange(dst, a*t.cols, t.cols)
}

// Values returns a copy of the table: Values()[a][b] = g(a, b). It takes
// 8 bytes a cell; AppendRow reads one row at a time.
func (t *Table) Values() [][]uint64 {
	flat := t.cells.appendRange(make([]uint64, 0, t.rows*t.cols), 0, t.rows*t.cols)
	out := make([][]uint64, t.rows)
	for a := range out {
		out[a] = flat[a*t.cols : (a+1)*t.cols : (a+1)*t.cols]
	}
	return out
}

// PPositions returns the cells with g = 0 in row-major order.
func (t *Table) PPositions() [][2]int {
	var ps [][2]int
	for _, i := range t.cells.zeros() {
		ps = append(ps, [2]int{i / t.cols, i % t.cols})
	}
	return ps
}
