package starrule

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// Within returns the game g whose options are computed within ctx and
// lim, for an analysis that lists options through heap.Game.Options (a
// misère genus, quotient or outcome, the generic solver): every call of
// the function runs on one thread whose steps count against lim.MaxSteps
// (CallSteps at most for one call), within lim.MaxMemory above what is in
// use now, and that ctx stops at once (an interrupt, a memory watchdog).
// The first error of the function (or of a limit) cancels the context
// returned, with that error as its cause: the analysis, which checks its
// context, stops and says why, instead of taking the heap for one without
// moves. release frees the thread; call it when the analysis is done.
func (g *Game) Within(ctx context.Context, lim heap.Limits) (context.Context, heap.Game, func()) {
	if ctx == nil {
		ctx = context.Background()
	}
	steps := lim.MaxSteps
	if steps <= 0 {
		steps = heap.DefaultMaxSteps
	}
	bctx, cancel := context.WithCancelCause(ctx)
	b := &bound{Game: g, ctx: bctx, cancel: cancel, total: uint64(steps), memory: threadMemory(lim.MaxMemory)}
	return bctx, b, func() {
		b.mu.Lock()
		if b.release != nil {
			b.release()
			b.release = nil
		}
		b.done = true
		b.mu.Unlock()
		cancel(nil)
	}
}

// bound is a Game whose options are computed within a context and
// limits (Within).
type bound struct {
	*Game
	ctx    context.Context
	cancel context.CancelCauseFunc
	total  uint64 // the steps of every call together
	memory int64

	mu      sync.Mutex
	th      *starlark.Thread // made at the first call
	release func()
	end     uint64 // th's step count at which total is spent
	err     error
	done    bool
}

// Options lists the options of a heap of n as Game.Options does, within
// b's limits; nil once the function failed or the work was stopped (the
// context then says why).
func (b *bound) Options(n int) [][]int {
	opts, err := b.OptionsErr(n)
	if err != nil {
		return nil
	}
	return opts
}

// OptionsErr lists the options of a heap of n within b's limits.
func (b *bound) OptionsErr(n int) ([][]int, error) {
	if n < 0 {
		return b.Game.OptionsErr(n)
	}
	b.Game.mu.Lock()
	opts, ok := b.Game.cache[n]
	b.Game.mu.Unlock()
	if ok {
		return opts, nil
	}
	b.mu.Lock()
	if b.done {
		// Kept past its analysis: the game's own calls.
		b.mu.Unlock()
		return b.Game.OptionsErr(n)
	}
	defer b.mu.Unlock()
	if b.err != nil {
		return nil, b.err
	}
	if err := budget.Err(b.ctx); err != nil {
		return nil, b.fail(fmt.Errorf("starrule: %v: %w", b.Game, err))
	}
	if b.th == nil {
		b.th, b.release = b.Game.threads(b.ctx, sandbox.Limits{MaxSteps: b.total, MaxMemory: b.memory})
		b.end = b.th.ExecutionSteps() + sandbox.StateOf(b.th).MaxSteps() // b.total, or the cell's budget when lower
	}
	opts, err := b.Game.callWithin(b.th, n, b.end)
	if err != nil {
		b.Game.mu.Lock()
		b.Game.keep(err)
		b.Game.mu.Unlock()
		return nil, b.fail(err)
	}
	b.Game.store(n, opts)
	return opts, nil
}

// fail keeps err and stops the analysis with it; b.mu is held.
func (b *bound) fail(err error) error {
	b.err = err
	b.cancel(err)
	return err
}

// callWithin calls the function for a heap of n on th with CallSteps at
// most, and what is left of th's budget (to th's step count end): a
// runaway call stops after its own share, not after the budget of the
// whole analysis (10^10 steps for limits.positions of 10^8).
func (g *Game) callWithin(th *starlark.Thread, n int, end uint64) ([][]int, error) {
	st := sandbox.StateOf(th)
	left := uint64(0)
	if now := th.ExecutionSteps(); now < end {
		left = end - now
	}
	st.SetMaxSteps(th, min(callSteps(), left))
	opts, err := g.call(th, n)
	if err == nil {
		left = 0
		if now := th.ExecutionSteps(); now < end {
			left = end - now
		}
		st.SetMaxSteps(th, left)
	}
	return opts, err
}

// store keeps the options of n, within maxCached.
func (g *Game) store(n int, opts [][]int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.cache[n]; ok || g.cached >= maxCached {
		return
	}
	g.cache[n] = opts
	for _, o := range opts {
		g.cached += len(o) + 1
	}
}

// Within is Game.Within for a game already bound: its options are
// computed within the tighter context and limits too.
func (b *bound) Within(ctx context.Context, lim heap.Limits) (context.Context, heap.Game, func()) {
	return b.Game.Within(ctx, lim)
}

// Err is the first error of the rule, of b's calls or of the game's.
func (b *bound) Err() error {
	b.mu.Lock()
	err := b.err
	b.mu.Unlock()
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return b.Game.Err()
}

// threadMemory is the memory limit of a thread of the rule whose work may
// allocate n bytes (0: no bound of its own): n above what is in use, and
// never above the process's watchdogs (budget.Lowest), whose limit, the
// user's, is the one errors then quote (not 263.2 MiB under 256MiB).
func threadMemory(n int64) int64 {
	m := int64(0)
	if n > 0 {
		m = budget.InUse() + n
	}
	if low := budget.Lowest(); low > 0 && (m == 0 || low < m) {
		m = low
	}
	return m
}

// maxCallSteps is the steps one call of a rule's function may take, 0
// for CallSteps: the command line's --max-steps (SetCallSteps).
var maxCallSteps atomic.Uint64

// SetCallSteps makes n the steps one call of a rule's function may take
// in this process (a job run's --max-steps, the budget a notebook's cell
// has); 0 restores CallSteps.
func SetCallSteps(n uint64) { maxCallSteps.Store(n) }

func callSteps() uint64 {
	if n := maxCallSteps.Load(); n > 0 {
		return n
	}
	return CallSteps
}
