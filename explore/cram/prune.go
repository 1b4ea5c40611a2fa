package cram

import (
	"context"
	"fmt"

	"github.com/nimbook/nimbook/explore/cellgame"
)

// SearchOptions tune Value's pruning search.
type SearchOptions struct {
	// Exact is the most cells of a component whose value is computed in
	// full (the mex of its options); larger ones are searched. 0 means
	// cellgame.DefaultExact.
	Exact int
	// MaxMemory bounds the search's tables in bytes: half for the
	// search's table (its slices as allocated, a strict bound), half for
	// the exact memo (at cellgame.EntryBytes an entry); 0 means no bound.
	// The search stops with an error when one is full.
	MaxMemory int64
	// Replace lets the search's full table overwrite its cheapest entries
	// (it is a cache of outcomes) rather than stop; the exact memo still
	// stops when full.
	Replace bool
	// NoHalfTurn searches the boards the half-turn answer shows are 0
	// (even × even ones among them) rather than take them as 0.
	NoHalfTurn bool
}

// SearchEntryBytes is the bytes of one entry of the search's table, as
// allocated, on average: 16 bytes a slot, the shards kept 3/8 to 3/4 full
// (21 to 43 bytes an entry); measured 32 on 4 × 9, 38 on 4 × 10, 30 on
// 5 × 8 and 41 on 7 × 7 at 54 M shapes. The Go maps of (shape, heap) it
// replaced took about 95 bytes a heap, and a shape had 1.3 heaps on 4 × 9.
// The search's memory is bounded by SearchOptions.MaxMemory, counted in
// bytes; this figure is for estimates.
const SearchEntryBytes = 32

// Value returns the nimber of the empty m × n Cram board by a pruning
// search (cellgame.Search): the least v such that the board plus a nim
// heap of v is a P-position, each outcome searched with an early cut, the
// parts of a split board folded into the heap by their values. It reaches
// boards whose full memo of values would not fit (6 × 7, 7 × 7), where the
// Solver's full mex is the method for smaller boards and for ranges.
func Value(ctx context.Context, m, n int, opts SearchOptions) (uint64, cellgame.SearchStats, error) {
	b, err := NewBoard(m, n)
	if err != nil {
		return 0, cellgame.SearchStats{}, err
	}
	s, err := NewSearcher(opts)
	if err != nil {
		return 0, cellgame.SearchStats{}, err
	}
	if b.M > b.N { // the short side as the height: the same board
		b, _ = NewBoard(b.N, b.M)
	}
	v, err := s.Value(ctx, b)
	return v, s.Stats(), err
}

// Searcher is the pruning search on Cram positions, its tables kept from
// one call to the next. It is not safe for concurrent use.
type Searcher struct {
	s *cellgame.Search
}

// NewSearcher returns a search with empty tables.
func NewSearcher(opts SearchOptions) (*Searcher, error) {
	if opts.MaxMemory < 0 {
		return nil, fmt.Errorf("cram: negative memory limit %d", opts.MaxMemory)
	}
	so := cellgame.SearchOptions{Exact: opts.Exact, Replace: opts.Replace, NoHalfTurn: opts.NoHalfTurn}
	if opts.MaxMemory > 0 {
		// Half for each table: the search's and the exact values'.
		so.MaxBytes = max64(1, opts.MaxMemory/2)
		so.MaxExact = max64(1, opts.MaxMemory/2/cellgame.EntryBytes)
	}
	s, err := cellgame.NewSearch(Rule{}, so)
	if err != nil {
		return nil, fmt.Errorf("cram: %w", err)
	}
	return &Searcher{s: s}, nil
}

// Value returns the Grundy value of the position b.
func (s *Searcher) Value(ctx context.Context, b Board) (uint64, error) {
	v, err := s.s.Value(ctx, b.Free, b.M, b.N)
	if err != nil {
		return 0, fmt.Errorf("cram: %d × %d: %w", b.M, b.N, err)
	}
	return v, nil
}

// Stats returns the search's counters.
func (s *Searcher) Stats() cellgame.SearchStats { return s.s.Stats() }
