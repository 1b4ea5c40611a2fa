package job

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// sectionOverhead is what any section holds besides its tables: the
// runner, its results and the small lists they carry.
const sectionOverhead = 1 << 20

// listBytes bounds a listed set of P-positions (MaxListed of them, each a
// slice header and a few ints).
const listBytes = MaxListed * (24 + 8*4)

// memoryEstimate returns the bytes the section is estimated to hold at
// most while it runs, from the estimates its engines expose (the heap
// sweeps' heap.Estimate, wythoff.TableBytes, the nimber table), so that
// Run may compute it beside others within the memory limit. Analyses
// without such an estimate (coin games and their codes, products,
// misère solvers, records, graphs) count as the whole limit: the section
// then runs alone. note is what a long heap sweep will cost, for
// Options.Estimate, or "". A section refused at once (too many
// positions) holds nothing; one estimated past the memory limit is left
// for its engine to refuse, with the same message as when it runs alone.
func (r *runner) memoryEstimate() (need int64, note string) {
	whole := r.lim.Memory
	s := r.s
	if r.wants("record") || r.wants("graph") {
		return whole, ""
	}
	switch g := s.Game.(type) {
	case *HeapSpec:
		return r.heapEstimate()
	case ownSpec:
		return g.memory(r), ""
	}
	return whole, ""
}

// sweepWanted says whether the heap analyses of g need the value
// sequence: P-positions do unless g counts them over positions of several
// heaps (Nim).
func (r *runner) sweepWanted(g heap.Game) bool {
	return r.wants("values") || r.wants("period") || r.wants("rare") || (r.wants("p-positions") && !r.countsPositions(g))
}

// countsPositions reports whether g counts P-positions over the positions
// below the section's own (heap.PPositioner), not over single heaps.
func (r *runner) countsPositions(g heap.Game) bool {
	_, ok := g.(heap.PPositioner)
	return ok
}

// sweepNote is the cost that Options.Estimate is told of a sweep, or ""
// when the sweep is short.
func sweepNote(g heap.Game, upto int, c heap.Cost) string {
	if c.Memory >= EstimateMemory || c.Steps >= EstimateSteps {
		return fmt.Sprintf("%v up to %d: %v", g, upto, c)
	}
	return ""
}

func (r *runner) heapEstimate() (int64, string) {
	whole := r.lim.Memory
	g, upto, err := r.heapGame()
	if err != nil {
		return whole, ""
	}
	lim := r.heapLimits()
	need := int64(sectionOverhead)
	note := ""
	if r.sweepWanted(g) {
		c, err := heap.Estimate(g, upto, lim)
		if err != nil {
			// Refused at once by the sweep (or cancelled): nothing held.
			return sectionOverhead, ""
		}
		need += c.Memory
		note = sweepNote(g, upto, c)
		if r.wants("rare") {
			// The two Walsh–Hadamard tables of at most 2^MaxSparseBits
			// counts, and the list of rare positions.
			need += 2*8<<heap.MaxSparseBits + 8*(int64(upto)+1)
		}
		if r.wants("p-positions") {
			need += 8 * (int64(upto) + 1)
		}
	}
	if r.wants("p-positions") && r.countsPositions(g) {
		need += listBytes
	}
	need += r.misereCost(g, upto).Memory
	if r.wants("outcome") || r.wants("moves") {
		_, formula := g.(heap.PositionSolver)
		switch {
		case formula:
		case r.play() == game.Misere:
			return whole, note // the generic solver, bounded by the limit only
		default:
			// The values of heaps up to the largest one.
			heaps, _ := r.s.Position.([]int)
			top := 0
			for _, h := range heaps {
				top = max(top, h)
			}
			c, err := heap.Estimate(g, top, lim)
			if err != nil {
				return whole, note
			}
			need += c.Memory
		}
	}
	return need, note
}
