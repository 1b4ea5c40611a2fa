package job

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/graph"
)

// family runs the analyses of a game given by its moves (a registered
// family's Game, such as a Starlark game): the value and outcome of its
// start, its winning moves, the P-positions reachable from it, its graph.
//
// Under a time limit the section is a term of its range's (rangeClock).
func (r *runner) family() error { return r.timed(r.familyAnalyses) }

// familyAnalyses are the analyses of family.
func (r *runner) familyAnalyses() error {
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
	m := capabilities(g)
	_, ownValue := g.(interface{ Value(string) (uint64, error) })
	shared := r.s.shared
	if ownValue {
		shared = nil // a family's own solver gives the values
	}
	var samples []string
	if caps := hasCaps(m); caps[0] || caps[1] || shared != nil {
		if samples, err = samplePositions(g); err != nil {
			return err
		}
	}
	// The terms of a range after the first that share its memo are
	// checked by comparing the memo's values with their moves' on their
	// samples (solverFor): checking their capabilities too would solve
	// the samples twice (a third of 3 × 1..13's time in Starlark).
	checked := shared.sharing()
	if !checked {
		if err := r.checkCapabilities(g, m, samples); err != nil {
			return err
		}
	}
	// One solver, its memo keyed by the canonical form of each part: the
	// value of a normal-play start is the nim-sum of its parts' values;
	// misère play and the analyses that list positions see whole
	// positions (folded by canonical). Starlark threads are not shareable:
	// one worker.
	opts := game.Options{Play: play, MaxPositions: clampInt(r.lim.Positions), MaxMemory: r.lim.Memory, MaxSteps: r.lim.Steps, Context: r.ctx, Workers: 1}
	if p := budget.From(r.ctx); p != nil {
		p.Start(g.String(), 0)
		opts.Progress = func(st game.Stats) {
			p.SetLabel(fmt.Sprintf("%v: %v", g, st))
			p.Set(st.Solved)
		}
	}
	sol, done, err := r.solverFor(shared, g, m, opts, samples)
	if err != nil {
		return err
	}
	defer done()
	if checked && shared.off {
		// the range gave sharing up on this term (solverFor holds its
		// lock until done): check the term alone
		if err := r.checkCapabilities(g, m, samples); err != nil {
			return err
		}
	}
	solver := func() (*game.Solver[string], error) { return sol, nil }
	value := func(k string) (uint64, error) {
		if fv, ok := g.(interface{ Value(string) (uint64, error) }); ok && play == game.Normal {
			return fv.Value(k) // a family's own solver (Node Kayles, Cram, Chomp)
		}
		return sol.Grundy(k)
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
	if err := r.graphAnalysis(g, start, play); err != nil {
		return err
	}
	// A family whose memo is kept in a file (node-kayles: {…, memo: f})
	// saves it after each game solved; Close saves it too when the
	// analyses stop early (a limit, Ctrl-C), where its error is not the one
	// reported.
	if sv, ok := g.(interface{ Save() error }); ok {
		return sv.Save()
	}
	return nil
}

// graphAnalysis is the graph analysis of family, its last.
func (r *runner) graphAnalysis(g family.Game, start string, play game.Play) error {
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

// capabilities is g as the solver sees it: with the Components and
// Canonical it offers (for a Starlark game, those its file gave, so that
// one without pays no call per option), remembered (capCache), else its
// moves alone.
func capabilities(g family.Game) game.Mover[string] {
	var comps func(string) ([]string, error)
	var canon func(string) (string, error)
	if sp, ok := g.(family.Splitter); ok {
		comps = sp.Components
	}
	if cn, ok := g.(family.Canonicalizer); ok {
		canon = cn.Canonical
	}
	if h, ok := g.(interface{ HasComponents() bool }); ok && !h.HasComponents() {
		comps = nil
	}
	if h, ok := g.(interface{ HasCanonical() bool }); ok && !h.HasCanonical() {
		canon = nil
	}
	var c capCache
	if comps != nil {
		comps = c.components(comps)
	}
	if canon != nil {
		canon = c.canonical(canon)
	}
	return game.WithCapabilities(game.Plain[string](g), comps, canon)
}

// Sizes of the sampled check of components and canonical forms: the
// positions listed from the start, how many of the last (the smallest)
// are the samples, and the positions the check looks at from them.
const (
	checkListed    = 2000
	checkSampled   = 64
	checkPositions = 20_000
)

// samplePositions lists small positions of g: of the first checkListed
// positions reachable from the start, breadth first, the checkSampled
// listed last, the smallest first.
func samplePositions(g family.Game) ([]string, error) {
	order := []string{g.Start()}
	seen := map[string]bool{g.Start(): true}
	for i := 0; i < len(order) && len(order) < checkListed; i++ {
		ms, err := g.Moves(order[i])
		if err != nil {
			return nil, err
		}
		for _, q := range ms {
			if !seen[q] {
				seen[q] = true
				order = append(order, q)
			}
		}
	}
	var samples []string
	for i := len(order) - 1; i >= 0 && i >= len(order)-checkSampled; i-- {
		samples = append(samples, order[i])
	}
	return samples, nil
}

// checkCapabilities compares, on a sample of small positions reachable
// from the start and the positions below them, the values that components
// and canonical forms give with those of the moves alone
// (game.CheckCapabilities): a function that contradicts the moves is an
// error before the work starts, naming the position and the function, its
// file and line.
func (r *runner) checkCapabilities(g family.Game, m game.Mover[string], samples []string) error {
	if caps := hasCaps(m); !caps[0] && !caps[1] {
		return nil
	}
	err := game.CheckCapabilities(m, samples, game.Options{MaxPositions: checkPositions, MaxMemory: r.lim.Memory, Context: r.ctx})
	var ce *game.CapabilityError[string]
	switch {
	case errors.Is(err, game.ErrTooManyPositions):
		return nil // the positions left are larger still
	case errors.As(err, &ce):
		what := strings.ToLower(ce.Capability)
		if d, ok := g.(interface{ Defined(fn string) string }); ok {
			what = d.Defined(what)
		}
		return fmt.Errorf("%v: %s contradict the moves: the position %s has value %d by its moves, %d by %s; a component must be a game of its own whose value is part of the sum, a canonical form a position of equal value", g, what, g.Show(ce.Position), ce.Want, ce.Got, what)
	}
	return err
}
