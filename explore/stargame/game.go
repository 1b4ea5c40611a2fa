package stargame

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// DefaultMaxSteps is the step budget of a game's functions over a whole
// analysis when the run gives none (sandbox's, 10^9: minutes of
// Starlark).
const DefaultMaxSteps = sandbox.DefaultMaxSteps

// Game is a game a Starlark function made, bound to one run: a
// family.Game, with Components and Canonical when the file gave them.
// Positions are keyed by their repr, once normalized (lists as tuples).
type Game struct {
	spec    *Spec
	name    string // "node_kayles(cols=3, rows=3)"
	from    string // "grids.star"
	th      *starlark.Thread
	release func()
	steps   uint64
	pos     map[string]starlark.Value
	start   string
}

var (
	_ family.Game          = (*Game)(nil)
	_ family.Splitter      = (*Game)(nil)
	_ family.Canonicalizer = (*Game)(nil)
)

// newGame calls fn(**kwargs) on a thread of env's budgets and checks that
// it returns a game with a start.
func newGame(fn *starlark.Function, kwargs []starlark.Tuple, env family.Env) (*Game, error) {
	steps := uint64(env.MaxSteps)
	if env.MaxSteps <= 0 {
		steps = DefaultMaxSteps
	}
	memory := int64(0)
	if env.MaxMemory > 0 {
		memory = budget.InUse() + env.MaxMemory
	}
	ctx := env.Context
	if ctx == nil {
		ctx = context.Background()
	}
	th, release := sandbox.NewThread(ctx, "game "+fn.Name(), sandbox.Limits{MaxSteps: steps, MaxMemory: memory})
	g := &Game{name: callName(fn.Name(), kwargs), from: filepath.Base(fn.Position().Filename()), th: th, release: release, steps: steps, pos: map[string]starlark.Value{}}
	v, err := sandbox.Call(th, fn, nil, kwargs)
	if err != nil {
		g.Close()
		return nil, g.wrap("", err)
	}
	spec, ok := v.(*Spec)
	if !ok {
		g.Close()
		pos := fn.Position()
		return nil, fmt.Errorf("%s:%d: %s returned %s %s, not a game: return game(moves=f, start=p)", pos.Filename(), pos.Line, g.name, v.Type(), short(v))
	}
	if spec.Start == nil {
		g.Close()
		pos := fn.Position()
		return nil, fmt.Errorf("%s:%d: the game %s returns has no start: give game(..., start=p)", pos.Filename(), pos.Line, g.name)
	}
	g.spec = spec
	if g.start, err = g.key(spec.Start); err != nil {
		g.Close()
		return nil, fmt.Errorf("%s: start: %w", g, err)
	}
	return g, nil
}

// callName writes a call: "node_kayles(cols=3, rows=3)".
func callName(fn string, kwargs []starlark.Tuple) string {
	parts := make([]string, len(kwargs))
	for i, kv := range kwargs {
		parts[i] = fmt.Sprintf("%s=%s", string(kv[0].(starlark.String)), kv[1].String())
	}
	return fn + "(" + strings.Join(parts, ", ") + ")"
}

// String names the game: "node_kayles(cols=3, rows=3) from grids.star".
func (g *Game) String() string { return g.name + " from " + g.from }

// Name is the name game(name=…) gave, else the call.
func (g *Game) Name() string {
	if g.spec != nil && !strings.HasPrefix(g.spec.Name, "game(moves=") {
		return g.spec.Name
	}
	return g.name
}

// Close releases the game's thread.
func (g *Game) Close() {
	if g.release != nil {
		g.release()
		g.release = nil
	}
}

// Start is the key of the start.
func (g *Game) Start() string { return g.start }

// Play is game(play=…)'s.
func (g *Game) Play() game.Play { return g.spec.Play }

// Position returns the Starlark value of a key: the one held, or the key
// read back.
func (g *Game) Position(key string) starlark.Value {
	if v, ok := g.pos[key]; ok {
		return v
	}
	v, err := parseKey(key)
	if err != nil {
		return starlark.String(key) // not a key of this game's
	}
	return v
}

// JSON is the position as JSON holds it.
func (g *Game) JSON(key string) any { return toJSON(g.Position(key)) }

// Show is show(p) when the game has show=, else p's repr.
func (g *Game) Show(key string) string {
	if g.spec.Show == nil {
		return key
	}
	v := g.Position(key)
	s, err := sandbox.Call(g.th, g.spec.Show, starlark.Tuple{v}, nil)
	if str, ok := s.(starlark.String); err == nil && ok {
		return string(str)
	}
	return key
}

// key normalizes a position and keys it, keeping its value.
func (g *Game) key(v starlark.Value) (string, error) {
	n, err := Normalize(v)
	if err != nil {
		return "", err
	}
	k := n.String()
	if _, ok := g.pos[k]; !ok {
		if len(g.pos) >= maxHeld {
			clear(g.pos)
		}
		g.pos[k] = n
	}
	return k, nil
}

// ErrSteps is wrapped by the error of a game whose functions ran past
// their step budget.
var ErrSteps = sandbox.ErrSteps

// wrap explains an error of a call of the game's code: the file and line
// come from sandbox.Call; a step budget says how to raise it.
func (g *Game) wrap(call string, err error) error {
	at := g.String()
	if call != "" {
		at += ": " + call
	}
	switch {
	case errors.Is(err, sandbox.ErrSteps) && g.steps == loadSteps:
		return fmt.Errorf("stargame: %s: %w; the game is made, and its start's moves listed, within %d steps before the work starts", at, err, g.steps)
	case errors.Is(err, sandbox.ErrSteps):
		return fmt.Errorf("stargame: %s: %w; the game's functions may take %d steps in all: raise the budget with --max-steps or limits: {steps: N}", at, err, g.steps)
	}
	return fmt.Errorf("stargame: %s: %w", at, err)
}

// defined is where f is defined, "moves (f, games.star:12)", for errors
// about what it returned.
func defined(what string, f starlark.Callable) string {
	if fn, ok := f.(*starlark.Function); ok {
		p := fn.Position()
		return fmt.Sprintf("%s (%s, %s:%d)", what, fn.Name(), filepath.Base(p.Filename()), p.Line)
	}
	return what
}

// list calls f(p) and reads the positions it returns.
func (g *Game) list(what string, f starlark.Callable, key string) ([]string, error) {
	p := g.Position(key)
	call := fmt.Sprintf("%s(%s)", what, short(p))
	v, err := sandbox.Call(g.th, f, starlark.Tuple{p}, nil)
	if err != nil {
		return nil, g.wrap(call, err)
	}
	it, ok := v.(starlark.Iterable)
	if !ok || v.Type() == "string" {
		return nil, g.wrap(call, fmt.Errorf("%s of %s returned %s %s, not a list of positions (%s)", f.Name(), short(p), v.Type(), short(v), "[] when there are none"))
	}
	var out []string
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		k, err := g.key(x)
		if err != nil {
			return nil, g.wrap(call, fmt.Errorf("%s returned a position: %w", defined(what, f), err))
		}
		out = append(out, k)
	}
	return out, nil
}

// Moves lists the positions one move from key.
func (g *Game) Moves(key string) ([]string, error) { return g.list("moves", g.spec.Moves, key) }

// HasComponents says whether the file gave components=.
func (g *Game) HasComponents() bool { return g.spec.Components != nil }

// HasCanonical says whether the file gave canonical=.
func (g *Game) HasCanonical() bool { return g.spec.Canonical != nil }

// Components lists the components of key: components(p) when the file
// gave it, else key alone.
func (g *Game) Components(key string) ([]string, error) {
	if g.spec.Components == nil {
		return []string{key}, nil
	}
	return g.list("components", g.spec.Components, key)
}

// Canonical is canonical(p) when the file gave it, else key.
func (g *Game) Canonical(key string) (string, error) {
	if g.spec.Canonical == nil {
		return key, nil
	}
	p := g.Position(key)
	call := fmt.Sprintf("canonical(%s)", short(p))
	v, err := sandbox.Call(g.th, g.spec.Canonical, starlark.Tuple{p}, nil)
	if err != nil {
		return "", g.wrap(call, err)
	}
	k, err := g.key(v)
	if err != nil {
		return "", g.wrap(call, fmt.Errorf("%s returned: %w", defined("canonical", g.spec.Canonical), err))
	}
	return k, nil
}

// Defined names the functions fns (components, canonical, or both: the
// words of job's check) with the file and line of each def, for errors.
func (g *Game) Defined(fns string) string {
	var parts []string
	if strings.Contains(fns, "components") && g.spec.Components != nil {
		parts = append(parts, defined("components", g.spec.Components))
	}
	if strings.Contains(fns, "canonical") && g.spec.Canonical != nil {
		parts = append(parts, defined("canonical", g.spec.Canonical))
	}
	if len(parts) == 0 {
		return fns
	}
	return strings.Join(parts, " and ")
}
