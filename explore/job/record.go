package job

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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
