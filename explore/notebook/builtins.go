package notebook

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// doc is the help of a built-in: its call form and what it does.
type doc struct {
	call string
	text string
}

// docs documents the built-ins (Inspect, help()).
var docs = map[string]doc{
	"display": {"display(value, ...)", "Shows each value as a rich display (a table, a plot) without ending the cell."},
	"help":    {"help(value)", "Prints the documentation of a built-in, a method or a game."},
	"limits": {"limits(steps=None, positions=None, memory=None)",
		"Lowers the session's budgets and returns them: steps bounds the steps of a cell (a loop that never ends stops there), positions the positions an analysis or a user-defined game may visit, memory (bytes or a size like \"512MiB\") what a cell may hold. The limits given when nimbook started (--max-steps, --max-positions, --max-memory) are a ceiling: a notebook may lower them, never raise them."},
	"mex": {"mex(values)", "The least natural number not in values."},
	"sum": {"sum(values, start=0)", "The sum of the values, as in Python (nimbers add with ⊕)."},
	"game": {"game(moves, start=None, play=\"normal\", max_positions=0, name=None)",
		"A game given by its moves: moves(p) returns the list of positions reachable from p in one move. Positions must be hashable: ints, strings, tuples (not lists). Methods: grundy(p), outcome(p), moves(p) (the winning moves), options(p), positions(p), p_positions(p), graph(p); p defaults to start. Games add with + (disjunctive sums, with built-in games too). A cycle in the moves is an error that shows it."},
	"nim": {"nim(*heaps, max_take=None, upto=20, play=\"normal\")",
		"Nim with the given heaps, e.g. nim(1, 3, 5, 7); max_take=k allows taking at most k per move. Methods: values(upto), period(), p_positions() (over every position with heaps at most the given ones), outcome(), moves(), graph(), grundy(), options(), plot()."},
	"subtraction": {"subtraction(set=None, all_but=None, upto=100, play=\"normal\", position=None)",
		"The subtraction game where a move takes s ∈ set from one heap, e.g. subtraction([1, 3, 4]); all_but=[...] allows every amount except those. Methods: values(upto), period(), p_positions(upto), outcome(p), moves(p), graph(p), grundy(p), plot()."},
	"octal": {"octal(code, upto=100, play=\"normal\", position=None)",
		"The octal game of the code, e.g. octal(\"0.77\") (Kayles), octal(\"0.07\") (Dawson's Kayles). Positions are lists of heaps. Methods: values(upto), period() (a proof by the Guy–Smith theorem), rare(upto) (rare and common values, Winning Ways ch. 4), p_positions(upto), outcome(p), moves(p), graph(p), grundy(p), plot()."},
	"hex_game": {"hex_game(code, upto=100, play=\"normal\", position=None)",
		"The hexadecimal game of the code, e.g. hex_game(\"0.f\"): as octal, with digit bit 8 splitting a heap into three. Also called hexa()."},
	"hexa": {"hexa(code, upto=100, play=\"normal\", position=None)", "Same as hex_game()."},
	"wythoff": {"wythoff(rows=10, cols=rows, play=\"normal\", position=None)",
		"Wythoff's game; rows × cols bound its table, e.g. wythoff(20, 20). Methods: table(rows, cols), p_positions(), row_periods(), outcome((a, b)), moves((a, b)), graph((a, b)), grundy((a, b)), plot()."},
	"coins": {"coins(rule=\"at-most\", r=None, n=None, first=1, play=\"normal\", position=None)",
		"A coin-turning game: rule at-most, exactly or ruler; r coins turned; n coins numbered from first (0 or 1). Methods: values(n), p_positions(n), weights(n), distribution(n), code(n), steiner(n), automorphisms(n), outcome(heads), moves(heads), graph(heads), grundy(heads), plot(). Example: coins(r=7, n=24).weights() is the Golay code's weight distribution."},
	"product": {"product(g, h, k=None, size=None, play=\"normal\", position=None)",
		"The tartan product of two or three coin games, e.g. product(coins(r=2), coins(rule=\"ruler\"), size=[8, 8]). Methods: table(*sizes), outcome(cells), moves(cells), grundy(cells), plot()."},
	"play": {"play(game, position=None, first=\"human\", hint=False, level=\"perfect\", seed=0)",
		"Play game against the computer, which never misses a winning move: moves are typed in the input box (help, hint, undo, quit). Any game but products: nim, subtraction, octal, hex_game, wythoff, coins, a game(moves=..., start=...) of your own and sums with +; position= overrides the game's own. level=\"beginner\" errs sometimes; seed makes a game reproducible."},
	"nimbers":  {"nimbers(op=\"product\", size=16)", "The nim-addition (op=\"sum\") or nim-multiplication table of 0..size-1."},
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
	"rare":          "rare(upto): the split of the values into rare and common ones with the fewest rare positions (octal and hexadecimal games): mask, type (\"range\" or \"domain\"), t, count, positions, checked_to.",
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
	"plot":          "plot(size): a figure of the values or the table (of a game(...) on the integers: its values 0..size).",
	"grundy":        "grundy(position): the normal-play Grundy value of a position.",
	"options":       "options(position): the positions reachable in one move.",
	"positions":     "positions(position): every position reachable from position (breadth-first).",
	"play":          "play: \"normal\" or \"misere\".",
	"start":         "start: the start position of the game.",
	"position":      "position: the position the game was given.",
}

var (
	builtinsOnce sync.Once
	builtinSet   starlark.StringDict
)

// builtins returns the predeclared names of a cell, the same values each
// time.
func builtins() starlark.StringDict {
	builtinsOnce.Do(func() {
		fns := map[string]builtinFunc{
			"display":     builtinDisplay,
			"help":        builtinHelp,
			"limits":      builtinLimits,
			"mex":         builtinMex,
			"sum":         builtinSum,
			"game":        builtinGame,
			"nim":         builtinNim,
			"subtraction": builtinSubtraction,
			"octal":       builtinOctal,
			"hex_game":    builtinHex,
			"hexa":        builtinHex,
			"wythoff":     builtinWythoff,
			"coins":       builtinCoins,
			"product":     builtinProduct,
			"nimbers":     builtinNimbers,
			"nimber":      builtinNimber,
			"nim_add":     builtinNimAdd,
			"nim_mul":     builtinNimMul,
			"nim_inv":     builtinNimInv,
			"nim_sqrt":    builtinNimSqrt,
			"nim_pow":     builtinNimPow,
			"play":        builtinPlay,
			"survey":      builtinSurvey,
		}
		for name, fn := range guardBuiltins() {
			fns[name] = fn
		}
		for name, fn := range universeBuiltins() {
			fns[name] = fn
		}
		builtinSet = starlark.StringDict{}
		for name, fn := range fns {
			builtinSet[name] = starlark.NewBuiltin(name, fn)
		}
	})
	return builtinSet
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
		out.Display(s.bundle(v))
	}
	return starlark.None, nil
}

func builtinHelp(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	text, ok := helpOf(v)
	if !ok {
		text = fmt.Sprintf("%s: a %s", v, v.Type())
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
		if d, ok := docs[v.Name()]; ok && v == builtins()[v.Name()] {
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
		d := docs[familyBuiltin(v.sec.Family)]
		return v.describe() + "\n\n" + d.text, true
	case *Game:
		return v.describe() + "\n\n" + docs["game"].text, true
	case Nimber:
		return v.String() + "\n\n" + docs["nimber"].text, true
	}
	return "", false
}

func familyBuiltin(family string) string {
	if family == "hex" {
		return "hex_game"
	}
	return family
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
		return fmt.Errorf("%s: unknown play %q: write play=\"normal\" or play=\"misere\"", familyBuiltin(f.sec.Family), fa.play)
	}
	f.sec.Play = p.String()
	if fa.position != nil && fa.position != starlark.None {
		pos, err := f.position(familyBuiltin(f.sec.Family), fa.position, &f.sec)
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

func builtinNim(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var maxTake, upto starlark.Value = starlark.None, starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "max_take?", &maxTake, "upto?", &upto, "play?", &fa.play); err != nil {
		return nil, err
	}
	var heaps []int
	if len(args) == 1 {
		if _, ok := args[0].(starlark.Int); !ok {
			hs, err := intList("nim", args[0], 0, maxHeap)
			if err != nil {
				return nil, err
			}
			heaps = hs
		}
	}
	if heaps == nil && len(args) > 0 {
		hs, err := intList("nim", args, 0, maxHeap)
		if err != nil {
			return nil, err
		}
		heaps = hs
	}
	ns := &job.NimSpec{Heaps: heaps, Upto: 20}
	if err := setInt("nim", "max_take", maxTake, &ns.MaxTake, 1, maxHeap); err != nil {
		return nil, err
	}
	if err := setInt("nim", "upto", upto, &ns.Upto, 0, maxUpto); err != nil {
		return nil, err
	}
	var pos []string
	for _, h := range heaps {
		pos = append(pos, strconv.Itoa(h))
	}
	f := &Family{repr: reprArgs("nim", pos, "max_take", maxTake, "upto", upto, "play", fa.play),
		sec: job.Section{Family: "nim", Nim: ns}}
	if err := fa.apply(f); err != nil {
		return nil, err
	}
	f.sized = upto != starlark.None
	if heaps != nil {
		f.sec.Position = heaps
	}
	return f, nil
}

func builtinSubtraction(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var set, allBut, upto starlark.Value = starlark.None, starlark.None, starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "set?", &set, "all_but?", &allBut, "upto?", &upto, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	ss := &job.SubtractionSpec{Upto: 100}
	src := set
	switch {
	case set != starlark.None && allBut != starlark.None:
		return nil, fmt.Errorf("subtraction: give either set or all_but, not both")
	case allBut != starlark.None:
		src, ss.AllBut = allBut, true
	case set == starlark.None:
		return nil, fmt.Errorf("subtraction: which amounts may be taken? write e.g. subtraction([1, 3, 4]) (or all_but=[...])")
	}
	var err error
	if ss.Set, err = intList("subtraction", src, 1, maxUpto); err != nil {
		return nil, err
	}
	if len(ss.Set) == 0 && !ss.AllBut {
		return nil, fmt.Errorf("subtraction: the set is empty: no move is possible; give at least one amount")
	}
	if err := setInt("subtraction", "upto", upto, &ss.Upto, 0, maxUpto); err != nil {
		return nil, err
	}
	if _, err := heapGame(&job.Section{Family: "subtraction", Subtraction: ss}); err != nil {
		return nil, fmt.Errorf("subtraction: %s", strings.TrimPrefix(err.Error(), "heap: "))
	}
	f := &Family{repr: reprArgs("subtraction", nil, "set", set, "all_but", allBut, "upto", upto, "play", fa.play, "position", fa.position),
		sec: job.Section{Family: "subtraction", Subtraction: ss}}
	if set != starlark.None {
		f.repr = reprArgs("subtraction", []string{set.String()}, "upto", upto, "play", fa.play, "position", fa.position)
	}
	f.sized = upto != starlark.None
	return f, fa.apply(f)
}

func builtinOctal(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return codeGame(b.Name(), false, args, kwargs)
}

func builtinHex(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return codeGame(b.Name(), true, args, kwargs)
}

func codeGame(name string, hex bool, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code string
	var upto starlark.Value = starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(name, args, kwargs, "code", &code, "upto?", &upto, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	var err error
	if hex {
		_, err = heap.ParseHex(code)
	} else {
		_, err = heap.ParseOctal(code)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s; write the code in quotes, e.g. %s(\"0.77\")", name, strings.TrimPrefix(err.Error(), "heap: "), name)
	}
	oc := &job.OctalSpec{Code: code, Hex: hex, Upto: 100}
	if err := setInt(name, "upto", upto, &oc.Upto, 0, maxUpto); err != nil {
		return nil, err
	}
	fam := "octal"
	if hex {
		fam = "hex"
	}
	f := &Family{repr: reprArgs(name, []string{strconv.Quote(code)}, "upto", upto, "play", fa.play, "position", fa.position),
		sec: job.Section{Family: fam, Octal: oc}, sized: upto != starlark.None}
	return f, fa.apply(f)
}

func builtinWythoff(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var rows, cols, size starlark.Value = starlark.None, starlark.None, starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "rows?", &rows, "cols?", &cols, "size?", &size, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	ws := &job.WythoffSpec{Size: [2]int{10, 10}}
	if size != starlark.None {
		sz, err := intList("wythoff", size, 1, maxSide)
		if err != nil {
			return nil, err
		}
		if len(sz) != 2 {
			return nil, fmt.Errorf("wythoff: size wants two sides, e.g. size=[20, 20]")
		}
		ws.Size = [2]int{sz[0], sz[1]}
	}
	if err := setInt("wythoff", "rows", rows, &ws.Size[0], 1, maxSide); err != nil {
		return nil, err
	}
	if cols == starlark.None && rows != starlark.None {
		cols = rows
	}
	if err := setInt("wythoff", "cols", cols, &ws.Size[1], 1, maxSide); err != nil {
		return nil, err
	}
	var pos []string
	if rows != starlark.None || size != starlark.None {
		pos = []string{strconv.Itoa(ws.Size[0]), strconv.Itoa(ws.Size[1])}
	}
	f := &Family{repr: reprArgs("wythoff", pos, "play", fa.play, "position", fa.position), sec: job.Section{Family: "wythoff", Wythoff: ws}}
	return f, fa.apply(f)
}

// coinsSpec reads rule, r, n and first like a job file's coins map.
func coinsSpec(name string, rule string, r, n, first starlark.Value, needN bool) (*job.CoinsSpec, error) {
	cs := &job.CoinsSpec{Rule: rule, First: 1}
	if cs.Rule == "" {
		cs.Rule = "at-most"
	}
	switch cs.Rule {
	case "at-most", "exactly", "ruler":
	default:
		return nil, fmt.Errorf("%s: unknown rule %q; write at-most, exactly or ruler", name, cs.Rule)
	}
	if cs.Rule == "ruler" {
		if r != starlark.None {
			return nil, fmt.Errorf("%s: the ruler game turns any run of coins: remove r", name)
		}
	} else {
		if r == starlark.None {
			return nil, fmt.Errorf("%s: how many coins does a move turn? write e.g. %s(rule=%q, r=3)", name, name, cs.Rule)
		}
		if err := setInt(name, "r", r, &cs.R, 1, maxCoins); err != nil {
			return nil, err
		}
	}
	if err := setInt(name, "first", first, &cs.First, 0, 1); err != nil {
		return nil, fmt.Errorf("%v (the number of the leftmost coin)", err)
	}
	if cs.Rule == "ruler" && cs.First != 1 {
		return nil, fmt.Errorf("%s: the ruler game numbers coins from 1; remove first", name)
	}
	if err := setInt(name, "n", n, &cs.N, 1, maxCoins); err != nil {
		return nil, err
	}
	if _, err := coinGame(*cs); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "coins: "))
	}
	return cs, nil
}

func builtinCoins(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var rule string
	var r, n, first starlark.Value = starlark.None, starlark.None, starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "rule?", &rule, "r?", &r, "n?", &n, "first?", &first, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	cs, err := coinsSpec("coins", rule, r, n, first, false)
	if err != nil {
		return nil, err
	}
	f := &Family{repr: reprArgs("coins", nil, "rule", rule, "r", r, "n", n, "first", first, "play", fa.play, "position", fa.position),
		sec: job.Section{Family: "coins", Coins: cs}}
	return f, fa.apply(f)
}

func builtinProduct(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var size starlark.Value = starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "size?", &size, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	if len(args) < 2 || len(args) > 3 {
		return nil, fmt.Errorf("product: want 2 or 3 coin games, e.g. product(coins(r=2), coins(rule=\"ruler\")), got %d", len(args))
	}
	ps := &job.ProductSpec{}
	var reprs []string
	for i, a := range args {
		c, ok := a.(*Family)
		if !ok || c.sec.Family != "coins" {
			return nil, fmt.Errorf("product: factor %d is %s, not a coin game; write coins(...)", i+1, a.Type())
		}
		fc := *c.sec.Coins
		ps.Factors = append(ps.Factors, fc)
		n := fc.N
		if n == 0 {
			n = 8
		}
		ps.Size = append(ps.Size, n)
		reprs = append(reprs, c.repr)
	}
	if size != starlark.None {
		sz, err := intList("product", size, 1, maxCoins)
		if err != nil {
			return nil, err
		}
		if len(sz) != len(ps.Factors) {
			return nil, fmt.Errorf("product: size wants %d sides, one per factor", len(ps.Factors))
		}
		ps.Size = sz
	}
	for i := range ps.Factors {
		ps.Factors[i].N = 0
	}
	f := &Family{repr: reprArgs("product", reprs, "size", size, "play", fa.play, "position", fa.position),
		sec: job.Section{Family: "product", Product: ps}}
	if _, err := f.product(); err != nil {
		return nil, fmt.Errorf("product: %s", strings.TrimPrefix(err.Error(), "coins: "))
	}
	return f, fa.apply(f)
}

func builtinNimbers(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	op := "product"
	size := 16
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "op?", &op, "size?", &size); err != nil {
		return nil, err
	}
	switch op {
	case "sum", "add", "addition":
		op = "sum"
	case "product", "mul", "multiplication":
		op = "product"
	default:
		return nil, fmt.Errorf("nimbers: unknown operation %q; write op=\"sum\" or op=\"product\"", op)
	}
	if size < 1 || size > 4096 {
		return nil, fmt.Errorf("nimbers: size = %d is out of range: it must be from 1 to 4096", size)
	}
	sec := &job.Section{Family: "nimbers", Nimbers: &job.NimbersSpec{Op: op, Size: size}, Show: []string{"table"}}
	sr, err := runSection(th, sec)
	if err != nil {
		return nil, fmt.Errorf("nimbers: %w", err)
	}
	return makeResult("table", sr)
}

// hidden tells the built-ins of guarded cells (·+, ·*...), which no cell
// can name, from those completion and Globals show.
func hidden(name string) bool { return strings.HasPrefix(name, "·") }

// builtinNames lists the built-ins, sorted.
func builtinNames() []string {
	var names []string
	for n := range builtins() {
		if !hidden(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// builtinSum is Python's sum, which Starlark lacks.
func builtinSum(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	var total starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "values", &it, "start?", &total); err != nil {
		return nil, err
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for i := 1; iter.Next(&x); i++ {
		v, err := guardedBinary(th, syntax.PLUS, total, x)
		if err != nil {
			if err == errStopped {
				return nil, err
			}
			return nil, fmt.Errorf("sum: %v", err)
		}
		total = v
		if i%chunk == 0 {
			if err := tick(th, chunk); err != nil {
				return nil, err
			}
		}
	}
	return total, nil
}
