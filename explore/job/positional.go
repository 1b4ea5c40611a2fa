package job

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/graph"
)

// family runs the analyses of a game given by its moves (a registered
// family's Game, such as a Starlark game): the value and outcome of its
// start, its winning moves, the P-positions reachable from it, its graph.
func (r *runner) family() error {
	fs := r.s.Registered()
	g, err := fs.Family.New(fs.Params.Clone(), family.Env{Context: r.ctx, MaxSteps: r.lim.Steps, MaxMemory: r.lim.Memory})
	if err != nil {
		return err
	}
	defer g.Close()
	r.res.Game = g.String()
	if n, ok := g.(interface{ Name() string }); ok {
		r.res.Game = n.Name() // game(name=…), which says more than the call
	}
	play := r.play()
	if g.Play() == game.Misere {
		play = game.Misere
	}
	r.res.PlayMisere = play == game.Misere
	start := g.Start()
	r.res.Position = g.JSON(start)
	sp, _ := g.(family.Splitter)
	cn, _ := g.(family.Canonicalizer)
	split := sp != nil || cn != nil
	if split {
		if err := checkCapabilities(r.ctx, g, sp, cn, r.lim); err != nil {
			return err
		}
	}
	vs := &valueSolver{g: g, sp: sp, cn: cn, memo: map[string]int64{}, max: r.lim.Positions, ctx: r.ctx}
	// The whole-position solver serves misère play and the analyses that
	// list positions; the value of a normal-play start is the splitting
	// solver's when the game splits.
	var sol *game.Solver[string]
	solver := func() (*game.Solver[string], error) {
		if sol == nil {
			var err error
			sol, err = game.NewSolver[string](g, game.Options{Play: play, MaxPositions: clampInt(r.lim.Positions), MaxMemory: r.lim.Memory, Context: r.ctx})
			if err != nil {
				return nil, err
			}
		}
		return sol, nil
	}
	value := func(k string) (uint64, error) {
		if fv, ok := g.(interface{ Value(string) (uint64, error) }); ok && play == game.Normal {
			return fv.Value(k) // a family's own solver (Node Kayles, Cram, Chomp)
		}
		if split {
			return vs.value(k)
		}
		s, err := solver()
		if err != nil {
			return 0, err
		}
		return s.Grundy(k)
	}
	if r.wants("value") {
		v, err := value(start)
		if err != nil {
			return r.gameErr(g, err)
		}
		r.res.Value = &v
	}
	if r.wants("outcome") || r.wants("moves") {
		var win []string
		if play == game.Normal {
			ms, err := g.Moves(start)
			if err != nil {
				return err
			}
			seen := map[string]bool{}
			for _, q := range ms {
				if seen[q] {
					continue
				}
				seen[q] = true
				v, err := value(q)
				if err != nil {
					return r.gameErr(g, err)
				}
				if v == 0 {
					win = append(win, q)
				}
			}

		} else {
			s, err := solver()
			if err != nil {
				return err
			}
			if win, err = s.WinningMoves(start); err != nil {
				return r.gameErr(g, err)
			}
		}
		if r.wants("outcome") {
			r.res.Outcome = game.P.String()
			if len(win) > 0 {
				r.res.Outcome = game.N.String()
			}
		}
		if r.wants("moves") {
			r.res.Moves = sortedJSON(g, win)
		}
	}
	if r.wants("p-positions") {
		s, err := solver()
		if err != nil {
			return err
		}
		all, err := s.Reachable(start)
		if err != nil {
			return r.gameErr(g, err)
		}
		ps, err := s.PPositions(start)
		if err != nil {
			return r.gameErr(g, err)
		}
		pp := &PPositions{Count: uint64(len(ps)), Of: uint64(len(all))}
		if len(ps) <= MaxListed {
			pp.List = sortedJSON(g, ps)
		}
		r.res.PPositions = pp
	}
	if r.wants("graph") {
		gr, err := graph.Build[string](g, start, graph.Options[string]{MaxPositions: r.graphMax(), Play: play, Context: r.ctx, Label: g.Show})
		if err != nil {
			if errors.Is(err, game.ErrTooManyPositions) {
				return fmt.Errorf("graph: more than %d positions are reachable from the start: too many to draw; drop graph from show, or make the game smaller: %w", r.graphMax(), err)
			}
			return r.gameErr(g, err)
		}
		if r.res.Graph, err = GraphResult(gr, g.String()); err != nil {
			return err
		}
	}
	return nil
}

// gameErr words an error of the solver on a game given by its moves: a
// cycle shows its positions as the game prints them.
func (r *runner) gameErr(g family.Game, err error) error {
	var ce *game.CycleError[string]
	if errors.As(err, &ce) {
		s := ""
		for i, k := range append(ce.Cycle, ce.Cycle[:min(1, len(ce.Cycle))]...) {
			if i > 0 {
				s += " → "
			}
			s += g.Show(k)
		}
		return fmt.Errorf("%v: the moves form a cycle, so play may never end: %s", g, s)
	}
	if errors.Is(err, game.ErrTooManyPositions) {
		return fmt.Errorf("%v: %w; %s", g, err, limitHint)
	}
	return err
}

// sortedJSON is the positions of keys as JSON values, sorted: numbers by
// value, strings, then lists element by element.
func sortedJSON(g family.Game, keys []string) []any {
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = g.JSON(k)
	}
	slices.SortStableFunc(out, compareJSON)
	return out
}

func compareJSON(a, b any) int {
	rank := func(x any) int {
		switch x.(type) {
		case int64, int:
			return 0
		case string:
			return 1
		}
		return 2
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case int:
		return cmp.Compare(x, b.(int))
	case string:
		return cmp.Compare(x, b.(string))
	case []any:
		y, _ := b.([]any)
		for i := 0; i < len(x) && i < len(y); i++ {
			if c := compareJSON(x[i], y[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(x), len(y))
	}
	return 0
}

// valueSolver computes normal-play Grundy values of a game whose
// positions split into components (their values nim-summed,
// Sprague–Grundy) and fold by symmetry (one memo entry per canonical
// form). It serves until the generic solver (package game) splits and
// folds itself; then this gives way to its Splitter and Canonicalizer.
type valueSolver struct {
	g    family.Game
	sp   family.Splitter
	cn   family.Canonicalizer
	memo map[string]int64 // canonical key → value; -1 while being solved
	// sums keeps the value of every position met, by its own key: a
	// position reached by several moves is split and folded once.
	sums map[string]uint64
	// forms keeps the canonical form of every component met.
	forms map[string]string
	max   int64
	ctx   context.Context
	n     int
}

// value is the nim-sum of the values of key's components.
func (s *valueSolver) value(key string) (uint64, error) {
	if v, ok := s.sums[key]; ok {
		return v, nil
	}
	comps := []string{key}
	if s.sp != nil {
		var err error
		if comps, err = s.sp.Components(key); err != nil {
			return 0, err
		}
	}
	var x uint64
	for _, c := range comps {
		v, err := s.single(c)
		if err != nil {
			return 0, err
		}
		x ^= v
	}
	if s.sums == nil {
		s.sums = map[string]uint64{}
	}
	s.sums[key] = x
	return x, nil
}

// single is the value of a component: the mex of its options' values.
func (s *valueSolver) single(key string) (uint64, error) {
	if s.cn != nil {
		if f, ok := s.forms[key]; ok {
			key = f
		} else {
			f, err := s.cn.Canonical(key)
			if err != nil {
				return 0, err
			}
			if s.forms == nil {
				s.forms = map[string]string{}
			}
			s.forms[key] = f
			key = f
		}
	}
	if v, ok := s.memo[key]; ok {
		if v < 0 {
			return 0, &game.CycleError[string]{Cycle: []string{key}}
		}
		return uint64(v), nil
	}
	if int64(len(s.memo)) >= s.max {
		return 0, fmt.Errorf("game: more than %d positions: %w", s.max, game.ErrTooManyPositions)
	}
	s.n++
	if s.ctx != nil && s.n&255 == 0 {
		if err := budget.Err(s.ctx); err != nil {
			return 0, err
		}
	}
	s.memo[key] = -1
	ms, err := s.g.Moves(key)
	if err != nil {
		return 0, err
	}

	seen := make([]bool, len(ms)+1)
	for _, q := range ms {
		v, err := s.value(q)
		if err != nil {
			return 0, err
		}
		if v < uint64(len(seen)) {
			seen[v] = true
		}
	}
	mex := uint64(0)
	for seen[mex] {
		mex++
	}
	s.memo[key] = int64(mex)
	return mex, nil
}

// Sizes of the sampled check of components and canonical forms: the
// positions listed from the start, how many of the last (the smallest)
// are checked, and the positions the whole-position solver may visit.
const (
	checkListed    = 2000
	checkSampled   = 64
	checkPositions = 50_000
)

// checkCapabilities compares, on a sample of small positions reachable
// from the start, the values that components and canonical forms give
// with those of the moves alone (the whole position solved): a function
// that contradicts the moves is an error before the work starts, naming
// the position and the functions.
func checkCapabilities(ctx context.Context, g family.Game, sp family.Splitter, cn family.Canonicalizer, lim Limits) error {
	order := []string{g.Start()}
	seen := map[string]bool{g.Start(): true}
	for i := 0; i < len(order) && len(order) < checkListed; i++ {
		ms, err := g.Moves(order[i])
		if err != nil {
			return err
		}
		for _, q := range ms {
			if !seen[q] {
				seen[q] = true
				order = append(order, q)
			}
		}
	}
	plain, err := game.NewSolver[string](game.Plain[string](g), game.Options{MaxPositions: checkPositions, MaxMemory: lim.Memory, Context: ctx})
	if err != nil {
		return err
	}
	vs := &valueSolver{g: g, sp: sp, cn: cn, memo: map[string]int64{}, max: checkPositions, ctx: ctx}
	for i := len(order) - 1; i >= 0 && i >= len(order)-checkSampled; i-- {
		k := order[i]
		want, err := plain.Grundy(k)
		if errors.Is(err, game.ErrTooManyPositions) {
			break // the positions left are larger still
		}
		if err != nil {
			return err
		}
		got, err := vs.value(k)
		if errors.Is(err, game.ErrTooManyPositions) {
			break
		}
		if err != nil {
			return err
		}
		if got != want {
			what := "components and canonical"
			switch {
			case cn == nil:
				what = "components"
			case sp == nil:
				what = "canonical"
			}
			if d, ok := g.(interface{ Defined(fn string) string }); ok {
				what = d.Defined(what)
			}
			return fmt.Errorf("%v: %s contradict the moves: the position %s has value %d by its moves, %d by %s; a component must be a game of its own whose value is part of the sum, a canonical form a position of equal value", g, what, g.Show(k), want, got, what)
		}
	}
	return nil
}
