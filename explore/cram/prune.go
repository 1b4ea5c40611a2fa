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
	// MaxMemory bounds the search's tables in bytes (estimated at
	// SearchEntryBytes an entry; the exact memo at cellgame.EntryBytes);
	// 0 means no bound. The search stops with an error when they are
	// full.
	MaxMemory int64
}

// SearchEntryBytes estimates the bytes of one entry of the search's
// tables (Go maps of a 32-byte key: about 95 bytes an entry measured on 4 × 9).
const SearchEntryBytes = 96

// Value returns the nimber of the empty m × n Cram board by a pruning
// search (cellgame.Search): the least v such that the board plus a nim
// heap of v is a P-position, each outcome searched with an early cut, the
// parts of a split board folded into the heap by their values. It reaches
// boards whose full memo of values would not fit (7 × 7), where the
// Solver's full mex is the method for smaller boards and for ranges.
func Value(ctx context.Context, m, n int, opts SearchOptions) (uint64, cellgame.SearchStats, error) {
	b, err := NewBoard(m, n)
	if err != nil {
		return 0, cellgame.SearchStats{}, err
	}
	if opts.MaxMemory < 0 {
		return 0, cellgame.SearchStats{}, fmt.Errorf("cram: negative memory limit %d", opts.MaxMemory)
	}
	so := cellgame.SearchOptions{Exact: opts.Exact}
	if opts.MaxMemory > 0 {
		// Half for each table: the search's and the exact values'.
		so.MaxEntries = max64(1, opts.MaxMemory/2/SearchEntryBytes)
		so.MaxExact = max64(1, opts.MaxMemory/2/cellgame.EntryBytes)
	}
	s, err := cellgame.NewSearch(Rule{}, so)
	if err != nil {
		return 0, cellgame.SearchStats{}, fmt.Errorf("cram: %w", err)
	}
	h, w := b.M, b.N
	if h > w {
		h, w = w, h
	}
	v, err := s.Value(ctx, cellgame.Full(h, w), h, w)
	if err != nil {
		return 0, s.Stats(), fmt.Errorf("cram: %d × %d: %w", m, n, err)
	}
	return v, s.Stats(), nil
}
