package cellgame

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/nimbook/nimbook/explore/budget"
)

// SearchOptions tune a Search.
type SearchOptions struct {
	// Exact is the most cells a component may have for its value to be
	// computed in full by the mex of its options (the Solver's memo);
	// larger components are searched. 0 means DefaultExact.
	Exact int
	// MaxEntries bounds the entries of the search's table (one a shape,
	// whatever it knows of the shape's heaps and value; see table.go);
	// 0 means no bound.
	MaxEntries int64
	// MaxBytes bounds the memory of the search's table: its slices never
	// take more, counted as allocated (a shard that may not double fills
	// on to 15/16); 0 means no bound.
	MaxBytes int64
	// Replace lets a full table overwrite its entries of least work (a
	// transposition table is a cache of outcomes: a lost entry is searched
	// again, as in Beling's igs and Lemoine and Viennot's Glop) instead of
	// stopping with ErrMemoFull. The bounds stay strict either way.
	Replace bool
	// NoHalfTurn searches the components a HalfTurn rule's cut would take
	// as 0 (a check of the cut, and a second method).
	NoHalfTurn bool
	// MaxExact bounds the memo of exact values (Options.MaxEntries of the
	// Solver); 0 means no bound.
	MaxExact int64
}

// HalfTurn is implemented by a rule whose move removes a set of cells
// made of one cell and some of its neighbours, and whose moves are mapped
// to moves by the half-turn of a position's box (Cram: a domino; Node
// Kayles: a cell and its neighbours). A component the half-turn maps to
// itself with no cell mapped to itself or to a neighbour is then 0: the
// second player answers each move by its image, which the move cannot
// have touched (Winning Ways' argument for Cram's even × even boards).
// The search takes such components as 0 without searching them.
type HalfTurn interface {
	Rule
	HalfTurn()
}

// DefaultExact is the default of SearchOptions.Exact.
const DefaultExact = 20

// SearchStats are a Search's counters.
type SearchStats struct {
	Nodes    int64 // (component, heap) positions whose options were listed
	Table    int64 // shapes in the table (see table.go)
	Values   int64 // of which the value is known
	Exact    Stats // the exact solver's counters
	Entries  int64 // Table and the N outcomes of heaps past the packed ones
	Bytes    int64 // the table's memory, as allocated
	Replaced int64 // entries overwritten by Replace
	Dropped  int64 // outcomes Replace found no slot for (not kept)
}

// Search computes Grundy values of positions too large for the full mex
// by an outcome search with pruning (Lemoine and Viennot, "Nimbers are
// inevitable", 2010): the value of a component C is the least v such
// that C + *v is a P-position, found by asking v = 0, 1, … in turn. A
// position searched is one large component and a nim heap; its options
// split the component, and every part but the largest is replaced by its
// value (computed in full when it has at most SearchOptions.Exact cells,
// by this search otherwise) folded into the heap, so the transposition
// table is keyed by the canonical shape and the heap. A position is N as
// soon as one option is P, so most of the tree is never visited.
//
// A Search is not safe for concurrent use.
type Search struct {
	exact  *Solver
	wk     *worker
	opts   SearchOptions
	tab    table
	nodes  int64
	depth  int // of outcome's recursion: its buffers
	ctx    context.Context
	bufs   [][]Board
	pieces [][]Board
	order  [][]optInfo
	prog   *budget.Progress
	// halfTurn: the rule is a HalfTurn
	halfTurn bool
	// root is the position of a component of Value's whose outcome is
	// searched: the component's box and the heap, for the progress line
	root string
}

// NewSearch returns a search of rule, shapes folded under the square's
// symmetries.
func NewSearch(rule Rule, opts SearchOptions) (*Search, error) {
	if opts.Exact < 0 || opts.MaxEntries < 0 || opts.MaxBytes < 0 || opts.MaxExact < 0 {
		return nil, fmt.Errorf("cellgame: negative search option (%+v)", opts)
	}
	if opts.Exact == 0 {
		opts.Exact = DefaultExact
	}
	exact, err := New(rule, Options{Fold: true, MaxEntries: opts.MaxExact})
	if err != nil {
		return nil, err
	}
	_, half := rule.(HalfTurn)
	half = half && !opts.NoHalfTurn
	s := &Search{exact: exact, opts: opts, halfTurn: half}
	s.tab.b = tBudget{maxBytes: opts.MaxBytes, maxN: opts.MaxEntries, replace: opts.Replace}
	return s, nil
}

// Stats returns the search's counters.
func (s *Search) Stats() SearchStats {
	b := &s.tab.b
	return SearchStats{Nodes: s.nodes, Table: b.n - int64(len(s.tab.over)), Values: b.values,
		Exact: s.exact.Stats(), Entries: b.n, Bytes: b.bytes, Replaced: b.replaced, Dropped: b.dropped}
}

// Value returns the Grundy value of the set of cells set of an h × w
// frame.
func (s *Search) Value(ctx context.Context, set Board, h, w int) (uint64, error) {
	ctx, err := start(ctx, set, h, w)
	if err != nil {
		return 0, err
	}
	s.ctx = ctx
	s.wk = s.exact.newWorker(ctx)
	s.prog, s.wk.prog = s.wk.prog, nil // the search's nodes, not the exact solver's
	defer s.wk.flush()
	defer s.report()
	var total uint64
	Components(set, h, func(k Board) {
		if err != nil {
			return
		}
		var v uint16
		v, err = s.value(s.wk.canon(&k, h))
		total ^= uint64(v)
	})
	return total, err
}

// value is the value of a component: in full when small, else the least
// v with c + *v a P-position.
func (s *Search) value(c shape) (uint16, error) {
	if c.b.Len() <= s.opts.Exact {
		if v, ok := s.exact.memo.get(c.key, c.compact); ok {
			return v, nil
		}
		return s.wk.solve(c, 0)
	}
	if v, ok := s.tab.value(&c); ok {
		return v, nil
	}
	// a P outcome is kept as the value
	for v := uint16(0); ; v++ {
		if s.depth == 0 {
			s.root = fmt.Sprintf("%d × %d + *%d", c.h, c.w, v)
		}
		p, err := s.outcome(c, v)
		if err != nil {
			return 0, err
		}
		if p {
			return v, nil
		}
	}
}

// report puts the nodes and the table's size on the progress line.
func (s *Search) report() {
	if s.prog == nil {
		return
	}
	s.prog.Set(s.nodes)
	s.prog.SetLabel(fmt.Sprintf("search nodes (%s; table %s shapes, %s; exact memo %s entries)",
		s.root, shortCount(s.tab.b.n), budget.FormatSize(s.tab.b.bytes), shortCount(s.exact.memo.n.Load())))
}

// outcome reports whether c + *heap is a P-position.
func (s *Search) outcome(c shape, heap uint16) (bool, error) {
	if p, ok := s.tab.outcome(&c, heap); ok {
		return p, nil
	}
	depth := s.depth
	s.depth++
	defer func() { s.depth-- }()
	start := s.nodes
	s.nodes++
	if s.nodes&4095 == 0 {
		if s.ctx.Err() != nil {
			return false, fmt.Errorf("cellgame: %w", budget.Err(s.ctx))
		}
		if s.nodes&(1<<16-1) == 0 {
			s.report()
		}
	}
	for len(s.bufs) <= depth {
		s.bufs = append(s.bufs, nil)
		s.pieces = append(s.pieces, nil)
		s.order = append(s.order, nil)
	}
	if s.halfTurn && zeroByHalfTurn(&c.b, c.h, c.w) {
		return heap == 0, s.tab.setValue(&c, 0, 1)
	}
	opts := s.exact.rule.Options(s.bufs[depth][:0], c.b, c.h, c.w)
	s.bufs[depth] = opts
	if int(heap) > len(opts) {
		// c's value is the mex of its options' values, at most their number
		return s.store(c, heap, false, start)
	}
	// First the options whose outcome is known without a search (an
	// enhanced transposition cutoff), then the others, the smallest
	// largest part first: the cheapest searches.
	order := s.order[depth][:0]
	for i := range opts {
		q, known, o := s.probe(&opts[i], c.h, heap, depth)
		if known && q {
			return s.store(c, heap, false, start)
		}
		if !known {
			o.i = i
			order = append(order, o)
		}
	}
	s.order[depth] = order
	slices.SortStableFunc(order, func(a, b optInfo) int { return a.size - b.size })
	p := true
	for k := range order {
		q, err := s.optionP(&order[k], &opts[order[k].i], c.h, heap, depth)
		if err != nil {
			return false, err
		}
		if q {
			p = false
			break
		}
	}
	// No move in the component reaches a P-position, so the position is
	// P unless moving in the heap does: unless c + *h is P for some h
	// below heap (these searches are the ones value asked before).
	for h := uint16(0); p && h < heap; h++ {
		q, err := s.outcome(c, h)
		if err != nil {
			return false, err
		}
		if q {
			p = false
		}
	}
	return s.store(c, heap, p, start)
}

// zeroByHalfTurn reports whether the half-turn of the h × w box maps b
// to itself with no cell of b mapped to itself or to a neighbour: only the
// centre of the box can be such a cell (odd × odd), or the two cells of
// the centre edge (odd × even), which the half-turn swaps.
func zeroByHalfTurn(b *Board, h, w int) bool {
	for r := 0; r < h; r++ {
		if bits.Reverse64(b[h-1-r])>>uint(64-w) != b[r] {
			return false
		}
	}
	// the centre cell, or one of the centre edge's (b has both or neither)
	return h%2 == 0 && w%2 == 0 || !b.Has(h/2, w/2)
}

// store keeps the outcome of c + *heap, searched from node start on: a P
// outcome as c's value.
func (s *Search) store(c shape, heap uint16, p bool, start int64) (bool, error) {
	var err error
	if p {
		err = s.tab.setValue(&c, heap, s.nodes-start)
	} else {
		err = s.tab.setN(&c, heap, s.nodes-start)
	}
	return p, err
}

// optInfo is what probe learnt of an option: its index, the cells and
// the canonical shape of its largest part, and, when the values of its
// other parts are known (ready), the heap they fold into with heap.
type optInfo struct {
	i, size int
	big     shape
	x       uint16
	ready   bool
}

// probe reports the outcome of the option o + *heap when the values of
// its parts and the outcome of its largest are known without a search,
// and what it learnt of o for optionP.
func (s *Search) probe(o *Board, h int, heap uint16, depth int) (q, known bool, info optInfo) {
	parts, big, size := s.split(o, h, depth)
	if len(parts) == 0 {
		return heap == 0, true, info
	}
	info.size = size
	x := heap
	for i := range parts {
		if i == big {
			continue
		}
		v, ok := s.known(s.wk.canon(&parts[i], h), parts[i].Len())
		if !ok {
			return false, false, info
		}
		x ^= v
	}
	info.big, info.x, info.ready = s.wk.canon(&parts[big], h), x, true
	if size <= s.opts.Exact {
		v, ok := s.exact.memo.get(info.big.key, info.big.compact)
		return v == x, ok, info
	}
	q, known = s.tab.outcome(&info.big, x)
	return q, known, info
}

// split lists the parts of o (a frame of h rows) in the buffer of depth,
// with the index and the cells of the largest (the first of them).
func (s *Search) split(o *Board, h, depth int) (parts []Board, big, size int) {
	parts = s.pieces[depth][:0]
	Components(*o, h, func(k Board) { parts = append(parts, k) })
	s.pieces[depth] = parts
	for i := range parts {
		if n := parts[i].Len(); n > size {
			big, size = i, n
		}
	}
	return parts, big, size
}

// known is the value of a shape of n cells when a table has it.
func (s *Search) known(c shape, n int) (uint16, bool) {
	if n <= s.opts.Exact {
		return s.exact.memo.get(c.key, c.compact)
	}
	return s.tab.value(&c)
}

// optionP reports whether the option o (a frame of h rows) + *heap is P:
// every part but the largest is folded into the heap by its value. info
// is what probe learnt of o.
func (s *Search) optionP(info *optInfo, o *Board, h int, heap uint16, depth int) (bool, error) {
	if !info.ready {
		parts, big, _ := s.split(o, h, depth)
		x := heap
		for i := range parts {
			if i == big {
				continue
			}
			v, err := s.value(s.wk.canon(&parts[i], h))
			if err != nil {
				return false, err
			}
			x ^= v
		}
		info.big, info.x, info.ready = s.wk.canon(&parts[big], h), x, true
	}
	if info.size <= s.opts.Exact {
		v, err := s.value(info.big)
		return v == info.x, err
	}
	return s.outcome(info.big, info.x)
}
