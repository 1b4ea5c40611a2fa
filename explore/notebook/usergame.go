package notebook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/graph"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/play"
	"github.com/nimbook/nimbook/explore/record"
	"github.com/nimbook/nimbook/explore/sandbox"
	"github.com/nimbook/nimbook/explore/stargame"
)

// mover lists the options of a position of a game played in a cell.
type mover func(th *starlark.Thread, pos starlark.Value) ([]starlark.Value, error)

// playable is a game that takes part in sums: user-defined games, sums
// and the built-in families.
type playable interface {
	starlark.Value
	moverFunc() (mover, error)
	startPos() starlark.Value // nil when the game has no start
	playRule() game.Play
}

// Game is a game given by its moves: game(moves=f, start=p), or a sum of
// games. Positions are hashable Starlark values (ints, strings, tuples); the
// generic solver computes values, outcomes, winning moves, P-positions and
// the game graph, remembering every position it has solved.
type Game struct {
	name  string
	moves mover
	terms []playable // the two games of a sum; nil otherwise
	start starlark.Value
	play  game.Play
	max   int // position budget; 0 means the session's
	// components, canonical and show are game()'s optional functions.
	components, canonical, show starlark.Callable

	// The solver and the positions behind its keys, kept between calls.
	solver  *game.Solver[string]
	mover   game.Mover[string] // the solver's move function, for record analyses
	pos     map[string]starlark.Value
	th      *starlark.Thread // the thread of the call in progress
	ctx     context.Context  // and its cell's context
	limit   int
	ceiling int64 // the session's position limit when the solver was made
}

var (
	_ starlark.HasAttrs  = (*Game)(nil)
	_ starlark.HasBinary = (*Game)(nil)
	_ playable           = (*Game)(nil)
)

func (g *Game) String() string        { return g.name }
func (g *Game) Type() string          { return "game" }
func (g *Game) Freeze()               {}
func (g *Game) Truth() starlark.Bool  { return true }
func (g *Game) Hash() (uint32, error) { return 0, errors.New("unhashable type: game") }

func (g *Game) moverFunc() (mover, error) { return g.moves, nil }
func (g *Game) startPos() starlark.Value  { return g.start }
func (g *Game) playRule() game.Play       { return g.play }

func (g *Game) describe() string {
	s := g.name
	if g.start != nil {
		s += fmt.Sprintf(" from %s", g.start)
	}
	if g.play == game.Misere {
		s += " (misère play)"
	}
	return s
}

// Binary makes disjunctive sums with +.
func (g *Game) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	return sumBinary(g, op, y, side)
}

func sumBinary(x playable, op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op != syntax.PLUS {
		return nil, nil
	}
	other, ok := y.(playable)
	if !ok {
		return nil, nil
	}
	if side == starlark.Right {
		x, other = other, x
	}
	return newSum(x, other)
}

// newSum is the disjunctive sum a + b: positions are pairs (p, q), and a
// move is a move in exactly one component.
func newSum(a, b playable) (*Game, error) {
	if a.playRule() != b.playRule() {
		return nil, errors.New("a sum needs both games under the same play (normal or misere)")
	}
	ma, err := a.moverFunc()
	if err != nil {
		return nil, err
	}
	mb, err := b.moverFunc()
	if err != nil {
		return nil, err
	}
	var start starlark.Value
	if sa, sb := a.startPos(), b.startPos(); sa != nil && sb != nil {
		start = starlark.Tuple{sa, sb}
	}
	moves := func(th *starlark.Thread, pos starlark.Value) ([]starlark.Value, error) {
		t, ok := pos.(starlark.Tuple)
		if !ok || len(t) != 2 {
			return nil, fmt.Errorf("a position of a sum is a pair (p, q), not %s", pos)
		}
		la, err := ma(th, t[0])
		if err != nil {
			return nil, err
		}
		lb, err := mb(th, t[1])
		if err != nil {
			return nil, err
		}
		out := make([]starlark.Value, 0, len(la)+len(lb))
		for _, p := range la {
			out = append(out, starlark.Tuple{p, t[1]})
		}
		for _, q := range lb {
			out = append(out, starlark.Tuple{t[0], q})
		}
		return out, nil
	}
	return &Game{name: fmt.Sprintf("%s + %s", a, b), moves: moves, start: start, play: a.playRule(), terms: []playable{a, b}}, nil
}

// termValues splits a position of pl into the positions of the games it
// is a sum of, nested sums flattened, each with its Grundy value: what
// Sprague–Grundy nim-adds. solvers keeps one game per term between calls.
func termValues(th *starlark.Thread, pl playable, pos starlark.Value, solvers map[playable]*Game) ([]play.Part, error) {
	if g, ok := pl.(*Game); ok && len(g.terms) == 2 {
		t, ok := pos.(starlark.Tuple)
		if !ok || len(t) != 2 {
			return nil, fmt.Errorf("a position of a sum is a pair (p, q), not %s", pos)
		}
		a, err := termValues(th, g.terms[0], t[0], solvers)
		if err != nil {
			return nil, err
		}
		b, err := termValues(th, g.terms[1], t[1], solvers)
		if err != nil {
			return nil, err
		}
		return append(a, b...), nil
	}
	g, ok := solvers[pl]
	if !ok {
		if g, ok = pl.(*Game); !ok {
			m, err := pl.moverFunc()
			if err != nil {
				return nil, err
			}
			g = &Game{name: pl.String(), moves: m, play: pl.playRule()}
		}
		solvers[pl] = g
	}
	sol, err := g.prepare(th)
	if err != nil {
		return nil, err
	}
	k, err := g.key("play", pos)
	if err != nil {
		return nil, err
	}
	v, err := sol.Grundy(k)
	if err != nil {
		return nil, g.solveErr("play", err)
	}
	return []play.Part{{Label: fmt.Sprintf("%s at %s", pl, pos), Value: v}}, nil
}

// userMover calls the user's move function and checks what it returns.
func userMover(f starlark.Callable) mover {
	return func(th *starlark.Thread, pos starlark.Value) ([]starlark.Value, error) {
		v, err := starlark.Call(th, f, starlark.Tuple{pos}, nil)
		if err != nil {
			return nil, err
		}
		if v == starlark.None {
			return nil, fmt.Errorf("moves(%s) returned None; return a list of positions ([] when no move is possible)", pos)
		}
		it, ok := v.(starlark.Iterable)
		if !ok || isString(v) {
			return nil, fmt.Errorf("moves(%s) returned %s %s; return a list of positions", pos, v.Type(), v)
		}
		var out []starlark.Value
		iter := it.Iterate()
		defer iter.Done()
		var x starlark.Value
		for iter.Next(&x) {
			out = append(out, x)
		}
		return out, nil
	}
}

func isString(v starlark.Value) bool { _, ok := v.(starlark.String); return ok }

// positionKey is the canonical text of a hashable position, the solver's
// key; lists, dicts and sets are refused since they can change.
func positionKey(v starlark.Value) (string, error) {
	if err := checkHashable(v); err != nil {
		return "", err
	}
	return v.Type() + ":" + v.String(), nil
}

func checkHashable(v starlark.Value) error {
	switch v := v.(type) {
	case *starlark.List:
		return fmt.Errorf("the position %s is a list, which may change: use tuples, e.g. %s", v, listAsTuple(v))
	case *starlark.Dict, *starlark.Set:
		return fmt.Errorf("the position %s is a %s, which may change: use an int, a string or a tuple", v, v.Type())
	case starlark.Tuple:
		for _, x := range v {
			if err := checkHashable(x); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := v.Hash(); err != nil {
		return fmt.Errorf("the position %s cannot be a position (%v): use an int, a string or a tuple", v, err)
	}
	return nil
}

func listAsTuple(l *starlark.List) string {
	elems := make(starlark.Tuple, l.Len())
	for i := range elems {
		elems[i] = l.Index(i)
		if inner, ok := elems[i].(*starlark.List); ok {
			elems[i] = starlark.String(listAsTuple(inner))
		}
	}
	s := make([]string, len(elems))
	for i, e := range elems {
		if str, ok := e.(starlark.String); ok {
			s[i] = string(str)
		} else {
			s[i] = e.String()
		}
	}
	if len(s) == 1 {
		return "(" + s[0] + ",)"
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// prepare readies the solver for a call from thread th.
func (g *Game) prepare(th *starlark.Thread) (*game.Solver[string], error) {
	s, ctx, _ := sessionOf(th)
	g.th, g.ctx = th, ctx
	limit := g.max
	if limit == 0 {
		limit = s.opts.MaxPositions
	}
	// The session's limit may have been lowered since the game was made.
	limit = int(min(int64(limit), s.opts.Limits.Positions))
	g.ceiling = s.opts.Limits.Positions
	if g.solver != nil && g.limit == limit {
		return g.solver, nil
	}
	if g.pos == nil {
		g.pos = map[string]starlark.Value{}
	}
	m := game.MoveFunc[string](func(k string) ([]string, error) {
		ms, err := g.moves(g.th, g.pos[k])
		if err != nil {
			return nil, &moveError{err}
		}
		keys := make([]string, len(ms))
		for i, q := range ms {
			key, err := positionKey(q)
			if err != nil {
				return nil, &moveError{fmt.Errorf("a move from %s: %w", g.pos[k], err)}
			}
			if _, ok := g.pos[key]; !ok {
				g.pos[key] = q
			}
			keys[i] = key
		}
		return keys, nil
	})
	// Only the capabilities the cell gave: a game without canonical=
	// pays no call per option for an identity.
	var comps func(string) ([]string, error)
	var canon func(string) (string, error)
	if g.components != nil {
		comps = capMover{m, g}.Components
	}
	if g.canonical != nil {
		canon = capMover{m, g}.Canonical
	}
	mv := game.WithCapabilities[string](m, comps, canon)
	sol, err := game.NewSolver[string](mv, game.Options{Play: g.play, MaxPositions: limit, Context: liveCtx{g}})
	if err != nil {
		return nil, err
	}
	g.solver, g.mover, g.limit = sol, m, limit
	return sol, nil
}

// moveError is an error of a move function, told apart from the solver's
// wrapping.
type moveError struct{ err error }

func (e *moveError) Error() string { return e.err.Error() }
func (e *moveError) Unwrap() error { return e.err }

// liveCtx is the context of the cell that is using the game: the solver
// outlives cells, and each cell has its own interrupt.
type liveCtx struct{ g *Game }

func (c liveCtx) Deadline() (time.Time, bool) { return c.g.ctx.Deadline() }
func (c liveCtx) Done() <-chan struct{}       { return c.g.ctx.Done() }
func (c liveCtx) Err() error                  { return c.g.ctx.Err() }
func (c liveCtx) Value(k any) any             { return c.g.ctx.Value(k) }

// key returns the solver key of pos, or the start when pos is None.
func (g *Game) key(fn string, pos starlark.Value) (string, error) {
	if pos == nil || pos == starlark.None {
		if g.start == nil {
			return "", fmt.Errorf("%s: this game has no start: pass a position, or define the game with start=", fn)
		}
		pos = g.start
	}
	k, err := positionKey(pos)
	if err != nil {
		return "", fmt.Errorf("%s: %w", fn, err)
	}
	if g.pos == nil {
		g.pos = map[string]starlark.Value{}
	}
	if _, ok := g.pos[k]; !ok {
		g.pos[k] = pos
	}
	return k, nil
}

// solveErr explains a solver error in the terms of the notebook.
func (g *Game) solveErr(fn string, err error) error {
	var ce *game.CycleError[string]
	if errors.As(err, &ce) {
		parts := make([]string, 0, len(ce.Cycle)+1)
		for _, k := range ce.Cycle {
			parts = append(parts, g.pos[k].String())
		}
		if len(ce.Cycle) > 0 {
			parts = append(parts, g.pos[ce.Cycle[0]].String())
		}
		return fmt.Errorf("%s: the moves form a cycle, so play may never end: %s", fn, strings.Join(parts, " → "))
	}
	if errors.Is(err, game.ErrTooManyPositions) {
		return fmt.Errorf("%s: the game has more than %d positions; raise the budget with game(..., max_positions=N), at most the session's %d (start nimbook with a larger %s to go further)", fn, g.limit, g.ceiling, flagPositions)
	}
	// An error raised by the user's move function keeps its place in the
	// user's code.
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		return ee
	}
	var me *moveError
	if errors.As(err, &me) {
		return fmt.Errorf("%s: %w", fn, me.err)
	}
	return fmt.Errorf("%s: %s", fn, notebookHint(strings.TrimPrefix(err.Error(), "game: ")))
}

// Attr gives the methods of a game.
func (g *Game) Attr(name string) (starlark.Value, error) {
	switch name {
	case "start":
		if g.start == nil {
			return starlark.None, nil
		}
		return g.start, nil
	case "play":
		return starlark.String(g.play.String()), nil
	}
	if m, ok := gameMethods[name]; ok {
		return starlark.NewBuiltin(name, m).BindReceiver(g), nil
	}
	return nil, nil
}

// AttrNames lists the methods for completion.
func (g *Game) AttrNames() []string {
	names := []string{"play", "start"}
	for n := range gameMethods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

type builtinFunc = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

var gameMethods = map[string]builtinFunc{
	"grundy":      solverMethod(gameGrundy),
	"outcome":     solverMethod(gameOutcome),
	"moves":       solverMethod(gameWinning),
	"options":     solverMethod(gameOptions),
	"p_positions": solverMethod(gamePPositions),
	"positions":   solverMethod(gamePositions),
	"graph":       gameGraph,
	"record":      gameRecord,
	"values":      gameValues,
	"plot":        gamePlot,
	"period":      gamePeriod,
}

// minRepeats is how many times a period must repeat in the values before
// period() reports it as observed.
const minRepeats = 3

// gamePeriod is period(upto) of a game on the integers: the period its
// values 0..upto show, reported as observed, never proven.
func gamePeriod(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sr, err := userValues(th, b, args, kwargs, "period")
	if err != nil {
		return nil, err
	}
	vs := sr.Results.Values
	per := &job.Period{CheckedTo: len(vs) - 1}
	if n0, p, ok := heap.ObservedPeriod(vs, minRepeats); ok {
		per.Preperiod, per.Period, per.Method = n0, p, job.MethodObserved
	}
	sr.Results.Period = per
	return makeResult("period", sr)
}

// perPosition is about the memory the solver of a user game holds for one
// position: its key, its Starlark value, its value and its options.
const perPosition = 200

// userValues returns g(0..upto) of a game whose positions are the
// integers, as a values section: the same tables and plots as heap games.
func userValues(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple, show ...string) (*job.SectionResult, error) {
	g := b.Receiver().(*Game)
	var upto int
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "upto", &upto); err != nil {
		return nil, err
	}
	if upto < 0 || upto > maxUpto {
		return nil, fmt.Errorf("%s: upto is %d; give 0 to %d (the values of positions 0, 1, ..., upto)", b.Name(), upto, maxUpto)
	}
	if g.play == game.Misere {
		return nil, fmt.Errorf("%s: values are normal-play Grundy values; define the game without play=\"misere\", or ask for outcome() and moves()", b.Name())
	}
	sol, err := g.prepare(th)
	if err != nil {
		return nil, err
	}
	// Each value keeps a position in the solver, with its key and moves.
	if err := sandbox.NeedMemory(th, fmt.Sprintf("%s(%d)", b.Name(), upto), int64(upto+1)*perPosition); err != nil {
		return nil, err
	}
	vs := make([]uint64, upto+1)
	for n := range vs {
		k, err := g.key(b.Name(), starlark.MakeInt(n))
		if err != nil {
			return nil, err
		}
		if vs[n], err = sol.Grundy(k); err != nil {
			return nil, g.solveErr(b.Name(), err)
		}
	}
	sp := g.spec()
	sp.Show = show
	return &job.SectionResult{Title: g.name, Spec: sp, Results: job.Results{Values: vs, Game: g.name}}, nil
}

// gameValues is values(upto): g(0), ..., g(upto) when positions are the
// integers (a heap of n).
func gameValues(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sr, err := userValues(th, b, args, kwargs, "values")
	if err != nil {
		return nil, err
	}
	return makeResult("values", sr)
}

// gamePlot is plot(upto): the values g(0..upto) drawn.
func gamePlot(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	style, kwargs, err := takeStyle(b.Name(), kwargs)
	if err != nil {
		return nil, err
	}
	sr, err := userValues(th, b, args, kwargs, "values", "plot")
	if err != nil {
		return nil, err
	}
	if style != nil {
		return styledPlot(sr, "values", *style)
	}
	return makeResult("plot", sr)
}

// gameRecord analyses a played game, given as the list of its positions
// from the start: every move checked, every mistake marked with the
// winning moves missed, as a record section of a job file.
func gameRecord(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	g := b.Receiver().(*Game)
	var list starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "positions", &list); err != nil {
		return nil, err
	}
	it, ok := list.(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("%s: want the list of positions played, from the start, e.g. %s.record([%s, ...])", b.Name(), g.name, startExample(g))
	}
	if _, err := g.prepare(th); err != nil {
		return nil, err
	}
	var keys []string
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		k, err := g.key(b.Name(), x)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	if len(keys) < 2 {
		return nil, fmt.Errorf("%s: want at least two positions, the start and each position after a move", b.Name())
	}
	a, err := record.Analyse(g.mover, keys, record.Options{Play: g.play, MaxPositions: g.limit, Context: liveCtx{g}})
	if err != nil {
		return nil, g.solveErr(b.Name(), err)
	}
	sp := g.spec()
	sp.Show = []string{"record"}
	sp.Position = g.pos[keys[0]].String()
	rec := job.RecordOf(a, func(k string) any { return shownPosition{g.pos[k]} })
	sr := &job.SectionResult{Title: g.name, Spec: sp, Results: job.Results{Record: rec, Game: g.name, Position: sp.Position, PlayMisere: g.play == game.Misere}}
	return makeResult("record", sr)
}

// shownPosition is a position of a user game inside a result: the
// Starlark value itself for the cell's code (m.to is 8, not "8"), its repr
// in reports and JSON.
type shownPosition struct{ v starlark.Value }

func (p shownPosition) String() string               { return p.v.String() }
func (p shownPosition) MarshalJSON() ([]byte, error) { return json.Marshal(p.v.String()) }

// startExample is the start of g as a record's first position, or a
// placeholder.
func startExample(g *Game) string {
	if g.start == nil {
		return "start"
	}
	return g.start.String()
}

// posArg reads the optional position argument of a game method.
func posArg(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pos starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "pos?", &pos); err != nil {
		return nil, err
	}
	return pos, nil
}

func gameCall(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (*Game, *game.Solver[string], string, error) {
	g := b.Receiver().(*Game)
	pos, err := posArg(b, args, kwargs)
	if err != nil {
		return nil, nil, "", err
	}
	sol, err := g.prepare(th)
	if err != nil {
		return nil, nil, "", err
	}
	k, err := g.key(b.Name(), pos)
	if err != nil {
		return nil, nil, "", err
	}
	return g, sol, k, nil
}

// solverFunc is a game method that asks the solver about the position k;
// its error is the solver's.
type solverFunc func(th *starlark.Thread, g *Game, sol *game.Solver[string], k string) (starlark.Value, error)

// solverMethod makes f a method: the position argument read, the game
// prepared, and f's error explained as every solver error is.
func solverMethod(f solverFunc) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		g, sol, k, err := gameCall(th, b, args, kwargs)
		if err != nil {
			return nil, err
		}
		v, err := f(th, g, sol, k)
		if err != nil {
			return nil, g.solveErr(b.Name(), err)
		}
		return v, nil
	}
}

func gameGrundy(_ *starlark.Thread, _ *Game, sol *game.Solver[string], k string) (starlark.Value, error) {
	v, err := sol.Grundy(k)
	return starlark.MakeUint64(v), err
}

func gameOutcome(_ *starlark.Thread, _ *Game, sol *game.Solver[string], k string) (starlark.Value, error) {
	o, err := sol.Outcome(k)
	return starlark.String(o.String()), err
}

func (g *Game) values(keys []string) []starlark.Value {
	out := make([]starlark.Value, len(keys))
	for i, k := range keys {
		out[i] = g.pos[k]
	}
	return out
}

func (g *Game) spec() *job.Section {
	s := &job.Section{Title: g.name, Family: "game", Play: g.play.String()}
	if g.start != nil {
		s.Position = g.start.String()
	}
	return s
}

func gameWinning(_ *starlark.Thread, g *Game, sol *game.Solver[string], k string) (starlark.Value, error) {
	ms, err := sol.WinningMoves(k)
	if err != nil {
		return nil, err
	}
	vs := g.values(ms)
	labels := make([]string, len(vs))
	for i, v := range vs {
		labels[i] = v.String()
	}
	sp := g.spec()
	sp.Show = []string{"moves"}
	sp.Position = g.pos[k].String()
	sr := &job.SectionResult{Title: g.name, Spec: sp, Results: job.Results{Moves: labels, Game: g.name, Position: sp.Position, PlayMisere: g.play == game.Misere}}
	return &seqResult{kind: "moves", sr: sr, items: starlark.NewList(vs)}, nil
}

func gameOptions(th *starlark.Thread, g *Game, _ *game.Solver[string], k string) (starlark.Value, error) {
	ms, err := g.moves(th, g.pos[k])
	if err != nil {
		return nil, err
	}
	return starlark.NewList(ms), nil
}

func gamePositions(_ *starlark.Thread, g *Game, sol *game.Solver[string], k string) (starlark.Value, error) {
	all, err := sol.Reachable(k)
	if err != nil {
		return nil, err
	}
	return starlark.NewList(g.values(all)), nil
}

func gamePPositions(_ *starlark.Thread, g *Game, sol *game.Solver[string], k string) (starlark.Value, error) {
	all, err := sol.Reachable(k)
	if err != nil {
		return nil, err
	}
	ps, err := sol.PPositions(k)
	if err != nil {
		return nil, err
	}
	vs := sortedValues(g.values(ps))
	pp := &job.PPositions{Count: uint64(len(ps)), Of: uint64(len(all))}
	if len(ps) <= job.MaxListed {
		labels := make([]string, len(vs))
		for i, v := range vs {
			labels[i] = v.String()
		}
		pp.List = labels
	}
	sp := g.spec()
	sp.Show = []string{"p-positions"}
	sr := &job.SectionResult{Title: g.name, Spec: sp, Results: job.Results{PPositions: pp, Game: g.name, PlayMisere: g.play == game.Misere}}
	attrs := []field{{"count", starlark.MakeInt(len(ps))}, {"of", starlark.MakeInt(len(all))}, {"listed", starlark.True}}
	return &seqResult{kind: "p-positions", sr: sr, items: starlark.NewList(vs), attrs: attrs}, nil
}

// sortedValues puts positions in Starlark's order (the solver finds them
// in the order of its search), when they compare; else it leaves them.
func sortedValues(vs []starlark.Value) []starlark.Value {
	out := slices.Clone(vs)
	var err error
	slices.SortStableFunc(out, func(a, b starlark.Value) int {
		if err != nil {
			return 0
		}
		var lt bool
		if lt, err = starlark.Compare(syntax.LT, a, b); lt {
			return -1
		}
		var gt bool
		if gt, err = starlark.Compare(syntax.GT, a, b); gt {
			return 1
		}
		return 0
	})
	if err != nil {
		return vs
	}
	return out
}

// graphMax bounds drawings: a graph with more nodes is unreadable.
const graphMax = graph.DefaultMaxPositions

func gameGraph(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	g, sol, k, err := gameCall(th, b, args, kwargs)
	if err != nil {
		return nil, err
	}
	// Solve first, so that cycles and move errors read as for the
	// other methods; the graph then only replays known positions.
	if _, err := sol.Grundy(k); err != nil {
		return nil, g.solveErr(b.Name(), err)
	}
	m := game.MoveFunc[string](func(p string) ([]string, error) {
		ms, err := g.moves(th, g.pos[p])
		if err != nil {
			return nil, err
		}
		keys := make([]string, len(ms))
		for i, q := range ms {
			if keys[i], err = positionKey(q); err != nil {
				return nil, err
			}
			if _, ok := g.pos[keys[i]]; !ok {
				g.pos[keys[i]] = q
			}
		}
		return keys, nil
	})
	_, ctx, _ := sessionOf(th)
	gr, err := graph.Build[string](m, k, graph.Options[string]{MaxPositions: graphMax, Play: g.play, Context: ctx,
		Label: func(p string) string { return g.pos[p].String() }})
	if err != nil {
		if errors.Is(err, game.ErrTooManyPositions) {
			return nil, fmt.Errorf("graph: more than %d positions are reachable: too many to draw; start from a smaller position", graphMax)
		}
		return nil, g.solveErr(b.Name(), err)
	}
	jg, err := job.GraphResult(gr, g.name)
	if err != nil {
		return nil, fmt.Errorf("graph: %v", err)
	}
	sp := g.spec()
	sp.Show = []string{"graph"}
	sr := &job.SectionResult{Title: g.name, Spec: sp, Results: job.Results{Graph: jg, Game: g.name, PlayMisere: g.play == game.Misere}}
	return makeResult("graph", sr)
}

// builtinGame is game(moves=f, start=None, play="normal", max_positions=0,
// name=None, components=None, canonical=None, show=None): its arguments
// are read by package stargame, whose game() job files, rule files and
// play use, so that a file written for one works in the others.
func builtinGame(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	spec, maxPos, err := stargame.ParseArgs(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	if s, _, _ := sessionOf(th); int64(maxPos) > s.opts.Limits.Positions {
		return nil, fmt.Errorf("game: max_positions=%d is above this session's limit of %d positions, set when nimbook started (%s) or lowered by limits(); a notebook may only lower it", maxPos, s.opts.Limits.Positions, flagPositions)
	}
	g := &Game{moves: userMover(spec.Moves), play: spec.Play, max: maxPos, name: spec.Name,
		components: spec.Components, canonical: spec.Canonical, show: spec.Show}
	if spec.Start != nil {
		if err := checkHashable(spec.Start); err != nil {
			return nil, fmt.Errorf("game: start: %w", err)
		}
		g.start = spec.Start
	}
	return g, nil
}

// showText is show(p) of a game that has show=, else "".
func (g *Game) showText(th *starlark.Thread, p starlark.Value) string {
	if g.show == nil || p == nil {
		return ""
	}
	v, err := starlark.Call(th, g.show, starlark.Tuple{p}, nil)
	if s, ok := v.(starlark.String); err == nil && ok {
		return string(s)
	}
	return ""
}

// capMover is the solver's move function of a game with components= or
// canonical=: the solver finds them by type assertion (game.Splitter,
// game.Canonicalizer) and splits positions into sums and folds their
// symmetries; a solver that does not look for them solves whole
// positions by their moves, with the same values.
type capMover struct {
	game.MoveFunc[string]
	g *Game
}

// Components lists the keys of the components of the position key.
func (m capMover) Components(key string) ([]string, error) {
	if m.g.components == nil {
		return []string{key}, nil
	}
	v, err := starlark.Call(m.g.th, m.g.components, starlark.Tuple{m.g.pos[key]}, nil)
	if err != nil {
		return nil, &moveError{err}
	}
	it, ok := v.(starlark.Iterable)
	if !ok || isString(v) {
		return nil, &moveError{fmt.Errorf("components(%s) returned %s %s; return a list of positions", m.g.pos[key], v.Type(), v)}
	}
	var out []string
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		k, err := positionKey(x)
		if err != nil {
			return nil, &moveError{fmt.Errorf("a component of %s: %w", m.g.pos[key], err)}
		}
		if _, ok := m.g.pos[k]; !ok {
			m.g.pos[k] = x
		}
		out = append(out, k)
	}
	return out, nil
}

// Canonical is the key of canonical(p).
func (m capMover) Canonical(key string) (string, error) {
	if m.g.canonical == nil {
		return key, nil
	}
	v, err := starlark.Call(m.g.th, m.g.canonical, starlark.Tuple{m.g.pos[key]}, nil)
	if err != nil {
		return "", &moveError{err}
	}
	k, err := positionKey(v)
	if err != nil {
		return "", &moveError{fmt.Errorf("canonical(%s): %w", m.g.pos[key], err)}
	}
	if _, ok := m.g.pos[k]; !ok {
		m.g.pos[k] = v
	}
	return k, nil
}
