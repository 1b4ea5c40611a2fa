package notebook

import (
	"fmt"
	"runtime/debug"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/sandbox"
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

// memoryLeft is the memory an engine call may use for its tables: what
// the cell's limit leaves above what the process holds (budget.Available),
// so that the engine's own estimates refuse work the watchdog would stop.
// The engines set budget.Reserve aside for the program itself, which the
// process's memory already counts: it is given back. The engine's
// messages then name this, not the whole limit.
func memoryLeft(th *starlark.Thread) int64 {
	s, _, _ := sessionOf(th)
	limit := s.opts.Limits.Memory
	if m := sandbox.StateOf(th).Memory(); m > 0 {
		limit = m
	}
	return max(budget.Available(limit)+budget.Reserve, 1<<20)
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
		// A limit below what the process holds would stop the cell at
		// once: refuse it, naming what is held.
		if budget.Available(nMem) < 0 {
			debug.FreeOSMemory()
			if budget.Available(nMem) < 0 {
				return nil, fmt.Errorf("limits: memory=%s is less than the %s nimbook already holds (this session's values and the program itself, with a margin of %s); free some values first (x = None), or give a larger size",
					memory.String(), budget.FormatSize(budget.Used()), budget.FormatSize(budget.Margin(nMem)))
			}
		}
	}
	if nSteps > 0 {
		s.opts.MaxSteps = uint64(nSteps)
		// The running cell gets the new budget too, counted from now.
		sandbox.StateOf(th).SetMaxSteps(th, uint64(nSteps))
	}
	if nPos > 0 {
		s.opts.Limits.Positions = nPos
		s.opts.MaxPositions = int(min(nPos, int64(^uint(0)>>1)))
	}
	if nMem > 0 {
		s.opts.Limits.Memory = nMem
		// The running cell is held to the new limit from now on: its
		// watchdog and what its built-ins allocate.
		sandbox.StateOf(th).LowerMemory(nMem)
	}
	d := starlark.NewDict(3)
	_ = d.SetKey(starlark.String("steps"), starlark.MakeUint64(s.opts.MaxSteps))
	_ = d.SetKey(starlark.String("positions"), starlark.MakeInt64(s.opts.Limits.Positions))
	_ = d.SetKey(starlark.String("memory"), starlark.MakeInt64(s.opts.Limits.Memory))
	return d, nil
}
