package game

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
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

// Options tune a Solver. The zero value is normal play, the default budget
// and no cancellation.
type Options struct {
	// Play is the convention used by Outcome, WinningMoves and PPositions.
	// Grundy always returns the normal-play value.
	Play Play
	// MaxPositions bounds the number of distinct positions the solver
	// stores; 0 means DefaultMaxPositions.
	MaxPositions int
	// MaxMemory bounds the bytes the solver holds (its positions and the
	// options of the positions being solved), estimated as it grows, so a
	// search is refused before it allocates past it; 0 means no bound.
	MaxMemory int64
	// Context, when not nil, stops a long search once it is done; the
	// error then wraps budget.Err of it.
	Context context.Context
}

type node struct {
	grundy  uint64
	misereP bool
}

// Solver solves one game, remembering every position it has solved. A
// Solver is not safe for concurrent use.
type Solver[T comparable] struct {
	mover Mover[T]
	opts  Options
	memo  map[T]node
	// bytes estimates the memory held by memo, for Options.MaxMemory.
	bytes int64
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

// entryBytes is what one more memo entry costs: the key, the node, and the
// map's slack (load factor and doubling), about twice the payload.
func entryBytes[T comparable](p T) int64 {
	return 2 * (sizeOf(p) + int64(unsafe.Sizeof(node{})) + 8)
}

// NewSolver returns a solver for the game whose moves m gives.
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
	if opts.Play != Normal && opts.Play != Misere {
		return nil, fmt.Errorf("game: unknown play %d", int(opts.Play))
	}
	return &Solver[T]{mover: m, opts: opts, memo: make(map[T]node)}, nil
}

// Play returns the convention the solver uses for outcomes.
func (s *Solver[T]) Play() Play { return s.opts.Play }

// Len returns the number of positions solved so far.
func (s *Solver[T]) Len() int { return len(s.memo) }

type frame[T comparable] struct {
	pos   T
	moves []T
	next  int
}

// solve fills the memo for p and every position reachable from it, with an
// explicit stack so that depth is bounded only by memory.
func (s *Solver[T]) solve(p T) (node, error) {
	if n, ok := s.memo[p]; ok {
		return n, nil
	}
	onStack := make(map[T]int) // position → index in stack
	var stack []frame[T]
	var held int64 // bytes of the stack: frames, their options, onStack
	listed := 0    // options listed since the memory was last sampled
	push := func(q T) error {
		// Listing the moves of a position of big heaps allocates
		// thousands of positions: the context (and the memory watchdog
		// behind it) is looked at before each listing, not only every
		// 1024 steps (a misère position of six heaps up to 1000 ran past
		// SIGTERM and its memory limit).
		if s.opts.Context != nil {
			if err := budget.Err(s.opts.Context); err != nil {
				return fmt.Errorf("game: %w", err)
			}
		}
		if len(s.memo)+len(stack) >= s.opts.MaxPositions {
			return fmt.Errorf("game: more than %d positions: %w (raise it with --max-positions or limits.positions in the job file)", s.opts.MaxPositions, ErrTooManyPositions)
		}
		ms, err := s.mover.Moves(q)
		if err != nil {
			return fmt.Errorf("game: moves of %v: %w", q, err)
		}
		size := sizeOf(q)
		for _, m := range ms {
			size += sizeOf(m)
		}
		size += entryBytes(q) + int64(unsafe.Sizeof(frame[T]{}))
		if need := s.bytes + held + size; s.opts.MaxMemory > 0 && need > s.opts.MaxMemory {
			err := budget.Exceeds(fmt.Sprintf("solving more than %d positions", len(s.memo)+len(stack)), need, s.opts.MaxMemory)
			return fmt.Errorf("game: %w (raise it with --max-memory or limits.memory)", err)
		}
		held += size
		// The watchdog samples every millisecond or so, much later on a
		// busy machine, while listings of thousands of options allocate
		// megabytes in that time: the memory is sampled here too, every
		// few thousand options listed (a misère position of six heaps went
		// past its limit of 256 MiB at load 10).
		if listed += len(ms) + 1; listed >= 4096 && s.opts.Context != nil {
			listed = 0
			if err := budget.Check(s.opts.Context); err != nil {
				return fmt.Errorf("game: %w", err)
			}
		}
		onStack[q] = len(stack)
		stack = append(stack, frame[T]{pos: q, moves: ms})
		return nil
	}
	if err := push(p); err != nil {
		return node{}, err
	}
	steps := 0
	for len(stack) > 0 {
		steps++
		if s.opts.Context != nil && steps&1023 == 0 {
			if err := budget.Err(s.opts.Context); err != nil {
				return node{}, fmt.Errorf("game: %w", err)
			}
		}
		top := &stack[len(stack)-1]
		if top.next < len(top.moves) {
			q := top.moves[top.next]
			top.next++
			if _, ok := s.memo[q]; ok {
				continue
			}
			if i, ok := onStack[q]; ok {
				cyc := make([]T, 0, len(stack)-i)
				for _, f := range stack[i:] {
					cyc = append(cyc, f.pos)
				}
				return node{}, &CycleError[T]{Cycle: cyc}
			}
			if err := push(q); err != nil {
				return node{}, err
			}
			continue
		}
		// Every option is solved: take the mex and the misère outcome.
		s.memo[top.pos] = s.combine(top.moves)
		size := sizeOf(top.pos) + entryBytes(top.pos) + int64(unsafe.Sizeof(frame[T]{}))
		for _, m := range top.moves {
			size += sizeOf(m)
		}
		held -= size
		s.bytes += entryBytes(top.pos)
		delete(onStack, top.pos)
		stack = stack[:len(stack)-1]
	}
	return s.memo[p], nil
}

func (s *Solver[T]) combine(moves []T) node {
	var seen mexSet
	misereP := len(moves) > 0 // terminal: the player to move wins under misère
	for _, q := range moves {
		n := s.memo[q]
		seen.add(n.grundy)
		if n.misereP {
			misereP = false
		}
	}
	return node{grundy: seen.mex(), misereP: misereP}
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

// Grundy returns the normal-play Grundy value of p.
func (s *Solver[T]) Grundy(p T) (uint64, error) {
	n, err := s.solve(p)
	return n.grundy, err
}

// Outcome returns P or N for p under the solver's play.
func (s *Solver[T]) Outcome(p T) (Outcome, error) {
	n, err := s.solve(p)
	if err != nil {
		return N, err
	}
	return s.outcome(n), nil
}

func (s *Solver[T]) outcome(n node) Outcome {
	isP := n.grundy == 0
	if s.opts.Play == Misere {
		isP = n.misereP
	}
	if isP {
		return P
	}
	return N
}

// WinningMoves returns the options of p that are P-positions under the
// solver's play, in the order the move function lists them (duplicates
// removed). It is empty exactly when p is a P-position.
func (s *Solver[T]) WinningMoves(p T) ([]T, error) {
	if _, err := s.solve(p); err != nil {
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
		if s.outcome(s.memo[q]) == P {
			win = append(win, q)
		}
	}
	return win, nil
}

// Reachable returns every position reachable from p (p included), in the
// order of a breadth-first search from p, so the result is deterministic
// when the move function is.
func (s *Solver[T]) Reachable(p T) ([]T, error) {
	if _, err := s.solve(p); err != nil {
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
		if s.outcome(s.memo[q]) == P {
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
