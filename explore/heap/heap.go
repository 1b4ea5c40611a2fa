package heap

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
)

// Game is a heap game: a rule saying what one heap may become in a move.
// A position of the game is a list of heaps, and a move is made in exactly
// one heap, so under normal play the value of a position is the nim-sum of
// the values of its heaps.
type Game interface {
	// Options lists what a heap of n may become in one move: each option is
	// the list of non-empty heaps left in its place, smaller first (an
	// empty list when the whole heap is taken). Options lists every move,
	// so its length grows with n for Nim and splitting games.
	Options(n int) [][]int
	// Values returns the normal-play Grundy values g(0), …, g(upto) of a
	// single heap. It refuses work beyond lim.
	Values(upto int, lim Limits) ([]uint64, error)
	// String names the game, e.g. "octal 0.77".
	String() string
}

// Default limits, used for zero fields of Limits.
const (
	// DefaultMaxPositions matches the generic solver's default budget.
	DefaultMaxPositions = game.DefaultMaxPositions
	// DefaultMaxSteps is about a few seconds of work on a laptop.
	DefaultMaxSteps = 5_000_000_000
	// maxTableWords bounds the bit sets a splitting game keeps (256 MiB).
	maxTableWords = 1 << 25
)

// ErrTooManySteps is wrapped by the error returned when a computation
// would take more elementary steps than Limits.MaxSteps allows. Position
// limits wrap game.ErrTooManyPositions instead.
var ErrTooManySteps = errors.New("too many steps")

// Limits bounds the work of a computation. The zero value means the
// defaults and no cancellation.
type Limits struct {
	// MaxPositions bounds the positions a computation handles: the heap
	// sizes 0..upto of a value sequence (upto+1 of them), the tuples
	// enumerated by Nim.PPositions, and the whole positions stored by the
	// generic solver for misère play. 0 means DefaultMaxPositions.
	MaxPositions int
	// MaxSteps bounds the elementary steps (options examined) of a value
	// sweep; splitting games need about upto²/4 of them. 0 means
	// DefaultMaxSteps.
	MaxSteps int64
	// MaxMemory bounds the bytes a computation allocates: value sequences
	// and their tables, the moves of a position, the generic solver's
	// positions. Estimates are checked before the work starts; 0 means no
	// bound but the fixed ones (a splitting game's sets stay within 256 MiB).
	MaxMemory int64
	// Context, when not nil, stops long work once it is done, with an
	// error wrapping budget.Err of it.
	Context context.Context
}

func (l Limits) positions() int {
	if l.MaxPositions <= 0 {
		return DefaultMaxPositions
	}
	return l.MaxPositions
}

func (l Limits) steps() int64 {
	if l.MaxSteps <= 0 {
		return DefaultMaxSteps
	}
	return l.MaxSteps
}

func (l Limits) cancelled() error {
	if l.Context == nil {
		return nil
	}
	if err := budget.Err(l.Context); err != nil {
		return fmt.Errorf("heap: %w", err)
	}
	return nil
}

// progress returns the progress counter of the context, or nil.
func (l Limits) progress(label string, total int) *budget.Progress {
	if l.Context == nil {
		return nil
	}
	p := budget.From(l.Context)
	p.Start(label, int64(total))
	return p
}

// checkMemory refuses work estimated to need more than MaxMemory.
func (l Limits) checkMemory(what string, need int64) error {
	if err := budget.Exceeds(what, need, l.MaxMemory); err != nil {
		return fmt.Errorf("heap: %w (raise it with --max-memory or limits.memory)", err)
	}
	return nil
}

// checkUpto validates the size of a value sequence before any work starts.
func (l Limits) checkUpto(g Game, upto int) error {
	if upto < 0 {
		return fmt.Errorf("heap: %v: negative heap size %d", g, upto)
	}
	if upto >= l.positions() {
		return fmt.Errorf("heap: %v: values of heaps 0..%d are %d positions, more than the limit of %d: %w (raise it with --max-positions or limits.positions in the job file)",
			g, upto, int64(upto)+1, l.positions(), game.ErrTooManyPositions)
	}
	return l.checkMemory(fmt.Sprintf("computing the values of %v up to %d", g, upto), 8*(int64(upto)+1))
}

// checkSteps refuses an estimated amount of work before it starts.
func (l Limits) checkSteps(g Game, upto int, steps float64) error {
	if steps > float64(l.steps()) {
		return fmt.Errorf("heap: %v: values up to %d need about %.3g steps, more than the limit of %d: %w (lower upto, or raise the limit)",
			g, upto, steps, l.steps(), ErrTooManySteps)
	}
	return nil
}

// mexer computes the mex of small sets of values without clearing memory
// between uses: a value is present when its stamp equals the current one.
type mexer struct {
	stamp []int
	cur   int
}

// reset starts a new set that will receive at most n values; values above
// n can never be the mex and are dropped by add.
func (m *mexer) reset(n int) {
	m.cur++
	if len(m.stamp) < n+2 {
		m.stamp = append(m.stamp, make([]int, n+2-len(m.stamp))...)
	}
}

func (m *mexer) add(v uint64) {
	if v < uint64(len(m.stamp)) {
		m.stamp[v] = m.cur
	}
}

func (m *mexer) mex() uint64 {
	for i, s := range m.stamp {
		if s != m.cur {
			return uint64(i)
		}
	}
	return uint64(len(m.stamp))
}

// MexValues returns g(0..upto) from g's Options alone: g(n) is the mex of
// the nim-sums of the values of the parts of each option of n. It is the
// sweep of a rule known only by its options (a rule written in Starlark),
// which Estimate assumes for games without an estimate of their own, and
// the definition the fast sweeps of this package are tested against.
// Every part must be smaller than its heap (a part 0 counts as no heap),
// and the empty heap has no option.
// The options examined are the steps, checked against lim as they come.
func MexValues(g Game, upto int, lim Limits) ([]uint64, error) {
	if err := lim.checkUpto(g, upto); err != nil {
		return nil, err
	}
	vs := make([]uint64, upto+1)
	var m mexer
	var steps int64
	for n := range vs {
		if n&0xff == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		opts := g.Options(n)
		if steps += int64(len(opts)) + 1; steps > lim.steps() {
			return nil, fmt.Errorf("heap: %v: stopped at heap %d after %d steps, the limit: %w (lower upto, or raise the limit)",
				g, n, steps, ErrTooManySteps)
		}
		if n == 0 && len(opts) > 0 {
			return nil, fmt.Errorf("heap: %v: the empty heap has options %v; it must have none", g, opts)
		}
		m.reset(len(opts))
		for _, o := range opts {
			var v uint64
			for _, a := range o {
				if a < 0 || a >= n {
					return nil, fmt.Errorf("heap: %v: option %v of heap %d has a part %d; parts must be natural numbers smaller than the heap", g, o, n, a)
				}
				v ^= vs[a]
			}
			m.add(v)
		}
		vs[n] = m.mex()
	}
	return vs, nil
}

// OrList writes numbers as a player reads them: "1, 3 or 4". The rules'
// texts use it, and play's messages, so that both read alike.
func OrList(xs []int) string {
	parts := make([]string, len(xs))
	for i, v := range xs {
		parts[i] = strconv.Itoa(v)
	}
	switch len(parts) {
	case 0:
		return "nothing"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// plural writes "1 token" or "3 tokens".
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
