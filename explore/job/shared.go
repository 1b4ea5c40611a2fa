package job

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
)

// sharedSolver is the one solver of the sections of a parameter range of
// a game given by its moves (Across): its memo, keyed by the canonical
// forms of the parts, serves every section, so that Node Kayles on 3 × 16
// reuses every part 3 × 15 needed, and is counted once against the
// memory limit. The sections take it in turn (mu), each putting its own
// game, context and progress line in place. The memo holds only if a
// part's moves do not depend on the parameter (Node Kayles' grid size
// does not change the moves of a part; take(n, k)'s k does): each section
// after the first compares, on the small positions sampled from its start,
// the shared memo's values with those of its own moves alone, and on a
// difference the range gives sharing up, each section solving alone. The
// check samples: a parameter that changes the moves of large parts only
// goes unseen, as a components= that lies on large positions only does.
// (The positions of another section are never given to a game's
// functions: they need not be its positions, and a function may loop on
// them.) When two parameters range, each value of the first has a solver
// of its own: rows × cols grids number their cells by rows.
type sharedSolver struct {
	mu   sync.Mutex
	off  bool
	sol  *game.Solver[string]
	play game.Play
	caps [2]bool // components, canonical
	live *liveGame
	left int // sections of the range not yet run: the memo goes with the last
	// clock is the range's time limit, shared by its rows.
	clock *rangeClock
}

// sharing says whether sh holds a memo that the next term will use if its
// samples agree with it (false for nil, or once the range gave sharing up).
func (sh *sharedSolver) sharing() bool {
	if sh == nil {
		return false
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.sol != nil && !sh.off
}

// liveGame is the game, context and progress line of the section using a
// shared solver: the solver's mover, Context and Progress read them.
type liveGame struct {
	g        family.Game
	ctx      context.Context
	progress func(game.Stats)
	cache    capCache
}

func (l *liveGame) Moves(k string) ([]string, error) { return l.g.Moves(k) }

// capCache remembers the parts of the positions met and the canonical
// forms of the parts: the solver asks for them each time it meets a
// position (to find its parts in the memo), and a Starlark call costs
// far more than a look-up. Each map is cleared when it holds maxCached
// entries: the maps are outside the memo's accounting, and most of their
// hits are of positions met shortly before. Starlark Node Kayles
// 3 × 1..14 (one run each, load 24–28): 2^24 entries, 16.5 s of CPU and
// 120 MB; 2^18, 15.7 s and 112 MB; 2^16, 14.5 s and 64 MB; 2^14, 15.4 s
// and 43 MB; 2^12, 17.7 s and 40 MB.
type capCache struct {
	parts map[string][]string
	forms map[string]string
}

const maxCached = 1 << 16

func (c *capCache) components(f func(string) ([]string, error)) func(string) ([]string, error) {
	return func(k string) ([]string, error) {
		if v, ok := c.parts[k]; ok {
			return v, nil
		}
		v, err := f(k)
		if err != nil {
			return nil, err
		}
		if c.parts == nil || len(c.parts) >= maxCached {
			c.parts = map[string][]string{}
		}
		c.parts[k] = v
		return v, nil
	}
}

func (c *capCache) canonical(f func(string) (string, error)) func(string) (string, error) {
	return func(k string) (string, error) {
		if v, ok := c.forms[k]; ok {
			return v, nil
		}
		v, err := f(k)
		if err != nil {
			return "", err
		}
		if c.forms == nil || len(c.forms) >= maxCached {
			c.forms = map[string]string{}
		}
		c.forms[k] = v
		return v, nil
	}
}

// liveCtx is the context of the section using the solver.
type liveCtx struct{ l *liveGame }

func (c liveCtx) Deadline() (time.Time, bool) { return c.l.ctx.Deadline() }
func (c liveCtx) Done() <-chan struct{}       { return c.l.ctx.Done() }
func (c liveCtx) Err() error                  { return c.l.ctx.Err() }
func (c liveCtx) Value(k any) any             { return c.l.ctx.Value(k) }

// hasCaps says which capabilities the solver's mover m asserts.
func hasCaps(m game.Mover[string]) [2]bool {
	_, sp := m.(game.Splitter[string])
	_, cn := m.(game.Canonicalizer[string])
	return [2]bool{sp, cn}
}

// solverFor returns the solver of a section of game g (its mover m, with
// the capabilities g offers) and a function to call when the section is
// done. Outside a range (sh nil), or when the range gave sharing up, it is a solver
// of the section's own; samples are small positions from g's start, on
// which a shared memo is checked before it is trusted.
func (r *runner) solverFor(sh *sharedSolver, g family.Game, m game.Mover[string], opts game.Options, samples []string) (*game.Solver[string], func(), error) {
	own := func() (*game.Solver[string], func(), error) {
		s, err := game.NewSolver(m, opts)
		return s, func() {}, err
	}
	if sh == nil {
		return own()
	}
	sh.mu.Lock()
	done := func() {
		sh.left--
		if sh.left <= 0 {
			sh.sol, sh.live = nil, nil // the memo goes with the range's last section
		}
		sh.mu.Unlock()
	}
	if sh.off {
		s, _, err := own()
		return s, done, err
	}
	if sh.sol == nil {
		sh.live = &liveGame{g: g, ctx: opts.Context, progress: opts.Progress}
		l := sh.live
		var comps func(string) ([]string, error)
		var canon func(string) (string, error)
		caps := hasCaps(m)
		if caps[0] {
			comps = l.cache.components(func(k string) ([]string, error) { return l.g.(family.Splitter).Components(k) })
		}
		if caps[1] {
			canon = l.cache.canonical(func(k string) (string, error) { return l.g.(family.Canonicalizer).Canonical(k) })
		}
		o := opts
		o.Context = liveCtx{l}
		if opts.Progress != nil {
			o.Progress = func(st game.Stats) {
				if l.progress != nil {
					l.progress(st)
				}
			}
		}
		s, err := game.NewSolver(game.WithCapabilities[string](l, comps, canon), o)
		if err != nil {
			done()
			return nil, nil, err
		}
		sh.sol, sh.play, sh.caps = s, opts.Play, caps
		return s, done, nil
	}
	sh.live.g, sh.live.ctx, sh.live.progress = g, opts.Context, opts.Progress
	if sh.play != opts.Play || sh.caps != hasCaps(m) || !r.sameValues(sh.sol, m, samples) {
		sh.off, sh.sol, sh.live = true, nil, nil
		s, _, err := own()
		return s, done, err
	}
	return sh.sol, done, nil
}

// sameValues says whether the shared solver gives the samples the values
// that the section's game gives them by its moves alone, as far as a
// small solve of them goes.
func (r *runner) sameValues(shared *game.Solver[string], m game.Mover[string], samples []string) bool {
	plain, err := game.NewSolver(game.Plain(m), game.Options{MaxPositions: checkPositions, MaxMemory: r.lim.Memory, Context: r.ctx})
	if err != nil {
		return false
	}
	for _, q := range samples {
		want, err := plain.Grundy(q)
		if errors.Is(err, game.ErrTooManyPositions) {
			break // larger still: the samples before it agreed
		}
		if err != nil {
			return false // not a position of this game
		}
		got, err := shared.Grundy(q)
		if err != nil || got != want {
			return false
		}
	}
	return true
}
