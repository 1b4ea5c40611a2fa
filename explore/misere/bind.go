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
