// Package stopcheck helps tests prove that long work stops when its context
// is cancelled, by watching the work rather than a stopwatch: the context
// cancels itself from inside the work, the n-th time the work asks whether
// it must stop, and counts what the work does after. A test then holds
// however loaded the machine is; how soon the work stops in seconds is
// for benchmarks and end-to-end tests.
//
// The work must ask through Err (budget.Err does): a context derived from
// this one with context.WithCancel is cancelled with it, but its own Err
// is not counted.
package stopcheck

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
)

// Context is a context.Context that cancels itself at the n-th call of its
// Err, on the goroutine that made it, with a cause. It is safe for
// concurrent use, as the contexts of parallel work must be.
type Context struct {
	context.Context
	cancel   context.CancelCauseFunc
	cause    error
	at       int64
	checks   atomic.Int64
	after    atomic.Int64
	fired    atomic.Bool
	progress *budget.Progress
	doneAt   atomic.Int64
}

// At returns a context, child of parent, that cancels itself with cause
// the n-th time Err is called (n ≥ 1). A budget.Progress on the context
// (budget.WithProgress) lets DoneAfter count the work done after.
func At(parent context.Context, n int64, cause error) *Context {
	ctx, cancel := context.WithCancelCause(parent)
	return &Context{Context: ctx, cancel: cancel, cause: cause, at: n, progress: budget.From(parent)}
}

// Err counts the check; at the n-th it cancels the context first.
func (c *Context) Err() error {
	switch k := c.checks.Add(1); {
	case k == c.at:
		c.doneAt.Store(c.progress.Snapshot().Done)
		c.fired.Store(true)
		c.cancel(c.cause)
	case k > c.at:
		c.after.Add(1)
	}
	return c.Context.Err()
}

// Cancelled reports whether the work checked often enough to be cancelled.
func (c *Context) Cancelled() bool { return c.fired.Load() }

// Checks is the number of checks so far.
func (c *Context) Checks() int64 { return c.checks.Load() }

// ChecksAfter is the number of checks made after the cancel: about one for
// each goroutine of the work when it stops at once.
func (c *Context) ChecksAfter() int64 { return c.after.Load() }

// DoneAfter is the progress counted after the cancel (the Done of the
// context's budget.Progress), 0 without a Progress.
func (c *Context) DoneAfter() int64 {
	if c.progress == nil || !c.Cancelled() {
		return 0
	}
	return c.progress.Snapshot().Done - c.doneAt.Load()
}

// Run is how work interrupted by InterruptBusy ended.
type Run struct {
	Err      error
	Early    bool          // the work returned before it was interrupted
	Hung     bool          // the work had not returned a hang guard's time after the interrupt
	CPUAfter time.Duration // processor time the process spent from the interrupt to the return
}

// InterruptBusy runs work on a goroutine of its own with a context that it
// cancels once the process has spent busy of processor time since the call
// (the work is under way, however loaded the machine; at once where
// ProcessCPU is unknown), then waits for work to return, for hang at most
// (a hang guard, not a measure). The processor time spent after the
// cancel is the work done after it, which a stopwatch cannot tell from
// the machine's load.
func InterruptBusy(busy, hang time.Duration, work func(ctx context.Context) error) Run {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	base, ok := ProcessCPU()
	go func() { done <- work(ctx) }()
	guard := time.After(hang)
	for ok {
		cpu, _ := ProcessCPU()
		if cpu-base >= busy {
			break
		}
		select {
		case err := <-done:
			return Run{Err: err, Early: true}
		case <-guard:
			return Run{Hung: true}
		case <-time.After(time.Millisecond):
		}
	}
	at, _ := ProcessCPU()
	cancel()
	select {
	case err := <-done:
		end, _ := ProcessCPU()
		return Run{Err: err, CPUAfter: end - at}
	case <-time.After(hang):
		return Run{Hung: true}
	}
}
