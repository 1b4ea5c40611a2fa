package game

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/nimbook/nimbook/explore/budget"
)

// Mover lists the positions reachable from p in one move. An error stops
// the solver and is returned to its caller, wrapped.
type Mover[T comparable] interface {
	Moves(p T) ([]T, error)
}

// MoveFunc adapts a function to the Mover interface.
type MoveFunc[T comparable] func(p T) ([]T, error)

// Moves calls f(p).
func (f MoveFunc[T]) Moves(p T) ([]T, error) { return f(p) }

// Play is the winning convention.
type Play int

const (
	// Normal play: the player who cannot move loses.
	Normal Play = iota
	// Misere play: the player who makes the last move loses.
	Misere
)

// String returns "normal" or "misere", the names used in job files.
func (p Play) String() string {
	switch p {
	case Normal:
		return "normal"
	case Misere:
		return "misere"
	}
	return fmt.Sprintf("Play(%d)", int(p))
}

// ParsePlay reads "normal", "misere" or "misère"; the empty string is Normal.
func ParsePlay(s string) (Play, error) {
	switch s {
	case "", "normal":
		return Normal, nil
	case "misere", "misère":
		return Misere, nil
	}
	return Normal, fmt.Errorf("game: unknown play %q (want normal or misere)", s)
}

// Outcome says who wins from a position with perfect play.
type Outcome int

const (
	// P: the previous player (the one who just moved) wins.
	P Outcome = iota
	// N: the next player (the one about to move) wins.
	N
)

// String returns "P" or "N".
func (o Outcome) String() string {
	if o == P {
		return "P"
	}
	return "N"
}

// DefaultMaxPositions is the position budget of a solver built with a zero
// Options.MaxPositions.
const DefaultMaxPositions = 10_000_000

// ErrTooManyPositions is wrapped by the error returned when a game has more
// positions than the solver's budget.
var ErrTooManyPositions = errors.New("too many positions")

// ErrTooManySteps is wrapped by the error returned when a search needs
// more steps than Options.MaxSteps.
var ErrTooManySteps = errors.New("step limit")

// CycleError reports a cycle in a move function: an impartial game must end.
type CycleError[T comparable] struct {
	// Cycle lists the positions of the cycle in move order; its last
	// position moves back to the first.
	Cycle []T
}

func (e *CycleError[T]) Error() string {
	s := "game: the moves form a cycle, so play may never end: "
	for i, p := range e.Cycle {
		if i > 0 {
			s += " → "
		}
		s += fmt.Sprint(p)
	}
	if len(e.Cycle) > 0 {
		s += " → " + fmt.Sprint(e.Cycle[0])
	}
	return s
}

// Splitter is an optional capability of a Mover: a position that is the
// disjunctive sum of independent parts (a graph of several connected
// pieces, a row of coins with gaps) lists those parts, and the solver
// solves and remembers each part on its own. The Grundy value of p is the
// nim-sum of the values of its parts (Sprague–Grundy); a position that is
// one part returns itself, a position with no move may return no part.
//
// Components is used for Grundy values and normal-play outcomes only,
// never for misère outcomes, which are not determined by the parts' values.
type Splitter[T comparable] interface {
	Components(p T) ([]T, error)
}

// Canonicalizer is an optional capability of a Mover: Canonical returns
// one representative of p's symmetry class (a reflection of a grid, a
// permutation of heaps), and the memo is keyed by it, so that symmetric
// positions are solved once. Canonical(p) must have the same game tree as
// p up to isomorphism, hence the same Grundy value and misère outcome; it
// is used under both conventions.
type Canonicalizer[T comparable] interface {
	Canonical(p T) (T, error)
}

// Plain returns m without its optional capabilities: a solver of it sees
// whole positions only, as the reference of CheckCapabilities does.
func Plain[T comparable](m Mover[T]) Mover[T] { return MoveFunc[T](m.Moves) }

// WithCapabilities returns m with the capabilities given as functions
// (either may be nil): components becomes its Components, canonical its
// Canonical. It serves movers written as functions, such as a game
// defined in Starlark.
func WithCapabilities[T comparable](m Mover[T], components func(T) ([]T, error), canonical func(T) (T, error)) Mover[T] {
	switch {
	case components != nil && canonical != nil:
		return splitCanon[T]{m, components, canonical}
	case components != nil:
		return splitOnly[T]{m, components}
	case canonical != nil:
		return canonOnly[T]{m, canonical}
	}
	return m
}

type splitOnly[T comparable] struct {
	Mover[T]
	components func(T) ([]T, error)
}

func (m splitOnly[T]) Components(p T) ([]T, error) { return m.components(p) }

type canonOnly[T comparable] struct {
	Mover[T]
	canonical func(T) (T, error)
}

func (m canonOnly[T]) Canonical(p T) (T, error) { return m.canonical(p) }

type splitCanon[T comparable] struct {
	Mover[T]
	components func(T) ([]T, error)
	canonical  func(T) (T, error)
}

func (m splitCanon[T]) Components(p T) ([]T, error) { return m.components(p) }
func (m splitCanon[T]) Canonical(p T) (T, error)    { return m.canonical(p) }

// Options tune a Solver. The zero value is normal play, the default
// position budget, one goroutine, no step or memory limit and no
// cancellation.
type Options struct {
	// Play is the convention used by Outcome, WinningMoves and PPositions.
	// Grundy always returns the normal-play value.
	Play Play
	// MaxPositions bounds the number of distinct positions (canonical
	// parts) the solver stores, over its life; 0 means
	// DefaultMaxPositions.
	MaxPositions int
	// MaxMemory bounds the bytes the solver holds (its memo and the
	// options of the positions being solved), estimated as it grows, so a
	// search stops before it allocates past it; 0 means no bound. The
	// memo is never evicted: a full memo stops the search with an error
	// wrapping budget.ErrMemory (see the package documentation).
	MaxMemory int64
	// MaxSteps bounds the work of the solver over its life: calls of the
	// move function, of Components and of Canonical, plus one per
	// position expanded. A search that would go past it stops with an
	// error wrapping ErrTooManySteps that names the limit; 0 means no
	// bound.
	MaxSteps int64
	// Workers is the number of goroutines that solve: 0 or 1 solves on
	// the calling goroutine; more solve independent subtrees (the parts
	// and options of the position asked for) at once, sharing one
	// concurrent memo. With more than one, Moves, Components and
	// Canonical are called from several goroutines at once and must be
	// safe for that (a Starlark thread is not: give such a mover one
	// worker).
	Workers int
	// Progress, when not nil, is called with the solver's figures at most
	// about four times a second, from the goroutine that called the
	// solver, while a search runs. It must not call the solver.
	Progress func(Stats)
	// Context, when not nil, stops a long search once it is done; the
	// error then wraps budget.Err of it.
	Context context.Context
}

// Stats are a solver's figures, as Progress receives them.
type Stats struct {
	// Positions is the number of positions expanded (their moves listed)
	// since the solver was made; workers that meet the same position at
	// once both count it.
	Positions int64
	// Solved is the number of positions (canonical parts) in the memo.
	Solved int64
	// Steps is the work counted against Options.MaxSteps.
	Steps int64
	// MemoBytes estimates the bytes the memo holds.
	MemoBytes int64
	// Depth is the deepest stack of positions being solved in the current
	// search.
	Depth int
	// Workers is the number of goroutines solving.
	Workers int
	// Elapsed is the time since the current search started; between
	// searches, the time the last one that did any work took.
	Elapsed time.Duration
}

// Rate returns positions solved per second in the current search's time,
// counting every position of the memo (0 before any time has passed).
func (s Stats) Rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Solved) / s.Elapsed.Seconds()
}

// String renders the figures for a progress line: "34020 positions
// solved (12.1k/s), 2856713 steps, memo 2.1 MiB".
func (s Stats) String() string {
	out := fmt.Sprintf("%d positions solved", s.Solved)
	if r := s.Rate(); r > 0 {
		out += " (" + shortRate(r) + "/s)"
	}
	return out + fmt.Sprintf(", %d steps, memo %s", s.Steps, budget.FormatSize(s.MemoBytes))
}

func shortRate(r float64) string {
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.1fM", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// node is the misère memo's entry: a whole position's Grundy value and
// misère outcome.
type node struct {
	grundy  uint64
	misereP bool
}

// Solver solves one game, remembering every part it has solved (keyed by
// its canonical form), so that one Solver asked about a range of
// positions (a 3 × n grid for n = 1..24) reuses everything the smaller
// ones needed. Its methods must not be called concurrently; with
// Options.Workers > 1 a call solves on several goroutines itself.
type Solver[T comparable] struct {
	mover Mover[T]
	split Splitter[T]
	canon Canonicalizer[T]
	opts  Options

	grundy *memo[T, uint64] // normal play, keyed by canonical parts
	misere *memo[T, node]   // misère play, keyed by canonical whole positions

	bytes     atomic.Int64 // estimated bytes of both memos
	steps     atomic.Int64
	positions atomic.Int64

	workers     []*worker[T]
	run         *search
	lastElapsed time.Duration // of the last search that did any work
	// now is the clock of Stats.Elapsed and of Progress's pace: time.Now,
	// or a test's clock, so that the pace is tested without the wall.
	now func() time.Time
}

// sizeOf estimates the bytes a position takes as a map key: the value and,
// for strings, their bytes.
func sizeOf[T comparable](p T) int64 {
	n := int64(unsafe.Sizeof(p))
	if isString[T]() {
		n += int64(len(any(p).(string)))
	}
	return n
}

// isString reports whether T is a string type, without converting a T to
// an interface (which allocates).
func isString[T comparable]() bool {
	var zero T
	_, ok := any(zero).(string)
	return ok
}

// entryBytes is what one more memo entry costs: the key, the value, and
// the map's slack (load factor and doubling), about twice the payload.
func entryBytes[T comparable](p T) int64 {
	return 2 * (sizeOf(p) + int64(unsafe.Sizeof(node{})) + 8)
}

// NewSolver returns a solver for the game whose moves m gives. When m
// also implements Splitter or Canonicalizer, the solver uses them.
func NewSolver[T comparable](m Mover[T], opts Options) (*Solver[T], error) {
	if m == nil {
		return nil, errors.New("game: nil move function")
	}
	if opts.MaxPositions < 0 {
		return nil, fmt.Errorf("game: negative position budget %d", opts.MaxPositions)
	}
	if opts.MaxPositions == 0 {
		opts.MaxPositions = DefaultMaxPositions
	}
	if opts.MaxSteps < 0 {
		return nil, fmt.Errorf("game: negative step budget %d", opts.MaxSteps)
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("game: negative number of workers %d", opts.Workers)
	}
	if opts.Workers == 0 {
		opts.Workers = 1
	}
	if opts.Play != Normal && opts.Play != Misere {
		return nil, fmt.Errorf("game: unknown play %d", int(opts.Play))
	}
	s := &Solver[T]{mover: m, opts: opts, now: time.Now}
	s.split, _ = m.(Splitter[T])
	s.canon, _ = m.(Canonicalizer[T])
	s.grundy = newMemo[T, uint64](opts.Workers)
	s.misere = newMemo[T, node](opts.Workers)
	return s, nil
}

// Play returns the convention the solver uses for outcomes.
func (s *Solver[T]) Play() Play { return s.opts.Play }

// Len returns the number of positions (canonical parts, and whole
// positions under misère play) solved so far.
func (s *Solver[T]) Len() int { return int(s.grundy.len() + s.misere.len()) }

// Stats returns the solver's figures now.
func (s *Solver[T]) Stats() Stats {
	st := Stats{
		Positions: s.positions.Load(),
		Solved:    s.grundy.len() + s.misere.len(),
		Steps:     s.steps.Load(),
		MemoBytes: s.bytes.Load(),
		Workers:   s.opts.Workers,
	}
	if r := s.run; r != nil {
		st.Elapsed = s.now().Sub(r.start)
		for _, w := range s.workers {
			st.Depth = max(st.Depth, int(w.depth.Load()))
		}
	} else {
		st.Elapsed = s.lastElapsed
	}
	return st
}

// mexSet collects small naturals and returns their mex; values above the
// number of options cannot change the mex and are dropped.
type mexSet struct {
	words []uint64
}

func (m *mexSet) add(v uint64) {
	if v >= 1<<20 {
		return // a game with fewer than 2^20 options per position cannot need it
	}
	w := int(v / 64)
	for len(m.words) <= w {
		m.words = append(m.words, 0)
	}
	m.words[w] |= 1 << (v % 64)
}

// reset empties the set, keeping its words for the next position.
func (m *mexSet) reset() { m.words = m.words[:0] }

func (m *mexSet) mex() uint64 {
	for i, w := range m.words {
		if w != ^uint64(0) {
			return uint64(i*64 + bits.TrailingZeros64(^w))
		}
	}
	return uint64(len(m.words) * 64)
}

// Mex returns the least natural number not in vs.
func Mex(vs []uint64) uint64 {
	present := make(map[uint64]bool, len(vs))
	for _, v := range vs {
		present[v] = true
	}
	var m uint64
	for present[m] {
		m++
	}
	return m
}

// Grundy returns the normal-play Grundy value of p: the nim-sum of the
// values of its parts when the mover is a Splitter.
func (s *Solver[T]) Grundy(p T) (uint64, error) {
	keys, err := s.parts(p, nil)
	if err != nil {
		return 0, err
	}
	if err := s.solve(keys, false); err != nil {
		return 0, err
	}
	var g uint64
	for _, k := range keys {
		v, _ := s.grundy.get(k)
		g ^= v
	}
	return g, nil
}

// misereNode solves p as a whole under misère play.
func (s *Solver[T]) misereNode(p T) (node, error) {
	k, err := s.canonical(p)
	if err != nil {
		return node{}, err
	}
	if err := s.solve([]T{k}, true); err != nil {
		return node{}, err
	}
	n, _ := s.misere.get(k)
	return n, nil
}

// Outcome returns P or N for p under the solver's play.
func (s *Solver[T]) Outcome(p T) (Outcome, error) {
	if s.opts.Play == Misere {
		n, err := s.misereNode(p)
		if err != nil {
			return N, err
		}
		return outcomeOf(n.misereP), nil
	}
	g, err := s.Grundy(p)
	if err != nil {
		return N, err
	}
	return outcomeOf(g == 0), nil
}

func outcomeOf(isP bool) Outcome {
	if isP {
		return P
	}
	return N
}

// WinningMoves returns the options of p that are P-positions under the
// solver's play, in the order the move function lists them (duplicates
// removed). It is empty exactly when p is a P-position.
func (s *Solver[T]) WinningMoves(p T) ([]T, error) {
	if _, err := s.Outcome(p); err != nil {
		return nil, err
	}
	ms, err := s.mover.Moves(p)
	if err != nil {
		return nil, fmt.Errorf("game: moves of %v: %w", p, err)
	}
	var win []T
	seen := make(map[T]bool)
	for _, q := range ms {
		if seen[q] {
			continue
		}
		seen[q] = true
		o, err := s.Outcome(q)
		if err != nil {
			return nil, err
		}
		if o == P {
			win = append(win, q)
		}
	}
	return win, nil
}

// Reachable returns every position reachable from p (p included), in the
// order of a breadth-first search from p, so the result is deterministic
// when the move function is. It lists positions as the move function
// gives them, neither split nor folded by symmetry, and refuses more than
// Options.MaxPositions of them.
func (s *Solver[T]) Reachable(p T) ([]T, error) {
	if _, err := s.Outcome(p); err != nil {
		return nil, err
	}
	seen := map[T]bool{p: true}
	order := []T{p}
	for i := 0; i < len(order); i++ {
		if s.opts.Context != nil && i&1023 == 1023 {
			if err := budget.Err(s.opts.Context); err != nil {
				return nil, fmt.Errorf("game: %w", err)
			}
		}
		ms, err := s.mover.Moves(order[i])
		if err != nil {
			return nil, fmt.Errorf("game: moves of %v: %w", order[i], err)
		}
		for _, q := range ms {
			if !seen[q] {
				if len(order) >= s.opts.MaxPositions {
					return nil, fmt.Errorf("game: more than %d positions reachable from %v: %w (raise it with --max-positions or limits.positions in the job file)", s.opts.MaxPositions, p, ErrTooManyPositions)
				}
				seen[q] = true
				order = append(order, q)
			}
		}
	}
	return order, nil
}

// PPositions returns the P-positions reachable from p (p included), in the
// order of Reachable.
func (s *Solver[T]) PPositions(p T) ([]T, error) {
	all, err := s.Reachable(p)
	if err != nil {
		return nil, err
	}
	var ps []T
	for _, q := range all {
		o, err := s.Outcome(q)
		if err != nil {
			return nil, err
		}
		if o == P {
			ps = append(ps, q)
		}
	}
	return ps, nil
}

// Pair is a position of the disjunctive sum of two games.
type Pair[A, B comparable] struct {
	Left  A
	Right B
}

func (p Pair[A, B]) String() string { return fmt.Sprintf("%v + %v", p.Left, p.Right) }

// Sum returns the disjunctive sum of g and h: a move is a move in exactly
// one component. Under normal play its Grundy value is the nim-sum of the
// components' values; under misère play it must be solved as a whole.
func Sum[A, B comparable](g Mover[A], h Mover[B]) Mover[Pair[A, B]] {
	return MoveFunc[Pair[A, B]](func(p Pair[A, B]) ([]Pair[A, B], error) {
		gl, err := g.Moves(p.Left)
		if err != nil {
			return nil, err
		}
		hr, err := h.Moves(p.Right)
		if err != nil {
			return nil, err
		}
		out := make([]Pair[A, B], 0, len(gl)+len(hr))
		for _, a := range gl {
			out = append(out, Pair[A, B]{a, p.Right})
		}
		for _, b := range hr {
			out = append(out, Pair[A, B]{p.Left, b})
		}
		return out, nil
	})
}
