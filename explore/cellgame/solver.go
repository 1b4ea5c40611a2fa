package cellgame

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/nimbook/nimbook/explore/budget"
)

// Rule is the move of a cell game.
type Rule interface {
	// Options appends to dst the positions one move leads to from s, a set
	// of cells of a frame of h rows and w columns, and returns it.
	Options(dst []Board, s Board, h, w int) []Board
}

// Options tune a Solver.
type Options struct {
	// Fold keys the memo by the least of the eight symmetric images of a
	// component (four when it is not square); without it only translation
	// is folded.
	Fold bool
	// Workers is the number of goroutines that share the moves of a
	// component in Value; 0 means one.
	Workers int
	// MaxEntries bounds the memo; 0 means no bound. When it is full the
	// solver stops with ErrMemoFull (it never evicts).
	MaxEntries int64
}

// ErrMemoFull is the error of a solver whose memo reached its bound.
var ErrMemoFull = errors.New("cellgame: memo full")

// Stats are a solver's counters.
type Stats struct {
	Solved  int64 // components solved
	Entries int64 // memo entries
	// Taken is the entries other processes solved, taken in from a memo
	// file they share at its saves (Kept).
	Taken int64
}

// Solver computes the Grundy values of a cell game. It is safe for
// concurrent use; its memo grows across calls.
type Solver struct {
	rule   Rule
	opts   Options
	memo   memo
	solved atomic.Int64
	taken  atomic.Int64
}

// New returns a solver of rule.
func New(rule Rule, opts Options) (*Solver, error) {
	if rule == nil {
		return nil, errors.New("cellgame: nil rule")
	}
	if opts.Workers < 0 || opts.MaxEntries < 0 {
		return nil, fmt.Errorf("cellgame: negative option (workers %d, entries %d)", opts.Workers, opts.MaxEntries)
	}
	if opts.Workers == 0 {
		opts.Workers = 1
	}
	s := &Solver{rule: rule, opts: opts}
	s.memo.max = opts.MaxEntries
	return s, nil
}

// Stats returns the solver's counters now.
func (s *Solver) Stats() Stats {
	return Stats{Solved: s.solved.Load(), Entries: s.memo.n.Load(), Taken: s.taken.Load()}
}

// CheckFrame reports whether an h × w frame is one the solver takes.
func CheckFrame(h, w int) error {
	if h < 1 || w < 1 {
		return fmt.Errorf("cellgame: board %d × %d: both sides must be at least 1", h, w)
	}
	if h > MaxRows || w > MaxCols {
		return fmt.Errorf("cellgame: board %d × %d: at most %d rows and %d columns (give the short side first)", h, w, MaxRows, MaxCols)
	}
	if h*w > MaxCells {
		return fmt.Errorf("cellgame: board %d × %d: %d cells, more than the %d a key holds", h, w, h*w, MaxCells)
	}
	return nil
}

// start checks a call's frame, its cells and its context (nil for none).
func start(ctx context.Context, set Board, h, w int) (context.Context, error) {
	if err := CheckFrame(h, w); err != nil {
		return nil, err
	}
	full := Full(h, w)
	for r := range set {
		if set[r]&^full[r] != 0 {
			return nil, fmt.Errorf("cellgame: cells outside the %d × %d frame", h, w)
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("cellgame: %w", budget.Err(ctx))
	}
	return ctx, nil
}

// Value returns the Grundy value of the set of cells s of an h × w frame,
// spreading the moves of each component not yet known over the workers.
func (s *Solver) Value(ctx context.Context, set Board, h, w int) (uint64, error) {
	ctx, err := start(ctx, set, h, w)
	if err != nil {
		return 0, err
	}
	var total uint64
	wk := s.newWorker(ctx)
	Components(set, h, func(k Board) {
		if err != nil {
			return
		}
		c := wk.canon(&k, h)
		v, ok := s.memo.get(c.key, c.compact)
		if !ok {
			v, err = s.solveParallel(ctx, c)
		}
		total ^= uint64(v)
	})
	return total, err
}

// solveParallel solves one component, its moves shared by the workers.
func (s *Solver) solveParallel(ctx context.Context, c shape) (uint16, error) {
	opts := s.rule.Options(nil, c.b, c.h, c.w)
	vals := make([]uint16, len(opts))
	var next atomic.Int64
	errs := make([]error, s.opts.Workers)
	var wg sync.WaitGroup
	for i := 0; i < s.opts.Workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			wk := s.newWorker(ctx)
			defer wk.flush()
			for {
				j := int(next.Add(1)) - 1
				if j >= len(opts) {
					return
				}
				v, err := wk.setValue(&opts[j], c.h, 0)
				if err != nil {
					errs[i] = err
					next.Store(int64(len(opts))) // the others stop too
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
	v := mex(vals)
	if err := s.memo.put(c.key, c.compact, v); err != nil {
		return 0, err
	}
	s.solved.Add(1)
	return v, nil
}

// shape is a cropped component: its cells in an h × w frame, in the key's
// orientation, and its key.
type shape struct {
	b       Board
	h, w    int
	key     key
	compact bool
}

// worker is one goroutine's scratch: option and value buffers per depth.
type worker struct {
	s      *Solver
	ctx    context.Context
	bufs   [][]Board
	vals   [][]uint16
	solved int64 // since the last flush
	prog   *budget.Progress
}

func (s *Solver) newWorker(ctx context.Context) *worker {
	return &worker{s: s, ctx: ctx, prog: budget.From(ctx)}
}

// flush adds the worker's count to the solver's and to the progress, whose
// label says the memo's size (the rate is the progress line's own).
func (wk *worker) flush() {
	wk.s.solved.Add(wk.solved)
	if wk.prog != nil && wk.solved > 0 {
		wk.prog.Add(wk.solved)
		label := fmt.Sprintf("components solved (memo %s entries)", shortCount(wk.s.memo.n.Load()))
		if t := wk.s.taken.Load(); t > 0 {
			// a memo file shared with other processes: what they gave
			label = fmt.Sprintf("components solved (memo %s entries, %s from other processes)", shortCount(wk.s.memo.n.Load()), shortCount(t))
		}
		wk.prog.SetLabel(label)
	}
	wk.solved = 0
}

// shortCount writes n as 950, 12.3k, 4.5M.
func shortCount(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// setValue is the nim-sum of the values of the components of set.
func (wk *worker) setValue(set *Board, h, depth int) (uint16, error) {
	var total uint16
	s := *set
	for r := 0; r < h; r++ {
		for s[r] != 0 {
			k := component(&s, r, bits.TrailingZeros64(s[r]), h)
			for i := r; i < h; i++ {
				s[i] &^= k[i]
			}
			c := wk.canon(&k, h)
			v, ok := wk.s.memo.get(c.key, c.compact)
			if !ok {
				var err error
				if v, err = wk.solve(c, depth+1); err != nil {
					return 0, err
				}
			}
			total ^= v
		}
	}
	return total, nil
}

// solve computes and stores the value of a component not in the memo.
func (wk *worker) solve(c shape, depth int) (uint16, error) {
	for len(wk.bufs) <= depth {
		wk.bufs = append(wk.bufs, nil)
		wk.vals = append(wk.vals, nil)
	}
	opts := wk.s.rule.Options(wk.bufs[depth][:0], c.b, c.h, c.w)
	wk.bufs[depth] = opts
	vals := wk.vals[depth][:0]
	for i := range opts {
		v, err := wk.setValue(&opts[i], c.h, depth)
		if err != nil {
			return 0, err
		}
		vals = append(vals, v)
	}
	wk.vals[depth] = vals
	v := mex(vals)
	if err := wk.s.memo.put(c.key, c.compact, v); err != nil {
		return 0, err
	}
	wk.solved++
	if wk.solved >= 1024 {
		wk.flush()
		if wk.ctx.Err() != nil {
			return 0, fmt.Errorf("cellgame: %w", budget.Err(wk.ctx))
		}
	}
	return v, nil
}

// mex is the least value not among vs.
func mex(vs []uint16) uint16 {
	var seen uint64
	big := false
	for _, v := range vs {
		if v < 64 {
			seen |= 1 << v
		} else {
			big = true
		}
	}
	if seen != ^uint64(0) || !big {
		return uint16(bits.TrailingZeros64(^seen))
	}
	m := make(map[uint16]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	g := uint16(64)
	for m[g] {
		g++
	}
	return g
}
