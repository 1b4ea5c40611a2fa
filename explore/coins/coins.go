package coins

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/nimbook/nimbook/explore/budget"
)

// Rule says which sets of coins a move may turn over. In every rule the
// rightmost turned coin must go from heads to tails.
type Rule int

const (
	// AtMost turns over between 1 and r coins.
	AtMost Rule = iota
	// Exactly turns over exactly r coins.
	Exactly
	// Ruler turns over any run of consecutive coins.
	Ruler
)

// String returns the name used in job files: "at-most", "exactly" or "ruler".
func (r Rule) String() string {
	switch r {
	case AtMost:
		return "at-most"
	case Exactly:
		return "exactly"
	case Ruler:
		return "ruler"
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// ParseRule reads "at-most", "exactly" or "ruler".
func ParseRule(s string) (Rule, error) {
	switch s {
	case "at-most":
		return AtMost, nil
	case "exactly":
		return Exactly, nil
	case "ruler":
		return Ruler, nil
	}
	return AtMost, fmt.Errorf("coins: unknown rule %q (want at-most, exactly or ruler)", s)
}

// ErrLimit is wrapped by every error returned because a computation would
// exceed its Limits.
var ErrLimit = errors.New("limit exceeded")

// Default limits, used for the zero fields of Limits.
const (
	DefaultMaxMemory = 96 << 20 // 72 MiB of work beside budget.Reserve
	DefaultMaxSteps  = 100_000_000
)

// Limits bound the work of a Game or a Product. A zero field means its
// default.
type Limits struct {
	// MaxMemory bounds the bytes a computation allocates: the
	// reachability bitsets of Values (values of bit-length k need about
	// (r/2)·2^k/8 bytes under at-most r, r·2^k/8 under exactly r), tables,
	// lists of moves and the generic solver's positions. Default
	// DefaultMaxMemory.
	MaxMemory int64
	// MaxSteps bounds the sets a computation enumerates: move sets of a
	// position, the O(n²) runs of the ruler values. Default DefaultMaxSteps.
	MaxSteps int64
	// MaxPositions bounds the positions the generic solver stores for
	// misère play. Default game.DefaultMaxPositions.
	MaxPositions int
	// Context, when not nil, stops long computations once it is done,
	// with an error wrapping budget.Err of it.
	Context context.Context
}

// refusal is an error of work refused or stopped by a limit: it wraps both
// its cause (budget.ErrMemory, a context's) and ErrLimit.
type refusal struct {
	msg  string
	errs []error
}

func (e *refusal) Error() string   { return e.msg }
func (e *refusal) Unwrap() []error { return e.errs }

// stopped returns the reason the context is done, or nil.
func (l Limits) stopped() error {
	if l.Context == nil {
		return nil
	}
	if err := budget.Err(l.Context); err != nil {
		return fmt.Errorf("coins: %w", err)
	}
	return nil
}

// checkMemory refuses work estimated to need more than MaxMemory.
func (l Limits) checkMemory(what string, need int64) error {
	if err := budget.Exceeds(what, need, l.MaxMemory); err != nil {
		return &refusal{msg: "coins: " + err.Error() + " (raise it with --max-memory or limits.memory)", errs: []error{err, ErrLimit}}
	}
	return nil
}

// tooManySteps is the refusal of work beyond MaxSteps; what is plural.
func (l Limits) tooManySteps(what string) error {
	return fmt.Errorf("coins: %s are more than the step limit of %d: %w (raise it with --max-positions or limits.positions in the job file)", what, l.MaxSteps, ErrLimit)
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

func (l Limits) withDefaults() Limits {
	if l.MaxMemory <= 0 {
		l.MaxMemory = DefaultMaxMemory
	}
	if l.MaxSteps <= 0 {
		l.MaxSteps = DefaultMaxSteps
	}
	return l
}

// Game is a coin-turning game on a row of coins numbered first, first+1, …
// A Game is safe for concurrent use.
type Game struct {
	rule   Rule
	r      int
	first  int
	limits Limits

	mu     sync.Mutex
	values []uint64 // longest prefix of single-head values computed so far
}

// New returns the game with the given rule. r is the number of coins of
// AtMost and Exactly and must be at least 1; Ruler ignores it and accepts
// only r = 0 (unset) or r ≥ 1. first, the number of the leftmost coin, is 0
// (as in Winning Ways) or 1 (as in the seeds); Ruler needs 1, since its
// values are defined from the coins' numbers.
func New(rule Rule, r, first int) (*Game, error) {
	switch rule {
	case AtMost, Exactly:
		if r < 1 {
			return nil, fmt.Errorf("coins: %v %d: r must be at least 1", rule, r)
		}
	case Ruler:
		if r < 0 {
			return nil, fmt.Errorf("coins: ruler: negative r %d", r)
		}
		r = 0
		if first != 1 {
			return nil, fmt.Errorf("coins: ruler: coins must be numbered from 1, not %d", first)
		}
	default:
		return nil, fmt.Errorf("coins: unknown rule %d", int(rule))
	}
	if first != 0 && first != 1 {
		return nil, fmt.Errorf("coins: first coin number %d: want 0 or 1", first)
	}
	return &Game{rule: rule, r: r, first: first, limits: Limits{}.withDefaults()}, nil
}

// WithLimits returns a copy of g bounded by l (zero fields: defaults).
func (g *Game) WithLimits(l Limits) *Game {
	return &Game{rule: g.rule, r: g.r, first: g.first, limits: l.withDefaults()}
}

// Rule returns the game's rule.
func (g *Game) Rule() Rule { return g.rule }

// R returns the number of coins of the rule (0 for Ruler).
func (g *Game) R() int { return g.r }

// First returns the number of the leftmost coin, 0 or 1.
func (g *Game) First() int { return g.first }

// Limits returns the limits in force, defaults filled in.
func (g *Game) Limits() Limits { return g.limits }

// String describes the game, e.g. "at-most 7, coins from 1".
func (g *Game) String() string {
	if g.rule == Ruler {
		return fmt.Sprintf("ruler, coins from %d", g.first)
	}
	return fmt.Sprintf("%v %d, coins from %d", g.rule, g.r, g.first)
}

// Values returns the values of a single head on each of the coins
// first, …, first+n−1. The Grundy value of a row is the nim-sum of the
// values of its heads.
func (g *Game) Values(n int) ([]uint64, error) {
	if n < 0 {
		return nil, fmt.Errorf("coins: negative number of coins %d", n)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.values) < n {
		var vs []uint64
		var err error
		switch {
		case g.rule == Ruler:
			vs, err = rulerValues(n, g.limits)
		case g.rule == AtMost && g.r >= 2:
			vs, err = lexValues(g.r, n, g.limits)
		default:
			vs, err = subsetValues(g.rule, g.r, n, g.limits)
		}
		if err != nil {
			return nil, err
		}
		g.values = vs
	}
	return append([]uint64(nil), g.values[:n]...), nil
}

// values0 is Values without the copy, for internal callers that only read.
func (g *Game) values0(n int) ([]uint64, error) {
	if _, err := g.Values(n); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.values[:n:n], nil
}

// subsetValues computes f(0..n−1) (0-based) for Exactly r and AtMost 1;
// AtMost r ≥ 2 goes to the lexicode, which the tests check against it.
//
// reach[j] is the set of nim-sums of exactly j distinct earlier values, as
// a bitset; adding a value v is the 0/1-knapsack step
// reach[j] ∪= reach[j−1] ⊕ v, taken for j downwards so each coin counts
// once. Every value is the mex of a subset of the span of the earlier
// values, and that span is [0, 2^k) (it is one when empty and grows only
// when the mex is 2^k itself), so bitsets of 2^k bits suffice, doubled
// whenever a value reaches 2^k.
func subsetValues(rule Rule, r, n int, lim Limits) ([]uint64, error) {
	if err := checkSubsetMemory(rule, r, n, r, lim); err != nil {
		return nil, err
	}
	out := make([]uint64, n)
	reach := make([][]uint64, r)
	span := uint64(64) // bits per bitset; at least one word
	words := 1
	for j := range reach {
		reach[j] = make([]uint64, words)
	}
	reach[0][0] = 1 // the empty set
	union := make([]uint64, words)
	prog := lim.progress(fmt.Sprintf("%v %d values", rule, r), n)
	for i := 0; i < n; i++ {
		if err := lim.stopped(); err != nil {
			return nil, err
		}
		prog.Set(int64(i))
		// The mex over the allowed sizes: j < r for AtMost, j = r−1 for Exactly.
		clear(union)
		lo := 0
		if rule == Exactly {
			lo = r - 1
		}
		for j := lo; j < r && j <= i; j++ {
			for w, x := range reach[j] {
				union[w] |= x
			}
		}
		v := uint64(words) * 64
		for w, x := range union {
			if x != ^uint64(0) {
				v = uint64(w)*64 + uint64(bits.TrailingZeros64(^x))
				break
			}
		}
		out[i] = v
		if i == n-1 {
			break
		}
		if v >= span {
			// v == span: the span doubles.
			if span >= 1<<62 {
				return nil, fmt.Errorf("coins: %v %d: values above 2^63 after %d coins: %w", rule, r, i+1, ErrLimit)
			}
			// r bitsets and the union of 2·span bits; while one bitset is
			// copied, its old half-size copy lives too.
			need := int64(r+1)*int64(span/4) + int64(span/8) + 8*int64(n)
			if err := lim.checkMemory(fmt.Sprintf("%v %d on %d coins (values of %d bits after %d coins)", rule, r, n, bits.Len64(span), i+1), need); err != nil {
				return nil, err
			}
			span *= 2
			if span > 64 {
				words = int(span / 64)
				union = nil
				for j := range reach {
					grown := make([]uint64, words)
					copy(grown, reach[j])
					reach[j] = grown
				}
				union = make([]uint64, words)
			}
		}
		top := min(r-1, i+1)
		for j := top; j >= 1; j-- {
			if words >= 1<<16 {
				// A large step: look at the context between bitsets.
				if err := lim.stopped(); err != nil {
					return nil, err
				}
			}
			xorInto(reach[j], reach[j-1], v)
		}
	}
	prog.Set(int64(n))
	return out, nil
}

// checkSubsetMemory refuses, before any work, values whose bitsets must
// pass the memory limit. Under AtMost the P-positions of the first n − 1
// coins form a linear code of minimum distance at least r + 1 (a move
// joins any two rows at distance at most r), so the sphere-packing bound
// gives at least V(n−1, ⌊r/2⌋) distinct values, and each of the bitsets
// (sets of them, r for the knapsack, fewer for the lexicode) holds that
// many bits rounded up to a power of two; the n values follow. Exactly has
// no such bound; its bitsets are checked as they grow.
func checkSubsetMemory(rule Rule, r, n, sets int, lim Limits) error {
	if rule != AtMost || n < 2 {
		return nil
	}
	const most = 1 << 62
	v := binomSum(n-1, 0, r/2, most)
	span := int64(64)
	for span < v && span < most {
		span *= 2
	}
	need := int64(sets)*(span/8) + 8*int64(n) // and the values
	if span >= most || (need-8*int64(n))/int64(sets) != span/8 {
		need = most
	}
	return lim.checkMemory(fmt.Sprintf("%v %d on %d coins (at least %d distinct values)", rule, r, n, v), need)
}

// xorWord returns the word whose bit b is bit b⊕c of x, for c < 64: each
// set bit 2^k of c swaps the halves of every block of 2^(k+1) bits.
// Unrolled, with constant masks: it is the inner loop of the values.
func xorWord(x uint64, c uint64) uint64 {
	if c&1 != 0 {
		x = (x&0x5555555555555555)<<1 | (x>>1)&0x5555555555555555
	}
	if c&2 != 0 {
		x = (x&0x3333333333333333)<<2 | (x>>2)&0x3333333333333333
	}
	if c&4 != 0 {
		x = (x&0x0f0f0f0f0f0f0f0f)<<4 | (x>>4)&0x0f0f0f0f0f0f0f0f
	}
	if c&8 != 0 {
		x = (x&0x00ff00ff00ff00ff)<<8 | (x>>8)&0x00ff00ff00ff00ff
	}
	if c&16 != 0 {
		x = (x&0x0000ffff0000ffff)<<16 | (x>>16)&0x0000ffff0000ffff
	}
	if c&32 != 0 {
		x = x<<32 | x>>32
	}
	return x
}

// xorInto sets dst ∪= {x ⊕ v : x ∈ src}; v is below the bitsets' length.
func xorInto(dst, src []uint64, v uint64) {
	hi, lo := int(v>>6), v&63
	for w, x := range src {
		if x != 0 {
			dst[w^hi] |= xorWord(x, lo)
		}
	}
}

// rulerValues computes g(1..n) from the definition: a head at coin m moves
// by turning a run ending at m, so g(m) is the mex of the nim-sums of the
// runs ending just before m, the empty run included.
func rulerValues(n int, lim Limits) ([]uint64, error) {
	if work := int64(n) * int64(n+1) / 2; n > 0 && work > lim.MaxSteps {
		return nil, lim.tooManySteps(fmt.Sprintf("ruler: the %d steps of %d coins", work, n))
	}
	if err := lim.checkMemory(fmt.Sprintf("ruler on %d coins", n), 10*int64(n)+2); err != nil {
		return nil, err
	}
	out := make([]uint64, n)
	// Values of the first m coins are below 2^bitlen(m), so the seen set is small.
	seen := make([]bool, 2*n+2)
	prog := lim.progress("ruler values", n)
	for m := 0; m < n; m++ {
		if m&1023 == 0 {
			if err := lim.stopped(); err != nil {
				return nil, err
			}
			prog.Set(int64(m))
		}
		clear(seen)
		var x uint64
		seen[0] = true
		for k := m - 1; k >= 0; k-- {
			x ^= out[k]
			if x < uint64(len(seen)) {
				seen[x] = true
			}
		}
		var v uint64
		for seen[v] {
			v++
		}
		out[m] = v
	}
	return out, nil
}
