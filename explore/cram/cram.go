package cram

import (
	"context"
	"fmt"
	"io"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/cellgame"
)

// Rule is Cram's move on a set of cells: two free cells side by side or
// one above the other become covered.
type Rule struct{}

// Options appends the positions one move leads to from s (h rows, w
// columns).
func (Rule) Options(dst []cellgame.Board, s cellgame.Board, h, w int) []cellgame.Board {
	for r := 0; r < h; r++ {
		for x := s[r] & (s[r] >> 1); x != 0; x &= x - 1 {
			o := s
			o[r] &^= (x & -x) * 3
			dst = append(dst, o)
		}
		if r+1 < h {
			for x := s[r] & s[r+1]; x != 0; x &= x - 1 {
				o := s
				o[r] &^= x & -x
				o[r+1] &^= x & -x
				dst = append(dst, o)
			}
		}
	}
	return dst
}

// Options tune a Solver.
type Options struct {
	// NoFold keys components by translation only.
	NoFold bool
	// Workers share the moves of a board; 0 means one.
	Workers int
	// MaxMemory bounds the memo in bytes; 0 means no bound. The solver
	// stops when it is full.
	MaxMemory int64
}

// Solver computes Cram values; its memo is shared by every board.
type Solver struct {
	cg *cellgame.Solver
}

// NewSolver returns a solver.
func NewSolver(opts Options) (*Solver, error) {
	if opts.MaxMemory < 0 {
		return nil, fmt.Errorf("cram: negative memory limit %d", opts.MaxMemory)
	}
	var max int64
	if opts.MaxMemory > 0 {
		max = max64(1, opts.MaxMemory/cellgame.EntryBytes)
	}
	cg, err := cellgame.New(Rule{}, cellgame.Options{Fold: !opts.NoFold, Workers: opts.Workers, MaxEntries: max})
	if err != nil {
		return nil, fmt.Errorf("cram: %w", err)
	}
	return &Solver{cg: cg}, nil
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// Stats returns the number of components solved and of memo entries.
func (s *Solver) Stats() cellgame.Stats { return s.cg.Stats() }

// Board is a Cram position: the free cells of an m × n board (bit c of
// Free[r] is cell (r, c)).
type Board struct {
	M, N int
	Free cellgame.Board
}

// NewBoard returns the empty m × n board: the start.
func NewBoard(m, n int) (Board, error) {
	if err := cellgame.CheckFrame(min(m, n), max(m, n)); err != nil {
		return Board{}, fmt.Errorf("cram: %w", err)
	}
	if m > cellgame.MaxRows || n > cellgame.MaxCols {
		return Board{}, fmt.Errorf("cram: board %d × %d: at most %d rows and %d columns", m, n, cellgame.MaxRows, cellgame.MaxCols)
	}
	return Board{M: m, N: n, Free: cellgame.Full(m, n)}, nil
}

// Value returns the Grundy value of b.
func (s *Solver) Value(ctx context.Context, b Board) (uint64, error) {
	v, err := s.cg.Value(ctx, b.Free, b.M, b.N)
	if err != nil {
		return 0, fmt.Errorf("cram: %d × %d: %w", b.M, b.N, err)
	}
	return v, nil
}

// Move is a domino: its first cell (row, column) and whether it lies
// across (the second cell to the right) or down (below).
type Move struct {
	Row, Col int
	Across   bool
}

func (m Move) String() string {
	d := "down"
	if m.Across {
		d = "across"
	}
	return fmt.Sprintf("(%d,%d) %s", m.Row, m.Col, d)
}

// Moves returns the legal moves of b, row by row.
func Moves(b Board) []Move {
	var ms []Move
	for r := 0; r < b.M; r++ {
		for c := 0; c < b.N; c++ {
			if !b.Free.Has(r, c) {
				continue
			}
			if c+1 < b.N && b.Free.Has(r, c+1) {
				ms = append(ms, Move{r, c, true})
			}
			if r+1 < b.M && b.Free.Has(r+1, c) {
				ms = append(ms, Move{r, c, false})
			}
		}
	}
	return ms
}

// Play returns b after the move m, or an error naming what blocks it.
func Play(b Board, m Move) (Board, error) {
	r2, c2 := m.Row+1, m.Col
	if m.Across {
		r2, c2 = m.Row, m.Col+1
	}
	if m.Row < 0 || m.Col < 0 || r2 >= b.M || c2 >= b.N {
		return b, fmt.Errorf("cram: domino %v leaves the %d × %d board", m, b.M, b.N)
	}
	if !b.Free.Has(m.Row, m.Col) || !b.Free.Has(r2, c2) {
		return b, fmt.Errorf("cram: domino %v covers a covered cell", m)
	}
	b.Free[m.Row] &^= 1 << uint(m.Col)
	b.Free[r2] &^= 1 << uint(c2)
	return b, nil
}

// WinningMoves returns the moves of b to a position of value 0.
func (s *Solver) WinningMoves(ctx context.Context, b Board) ([]Move, error) {
	var win []Move
	for _, m := range Moves(b) {
		next, _ := Play(b, m)
		v, err := s.Value(ctx, next)
		if err != nil {
			return nil, err
		}
		if v == 0 {
			win = append(win, m)
		}
	}
	return win, nil
}

// Estimate is what a run is expected to take: memo entries and bytes, from
// m × k boards solved while the memo stayed under the sample.
type Estimate = cellgame.Estimate

// EstimateBoard samples m × 1, m × 2, … in a fresh solver while its memo
// stays under sample entries and extrapolates the growth of the memo from
// one width to the next to m × n.
func EstimateBoard(ctx context.Context, m, n int, sample int64) (Estimate, error) {
	if m > n {
		m, n = n, m
	}
	s, err := NewSolver(Options{})
	if err != nil {
		return Estimate{}, err
	}
	return cellgame.Extrapolate(n, sample, func(k int) (int64, error) {
		b, err := NewBoard(m, k)
		if err != nil {
			return 0, err
		}
		if _, err := s.Value(ctx, b); err != nil {
			return 0, err
		}
		return s.Stats().Entries, nil
	})
}

// CheckEstimate refuses a run whose estimate exceeds the memory limit.
func CheckEstimate(what string, est Estimate, limit int64) error {
	if err := budget.Exceeds(what, est.Bytes, limit); err != nil {
		return fmt.Errorf("cram: %w (about %d memo entries; raise the memory limit, solve a smaller board, or find its value alone with method: search)", err, est.Entries)
	}
	return nil
}

// SaveMemo writes the memo (explore/cellgame's file), so that a later run
// continues from it with LoadMemo. It must not run beside Value.
func (s *Solver) SaveMemo(w io.Writer) error { return s.cg.Save(w) }

// LoadMemo adds the entries of a memo SaveMemo wrote (of the same folding).
func (s *Solver) LoadMemo(r io.Reader) error { return s.cg.Load(r) }

// HalfTurn marks Cram for cellgame's search: a domino and its image under
// the half-turn of a board are dominoes, so a board the half-turn maps to
// itself with no cell on or beside the centre is 0.
func (Rule) HalfTurn() {}
