package notebook

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/sandbox"
	"github.com/nimbook/nimbook/plots"
)

// Family is a built-in game family in a cell, with the parameters of a job
// file (SPEC.md): a heap rule of the registry (package heap), wythoff,
// coins or product. Its analyses are methods named after the job file's
// show list (p-positions is p_positions); each runs the job engine on a
// section of one analysis, so a notebook and a job file compute the same
// thing.
type Family struct {
	builtin string // the built-in that made it, for messages and help
	repr    string
	sec     job.Section // Family, the spec, Play and Position; Show is set per call
	sized   bool        // upto was given when the family was made
	// bind, when not nil, gives the section a game that runs in the cell
	// of th, and returns it: a rule given by a function of a cell.
	bind func(th *starlark.Thread, sec *job.Section) (heap.Game, error)
}

var (
	_ starlark.HasAttrs  = (*Family)(nil)
	_ starlark.HasBinary = (*Family)(nil)
	_ playable           = (*Family)(nil)
)

// nbFamilies holds each family's notebook behaviour, registered under its
// key by its own file (nb_*.go) in init, so that the code shared by the
// families (this file, play.go, plot.go) names none of them. A value is a
// familyNB, for a family whose games a cell makes (a Family), or only some
// of the optional interfaces below (a nimber table).
var nbFamilies = map[string]any{}

// registerNB registers a family's notebook behaviour under its key.
func registerNB(key string, a any) {
	if _, dup := nbFamilies[key]; dup {
		panic("notebook: family " + key + " registered twice")
	}
	nbFamilies[key] = a
}

// familyNB is the notebook behaviour of a family of games that are not
// heap rules nor registered by their parameters (Wythoff's game, coin
// turning, tartan products): what a cell needs beyond the job engine.
type familyNB interface {
	// title names the game in words, the engine's own name where it has one.
	title(s *job.Section) string
	// sizeArgs reads the size arguments of a data analysis into sec.
	sizeArgs(name string, sec *job.Section, args starlark.Tuple, kwargs []starlark.Tuple) error
	// position reads a position in the family's form (SPEC.md).
	position(fn string, v starlark.Value, sec *job.Section) (any, error)
	// mover lists the moves of a position that conv reads.
	mover(f *Family, conv func(th *starlark.Thread, pos starlark.Value) (any, error)) (mover, error)
	// grundy is the normal-play value of the position p by the family's
	// own fast rule.
	grundy(th *starlark.Thread, f *Family, p any) (uint64, error)
}

// Optional behaviour, found by type assertion.
type (
	// tablePlotter: a plot of the family draws its table, when plotsTable.
	tablePlotter interface{ plotsTable() bool }
	// tableMarker: the heatmap of its table marks the P-positions (0)
	// only when marksP; a family without it marks them.
	tableMarker interface{ marksP() bool }
	// fitter gives a section what its positions imply.
	fitter interface{ fit(sec *job.Section) }
	// firster: the numbers of the first row and column of the family's
	// values and tables, where they are not 0 (a coin row from 1).
	firster interface{ firsts(s *job.Section) [2]int }
	// playChecker checks a section before play starts.
	playChecker interface {
		checkPlay(sec *job.Section) error
	}
)

// adapterOf is the notebook behaviour of a family whose games a cell
// makes, or nil.
func adapterOf(key string) familyNB {
	a, _ := nbFamilies[key].(familyNB)
	return a
}

func (f *Family) String() string        { return f.repr }
func (f *Family) Type() string          { return f.sec.Family }
func (f *Family) Freeze()               {}
func (f *Family) Truth() starlark.Bool  { return true }
func (f *Family) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: %s", f.sec.Family) }

func (f *Family) describe() string {
	return f.repr + "\n" + f.title()
}

// title names the game in words, the engine's own name where it has one.
func (f *Family) title() string {
	s := f.sec
	var t string
	switch {
	case s.Registered() != nil:
		t = registeredTitle(s.Registered())
	case adapterOf(s.Family) != nil:
		t = adapterOf(s.Family).title(&s)
	default:
		if g, err := heapGame(&s); err == nil {
			t = g.String()
		}
	}
	if s.Play == "misere" {
		t += " (misère play)"
	}
	return t
}

// Binary makes disjunctive sums with +.
func (f *Family) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	return sumBinary(f, op, y, side)
}

func (f *Family) playRule() game.Play {
	if f.sec.Play == "misere" {
		return game.Misere
	}
	return game.Normal
}

// startPos is the position the family was given (nim's heaps, position=).
func (f *Family) startPos() starlark.Value {
	if f.sec.Position == nil {
		return nil
	}
	return fromGo(f.sec.Position, true)
}

// analysisOf is the job file's analysis of a method: p_positions is
// p-positions.
func analysisOf(method string) string { return strings.ReplaceAll(method, "_", "-") }

// isAnalysis says whether the method is an analysis of some family, so
// that asking it of another is an error that lists those that apply.
func isAnalysis(method string) bool {
	for _, fam := range append(job.Families(), job.SectionFamilies()...) {
		if slices.Contains(job.Analyses(fam), analysisOf(method)) {
			return true
		}
	}
	return false
}

// AttrNames lists the methods that apply to this family.
func (f *Family) AttrNames() []string {
	names := []string{"grundy", "options", "play", "position"}
	if f.sec.Registered() != nil {
		// A registered family's game starts from its own start, given by
		// its parameters: its analyses are of that start.
		names = []string{"play"}
	}
	for _, a := range job.Analyses(f.sec.Family) {
		names = append(names, strings.ReplaceAll(a, "-", "_"))
	}
	sort.Strings(names)
	return names
}

// Attr returns a method bound to f, or an error listing those that apply.
func (f *Family) Attr(name string) (starlark.Value, error) {
	switch name {
	case "play":
		return starlark.String(f.sec.Play), nil
	case "position":
		if p := f.startPos(); p != nil {
			return p, nil
		}
		return starlark.None, nil
	case "grundy":
		if f.sec.Registered() != nil {
			return nil, fmt.Errorf("%s: %s starts from the start its parameters give: ask %s.value()", name, f.builtin, f.repr)
		}
		return starlark.NewBuiltin(name, familyGrundy).BindReceiver(f), nil
	case "options":
		if f.sec.Registered() != nil {
			return nil, nil
		}
		return starlark.NewBuiltin(name, familyOptions).BindReceiver(f), nil
	}
	if !slices.Contains(job.Analyses(f.sec.Family), analysisOf(name)) || strings.Contains(name, "-") {
		if isAnalysis(name) {
			return nil, fmt.Errorf("%s does not apply to %s; those that do: %s", name, f.sec.Family, strings.Join(f.AttrNames(), ", "))
		}
		return nil, nil
	}
	return starlark.NewBuiltin(name, familyAnalysis).BindReceiver(f), nil
}

// clone copies the section deeply enough to change its sizes.
func (f *Family) clone() *job.Section {
	s := f.sec.Clone()
	s.Show = nil
	return s
}

// section is clone with, for a rule given by a function of a cell, a game
// that runs in the cell of th. failed then reports an error of the
// function that the engine could not return (heap.Game.Options has no
// error); it is nil for the other families.
func (f *Family) section(th *starlark.Thread) (sec *job.Section, failed func() error, err error) {
	sec = f.clone()
	failed = func() error { return nil }
	if f.bind != nil {
		g, err := f.bind(th, sec)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %s", f.builtin, strings.TrimPrefix(err.Error(), "starrule: "))
		}
		failed = func() error { return ruleFailed(g) }
	}
	return sec, failed, nil
}

// Limits on sizes that are absurd whatever the budget, the engine's and
// job files' own.
const (
	maxUpto  = heap.MaxUpto
	maxHeap  = heap.MaxHeap
	maxCoins = 64
	maxSide  = 1 << 20
)

// familyAnalysis runs one analysis of a family through the job engine.
func familyAnalysis(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f := b.Receiver().(*Family)
	name := b.Name()
	analysis := analysisOf(name)
	sec, failed, err := f.section(th)
	if err != nil {
		return nil, err
	}
	var style *plots.Style
	if analysis == "plot" {
		if style, kwargs, err = takeStyle(name, kwargs); err != nil {
			return nil, err
		}
	}
	if sec.Registered() != nil {
		// Of the start its parameters give, as a job file's section.
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
			return nil, fmt.Errorf("%s (of the start %s gives; build another game for another start)", err, f.repr)
		}
	} else if err := f.setArgs(sec, name, analysis, args, kwargs); err != nil {
		return nil, err
	}
	if analysis == "values" && sec.Play == "misere" {
		return nil, fmt.Errorf("%s: values are normal-play Grundy values; use a game without play=\"misere\", or ask for outcome() and moves()", name)
	}
	sec.Show = []string{analysis}
	if analysis == "plot" {
		sec.Show = []string{plotData(sec.Family), "plot"}
	}
	var sr *job.SectionResult
	if analysis == "period" && len(args) == 0 && len(kwargs) == 0 && !f.sized && provesPeriods(sec) {
		sr, err = searchPeriod(th, sec)
	} else {
		sr, err = runSection(th, sec)
	}
	if err == nil {
		err = failed()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if style != nil {
		return styledPlot(sr, sec.Show[0], *style)
	}
	switch analysis {
	case "value":
		if sr.Results.Value == nil {
			return nil, fmt.Errorf("%s: no value was computed", name)
		}
		return starlark.MakeUint64(*sr.Results.Value), nil
	case "outcome":
		return starlark.String(sr.Results.Outcome), nil
	case "automorphisms":
		n, ok := new(big.Int).SetString(sr.Results.Automorphisms, 10)
		if !ok {
			return nil, fmt.Errorf("%s: bad group order %q", name, sr.Results.Automorphisms)
		}
		return starlark.MakeBigInt(n), nil
	}
	return makeResult(analysis, sr)
}

// plotData is the analysis a family's plot draws: a registered family's
// game draws its game graph.
func plotData(family string) string {
	if _, ok := registryLookup(family); ok {
		return "graph"
	}
	if t, ok := nbFamilies[family].(tablePlotter); ok && t.plotsTable() {
		return "table"
	}
	return "values"
}

// runSection runs one section with the session's limits and the cell's
// context.
func runSection(th *starlark.Thread, sec *job.Section) (*job.SectionResult, error) {
	s, ctx, _ := sessionOf(th)
	lim := s.opts.Limits
	lim.Memory = memoryLeft(th)
	j := &job.Job{File: "notebook", Lang: "en", Limits: lim, Sections: []*job.Section{sec}}
	rep, err := job.Run(ctx, j, job.Options{})
	if err != nil {
		var re *job.RunError
		if errors.As(err, &re) {
			err = re.Err
		}
		if ctx.Err() != nil {
			return nil, sandbox.ErrStopped
		}
		return nil, &hinted{msg: notebookHint(err.Error()), err: err}
	}
	return rep.Sections[0], nil
}

// hinted is an engine error with a notebook's advice.
type hinted struct {
	msg string
	err error
}

func (e *hinted) Error() string { return e.msg }
func (e *hinted) Unwrap() error { return e.err }

// provesPeriods says whether the section's heap game can prove a period
// of its values (heap.ProvesPeriods): only then may period() look further.
func provesPeriods(sec *job.Section) bool {
	if sec.Heap() == nil {
		return false
	}
	g, err := heapGame(sec)
	return err == nil && heap.ProvesPeriods(g)
}

// searchPeriod is period() of a heap game that can prove its periods
// (subtraction and octal games, bounded Nim), given no range: the values
// are computed to twice as far each time, from the game's upto, until a
// period is proven or the next range would pass the session's limits; the
// cell's output then says where it stopped and which limit stopped it.
func searchPeriod(th *starlark.Thread, sec *job.Section) (*job.SectionResult, error) {
	s, _, out := sessionOf(th)
	params := sec.Heap().Params
	upto := max(params.Int(heap.Upto), 1)
	var last *job.SectionResult
	for {
		params[heap.Upto] = upto
		sr, err := runSection(th, sec)
		if err != nil {
			if last == nil || errors.Is(err, sandbox.ErrStopped) {
				return nil, err
			}
			out.Stream("stdout", fmt.Sprintf("period: no period proven up to n = %d; looking further (values up to %d) passes a limit: %s\n", last.Results.Period.CheckedTo, upto, strings.TrimPrefix(err.Error(), "heap: ")))
			return last, nil
		}
		if p := sr.Results.Period; p == nil || p.Proven {
			return sr, nil
		}
		last = sr
		next := 2 * upto
		why := ""
		switch {
		case next > maxUpto:
			why = fmt.Sprintf("the search stops at heaps of %d", maxUpto)
		case int64(next) >= s.opts.Limits.Positions:
			why = fmt.Sprintf("the values up to %d would pass the limit of %d positions (start nimbook with a larger %s to look further)", next, s.opts.Limits.Positions, flagPositions)
		default:
			// The values, and the engine's tables for them.
			if err := sandbox.NeedMemory(th, fmt.Sprintf("the values up to %d", next), int64(next)*64); err != nil {
				why = err.Error()
			}
		}
		if why != "" {
			out.Stream("stdout", fmt.Sprintf("period: no period proven up to n = %d; %s\n", sr.Results.Period.CheckedTo, why))
			return sr, nil
		}
		upto = next
	}
}

// limitHints are the engine's advice on raising a limit, in a job file's
// terms, and what a notebook says instead: only the command line raises
// a limit.
var limitHints = strings.NewReplacer(
	// "raise it with start nimbook with…" read badly: the verb goes too.
	"raise it with --max-positions or limits.positions in the job file", "start nimbook with a larger "+flagPositions,
	"raise it with --max-positions or limits.positions", "start nimbook with a larger "+flagPositions,
	"raise it with --max-memory or limits.memory in the job file", "start nimbook with a larger "+flagMemory,
	"raise it with --max-memory or limits.memory", "start nimbook with a larger "+flagMemory,
	"raise the limit with --max-positions/--max-memory or limits: {positions: N, memory: SIZE} in the job file", "start nimbook with a larger "+flagPositions+" or "+flagMemory,
	"--max-positions/--max-memory or limits: {positions: N, memory: SIZE} in the job file", "start nimbook with a larger "+flagPositions+" or "+flagMemory,
	"--max-positions or limits.positions in the job file", "start nimbook with a larger "+flagPositions,
	"--max-positions or limits.positions", "start nimbook with a larger "+flagPositions,
	"--max-memory or limits.memory in the job file", "start nimbook with a larger "+flagMemory,
	"--max-memory or limits.memory", "start nimbook with a larger "+flagMemory,
)

// notebookHint rewrites an engine message for a notebook.
func notebookHint(msg string) string { return limitHints.Replace(msg) }

// setArgs reads the arguments of an analysis into the section: sizes for
// the data analyses, a position for outcome, moves and graph.
func (f *Family) setArgs(sec *job.Section, name, analysis string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	switch analysis {
	case "outcome", "moves", "graph":
		var pos starlark.Value = starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "position?", &pos); err != nil {
			return err
		}
		if pos != starlark.None {
			p, err := f.position(name, pos, sec)
			if err != nil {
				return err
			}
			sec.Position = p
		}
		if sec.Position == nil {
			return fmt.Errorf("%s: needs a position: write %s.%s(%s)", name, f.builtin, name, positionExample(f.sec.Family))
		}
		fit(sec)
		return nil
	case "record":
		var list starlark.Value
		if err := starlark.UnpackArgs(name, args, kwargs, "positions", &list); err != nil {
			return err
		}
		it, ok := list.(starlark.Iterable)
		if !ok {
			return fmt.Errorf("%s: want the list of positions played, from the start", name)
		}
		iter := it.Iterate()
		defer iter.Done()
		var x starlark.Value
		for iter.Next(&x) {
			p, err := f.position(name, x, sec)
			if err != nil {
				return err
			}
			sec.Record = append(sec.Record, p)
		}
		if len(sec.Record) < 2 {
			return fmt.Errorf("%s: want at least two positions, the start and each position after a move", name)
		}
		fit(sec)
		return nil
	}
	// Size arguments: upto for every heap rule (within its bounds).
	if h := sec.Heap(); h != nil {
		upto := starlark.Value(starlark.None)
		if err := starlark.UnpackArgs(name, args, kwargs, "upto?", &upto); err != nil {
			return err
		}
		lo, hi := 0, maxUpto
		if q := h.Rule.Param(heap.Upto); q != nil {
			lo, hi = q.Min, q.Max
		}
		n := h.Upto()
		if err := setInt(name, "upto", upto, &n, lo, hi); err != nil {
			return err
		}
		h.Params[heap.Upto] = n
		return nil
	}
	if ad := adapterOf(sec.Family); ad != nil {
		return ad.sizeArgs(name, sec, args, kwargs)
	}
	return starlark.UnpackArgs(name, args, kwargs)
}

// fit gives the section what its positions imply (a coin row without n
// the length its heads need), where its family says how.
func fit(sec *job.Section) {
	if ft, ok := nbFamilies[sec.Family].(fitter); ok {
		ft.fit(sec)
	}
}

// positionExample words job.PositionExample in a cell's syntax:
// "(1, 3, 5, 7)  # the heaps".
func positionExample(family string) string {
	ex, what := job.PositionExample(family)
	tuple := func(xs []any) string {
		return "(" + strings.Trim(strings.ReplaceAll(fmt.Sprint(xs...), " ", ", "), "[]") + ")"
	}
	text := tuple(ex)
	if cells, ok := ex[0].([]any); ok && cells != nil {
		parts := make([]string, len(ex))
		for i, c := range ex {
			parts[i] = tuple(c.([]any))
		}
		text = "[" + strings.Join(parts, ", ") + "]"
	}
	return text + "  # " + what
}

func setInt(fn, key string, v starlark.Value, dst *int, lo, hi int) error {
	if v == nil || v == starlark.None {
		return nil
	}
	n, err := intIn(fn, key, v, lo, hi)
	if err != nil {
		return err
	}
	*dst = n
	return nil
}

func intIn(fn, key string, v starlark.Value, lo, hi int) (int, error) {
	var n int
	if err := starlark.AsInt(v, &n); err != nil {
		if x, ok := v.(starlark.Int); ok {
			return 0, fmt.Errorf("%s: %s = %s is out of range: it must be from %d to %d", fn, key, x, lo, hi)
		}
		return 0, fmt.Errorf("%s: %s must be a whole number, not %s", fn, key, v.Type())
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%s: %s = %d is out of range: it must be from %d to %d", fn, key, n, lo, hi)
	}
	return n, nil
}

// intList reads a list, tuple or other iterable of ints.
func intList(fn string, v starlark.Value, lo, hi int) ([]int, error) {
	if n, ok := v.(starlark.Int); ok {
		x, err := intIn(fn, "a number", n, lo, hi)
		return []int{x}, err
	}
	return intListOf(fn, "each number", v, lo, hi)
}

// intListOf is intList whose errors name each number as what ("a heap
// size").
func intListOf(fn, what string, v starlark.Value, lo, hi int) ([]int, error) {
	if n, ok := v.(starlark.Int); ok {
		x, err := intIn(fn, what, n, lo, hi)
		return []int{x}, err
	}
	it, ok := v.(starlark.Iterable)
	if !ok || isString(v) {
		return nil, fmt.Errorf("%s: want a list of whole numbers like [1, 3, 5], not %s", fn, v.Type())
	}
	out := []int{}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		n, err := intIn(fn, what, x, lo, hi)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// position reads a position in the family's form (SPEC.md).
func (f *Family) position(fn string, v starlark.Value, sec *job.Section) (any, error) {
	if ad := adapterOf(sec.Family); ad != nil {
		return ad.position(fn, v, sec)
	}
	return intList(fn, v, 0, maxHeap)
}

// heapGame builds the engine game of a heap family.
func heapGame(s *job.Section) (heap.Game, error) {
	h := s.Heap()
	if h == nil {
		return nil, fmt.Errorf("%s is not a heap game", s.Family)
	}
	return h.NewGame()
}

// engineLimits are the heap and coin limits from the session's.
func engineLimits(th *starlark.Thread) (heap.Limits, coins.Limits) {
	s, ctx, _ := sessionOf(th)
	pos := int64(clampPositions(s.opts.Limits.Positions))
	mem := memoryLeft(th)
	steps := pos * 10
	if pos > math.MaxInt64/10 {
		steps = math.MaxInt64 // a larger limit never refuses smaller work
	}
	return heap.Limits{MaxPositions: int(pos), MaxSteps: steps, MaxMemory: mem, Context: ctx},
		coins.Limits{MaxMemory: mem, MaxSteps: steps, MaxPositions: int(pos), Context: ctx}
}

// clampPositions is a position limit as an int.
func clampPositions(pos int64) int {
	if pos > int64(^uint(0)>>1) {
		return int(^uint(0) >> 1)
	}
	return int(pos)
}

// moverFunc lists moves in the family's position form, as tuples.
func (f *Family) moverFunc() (mover, error) {
	conv := func(th *starlark.Thread, pos starlark.Value) (any, error) {
		sec := f.clone()
		p, err := f.position("moves", pos, sec)
		return p, err
	}
	if f.sec.Heap() != nil {
		if _, err := heapGame(&f.sec); err != nil {
			return nil, err
		}
		return func(th *starlark.Thread, pos starlark.Value) ([]starlark.Value, error) {
			p, err := conv(th, pos)
			if err != nil {
				return nil, err
			}
			sec, failed, err := f.section(th)
			if err != nil {
				return nil, err
			}
			g, err := heapGame(sec)
			if err != nil {
				return nil, err
			}
			lim, _ := engineLimits(th)
			if err := checkMoves(th, g, p.([]int), lim.MaxPositions); err != nil {
				return nil, err
			}
			ms, err := heap.Moves(g, p.([]int), lim)
			if err == nil {
				err = failed()
			}
			if err != nil {
				return nil, errors.New(notebookHint(strings.TrimPrefix(err.Error(), "heap: ")))
			}
			return tuples(ms), nil
		}, nil
	}
	if ad := adapterOf(f.sec.Family); ad != nil {
		return ad.mover(f, conv)
	}
	if f.sec.Registered() != nil {
		return nil, fmt.Errorf("%s is played with play(%s); it does not take part in sums (+)", f.repr, f.repr)
	}
	return nil, fmt.Errorf("%s has no moves", f.sec.Family)
}

// optionCount is how many options a heap of h has in g: every move is
// listed, so Nim and splitting games have many. The engine counts them for
// its rules (heap.OptionCount); h, a heap's worth, stands for the others.
func optionCount(g heap.Game, h int) float64 {
	if n, ok := heap.OptionCount(g, h); ok {
		return float64(n)
	}
	return float64(h)
}

// checkMoves refuses to list the moves of a position of a heap game when
// they are more than the position limit allows or than fits in memory.
func checkMoves(th *starlark.Thread, g heap.Game, heaps []int, maxPositions int) error {
	var n float64
	for _, h := range heaps {
		n += optionCount(g, h)
	}
	if n > float64(maxPositions) {
		return fmt.Errorf("%s from %v has about %.3g moves, more than the limit of %d positions; start from smaller heaps, or start nimbook with a larger %s",
			g, heaps, n, maxPositions, flagPositions)
	}
	// Each move is a position of len(heaps) heaps, as a Go slice and as a
	// Starlark tuple, in a list.
	per := 100 + 24*float64(len(heaps))
	return sandbox.NeedMemory(th, fmt.Sprintf("listing the %.0f moves of %s from %v", n, g, heaps), int64(n*per))
}

func tuples[T any](ms []T) []starlark.Value {
	out := make([]starlark.Value, len(ms))
	for i, m := range ms {
		out[i] = fromGo(m, true)
	}
	return out
}

func familyPos(b *starlark.Builtin, f *Family, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pos starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "position?", &pos); err != nil {
		return nil, err
	}
	if pos == starlark.None {
		pos = f.startPos()
		if pos == nil {
			return nil, fmt.Errorf("%s: needs a position: write %s.%s(%s)", b.Name(), f.builtin, b.Name(), positionExample(f.sec.Family))
		}
	}
	return pos, nil
}

// familyGrundy is the normal-play value of a position, by the family's own
// fast rule (nim-sum of heap or head values).
func familyGrundy(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f := b.Receiver().(*Family)
	pos, err := familyPos(b, f, args, kwargs)
	if err != nil {
		return nil, err
	}
	sec, failed, err := f.section(th)
	if err != nil {
		return nil, err
	}
	p, err := f.position("grundy", pos, sec)
	if err != nil {
		return nil, err
	}
	if ad := adapterOf(f.sec.Family); ad != nil {
		v, err := ad.grundy(th, f, p)
		if err != nil {
			return nil, err
		}
		return starlark.MakeUint64(v), nil
	}
	g, err := heapGame(sec)
	if err != nil {
		return nil, err
	}
	hl, _ := engineLimits(th)
	v, err := heap.Grundy(g, p.([]int), hl)
	if err == nil {
		err = failed()
	}
	if err != nil {
		return nil, fmt.Errorf("grundy: %v", err)
	}
	return starlark.MakeUint64(v), nil
}

func familyOptions(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	f := b.Receiver().(*Family)
	pos, err := familyPos(b, f, args, kwargs)
	if err != nil {
		return nil, err
	}
	m, err := f.moverFunc()
	if err != nil {
		return nil, err
	}
	ms, err := m(th, pos)
	if err != nil {
		return nil, fmt.Errorf("options: %v", err)
	}
	return starlark.NewList(ms), nil
}
