package notebook

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// doc is the help of a built-in: its call form and what it does.
type doc struct {
	call string
	text string
}

// familyBuiltins are the built-ins that families register from their
// own files (nb_*.go) in init, beside their docs.
var familyBuiltins = map[string]builtinFunc{}

// registerBuiltin registers a family's built-in and its help.
func registerBuiltin(name string, fn builtinFunc, d doc) {
	if _, dup := familyBuiltins[name]; dup {
		panic("notebook: built-in " + name + " registered twice")
	}
	familyBuiltins[name] = fn
	docs[name] = d
}

// docs documents the built-ins (Inspect, help()).
var docs = map[string]doc{
	"dir": {"dir(value=None)",
		"Without an argument, the names a cell may use: the session's own (what the cells defined), sorted, then the built-ins, sorted. With a value, its attributes and methods, as Starlark's dir(value)."},
	"display": {"display(value, ...)", "Shows each value as a rich display (a table, a plot) without ending the cell."},
	"help":    {"help(value)", "Prints the documentation of a built-in, a method or a game."},
	"interact": {"interact(f, **controls)",
		"Draws a control per keyword argument in Jupyter and shows f(**values) under them, again at each change: (min, max) or (min, max, step) of ints is a slider, True or False a checkbox, a list a menu. Example: interact(lambda r: coins(r=r).values(20), r=(1, 9)). Without Jupyter's widgets (nimbook run) it is f at the initial values (the middle of a range, the first choice)."},
	"limits": {"limits(steps=None, positions=None, memory=None)",
		"Lowers the session's budgets and returns them: steps bounds the steps of a cell (a loop that never ends stops there), positions the positions an analysis or a user-defined game may visit, memory (bytes or a size like \"512MiB\") what a cell may hold. The limits given when nimbook started (--max-steps, --max-positions, --max-memory) are a ceiling: a notebook may lower them, never raise them."},
	"mex": {"mex(values)", "The least natural number not in values."},
	"plot": {"plot(data, title=None, xlabel=None, ylabel=None, size=None, log=None)",
		"Draws a figure, as matplotlib's plot: plot(ys) against 0, 1, …, plot(xs, ys), or plot(r) of a result (values, a table, weights, a graph, a plot, to restyle it), or plot(rows) of rows of whole numbers, a heatmap as imshow draws it (first=(1, 1) numbers its first row and column; 0 by default). title, xlabel and ylabel are its words; size=(6, 4) its width and height in inches (matplotlib's figsize); log=\"x\", \"y\" or \"xy\" (True is \"y\") draws those axes on a logarithmic scale, where points ≤ 0 are skipped (as matplotlib masks them) and the caption says how many. Example: plot(octal(\"0.007\").values(200), log=\"y\", title=\"0.007\")."},
	"sum": {"sum(values, start=0)", "The sum of the values, as in Python (nimbers add with ⊕)."},
	"game": {"game(moves, start=None, play=\"normal\", max_positions=0, name=None, components=None, canonical=None, show=None)",
		"A game given by its moves: moves(p) returns the list of positions reachable from p in one move. Positions must be hashable: ints, strings, tuples (not lists). Methods: grundy(p), outcome(p), moves(p) (the winning moves), options(p), positions(p), p_positions(p), graph(p); p defaults to start. Games add with + (disjunctive sums, with built-in games too). A cycle in the moves is an error that shows it. components(p) lists the independent parts whose sum p is, canonical(p) one representative of p's symmetry class, show(p) the text play prints: the same game() as in job files (starlark: {file, name, params})."},
	"play": {"play(game, position=None, first=\"human\", hint=False, level=\"perfect\", seed=0)",
		"Play game against the computer, which never misses a winning move: moves are typed in the input box (help, hint, undo, quit). Any game but products: {rules}, wythoff, coins, a game(moves=..., start=...) of your own and sums with +; position= overrides the game's own. level=\"beginner\" errs sometimes; seed makes a game reproducible."},
	"nimber":   {"nimber(n)", "The nimber *n: + is the nim-sum ⊕, * the nim-product ⊗, / divides; ints mix in as nimbers. n.pow(e), n.inv(), n.sqrt(), n.value (the int)."},
	"nim_add":  {"nim_add(a, b, ...)", "The nim-sum a ⊕ b ⊕ … (XOR)."},
	"nim_mul":  {"nim_mul(a, b, ...)", "The nim-product a ⊗ b ⊗ …."},
	"nim_inv":  {"nim_inv(a)", "The nim-inverse of a ≠ 0: a ⊗ nim_inv(a) = 1."},
	"nim_sqrt": {"nim_sqrt(a)", "The nim square root: nim_sqrt(a) ⊗ nim_sqrt(a) = a."},
	"nim_pow":  {"nim_pow(a, e)", "The e-th nim-power a ⊗ a ⊗ … ⊗ a."},
}

// methodDocs documents the methods of games and families.
var methodDocs = map[string]string{
	"values":        "values(size): the normal-play Grundy values: g(0..upto) of one heap (also of a game(...) whose positions are the integers), or f(first..first+n-1) of one head for coins.",
	"table":         "table(sizes): the table of values (Wythoff: g(a, b); product: the value of one head at each cell; nimbers).",
	"period":        "period(upto): the periodicity certificate of the values: proven, preperiod, period, checked_to.",
	"rare":          "rare(upto): the split of the values into rare and common ones with the fewest rare positions (games of codes that split heaps, Winning Ways ch. 4): mask, type (\"range\" or \"domain\"), t, count, positions, checked_to.",
	"genus":         "genus(upto): Conway's genus g^{γ0γ1…} of each heap 0..upto (γk: the misère value of the heap with k heaps of 2), with .normal, .misere and .tame; shown as a table, tame genera in bold. Either play.",
	"quotient":      "quotient(upto): the misère quotient of the heaps 1..upto (Plambeck–Siegel): order, p_portion, tame, tame_name, generators, relations, elements, p, pretending, period, table; shown with its presentation and, when small, its multiplication table.",
	"p_positions":   "p_positions(size): the P-positions (previous player wins), with .count and .of.",
	"weights":       "weights(n): the number of P-positions with each number of heads.",
	"distribution":  "distribution(n): the rows counted by number of heads and Grundy value.",
	"code":          "code(n): the linear code of the P-positions: length, dimension, words, min_distance.",
	"steiner":       "steiner(n): whether the minimum-weight P-positions form a t-(v, k, λ) design.",
	"automorphisms": "automorphisms(n): the order of the permutation group preserving the code of P-positions.",
	"row_periods":   "row_periods(rows, cols): the additive periods observed in the rows of Wythoff's table.",
	"outcome":       "outcome(position): \"P\" or \"N\".",
	"moves":         "moves(position): the positions reached by the winning moves ([] from a P-position).",
	"graph":         "graph(position): the game graph from the position, P-positions marked; .dot is its Graphviz text.",
	"record":        "record(positions): analyses a played game, move by move: each move checked, each mistake marked with the winning moves missed.",
	"plot":          "plot(size, title=None, xlabel=None, ylabel=None, size=None, log=None): a figure of the values or the table (of a game(...) on the integers: its values 0..size; of a registered family's game: its game graph). title, xlabel, ylabel are its words, size=(6, 4) its width and height in inches, log=\"x\", \"y\" or \"xy\" (True: \"y\") its logarithmic axes, where values ≤ 0 are skipped and counted in the caption. A result's plot() draws it (values, tables, weights).",
	"grundy":        "grundy(position): the normal-play Grundy value of a position.",
	"options":       "options(position): the positions reachable in one move.",
	"positions":     "positions(position): every position reachable from position (breadth-first).",
	"play":          "play: \"normal\" or \"misere\".",
	"start":         "start: the start position of the game.",
	"position":      "position: the position the game was given.",
}

var (
	builtinsMu sync.Mutex
	builtinSet starlark.StringDict
	ruleBuilt  = map[*heap.Rule]bool{} // the heap rules builtinSet has
	// famBuilt are the registered families builtinSet has, by built-in
	// name (registered.go).
	famBuilt = map[string]*family.Family{}
)

// builtins returns the predeclared names of a cell, the same values each
// time (in a new dict): the fixed built-ins and one per heap rule of the
// registry (package heap), under the rule's built-in name and its
// aliases, so that a new rule needs no line here. A rule registered since
// the last call is added.
func builtins() starlark.StringDict {
	builtinsMu.Lock()
	defer builtinsMu.Unlock()
	if builtinSet == nil {
		fns := map[string]builtinFunc{
			"display":  builtinDisplay,
			"dir":      builtinDir,
			"interact": builtinInteract,
			"help":     builtinHelp,
			"limits":   builtinLimits,
			"mex":      builtinMex,
			"game":     builtinGame,
			"plot":     builtinPlot,
			"nimber":   builtinNimber,
			"nim_add":  builtinNimAdd,
			"nim_mul":  builtinNimMul,
			"nim_inv":  builtinNimInv,
			"nim_sqrt": builtinNimSqrt,
			"nim_pow":  builtinNimPow,
			"play":     builtinPlay,
			"survey":   builtinSurvey,
			"rule":     builtinRule, // a function of the cell, or a registered rule of that name
		}
		maps.Copy(fns, familyBuiltins)
		builtinSet = sandbox.Builtins()
		for name, fn := range fns {
			builtinSet[name] = starlark.NewBuiltin(name, fn)
		}
	}
	for _, r := range heap.Rules() {
		if ruleBuilt[r] {
			continue
		}
		ruleBuilt[r] = true
		fn := ruleConstructor(r)
		names := []string{r.BuiltinName()}
		for alias, of := range builtinAliases {
			if of == r.BuiltinName() {
				names = append(names, alias)
			}
		}
		for _, name := range names {
			if _, fixed := builtinSet[name]; !fixed {
				builtinSet[name] = starlark.NewBuiltin(name, fn)
			}
		}
	}
	for _, f := range gameFamilies() {
		name := registeredBuiltin(f)
		if _, taken := builtinSet[name]; taken {
			continue // a fixed built-in or a heap rule keeps its name
		}
		famBuilt[name] = f
		builtinSet[name] = starlark.NewBuiltin(name, registeredConstructor(f))
	}
	return maps.Clone(builtinSet)
}

// builtinAliases are other names of heap rules' built-ins: alias → the
// rule's built-in name (Rule.BuiltinName).
var builtinAliases = map[string]string{"hexa": "hex_game"}

// ruleOfBuiltin returns the heap rule whose built-in is name, or an alias
// of it.
func ruleOfBuiltin(name string) (*heap.Rule, bool) {
	if of, ok := builtinAliases[name]; ok {
		name = of
	}
	for _, r := range heap.Rules() {
		if r.BuiltinName() == name {
			return r, true
		}
	}
	return nil, false
}

// docOf returns the help of the built-in name: the fixed ones', a heap
// rule's (Rule.Signature and Rule.Help), an alias's.
func docOf(name string) (doc, bool) {
	if d, ok := docs[name]; ok {
		return doc{d.call, strings.ReplaceAll(d.text, "{rules}", strings.Join(ruleBuiltins(), ", "))}, true
	}
	if name == "survey" {
		return surveyDoc(), true
	}
	if f, ok := registeredOf(name); ok {
		return registeredDoc(f), true
	}
	r, ok := ruleOfBuiltin(name)
	if name == "rule" {
		// The built-in of functions of the cell, which also builds a
		// registered rule of that name.
		d := ruleDoc
		if ok {
			d.text += "\n\nAlso " + r.Signature + ": " + r.Help
		}
		return d, true
	}
	if !ok {
		return doc{}, false
	}
	call, text := r.Signature, r.Help
	if call == "" {
		call = name + "(...)"
	}
	if name != r.BuiltinName() {
		call = name + strings.TrimPrefix(call, r.BuiltinName())
		text = fmt.Sprintf("Same as %s().", r.BuiltinName())
	}
	return doc{call, text}, true
}

// ruleBuiltins lists the built-ins of the heap rules, in the registry's
// order.
func ruleBuiltins() []string {
	var out []string
	for _, r := range heap.Rules() {
		out = append(out, r.BuiltinName())
	}
	return out
}

func builtinDisplay(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("display: unexpected keyword argument %s", kwargs[0][0])
	}
	s, _, out := sessionOf(th)
	for _, v := range args {
		if v == starlark.None {
			continue
		}
		d, err := s.bundle(th, v)
		if err != nil {
			return nil, err
		}
		out.Display(d)
	}
	return starlark.None, nil
}

// builtinDir is dir(): Python's dir() with no argument lists the names
// in scope, which in a cell are the session's globals (those the cells
// defined so far, this one's included) and the built-ins; dir(x) is
// Starlark's.
func builtinDir(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0, &v); err != nil {
		return nil, err
	}
	if v != nil {
		return starlark.Call(th, starlark.Universe["dir"], starlark.Tuple{v}, nil)
	}
	s, _, _ := sessionOf(th)
	user := s.Globals()
	// The names this cell bound so far are in its top-level frame, not
	// yet in the session's globals (the cell's chunk adds them at its end).
	if n := th.CallStackDepth(); n > 1 {
		if fn, ok := th.DebugFrame(n - 1).Callable().(*starlark.Function); ok {
			bs := builtins()
			for name, v := range fn.Globals() {
				if b, ok := bs[name]; (!ok || b != v) && !slices.Contains(user, name) {
					user = append(user, name)
				}
			}
		}
	}
	slices.Sort(user)
	var names []string
	seen := map[string]bool{}
	for _, set := range []starlark.StringDict{builtins(), starlark.Universe} {
		for name := range set {
			// The sandbox's guards (·+, ·for) are no names a cell spells.
			if !seen[name] && !slices.Contains(user, name) && isName(name) {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	out := make([]starlark.Value, 0, len(user)+len(names))
	for _, n := range append(user, names...) {
		out = append(out, starlark.String(n))
	}
	return starlark.NewList(out), nil
}

// isName says whether name is a Starlark identifier.
func isName(name string) bool {
	for i, r := range name {
		if r != '_' && !('a' <= r && r <= 'z') && !('A' <= r && r <= 'Z') && (i == 0 || !('0' <= r && r <= '9')) {
			return false
		}
	}
	return name != ""
}

func builtinHelp(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	text, ok := helpOf(v)
	if !ok {
		text = fmt.Sprintf("%s: a %s", shortText(v), v.Type())
	}
	_, _, out := sessionOf(th)
	out.Stream("stdout", text+"\n")
	return starlark.None, nil
}

// helpOf documents a value: a built-in, a bound method, a game, a function.
func helpOf(v starlark.Value) (string, bool) {
	switch v := v.(type) {
	case *starlark.Builtin:
		if v.Receiver() != nil {
			if d, ok := methodDocs[v.Name()]; ok {
				return d, true
			}
		}
		if d, ok := docOf(v.Name()); ok && v == builtins()[v.Name()] {
			return d.call + "\n\n" + d.text, true
		}
		if v.Receiver() == nil {
			if _, ok := starlark.Universe[v.Name()]; ok {
				return v.Name() + "(...): a Starlark built-in (see the Starlark specification).", true
			}
		}
	case *starlark.Function:
		var params []string
		for i := 0; i < v.NumParams(); i++ {
			p, _ := v.Param(i)
			params = append(params, p)
		}
		s := fmt.Sprintf("def %s(%s)  # %s", v.Name(), strings.Join(params, ", "), v.Position())
		if d := v.Doc(); d != "" {
			s += "\n\n" + d
		}
		return s, true
	case *Family:
		d, _ := docOf(v.builtin)
		return v.describe() + "\n\n" + d.text, true
	case *Game:
		return v.describe() + "\n\n" + docs["game"].text, true
	case Nimber:
		return v.String() + "\n\n" + docs["nimber"].text, true
	}
	return "", false
}

func builtinMex(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	ns, err := intList("mex", v, 0, int(^uint(0)>>1))
	if err != nil {
		return nil, err
	}
	us := make([]uint64, len(ns))
	for i, n := range ns {
		us[i] = uint64(n)
	}
	return starlark.MakeUint64(game.Mex(us)), nil
}

// familyArgs are the keyword arguments every family takes.
type familyArgs struct {
	play     string
	position starlark.Value
}

func (fa *familyArgs) apply(f *Family) error {
	p, err := game.ParsePlay(fa.play)
	if err != nil {
		return fmt.Errorf("%s: unknown play %q: write play=\"normal\" or play=\"misere\"", f.builtin, fa.play)
	}
	f.sec.Play = p.String()
	if fa.position != nil && fa.position != starlark.None {
		pos, err := f.position(f.builtin, fa.position, &f.sec)
		if err != nil {
			return err
		}
		f.sec.Position = pos
	}
	return nil
}

// reprArgs writes name(k=v, ...) for the arguments given, in order.
func reprArgs(name string, pos []string, kv ...any) string {
	parts := slicesClone(pos)
	for i := 0; i+1 < len(kv); i += 2 {
		v := kv[i+1]
		switch v := v.(type) {
		case nil:
			continue
		case starlark.Value:
			if v == starlark.None {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s=%s", kv[i], v))
		case string:
			if v == "" {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s=%s", kv[i], strconv.Quote(v)))
		case int:
			parts = append(parts, fmt.Sprintf("%s=%d", kv[i], v))
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// hidden tells the built-ins of guarded cells (·+, ·*...), which no cell
// can name, from those completion and Globals show.
func hidden(name string) bool { return sandbox.Hidden(name) }

// ruleConstructor is the built-in of a heap rule of the registry: the
// rule's parameters as arguments (Rule.Params, by their keywords: max_take
// for max-take), then play and position, which every family takes. A rule
// whose one Positional parameter is a list (Nim's heaps) takes it as
// *args, nim(1, 3, 5, 7), or as one list, nim([1, 3, 5, 7]); other rules
// take positional arguments in the order of their Positional parameters,
// then of the others (octal("0.77", 200), subtraction([1, 3, 4])). Values
// are checked by the rule (Rule.CheckParams) before any work.
func ruleConstructor(r *heap.Rule) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return newRuleFamily(th, r, b.Name(), args, kwargs)
	}
}

// paramOrder lists a rule's parameters in the order of positional
// arguments, and the one that takes *args, if any.
func paramOrder(r *heap.Rule) (order []heap.Param, variadic int) {
	variadic = -1
	var rest []heap.Param
	for _, q := range r.Params {
		if q.Positional {
			order = append(order, q)
		} else {
			rest = append(rest, q)
		}
	}
	if len(order) == 1 && order[0].Kind == heap.Ints {
		variadic = 0
	}
	return append(order, rest...), variadic
}

func newRuleFamily(th *starlark.Thread, r *heap.Rule, name string, args starlark.Tuple, kwargs []starlark.Tuple) (*Family, error) {
	order, variadic := paramOrder(r)
	vals := make([]starlark.Value, len(order))
	var pairs []any
	for i, q := range order {
		vals[i] = starlark.None
		key := q.Keyword()
		if q.Missing == "" || i == variadic {
			key += "?"
		}
		pairs = append(pairs, key, &vals[i])
	}
	fa := familyArgs{}
	pairs = append(pairs, "play?", &fa.play, "position?", &fa.position)
	positional := args
	if variadic >= 0 {
		positional = nil
	}
	if err := starlark.UnpackArgs(name, positional, kwargs, pairs...); err != nil {
		return nil, err
	}
	if variadic >= 0 && len(args) > 0 {
		if vals[variadic] != starlark.None {
			return nil, fmt.Errorf("%s: got multiple values for parameter %s", name, order[variadic].Keyword())
		}
		vals[variadic] = args
		if _, isInt := args[0].(starlark.Int); len(args) == 1 && !isInt {
			vals[variadic] = args[0] // nim([1, 3, 5, 7])
		}
	}
	params := heap.Params{}
	for i, q := range order {
		if vals[i] == starlark.None {
			continue
		}
		if err := checkParamSize(th, name, q.Keyword(), vals[i]); err != nil {
			return nil, err
		}
		x, err := paramValue(name, q, vals[i])
		if err != nil {
			return nil, err
		}
		if q.Kind == heap.File {
			if x, err = cellFile(th, name, q.Keyword(), x.(string)); err != nil {
				return nil, err
			}
		}
		params[q.Key] = x
	}
	if err := r.CheckParams(params); err != nil {
		return nil, paramError(name, r, err)
	}
	h := &job.HeapSpec{Rule: r, Params: params}
	if _, err := h.NewGame(); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "heap: "))
	}
	// The repr: the first parameter positionally, as it is written.
	var pos []string
	kv := []any{}
	for i, q := range order {
		v := vals[i]
		switch {
		case i > 0 || v == starlark.None:
			kv = append(kv, q.Keyword(), v)
		case variadic == 0:
			for _, n := range params.Ints(q.Key) {
				pos = append(pos, strconv.Itoa(n))
			}
		default:
			if s, ok := starlark.AsString(v); ok {
				pos = append(pos, strconv.Quote(s))
			} else {
				pos = append(pos, v.String())
			}
		}
	}
	kv = append(kv, "play", fa.play, "position", fa.position)
	f := &Family{builtin: name, repr: reprArgs(name, pos, kv...), sec: job.Section{Family: r.Name, Game: h}}
	for i, q := range order {
		if q.Key == heap.Upto {
			f.sized = vals[i] != starlark.None // period() then keeps to it
		}
	}
	if err := fa.apply(f); err != nil {
		return nil, err
	}
	if v, ok := params[r.PositionParam]; ok && f.sec.Position == nil && r.PositionParam != "" {
		if hs, ok := v.([]int); ok {
			v = slices.Clone(hs)
		}
		f.sec.Position = v
	}
	return f, nil
}

// paramValue reads the value of one parameter of a heap rule by its kind,
// with the bounds of the rule (heap.MaxHeap for heaps: one table of
// limits with the engine's).
func paramValue(fn string, q heap.Param, v starlark.Value) (any, error) {
	switch q.Kind {
	case heap.Int:
		return intIn(fn, q.Keyword(), v, q.Min, q.Max)
	case heap.Ints:
		what := q.What
		if what == "" {
			what = "each number"
		}
		return intListOf(fn, what, v, q.Min, q.Max)
	case heap.String, heap.File:
		s, ok := starlark.AsString(v)
		if !ok {
			return nil, fmt.Errorf("%s: %s must be a string like %s, not %s", fn, q.Keyword(), q.Example, v.Type())
		}
		return s, nil
	case heap.Map:
		return plainMap(fn, q.Keyword(), v)
	}
	return nil, fmt.Errorf("%s: %s: a parameter of kind %s is not read in a notebook", fn, q.Keyword(), q.Kind)
}

// plainMap reads a dict of names to whole numbers, strings, booleans and
// lists of whole numbers: a rule's own parameters.
func plainMap(fn, key string, v starlark.Value) (map[string]any, error) {
	d, ok := v.(*starlark.Dict)
	if !ok {
		return nil, fmt.Errorf("%s: %s must be a dict like {\"k\": 3}, not %s", fn, key, v.Type())
	}
	out := map[string]any{}
	for _, kv := range d.Items() {
		k, ok := starlark.AsString(kv[0])
		if !ok {
			return nil, fmt.Errorf("%s: %s: keys must be strings, not %s", fn, key, kv[0].Type())
		}
		x, err := plainValue(fn, key+"."+k, kv[1])
		if err != nil {
			return nil, err
		}
		out[k] = x
	}
	return out, nil
}

// plainValue reads a whole number, a string, a boolean or a list of whole
// numbers.
func plainValue(fn, key string, v starlark.Value) (any, error) {
	switch v := v.(type) {
	case starlark.Bool:
		return bool(v), nil
	case starlark.String:
		return string(v), nil
	case starlark.Int:
		return intIn(fn, key, v, math.MinInt, math.MaxInt)
	case starlark.Iterable:
		return intListOf(fn, key, v, math.MinInt, math.MaxInt)
	}
	return nil, fmt.Errorf("%s: %s must be a whole number, a string, True or False, or a list of whole numbers, not %s", fn, key, v.Type())
}

// paramError words a rule's refusal of its parameters for a cell: the
// built-in's name, and keyword arguments in place of the job file's keys
// (e.g. set: [1, 3, 4] is written set=[1, 3, 4]).
func paramError(fn string, r *heap.Rule, err error) error {
	var pe *heap.ParamError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %s", fn, strings.TrimPrefix(err.Error(), "heap: "))
	}
	var kw []string
	for _, q := range r.Params {
		kw = append(kw, q.Key+": ", q.Keyword()+"=")
	}
	for _, q := range r.Params {
		if q.Keyword() != q.Key {
			kw = append(kw, q.Key, q.Keyword())
		}
	}
	msg := strings.NewReplacer(kw...).Replace(pe.Msg)
	if pe.Key != "" {
		if q := r.Param(pe.Key); q != nil {
			msg = q.Keyword() + ": " + msg
		} else {
			msg = pe.Key + ": " + msg
		}
	}
	return fmt.Errorf("%s: %s", fn, msg)
}
