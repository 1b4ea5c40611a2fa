package misere

import (
	"context"

	"github.com/nimbook/nimbook/explore/heap"
)

// A Binder is a game whose options are computed by code of its own (a
// Starlark rule, package starrule): Within returns the game whose
// options are computed within ctx and lim, the context that its first
// error (or a limit) cancels, and a function releasing what it holds.
type Binder interface {
	Within(ctx context.Context, lim heap.Limits) (context.Context, heap.Game, func())
}

// Bind returns g, the context and the release of its Within when g is a
// Binder, so that an analysis that lists options (genus, quotient,
// outcome) runs a rule's code inside its step budget, memory limit and
// context; else g and ctx as they are. The analysis checks the context
// returned: a rule's error stops it, and budget.Err of the context says
// what the rule did.
func Bind(ctx context.Context, g heap.Game, lim heap.Limits) (context.Context, heap.Game, func()) {
	if ctx == nil {
		ctx = lim.Context
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if b, ok := g.(Binder); ok {
		return b.Within(ctx, lim)
	}
	return ctx, g, func() {}
}

// PositionsAtLeast is a lower bound of the positions the generic solver
// visits from the position heaps of g: with c heaps of size s, each size
// having a move, the heaps of each size that have made one move (0 to c
// of them, the same option each) give ∏(c+1) positions, all distinct (the
// largest size where two choices differ holds a different count of
// heaps, for moves only make heaps smaller). A position of 1 000 heaps
// is refused by it before any work (it worked 40 s before).
func PositionsAtLeast(g heap.Game, heaps []int) float64 {
	counts := map[int]int{}
	for _, h := range heaps {
		if h > 0 {
			counts[h]++
		}
	}
	n := 1.0
	for s, c := range counts {
		// Listed, unless there are too many to list (then there is one).
		moves, ok := heap.OptionCount(g, s)
		if !ok || moves < 1<<16 {
			moves = int64(len(g.Options(s)))
		}
		if moves > 0 {
			n *= float64(c + 1)
		}
	}
	return n
}
