package sandbox

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
)

// DefaultMaxSteps is the step budget when Limits.MaxSteps is zero: a few
// seconds to a minute of Starlark, far more than any sensible cell or rule
// needs, so that a runaway loop stops on its own.
const DefaultMaxSteps = 1_000_000_000

// flagMemory is the command-line flag that raises the memory limit, named
// by the errors that refuse to go past it.
const flagMemory = "--max-memory"

// Limits bound one thread of Starlark code.
type Limits struct {
	// MaxSteps is the step budget: the interpreter's steps plus the
	// elementary steps that guarded built-ins, and callers through Tick,
	// count. 0 means DefaultMaxSteps.
	MaxSteps uint64
	// MaxMemory is the memory limit in bytes, of the resident set size
	// of the whole process: a watchdog (budget.Watch) stops the thread
	// before the process crosses it, and guarded code refuses what would
	// take it past the limit before allocating (the growth of lists,
	// dicts and sets included). It is never raised: a session that holds
	// nearly as much as its limit can still run the cell that frees it
	// (x = None), which allocates nothing. 0 watches nothing.
	MaxMemory int64
}

// ErrStopped is what a guarded built-in (and Tick) returns once its thread
// is stopped; the error of the run (FileError) says why: interrupt,
// memory or steps.
var ErrStopped = errors.New("stopped")

// ErrSteps is wrapped by the error of code that ran past its step budget.
var ErrSteps = errors.New("step budget exhausted")

// State is the budgets of a running thread: the step budget, whether the
// thread ran past it, the memory limit its watchdog enforces and the
// context that stops it.
type State struct {
	max      uint64
	limit    uint64 // thread.Steps at which the budget is spent
	exceeded bool
	memory   int64  // the watchdog's limit; 0 watches nothing
	check    uint64 // thread.Steps at which the memory is next checked
	ctx      context.Context
	comps    []*compCount // the comprehensions being built, innermost last
}

// localState is the thread-local key of a thread's State.
const localState = "nimbook.sandbox.state"

// StateOf returns the budgets of th: those NewThread gave it, or for
// another thread fresh ones, without limits.
func StateOf(th *starlark.Thread) *State {
	if st, ok := th.Local(localState).(*State); ok {
		return st
	}
	return &State{ctx: context.Background()}
}

// Context is the context of the thread: cancelled by the caller's context
// and by the memory watchdog. Engine work started from the thread's code
// takes it, so that it stops with the thread.
func (st *State) Context() context.Context { return st.ctx }

// Exceeded reports whether the thread ran past its step budget.
func (st *State) Exceeded() bool { return st.exceeded }

// MaxSteps is the step budget of the thread.
func (st *State) MaxSteps() uint64 { return st.max }

// Memory is the memory limit guarded built-ins check against; 0 checks
// nothing.
func (st *State) Memory() int64 { return st.memory }

// SetMaxSteps gives the running thread th a budget of n steps, counted
// from now.
func (st *State) SetMaxSteps(th *starlark.Thread, n uint64) {
	st.max = n
	st.limit = th.ExecutionSteps() + n
	st.arm(th)
}

// checkEvery is how many steps a thread with a memory limit takes between
// two checks of the memory of its own (budget.Check), a millisecond or two
// of Starlark: the watchdog's goroutine may wait its turn for a processor
// on a busy machine while the thread allocates.
const checkEvery = 1 << 16

// arm sets the step at which the interpreter next calls OnMaxSteps: the
// next memory check, or the end of the step budget.
func (st *State) arm(th *starlark.Thread) {
	next := st.limit
	if st.memory > 0 {
		st.check = th.ExecutionSteps() + checkEvery
		next = min(next, st.check)
	}
	th.SetMaxExecutionSteps(next)
}

// checkMemory checks the memory when the thread has taken checkEvery
// steps since the last check.
func (st *State) checkMemory(th *starlark.Thread) {
	if st.memory > 0 && th.Steps >= st.check {
		st.check = th.Steps + checkEvery
		if budget.Check(st.ctx) != nil {
			// At once: the cancel of the context reaches the thread
			// through a goroutine of its own, which may wait its turn.
			th.Cancel("interrupted")
		}
	}
}

// LowerMemory lowers the memory limit of the running thread to n when it
// is lower: guarded built-ins check against it from now on, and the
// thread's watchdog stops it there.
func (st *State) LowerMemory(n int64) {
	if n <= 0 {
		return
	}
	if st.memory <= 0 || n < st.memory {
		st.memory = n
		budget.Lower(st.ctx, n)
	}
}

// NewThread returns a thread for guarded code within lim: ctx and the
// memory watchdog cancel it, and the step budget stops it. Its Print is
// Starlark's default (standard error); set it to send print elsewhere.
// StateOf(th) holds its budgets. stop releases the watchdog (and, after a
// thread stopped at the memory limit, gives the memory back to the
// system); call it when the thread's work is done.
func NewThread(ctx context.Context, name string, lim Limits) (th *starlark.Thread, stop func()) {
	if ctx == nil {
		ctx = context.Background()
	}
	steps := lim.MaxSteps
	if steps == 0 {
		steps = DefaultMaxSteps
	}
	memory := max(lim.MaxMemory, 0)
	st := &State{max: steps, limit: steps, memory: memory}
	wctx, stopWatch := budget.Watch(ctx, memory)
	st.ctx = wctx
	th = &starlark.Thread{
		Name: name,
		OnMaxSteps: func(th *starlark.Thread) {
			if th.ExecutionSteps() >= st.limit {
				st.exceeded = true
				th.Cancel("step budget exhausted")
				return
			}
			st.checkMemory(th) // a stop cancels the thread (below)
			st.arm(th)
		},
	}
	st.arm(th)
	th.SetLocal(localState, st)
	stopCancel := context.AfterFunc(wctx, func() { th.Cancel("interrupted") })
	return th, func() {
		stopCancel()
		stopped := MemoryStopped(wctx)
		stopWatch()
		if stopped {
			runtime.GC()
			debug.FreeOSMemory()
		}
	}
}

// Tick counts n elementary steps of work done in Go for th's code (a
// built-in's loop) against its step budget, so that work done inside one
// call does not escape it, and returns ErrStopped once the thread must
// stop: interrupted, at its memory limit or past its steps. Long loops
// call it every few thousand elements.
func Tick(th *starlark.Thread, n int) error {
	st := StateOf(th)
	th.Steps += uint64(n)
	st.checkMemory(th)
	if st.limit > 0 && th.Steps >= st.limit && !st.exceeded {
		st.exceeded = true
		th.Cancel("step budget exhausted")
	}
	if st.exceeded || st.ctx.Err() != nil {
		return ErrStopped
	}
	return nil
}

// memoryError refuses an allocation that would take the process past its
// thread's memory limit (less the watchdog's margin, budget.Margin).
type memoryError struct {
	what               string
	need, inUse, limit int64
}

func (e *memoryError) Error() string {
	msg := fmt.Sprintf("%s needs about %s, more than the memory limit of %s allows", e.what, budget.FormatSize(e.need), budget.FormatSize(e.limit))
	if e.inUse > e.limit/10 {
		msg += fmt.Sprintf(" with %s already in use", budget.FormatSize(e.inUse))
	}
	return msg + "; work on smaller sizes, or start nimbook with a larger " + flagMemory
}

func (e *memoryError) Is(target error) bool { return target == budget.ErrMemory }

// NeedMemory checks, before a built-in allocates about need bytes for what,
// that they fit in what th's memory limit leaves (budget.Available: the
// limit less the watchdog's margin and the process's resident memory).
// The error wraps budget.ErrMemory.
func NeedMemory(th *starlark.Thread, what string, need int64) error {
	st := StateOf(th)
	if st.memory <= 0 || need <= 0 {
		return nil
	}
	if need < 1<<20 { // small: the watchdog is enough
		return nil
	}
	if need > budget.Available(st.memory) {
		// What is in use counts garbage not yet collected, and pages
		// freed but not yet given back: collect and give them back
		// before refusing.
		debug.FreeOSMemory()
		if need > budget.Available(st.memory) {
			return &memoryError{what: what, need: need, inUse: budget.Used(), limit: st.memory}
		}
	}
	return nil
}

// MemoryStopped tells whether ctx was cancelled by a memory watchdog.
func MemoryStopped(ctx context.Context) bool {
	var le *budget.LimitError
	return ctx.Err() != nil && errors.As(context.Cause(ctx), &le)
}

// StoppedMessage says why ctx stopped a thread: the memory watchdog
// ("MemoryLimit") or an interrupt ("Interrupted"), with a message whose
// subject is what ("the cell").
func StoppedMessage(ctx context.Context, what string) (name, msg string) {
	var le *budget.LimitError
	if errors.As(context.Cause(ctx), &le) {
		return "MemoryLimit", fmt.Sprintf("%s stopped at the memory limit of %s (%s in use): it builds more data than the limit allows; work on smaller sizes, or start nimbook with a larger %s",
			what, budget.FormatSize(le.Limit), budget.FormatSize(le.Used), flagMemory)
	}
	return "Interrupted", "interrupted"
}
