package notebook

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/sandbox"
	"github.com/nimbook/nimbook/explore/starrule"
)

// ruleDoc documents rule(f, **params).
var ruleDoc = doc{`rule(f, upto=100, play="normal", position=None, **params)`,
	"A heap rule given by a function of the cell: f(n, **params) returns the options of a heap of n, a list of lists of heaps, each smaller than n ([] removes the heap; zeros are dropped), e.g. def lasker(n): ... then rule(lasker), or def squares(n, k): ... then rule(squares, k=3). " +
		"It behaves as the other heap rules: values(upto), period() (observed, never proven), p_positions(upto), outcome(p), moves(p), graph(p), grundy(p), options(p), plot(), play(...) and sums with +. " +
		"The function runs within the cell's budgets (steps, memory, interrupt); print in it writes to the cell."}

// builtinRule is rule(f, **params): a heap rule given by a Starlark
// function of the cell (package starrule makes its game). Called without
// a function, it is the built-in of the registered rule of its name, if
// any (a rule from a file: rule(file="rules.star", name="f")).
func builtinRule(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := b.Name()
	r, registered := ruleOfBuiltin(name)
	var fn starlark.Callable
	if len(args) > 0 {
		fn, _ = args[0].(starlark.Callable)
	}
	if fn == nil {
		if registered && (len(args) > 0 || len(kwargs) > 0) {
			if _, isString := args0(args).(starlark.String); isString || len(args) == 0 {
				return newRuleFamily(th, r, name, args, kwargs)
			}
		}
		return nil, fmt.Errorf("%s: want a function f(n, ...) that returns the options of a heap of n, e.g. %s(f, k=3)", name, name)
	}
	if !registered {
		return nil, fmt.Errorf("%s: no heap rule is registered under this name", name)
	}
	if len(args) > 1 {
		return nil, fmt.Errorf("%s: give the rule's parameters by name, e.g. %s(%s, k=3)", name, name, fn.Name())
	}
	// upto, play and position are the family's; the others the function's.
	var upto starlark.Value = starlark.None
	fa := familyArgs{}
	var fkw []starlark.Tuple
	params := map[string]any{}
	for _, kv := range kwargs {
		key, _ := starlark.AsString(kv[0])
		switch key {
		case heap.Upto, "play", "position":
			fkw = append(fkw, kv)
		default:
			if err := checkParamSize(th, name, key, kv[1]); err != nil {
				return nil, err
			}
			x, err := plainValue(name, key, kv[1])
			if err != nil {
				return nil, err
			}
			params[key] = x
		}
	}
	if err := starlark.UnpackArgs(name, nil, fkw, "upto?", &upto, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	n := 100
	if q := r.Param(heap.Upto); q != nil {
		if d, ok := q.Default.(int); ok {
			n = d
		}
		if err := setInt(name, "upto", upto, &n, q.Min, q.Max); err != nil {
			return nil, err
		}
	}
	kw, err := starrule.Kwargs(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// A game now, to check the function's parameters before any work.
	if _, err := starrule.FromCallable(fn, kw, nil); err != nil {
		msg := strings.TrimPrefix(err.Error(), "starrule: ")
		if pe := (*heap.ParamError)(nil); errors.As(err, &pe) {
			msg = pe.Msg
		}
		// The file's way of giving a parameter (params: {k: 3}) is a
		// keyword argument here.
		msg = fileParams.ReplaceAllString(msg, "give it by name, e.g. "+name+"("+fn.Name()+", $1=$2)")
		return nil, fmt.Errorf("%s: %s", name, msg)
	}
	// The section: the registered rule with this game (its parameters as
	// a job file would write them, without a file).
	p := heap.Params{heap.Upto: n}
	if r.Param("name") != nil {
		p["name"] = fn.Name()
	}
	if r.Param("params") != nil && len(params) > 0 {
		p["params"] = params
	}
	// Out of a cell (the game's title), its threads are the sandbox's own.
	unbound := *r
	unbound.Check = nil
	unbound.New = func(heap.Params) (heap.Game, error) { return starrule.FromCallable(fn, kw, nil) }
	parts := []string{fn.Name()}
	for _, kv := range kw {
		parts = append(parts, fmt.Sprintf("%s=%s", string(kv[0].(starlark.String)), kv[1]))
	}
	f := &Family{builtin: name, repr: reprArgs(name, parts, "upto", upto, "play", fa.play, "position", fa.position),
		sec: job.Section{Family: r.Name, Game: &job.HeapSpec{Rule: &unbound, Params: p}}, sized: upto != starlark.None}
	f.bind = func(th *starlark.Thread, sec *job.Section) (heap.Game, error) {
		// One game for the work of one call, whose errors are its own.
		g, err := starrule.FromCallable(fn, kw, cellThreads(th, fn.Name()))
		if err != nil {
			return nil, err
		}
		rc := unbound
		rc.New = func(heap.Params) (heap.Game, error) { return g, nil }
		sec.Heap().Rule = &rc
		return g, nil
	}
	if err := fa.apply(f); err != nil {
		return nil, err
	}
	return f, nil
}

// fileParams is how a rule file's errors say to give a parameter.
var fileParams = regexp.MustCompile(`give it in params, e\.g\. params: \{(\w+): ([^}]*)\}`)

func args0(args starlark.Tuple) starlark.Value {
	if len(args) == 0 {
		return starlark.None
	}
	return args[0]
}

// cellThreads makes the threads a rule's function runs on in the cell of
// th: the cell's context (an interrupt stops the function), within the
// session's step and memory limits, print to the cell, and the session's
// built-ins at hand.
func cellThreads(th *starlark.Thread, name string) starrule.ThreadFunc {
	s, cellCtx, out := sessionOf(th)
	return func(ctx context.Context, lim sandbox.Limits) (*starlark.Thread, func()) {
		if ctx == nil || ctx.Done() == nil {
			ctx = cellCtx
		}
		if lim.MaxSteps == 0 || lim.MaxSteps > s.opts.MaxSteps {
			lim.MaxSteps = s.opts.MaxSteps
		}
		if m := s.opts.Limits.Memory; lim.MaxMemory == 0 || lim.MaxMemory > m {
			lim.MaxMemory = m
		}
		rt, stop := sandbox.NewThread(ctx, "rule "+name, lim)
		rt.Print = func(_ *starlark.Thread, msg string) { out.Stream("stdout", msg+"\n") }
		rt.SetLocal(localSession, s)
		rt.SetLocal(localCtx, sandbox.StateOf(rt).Context())
		rt.SetLocal(localOut, out)
		return rt, stop
	}
}

// ruleFailed is the first error of a rule's function during work the
// engine could not stop for it (Options has no error): set by package
// starrule's games.
func ruleFailed(g heap.Game) error {
	if e, ok := g.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}
