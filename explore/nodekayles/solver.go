package nodekayles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/cellgame"
	"github.com/nimbook/nimbook/explore/nodekayles/internal/strip"
)

// Options tune a Solver.
type Options struct {
	// NoFold turns the folding of symmetric components off: grids are
	// keyed by translation only, and the general solver's small components
	// by their vertex sets (the second method every new term is checked
	// with).
	NoFold bool
	// Workers is the number of goroutines a grid's moves are shared by; 0
	// means one.
	Workers int
	// MaxMemory bounds the memo in bytes (entries × their estimated size);
	// 0 means no bound. The solver stops when it is full.
	MaxMemory int64
	// NoStrip keeps grids of three rows in cellgame's memo, the one a memo
	// file holds (SaveMemo), instead of the strip engine's.
	NoStrip bool
}

// Stats are a solver's counters: components solved, memo entries, and
// the entries other processes solved, taken from a memo file they share.
type Stats struct {
	Solved  int64
	Entries int64
	Taken   int64
}

// Solver computes Node Kayles values. Grids of every size share one memo
// (a component's value depends only on its shape); every other graph has a
// memo of its own, kept while the solver lives. It is safe for concurrent
// use (other graphs' positions are solved one at a time).
type Solver struct {
	opts    Options
	grid    *cellgame.Solver
	strip   *strip.Solver // grids of three rows, folded
	mu      sync.Mutex    // guards general and its solvers, which are sequential
	general map[*Graph]*general
}

// NewSolver returns a solver.
func NewSolver(opts Options) (*Solver, error) {
	if opts.MaxMemory < 0 || opts.Workers < 0 {
		return nil, fmt.Errorf("nodekayles: negative option (memory %d, workers %d)", opts.MaxMemory, opts.Workers)
	}
	var max int64
	if opts.MaxMemory > 0 {
		max = max64(1, opts.MaxMemory/cellgame.EntryBytes)
	}
	grid, err := cellgame.New(GridRule{}, cellgame.Options{Fold: !opts.NoFold, Workers: opts.Workers, MaxEntries: max})
	if err != nil {
		return nil, fmt.Errorf("nodekayles: %w", err)
	}
	s := &Solver{opts: opts, grid: grid, general: map[*Graph]*general{}}
	if !opts.NoFold && !opts.NoStrip {
		// Grids of three rows go to the strip engine: about twice as fast
		// as cellgame on them (BenchmarkGrid3Upto18*), in two-thirds of the
		// memory an entry.
		if s.strip, err = strip.New(strip.Options{Workers: opts.Workers, MaxBytes: opts.MaxMemory}); err != nil {
			return nil, fmt.Errorf("nodekayles: %w", err)
		}
	}
	return s, nil
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// Stats returns the counters of all the solver's memos.
func (s *Solver) Stats() Stats {
	st := s.grid.Stats()
	out := Stats{Solved: st.Solved, Entries: st.Entries, Taken: st.Taken}
	if s.strip != nil {
		ss := s.strip.Stats()
		out.Solved += ss.Solved
		out.Entries += ss.Entries + ss.Small
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.general {
		out.Solved += g.solved
		out.Entries += g.entries()
	}
	return out
}

// Full returns the set of all vertices of g: the start.
func Full(g *Graph) Set {
	s := newSet(g.N)
	for v := 0; v < g.N; v++ {
		s.add(v)
	}
	return s
}

// Value returns the Grundy value of Node Kayles on g.
func (s *Solver) Value(ctx context.Context, g *Graph) (uint64, error) {
	return s.ValueOf(ctx, g, Full(g))
}

// ValueOf returns the Grundy value of the position set (the vertices not
// yet removed) of g.
func (s *Solver) ValueOf(ctx context.Context, g *Graph, set Set) (uint64, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if len(set) != (g.N+63)/64 {
		return 0, fmt.Errorf("nodekayles: a position of %s has %d words, not %d", g.Name, len(set), (g.N+63)/64)
	}
	if ctx.Err() != nil {
		return 0, fmt.Errorf("nodekayles: %w", budget.Err(ctx))
	}
	if g.N == 0 {
		return 0, nil
	}
	if p, ok := s.stripPos(g, set); ok {
		v, err := s.strip.Value(ctx, p)
		if errors.Is(err, strip.ErrFull) {
			err = fmt.Errorf("%w: %w", cellgame.ErrMemoFull, err)
		}
		if err != nil {
			return 0, fmt.Errorf("nodekayles: %s: %w", g.Name, err)
		}
		return v, nil
	}
	if g.Rows > 0 && cellgame.CheckFrame(min(g.Rows, g.Cols), max(g.Rows, g.Cols)) == nil {
		b, h, w := toBoard(g, set)
		v, err := s.grid.Value(ctx, b, h, w)
		if err != nil {
			return 0, fmt.Errorf("nodekayles: %s: %w", g.Name, err)
		}
		return v, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.general[g]
	if gs == nil {
		gs = &general{g: g, fold: !s.opts.NoFold, memo: map[string]uint16{}, raw: map[uint64]uint16{}, canon: map[uint64]uint16{}}
		if s.opts.MaxMemory > 0 {
			gs.max = max64(1, s.opts.MaxMemory/generalEntryBytes(g.N))
		}
		s.general[g] = gs
	}
	gs.ctx, gs.prog = ctx, budget.From(ctx)
	v, err := gs.value(set)
	if err != nil {
		return 0, fmt.Errorf("nodekayles: %s: %w", g.Name, err)
	}
	return uint64(v), nil
}

// stripPos lays a position of a grid of three rows (either way) out for
// the strip engine, when the solver has one and the grid fits it.
func (s *Solver) stripPos(g *Graph, set Set) (strip.Pos, bool) {
	if s.strip == nil || g.Rows <= 0 || min(g.Rows, g.Cols) != 3 || max(g.Rows, g.Cols) > strip.MaxCols {
		return strip.Pos{}, false
	}
	var p strip.Pos
	for v := 0; v < g.N; v++ {
		if set.has(v) {
			r, c := v/g.Cols, v%g.Cols
			if g.Rows != 3 {
				r, c = c, r
			}
			p[r] |= 1 << uint(c)
		}
	}
	return p, true
}

// toBoard lays a position of a grid out as a bitboard, the short side as
// the height.
func toBoard(g *Graph, set Set) (cellgame.Board, int, int) {
	var b cellgame.Board
	h, w := g.Rows, g.Cols
	tr := h > w
	if tr {
		h, w = w, h
	}
	for v := 0; v < g.N; v++ {
		if set.has(v) {
			r, c := v/g.Cols, v%g.Cols
			if tr {
				r, c = c, r
			}
			b[r] |= 1 << uint(c)
		}
	}
	return b, h, w
}

// Move returns the position after taking vertex v of set, or an error when
// v is not in it.
func Move(g *Graph, set Set, v int) (Set, error) {
	if v < 0 || v >= g.N || !set.has(v) {
		return nil, fmt.Errorf("nodekayles: vertex %d is not in the position", v)
	}
	out := make(Set, len(set))
	for i := range out {
		out[i] = set[i] &^ g.Adj[v][i]
	}
	out[v>>6] &^= 1 << uint(v&63)
	return out, nil
}

// WinningMoves returns the vertices of set whose move leaves a position of
// value 0, ascending.
func (s *Solver) WinningMoves(ctx context.Context, g *Graph, set Set) ([]int, error) {
	var win []int
	for v := 0; v < g.N; v++ {
		if !set.has(v) {
			continue
		}
		next, _ := Move(g, set, v)
		x, err := s.ValueOf(ctx, g, next)
		if err != nil {
			return nil, err
		}
		if x == 0 {
			win = append(win, v)
		}
	}
	return win, nil
}

// Estimate is what a run is expected to take.
type Estimate = cellgame.Estimate

// ErrEstimate is returned when a graph is too small to sample.
var ErrEstimate = errors.New("nodekayles: nothing to sample")

// EstimateGrid samples m × k grids for k = 1, 2, … in a fresh solver while
// its memo stays under sample entries, and extrapolates the growth of the
// memo from column to column (the last ratio, which grows slowly) to m × n.
// The shared memo of a range makes the estimate of its largest grid the
// estimate of the whole range.
func EstimateGrid(ctx context.Context, m, n int, sample int64, opts Options) (Estimate, error) {
	if m > n {
		m, n = n, m
	}
	opts.MaxMemory = 0
	s, err := NewSolver(opts)
	if err != nil {
		return Estimate{}, err
	}
	return cellgame.Extrapolate(n, sample, func(k int) (int64, error) {
		g, err := Grid(m, k)
		if err != nil {
			return 0, err
		}
		if _, err := s.Value(ctx, g); err != nil {
			return 0, err
		}
		return s.Stats().Entries, nil
	})
}

// CheckEstimate refuses a run whose estimate exceeds the memory limit,
// naming the limit.
func CheckEstimate(what string, est Estimate, limit int64) error {
	if err := budget.Exceeds(what, est.Bytes, limit); err != nil {
		return fmt.Errorf("nodekayles: %w (about %d memo entries; raise the memory limit or solve a smaller board)", err, est.Entries)
	}
	return nil
}

// SaveMemo writes the grids' memo (explore/cellgame's file), so that a
// later run continues from it with LoadMemo; other graphs' memos, and
// the strip engine's of folded three-row grids (a solver made with
// NoStrip has none), are not kept. It must not run beside Value.
func (s *Solver) SaveMemo(w io.Writer) error { return s.grid.Save(w) }

// LoadMemo adds the entries of a grids' memo SaveMemo wrote (of the same
// folding).
func (s *Solver) LoadMemo(r io.Reader) error { return s.grid.Load(r) }
