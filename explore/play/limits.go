package play

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// Limits bound the work of a game played, as a job file's limits bound its
// analyses: the engine refuses a start whose values, tables or solved
// positions pass them, before the first move, and Context stops any long
// computation (Ctrl-C).
type Limits struct {
	// Positions bounds the positions a table, a value sequence, a solver
	// or a list of moves may hold; 0 means the engines' defaults.
	Positions int64
	// Memory bounds the bytes of coin games' tables; 0: their default.
	Memory int64
	// Context, when not nil, stops long work once it is done.
	Context context.Context
}

func (l Limits) positions() int {
	if l.Positions <= 0 {
		return 0
	}
	return int(min(l.Positions, math.MaxInt))
}

// Heap is the limits for package heap.
func (l Limits) Heap() heap.Limits {
	var steps int64
	if l.Positions > 0 {
		steps = l.Positions * 10
		if l.Positions > math.MaxInt64/10 {
			steps = math.MaxInt64 // a larger limit never refuses smaller work
		}
	}
	return heap.Limits{MaxPositions: l.positions(), MaxSteps: steps, Context: l.Context}
}

// Wythoff is the options for package wythoff.
func (l Limits) Wythoff() wythoff.Options {
	return wythoff.Options{MaxCells: l.positions(), Context: l.Context}
}

// Coins is the limits for package coins.
func (l Limits) Coins() coins.Limits {
	var steps int64
	if l.Positions > 0 {
		steps = l.Positions * 10
		if l.Positions > math.MaxInt64/10 {
			steps = math.MaxInt64 // a larger limit never refuses smaller work
		}
	}
	return coins.Limits{MaxMemory: l.Memory, MaxSteps: steps, MaxPositions: l.positions(), Context: l.Context}
}

// ErrTooLarge is wrapped by the errors refusing a game whose work passes
// the limits.
var ErrTooLarge = errors.New("play: too large for the limits")

// tooLarge refuses work: the message says which limit, and how to raise it.
func tooLarge(format string, args ...any) error {
	return &limitError{msg: fmt.Sprintf(format, args...)}
}

type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return ErrTooLarge }

// IsRefusal reports whether err refuses work for a limit (positions,
// steps, memory) rather than for a mistake: the same position under
// larger limits would do.
func IsRefusal(err error) bool {
	for _, e := range []error{ErrTooLarge, game.ErrTooManyPositions, heap.ErrTooManySteps, heap.ErrTooManyBits, coins.ErrLimit, wythoff.ErrTooLarge, budget.ErrMemory} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
