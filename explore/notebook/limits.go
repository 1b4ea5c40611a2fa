package notebook

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/job"
)

// Flags that set a session's ceilings, named by the errors that refuse to
// go past one: a notebook may lower a limit, only the command line raises
// it.
const (
	flagSteps     = "--max-steps"
	flagPositions = "--max-positions"
	flagMemory    = "--max-memory"
)

// ceiling is the most a session's cells may use: the Options the session
// was made with (the command line's flags), defaults filled in.
type ceiling struct {
	steps     uint64
	positions int64
	memory    int64
}

// cellState is what a running cell's built-ins need to stay within its
// budgets: the step budget (max, counted from the thread's steps so far to
// limit), whether the cell ran past it, and the memory limit its
// watchdog enforces.
type cellState struct {
	max      uint64
	limit    uint64 // thread.Steps at which the budget is spent
	exceeded bool
	memory   int64 // the watchdog's limit; 0 watches nothing
	ctx      context.Context
}

// errStopped is what a built-in returns once its cell is stopped; the
// cell's error says why (interrupt, memory, steps).
var errStopped = errors.New("stopped")

// stateOf returns the budgets of th's cell (a fresh one for a thread made
// outside a session).
func stateOf(th *starlark.Thread) *cellState {
	if st, ok := th.Local(localSteps).(*cellState); ok {
		return st
	}
	return &cellState{ctx: context.Background()}
}

// tick counts n elementary steps of a built-in against the cell's step
// budget, so that work done inside one call does not escape it, and
// returns errStopped once the cell must stop: interrupted, at its memory
// limit or past its steps.
func tick(th *starlark.Thread, n int) error {
	st := stateOf(th)
	th.Steps += uint64(n)
	if st.limit > 0 && th.Steps >= st.limit && !st.exceeded {
		st.exceeded = true
		th.Cancel("step budget exhausted")
	}
	if st.exceeded || st.ctx.Err() != nil {
		return errStopped
	}
	return nil
}

// memoryError refuses an allocation that would take the cell past its
// memory limit.
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

// needMemory checks, before a built-in allocates about need bytes, that
// they fit in what the cell's memory limit leaves.
func needMemory(th *starlark.Thread, what string, need int64) error {
	st := stateOf(th)
	if st.memory <= 0 || need <= 0 {
		return nil
	}
	if need < 1<<20 { // small: the watchdog is enough
		return nil
	}
	used := budget.InUse()
	if need > st.memory-used {
		// What is in use counts garbage not yet collected: collect it
		// before refusing.
		runtime.GC()
		if used = budget.InUse(); need > st.memory-used {
			return &memoryError{what: what, need: need, inUse: used, limit: st.memory}
		}
	}
	return nil
}

// memoryLeft is the memory an engine call may use for its tables: what
// the cell's limit leaves above what is in use, so that the engine's own
// estimates refuse work the watchdog would stop. The engine's messages
// then name this, not the whole limit.
func memoryLeft(th *starlark.Thread) int64 {
	s, _, _ := sessionOf(th)
	limit := s.opts.Limits.Memory
	if st := stateOf(th); st.memory > 0 {
		limit = st.memory // the limit, or the headroom above what the session holds
	}
	return max(limit-budget.InUse(), 1<<20)
}

// headroom is what a cell may always allocate above the memory in use when
// it starts, so that a session holding as much as its limit can still run
// the cell that frees it (x = None).
const headroom = 64 << 20

// watch starts the cell's memory watchdog; stop ends it and, after a cell
// stopped at the limit, gives the memory back to the system.
func (s *Session) watch(ctx context.Context, st *cellState) (context.Context, func()) {
	limit := s.opts.Limits.Memory
	if limit > 0 {
		if used := budget.InUse(); used+headroom > limit {
			limit = used + headroom
		}
	}
	st.memory = limit
	wctx, stop := budget.Watch(ctx, limit)
	st.ctx = wctx
	return wctx, func() {
		stopped := memoryStopped(wctx)
		stop()
		if stopped {
			runtime.GC()
			debug.FreeOSMemory()
		}
	}
}

// memoryStopped tells whether ctx was cancelled by the memory watchdog.
func memoryStopped(ctx context.Context) bool {
	var le *budget.LimitError
	return ctx.Err() != nil && errors.As(context.Cause(ctx), &le)
}

// stoppedMessage is the error of a cell stopped by its context: the memory
// watchdog or an interrupt.
func stoppedMessage(ctx context.Context) (name, msg string) {
	var le *budget.LimitError
	if errors.As(context.Cause(ctx), &le) {
		return "MemoryLimit", fmt.Sprintf("the cell stopped at the memory limit of %s (%s in use): it builds more data than the limit allows; work on smaller sizes, or start nimbook with a larger %s",
			budget.FormatSize(le.Limit), budget.FormatSize(le.Used), flagMemory)
	}
	return "Interrupted", "interrupted"
}

// newCeiling fills in the defaults of opts and returns the ceilings they
// set.
func newCeiling(opts *Options) ceiling {
	if opts.MaxSteps == 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.Limits.Positions == 0 {
		opts.Limits.Positions = job.DefaultLimits.Positions
	}
	if opts.Limits.Memory == 0 {
		opts.Limits.Memory = job.DefaultLimits.Memory
	}
	if opts.MaxPositions == 0 {
		opts.MaxPositions = DefaultMaxPositions
	}
	opts.MaxPositions = int(min(int64(opts.MaxPositions), opts.Limits.Positions))
	return ceiling{steps: opts.MaxSteps, positions: opts.Limits.Positions, memory: opts.Limits.Memory}
}

// aboveCeiling is the refusal of a limit above the session's ceiling.
func aboveCeiling(key, asked, ceil, flag string) error {
	return fmt.Errorf("limits: %s=%s is above this session's ceiling of %s, set when nimbook started (%s); a notebook may only lower its limits", key, asked, ceil, flag)
}

func builtinLimits(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var steps, positions, memory starlark.Value = starlark.None, starlark.None, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "steps?", &steps, "positions?", &positions, "memory?", &memory); err != nil {
		return nil, err
	}
	s, _, _ := sessionOf(th)
	// Check every argument before changing anything.
	var nSteps, nPos, nMem int64
	if steps != starlark.None {
		if err := starlark.AsInt(steps, &nSteps); err != nil || nSteps <= 0 {
			return nil, fmt.Errorf("limits: steps must be a positive whole number, not %s (the step budget cannot be switched off)", steps)
		}
		if uint64(nSteps) > s.ceil.steps {
			return nil, aboveCeiling("steps", fmt.Sprint(nSteps), fmt.Sprintf("%d steps", s.ceil.steps), flagSteps)
		}
	}
	if positions != starlark.None {
		if err := starlark.AsInt(positions, &nPos); err != nil || nPos <= 0 {
			return nil, fmt.Errorf("limits: positions must be a positive whole number, not %s", positions)
		}
		if nPos > s.ceil.positions {
			return nil, aboveCeiling("positions", fmt.Sprint(nPos), fmt.Sprintf("%d positions", s.ceil.positions), flagPositions)
		}
	}
	if memory != starlark.None {
		switch m := memory.(type) {
		case starlark.String:
			v, err := budget.ParseSize(string(m))
			if err != nil {
				return nil, fmt.Errorf("limits: memory: want a size like \"512MiB\" or \"2GiB\", not %s", m)
			}
			nMem = v
		default:
			if err := starlark.AsInt(memory, &nMem); err != nil || nMem <= 0 {
				return nil, fmt.Errorf("limits: memory must be a size like \"512MiB\" or a number of bytes, not %s", memory)
			}
		}
		if nMem > s.ceil.memory {
			return nil, aboveCeiling("memory", memory.String(), budget.FormatSize(s.ceil.memory), flagMemory)
		}
	}
	if nSteps > 0 {
		s.opts.MaxSteps = uint64(nSteps)
		// The running cell gets the new budget too, counted from now.
		st := stateOf(th)
		st.max = uint64(nSteps)
		st.limit = th.ExecutionSteps() + uint64(nSteps)
		th.SetMaxExecutionSteps(st.limit)
	}
	if nPos > 0 {
		s.opts.Limits.Positions = nPos
		s.opts.MaxPositions = int(min(nPos, int64(^uint(0)>>1)))
	}
	if nMem > 0 {
		s.opts.Limits.Memory = nMem
		// The running cell's watchdog keeps its limit; what the cell's
		// built-ins allocate from now on is checked against the new one.
		st := stateOf(th)
		st.memory = min(st.memory, nMem)
	}
	d := starlark.NewDict(3)
	_ = d.SetKey(starlark.String("steps"), starlark.MakeUint64(s.opts.MaxSteps))
	_ = d.SetKey(starlark.String("positions"), starlark.MakeInt64(s.opts.Limits.Positions))
	_ = d.SetKey(starlark.String("memory"), starlark.MakeInt64(s.opts.Limits.Memory))
	return d, nil
}
