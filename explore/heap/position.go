package heap

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
)

// A position is a list of heaps; heaps stay in place when a move is made
// (0 when emptied) and a split heap is replaced in place by its parts,
// smaller first (SPEC "moves").

// MaxHeap is the largest heap of a position: heap games list their options
// heap by heap, so larger heaps could never be played out anyway.
const MaxHeap = math.MaxInt32

func checkHeaps(heaps []int) error {
	for i, h := range heaps {
		if h < 0 {
			return fmt.Errorf("heap: heap %d is %d; heap sizes are natural numbers", i+1, h)
		}
		if h > MaxHeap {
			return fmt.Errorf("heap: heap %d is %d, more than %d", i+1, h, MaxHeap)
		}
	}
	return nil
}

// replace returns heaps with heap i replaced by parts (0 when parts is empty).
func replace(heaps []int, i int, parts []int) []int {
	if len(parts) == 0 {
		parts = []int{0}
	}
	q := make([]int, 0, len(heaps)+len(parts)-1)
	q = append(q, heaps[:i]...)
	q = append(q, parts...)
	return append(q, heaps[i+1:]...)
}

// sortPositions sorts positions lexicographically and drops repeats; it
// never returns nil, so that "no move" is an empty list.
func sortPositions(ps [][]int) [][]int {
	slices.SortFunc(ps, slices.Compare)
	ps = slices.CompactFunc(ps, slices.Equal)
	if ps == nil {
		ps = [][]int{}
	}
	return ps
}

// optionCounter is a game that counts the options of a heap without
// listing them: a heap of 2^31 in Nim has 2^31 of them.
type optionCounter interface {
	optionCount(n int) int64
}

// optionCount returns len(g.Options(n)) without listing them, for the games
// that count them; ok is false for other games.
func optionCount(g Game, n int) (count int64, ok bool) {
	if c, ok := g.(optionCounter); ok {
		return c.optionCount(n), true
	}
	return 0, false
}

// checkOptions refuses, before they are listed, the moves of a position
// with more options than lim.MaxPositions or whose list would pass
// lim.MaxMemory: a heap of 2^31 in Nim has 2^31 of them.
func checkOptions(g Game, heaps []int, lim Limits) error {
	var total int64
	for _, h := range heaps {
		n, ok := optionCount(g, h)
		if !ok {
			return nil
		}
		if total += n; total > int64(lim.positions()) {
			return fmt.Errorf("heap: %v: %v has more than %d moves, the limit of positions: %w (raise it with --max-positions or limits.positions in the job file)",
				g, heaps, lim.positions(), game.ErrTooManyPositions)
		}
	}
	// A move is a new list of heaps, and its parts a list too.
	per := int64(2*24 + 8*(len(heaps)+3))
	return lim.checkMemory(fmt.Sprintf("listing the %d moves of %v", total, heaps), total*per)
}

// Moves returns every position one move from heaps, sorted, each once:
// from (1,3,5,7) in Nim there are 16 (seed 001). It refuses positions with
// more than lim.MaxPositions moves.
func Moves(g Game, heaps []int, lim Limits) ([][]int, error) {
	if err := checkHeaps(heaps); err != nil {
		return nil, err
	}
	if err := checkOptions(g, heaps, lim); err != nil {
		return nil, err
	}
	var out [][]int
	for i, h := range heaps {
		for _, parts := range g.Options(h) {
			out = append(out, replace(heaps, i, parts))
		}
		if len(out) > lim.positions() {
			return nil, fmt.Errorf("heap: %v: %v has more moves than the limit of %d: %w (raise it with --max-positions or limits.positions in the job file)",
				g, heaps, lim.positions(), game.ErrTooManyPositions)
		}
	}
	return sortPositions(out), nil
}

// valuer is a game whose heap values come from a formula (Nim), so that a
// position's heaps need no sweep up to the largest.
type valuer interface {
	value(n int) uint64
}

// heapValues returns the value of each heap of the position.
func heapValues(g Game, heaps []int, lim Limits) ([]uint64, error) {
	if err := checkHeaps(heaps); err != nil {
		return nil, err
	}
	out := make([]uint64, len(heaps))
	if f, ok := g.(valuer); ok {
		for i, h := range heaps {
			out[i] = f.value(h)
		}
		return out, nil
	}
	top := 0
	for _, h := range heaps {
		top = max(top, h)
	}
	vs, err := g.Values(top, lim)
	if err != nil {
		return nil, err
	}
	for i, h := range heaps {
		out[i] = vs[h]
	}
	return out, nil
}

// Grundy returns the normal-play value of a position: the nim-sum of the
// values of its heaps (Sprague–Grundy).
func Grundy(g Game, heaps []int, lim Limits) (uint64, error) {
	vs, err := heapValues(g, heaps, lim)
	if err != nil {
		return 0, err
	}
	var s uint64
	for _, v := range vs {
		s ^= v
	}
	return s, nil
}

// Outcome returns P or N for a position under play. Normal play and games
// that solve positions by a formula (PositionSolver: Nim, bounded or not)
// use formulas; misère play of other games is solved on
// the whole position by the generic solver, within lim.MaxPositions.
func Outcome(g Game, heaps []int, play game.Play, lim Limits) (game.Outcome, error) {
	if err := checkHeaps(heaps); err != nil {
		return game.N, err
	}
	if f, ok := g.(PositionSolver); ok {
		return f.outcome(heaps, play), nil
	}
	if play == game.Normal {
		s, err := Grundy(g, heaps, lim)
		if err != nil {
			return game.N, err
		}
		if s == 0 {
			return game.P, nil
		}
		return game.N, nil
	}
	solver, err := misereSolver(g, lim)
	if err != nil {
		return game.N, err
	}
	key, err := NewMultiset(heaps...)
	if err != nil {
		return game.N, err
	}
	return solver.Outcome(key)
}

func misereSolver(g Game, lim Limits) (*game.Solver[Multiset], error) {
	s, err := game.NewSolver[Multiset](BoundedMultisetMover(g, lim), game.Options{
		Play: game.Misere, MaxPositions: lim.positions(), MaxMemory: lim.MaxMemory, Context: lim.Context,
	})
	if err != nil {
		return nil, fmt.Errorf("heap: %w", err)
	}
	return s, nil
}

// WinningMoves returns the positions that the winning moves from heaps
// reach under play, in position form (heaps in place, 0 when emptied, a
// split heap replaced by its parts, smaller first), sorted; empty from a
// P-position.
func WinningMoves(g Game, heaps []int, play game.Play, lim Limits) ([][]int, error) {
	if err := checkHeaps(heaps); err != nil {
		return nil, err
	}
	if f, ok := g.(PositionSolver); ok {
		return f.winningMoves(heaps, play), nil
	}
	var out [][]int
	if play == game.Normal {
		top := 0
		for _, h := range heaps {
			top = max(top, h)
		}
		vs, err := g.Values(top, lim)
		if err != nil {
			return nil, err
		}
		var s uint64
		for _, h := range heaps {
			s ^= vs[h]
		}
		if s == 0 {
			return [][]int{}, nil
		}
		if err := checkOptions(g, heaps, lim); err != nil {
			return nil, err
		}
		for i, h := range heaps {
			want := s ^ vs[h] // what the heap's parts must be worth
			for _, parts := range g.Options(h) {
				var v uint64
				for _, a := range parts {
					v ^= vs[a]
				}
				if v == want {
					out = append(out, replace(heaps, i, parts))
				}
			}
		}
		return sortPositions(out), nil
	}
	if err := checkOptions(g, heaps, lim); err != nil {
		return nil, err
	}
	solver, err := misereSolver(g, lim)
	if err != nil {
		return nil, err
	}
	for i, h := range heaps {
		for _, parts := range g.Options(h) {
			q := replace(heaps, i, parts)
			key, err := NewMultiset(q...)
			if err != nil {
				return nil, err
			}
			o, err := solver.Outcome(key)
			if err != nil {
				return nil, err
			}
			if o == game.P {
				out = append(out, q)
			}
		}
	}
	return sortPositions(out), nil
}

// Multiset is a position as an unordered multiset of non-zero heaps, the
// form of the game graphs of seeds 001 and 003. It is comparable, so it
// can key the generic solver; the zero value is the empty position.
type Multiset struct {
	key string // heaps ascending, 4 bytes big-endian each
}

// NewMultiset returns the multiset of the non-zero heaps given.
func NewMultiset(heaps ...int) (Multiset, error) {
	if err := checkHeaps(heaps); err != nil {
		return Multiset{}, err
	}
	hs := slices.Clone(heaps)
	slices.Sort(hs)
	b := make([]byte, 0, 4*len(hs))
	for _, h := range hs {
		if h > 0 {
			b = binary.BigEndian.AppendUint32(b, uint32(h))
		}
	}
	return Multiset{key: string(b)}, nil
}

// Heaps returns the heaps, ascending.
func (m Multiset) Heaps() []int {
	out := make([]int, len(m.key)/4)
	for i := range out {
		out[i] = int(binary.BigEndian.Uint32([]byte(m.key[4*i:])))
	}
	return out
}

// String prints the heaps ascending, as (1,2,3); the empty position is ().
func (m Multiset) String() string {
	hs := m.Heaps()
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = strconv.Itoa(h)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// MultisetMover returns the moves of g on multiset positions: one move in
// one heap (heaps of equal size give the same moves, listed once), sorted
// by their heaps. With Nim, (1,1,2) moves to (1,1), (1,1,1) and (1,2)
// (seeds 001 and 003). It refuses positions with more moves than the
// default limits allow; BoundedMultisetMover takes the limits.
func MultisetMover(g Game) game.Mover[Multiset] {
	return BoundedMultisetMover(g, Limits{})
}

// BoundedMultisetMover is MultisetMover refusing, before it lists them, the
// moves of a position with more options than lim.MaxPositions or whose
// list would pass lim.MaxMemory.
func BoundedMultisetMover(g Game, lim Limits) game.Mover[Multiset] {
	return game.MoveFunc[Multiset](func(p Multiset) ([]Multiset, error) {
		hs := p.Heaps()
		if err := checkOptions(g, slices.Compact(slices.Clone(hs)), lim); err != nil {
			return nil, err
		}
		// Positions of big heaps have thousands of options: each is made
		// in one scratch list and kept only as its key, so that a listing
		// leaves little garbage for the memory limit to carry.
		var keys []string
		var q []int
		var b []byte
		for i, h := range hs {
			if i > 0 && hs[i-1] == h {
				continue
			}
			for _, parts := range g.Options(h) {
				q = append(append(append(q[:0], hs[:i]...), parts...), hs[i+1:]...)
				slices.Sort(q)
				b = b[:0]
				for _, x := range q {
					b = binary.BigEndian.AppendUint32(b, uint32(x))
				}
				keys = append(keys, string(b))
			}
		}
		// Big-endian keys of equal width sort as their heaps do.
		slices.Sort(keys)
		keys = slices.Compact(keys)
		ms := make([]Multiset, len(keys))
		for i, k := range keys {
			ms[i] = Multiset{key: k}
		}
		return ms, nil
	})
}
