package job

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/graph"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/record"
)

// heapKey is a position of several heaps as a comparable value, the heaps
// written "1,3,5,7"; heaps keep their places as SPEC.md's position form says.
type heapKey string

func keyOf(heaps []int) heapKey {
	parts := make([]string, len(heaps))
	for i, h := range heaps {
		parts[i] = strconv.Itoa(h)
	}
	return heapKey(strings.Join(parts, ","))
}

func (k heapKey) heaps() []int {
	if k == "" {
		return nil
	}
	parts := strings.Split(string(k), ",")
	out := make([]int, len(parts))
	for i, p := range parts {
		out[i], _ = strconv.Atoi(p)
	}
	return out
}

func heapMover(g heap.Game, lim heap.Limits) game.Mover[heapKey] {
	return game.MoveFunc[heapKey](func(k heapKey) ([]heapKey, error) {
		ms, err := heap.Moves(g, k.heaps(), lim)
		if err != nil {
			return nil, err
		}
		out := make([]heapKey, len(ms))
		for i, m := range ms {
			out[i] = keyOf(m)
		}
		return out, nil
	})
}

func (r *runner) recordOptions() record.Options {
	return record.Options{Play: r.play(), MaxPositions: clampInt(r.lim.Positions), MaxMemory: r.lim.Memory, Context: r.ctx}
}

// RecordOf turns a record analysis into the report's form, converting
// positions with conv. Callers with games of their own (the notebook's
// user-defined games) use it so that every record renders alike.
func RecordOf[T comparable](a *record.Analysis[T], conv func(T) any) *Record {
	rec := &Record{Moves: []RecordMove{}, Winner: a.Winner}
	if a.Illegal >= 0 {
		rec.Illegal = a.Illegal + 1
	}
	for _, m := range a.Moves {
		rm := RecordMove{Player: m.Player, From: conv(m.From), To: conv(m.To), Legal: m.Legal,
			Before: m.Before.String(), After: m.After.String(), Mistake: m.Mistake}
		if m.Mistake {
			missed := make([]any, len(m.Missed))
			for i, p := range m.Missed {
				missed[i] = conv(p)
			}
			rm.Missed = missed
			rec.Mistakes++
		}
		rec.Moves = append(rec.Moves, rm)
	}
	return rec
}

func (r *runner) heapRecord(g heap.Game) error {
	var keys []heapKey
	for _, p := range r.s.Record {
		keys = append(keys, keyOf(p.([]int)))
	}
	a, err := record.Analyse(heapMover(g, r.heapLimits()), keys, r.recordOptions())
	if err != nil {
		return limitErr(err)
	}
	r.res.Record = RecordOf(a, func(k heapKey) any { return nonNil(k.heaps()) })
	return nil
}

func (r *runner) coinsRecord(g *coins.Game) error {
	n := r.s.Coins().N
	m, err := g.Mover(n)
	if err != nil {
		return err
	}
	return r.maskRecord(m, func(p any) (uint64, error) { return g.Mask(n, p.([]int)) },
		func(mask uint64) any { return nonNil(g.Heads(mask)) })
}

// maskRecord analyses the record of a game solved on bitmask positions:
// mask reads a position of the job file, show writes one back.
func (r *runner) maskRecord(m game.Mover[uint64], mask func(any) (uint64, error), show func(uint64) any) error {
	var masks []uint64
	for _, p := range r.s.Record {
		mk, err := mask(p)
		if err != nil {
			return err
		}
		masks = append(masks, mk)
	}
	a, err := record.Analyse(m, masks, r.recordOptions())
	if err != nil {
		return limitErr(err)
	}
	r.res.Record = RecordOf(a, show)
	return nil
}

// productRecord analyses a played product; positions are lists of cells.
// Under normal play the outcomes come from the heads' values (nim-products
// of the factors' values), so a grid of any size is analysed; misère play
// needs the generic solver on the whole grid, a bitmask of at most 64
// cells.
func (r *runner) productRecord(p *coins.Product) error {
	sizes := r.s.Product().Size
	if r.play() == game.Misere {
		cells := 1
		for _, n := range sizes {
			cells *= n
		}
		if cells > 64 {
			return fmt.Errorf("a misère record of a product is solved on the whole grid, at most 64 cells, and size %v has %d: give the smallest size that holds the heads played", sizes, cells)
		}
		m, err := p.Mover(sizes...)
		if err != nil {
			return limitErr(err)
		}
		return r.maskRecord(m, func(pos any) (uint64, error) { return p.Mask(sizes, pos.([][]int)) },
			func(mask uint64) any { return p.Heads(sizes, mask) })
	}
	var played [][][]int
	for _, pos := range r.s.Record {
		heads := slices.Clone(pos.([][]int))
		slices.SortFunc(heads, slices.Compare)
		played = append(played, heads)
	}
	a, table, err := productAnalysis(p, played)
	if err != nil {
		return limitErr(err)
	}
	r.res.Record = RecordOf(a, func(i int) any { return table[i] })
	return nil
}

// productAnalysis is record.Analyse under normal play with the values of
// the product in place of the generic solver. Positions are sorted lists
// of heads; the analysis names them by their index in the table it
// returns: played, then the winning moves missed.
func productAnalysis(p *coins.Product, played [][][]int) (*record.Analysis[int], [][][]int, error) {
	value := func(heads [][]int) (uint64, game.Outcome, error) {
		v, err := p.Value(heads)
		if err != nil {
			return 0, 0, err
		}
		if v == 0 {
			return 0, game.P, nil
		}
		return v, game.N, nil
	}
	g, o, err := value(played[0])
	if err != nil {
		return nil, nil, err
	}
	a := &record.Analysis[int]{Play: game.Normal, Start: 0, StartOutcome: o, Illegal: -1}
	n := len(played)
	for i := 0; i+1 < n; i++ {
		mv := record.Move[int]{Index: i, Player: 1 + i%2, From: i, To: i + 1, GrundyBefore: g, Before: o}
		if mv.Legal, err = p.IsMove(played[i], played[i+1]); err != nil {
			return nil, nil, err
		}
		if !mv.Legal {
			a.Moves = append(a.Moves, mv)
			a.Illegal = i
			return a, played, nil
		}
		if g, o, err = value(played[i+1]); err != nil {
			return nil, nil, err
		}
		mv.GrundyAfter, mv.After = g, o
		if mv.Before == game.N && mv.After == game.N {
			wins, err := p.WinningMoves(played[i])
			if err != nil {
				return nil, nil, err
			}
			for _, w := range wins {
				mv.Missed = append(mv.Missed, len(played))
				played = append(played, w)
			}
			mv.Mistake = true
		}
		a.Moves = append(a.Moves, mv)
	}
	last, err := p.Moves(played[n-1])
	if err != nil {
		return nil, nil, err
	}
	if len(last) == 0 {
		a.Over = true
		a.Winner = 2 - len(a.Moves)%2 // normal play: whoever made the last move wins
	}
	return a, played, nil
}

// countOf writes a count of positions, saturated ones as "more than 2^64".
func countOf(n uint64) string {
	if n == math.MaxUint64 {
		return "more than 2^64 of them"
	}
	return fmt.Sprintf("%d of them", n)
}

// GraphResult is the result form of a drawn graph, its DOT source named
// name (job sections draw "game"; a notebook's game its own name).
func GraphResult(g *graph.Graph, name string) (*Graph, error) {
	dot, err := g.DOT(name)
	if err != nil {
		return nil, err
	}
	res := &Graph{Nodes: g.Len(), Edges: len(g.Edges()), Kernel: []string{}, DOT: string(dot)}
	for _, n := range g.Kernel() {
		res.Kernel = append(res.Kernel, n.Label)
	}
	index := map[int64]int{}
	for i, n := range g.Nodes() {
		index[n.ID] = i
		res.Labels = append(res.Labels, n.Label)
		res.P = append(res.P, n.Outcome == game.P)
	}
	for _, e := range g.Edges() {
		res.Moves = append(res.Moves, [2]int{index[e.From], index[e.To]})
	}
	return res, nil
}

func (r *runner) graphMax() int {
	if r.lim.Positions < graph.DefaultMaxPositions {
		return int(r.lim.Positions)
	}
	return graph.DefaultMaxPositions
}

// heapGraph draws the game from the position with unordered heaps, as the
// seeds draw Nim: (1,1,2) and (1,2,1) are one node.
func (r *runner) heapGraph(g heap.Game, heaps []int) error {
	if heaps == nil {
		return fmt.Errorf("graph needs a position to start from: add position: [heaps]")
	}
	start, err := heap.NewMultiset(heaps...)
	if err != nil {
		return err
	}
	gr, err := graph.Build(heap.BoundedMultisetMover(g, r.heapLimits()), start, graph.Options[heap.Multiset]{MaxPositions: r.graphMax(), Play: r.play(), MaxMemory: r.lim.Memory, Context: r.ctx})
	if err != nil {
		return limitErr(err)
	}
	r.res.Graph, err = GraphResult(gr, "game")
	return err
}

func (r *runner) coinsGraph(g *coins.Game) error {
	heads, ok := r.s.Position.([]int)
	if !ok {
		return fmt.Errorf("graph needs a position to start from: add position: [heads]")
	}
	n := r.s.Coins().N
	m, err := g.Mover(n)
	if err != nil {
		return err
	}
	start, err := g.Mask(n, heads)
	if err != nil {
		return err
	}
	label := func(mask uint64) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if mask>>i&1 == 1 {
				b.WriteString("●")
			} else {
				b.WriteString("○")
			}
		}
		return b.String()
	}
	gr, err := graph.Build(m, start, graph.Options[uint64]{MaxPositions: r.graphMax(), Play: r.play(), MaxMemory: r.lim.Memory, Context: r.ctx, Label: label})
	if err != nil {
		return limitErr(err)
	}
	r.res.Graph, err = GraphResult(gr, "game")
	return err
}
