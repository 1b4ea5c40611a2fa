package heap

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/budget"
)

// Sweeps: how Values computes a value sequence (Cost.Method).
const (
	SweepFormula = "formula"            // Nim: n, or n mod (k + 1)
	SweepPlain   = "plain sweep"        // a few options a heap: subtraction sets, codes that never split
	SweepAllBut  = "all-but sweep"      // counts of the values so far, |S|² steps a heap
	SweepSets    = "bit-set sweep"      // every split of every heap: about upto²/4 steps
	SweepSparse  = "sparse-space sweep" // splits with a rare part: about upto × rare positions
	SweepSplits  = "split sweep"        // Grundy's game: every split of every heap, about upto²/4 steps
	SweepOptions = "options sweep"      // the mex of the listed Options of every heap (MexValues)
)

// Cost is how Values computes g(0..upto) and what it is estimated to
// need. Values refuses the work before it starts when Memory or Steps
// pass the limits; the sparse-space sweep also stops as soon as its
// projected steps do (its estimate assumes that the rare positions stay
// about as many as among the first values).
type Cost struct {
	Method string
	// Detail says why, e.g. the split into rare and common values that
	// the sparse-space sweep uses.
	Detail string
	Memory int64   // bytes
	Steps  float64 // options examined
}

// String reads like "sparse-space sweep (range type, mask 10001: 833 rare
// positions in 0..4096, the last 4093): about 3.1 MiB and 1.2e+09 steps".
func (c Cost) String() string {
	s := c.Method
	if c.Detail != "" {
		s += " (" + c.Detail + ")"
	}
	return fmt.Sprintf("%s: about %s and %.2g steps", s, budget.FormatSize(c.Memory), c.Steps)
}

// estimator is a game that knows the cost of its Values: each rule of
// this package says it in its own file.
type estimator interface {
	estimate(upto int, lim Limits) (Cost, error)
}

// Estimate returns the Cost of g.Values(upto, lim) without computing it,
// except for games that split a heap in two: they compute their first
// values (up to 4096, a few milliseconds) to choose between their own
// sweep and the sparse-space sweep, as Values does. The error is for an
// upto Values refuses at once (negative, or past MaxPositions) or a
// cancelled context; a cost over the limits is returned without error, for
// the caller to state before Values refuses it. A game of another package
// (a rule written in Starlark) is costed as the mex of its Options heap
// by heap (SweepOptions), at a step a heap: what its options cost is not
// known before they are listed.
func Estimate(g Game, upto int, lim Limits) (Cost, error) {
	if err := (Limits{MaxPositions: lim.MaxPositions}).checkUpto(g, upto); err != nil {
		return Cost{}, err
	}
	if e, ok := g.(estimator); ok {
		return e.estimate(upto, lim)
	}
	return Cost{Method: SweepOptions, Detail: "a step a heap at least: the options are not known before they are listed",
		Memory: 8 * (int64(upto) + 1), Steps: float64(upto + 1)}, nil
}

// Algorithms: which sweep computed a value sequence (Sweep.Algorithm),
// short names for results and surveys.
const (
	AlgorithmPlain  = "plain"  // a few options a heap: codes that never split
	AlgorithmSets   = "sets"   // every split of every heap into bit sets of values (short sequences, three-way splits)
	AlgorithmBitset = "bitset" // bit sets of heaps per value, for codes with few values (bitset.go)
	AlgorithmSparse = "sparse" // the sparse-space sweep: splits with a rare part
	AlgorithmDense  = "dense"  // every split once, shared by the split digits (dense.go)
	AlgorithmDirect = "direct" // every split of every heap, the mex of their values (Grundy's game)
)

// Sweep says how Values computed a value sequence.
type Sweep struct {
	// Algorithm is one of the Algorithm constants, "" when the game does
	// not say.
	Algorithm string
	// DenseFrom is the heap where the sparse-space sweep (its rare
	// positions having become too many) or the bitset sweep (a value
	// reaching 64) handed over to the dense sweep; 0 when the dense sweep
	// ran from the start or did not run.
	DenseFrom int
	// PeriodFrom is the heap from which the values were not swept but
	// filled by a period that the values before it prove (Period: the
	// Guy–Smith window), looked for each time the heap size doubles past
	// 4096; 0 when none was proven in time.
	PeriodFrom int
	// Steps is the work the sparse-space, dense and bitset sweeps count
	// (splits and words examined), deterministic for a given game and
	// upto whatever the machine and its load: tests pin it. The other
	// sweeps leave it 0.
	Steps int64
	// Stages is how many stages a staged sweep (PeriodValues) ran, and
	// Resumed how many of them went on from the values of the one before
	// rather than starting afresh; 0 for a sweep alone.
	Stages, Resumed int
	// PeriodSteps is the values compared by the period searches after
	// each stage (about twice the values of each).
	PeriodSteps int64
}

// sweeper is a game whose Values says which algorithm ran.
type sweeper interface {
	ValuesSweep(upto int, lim Limits) ([]uint64, Sweep, error)
}

// ValuesSweep returns g.Values(upto, lim) and, for the games that say it
// (octal and hexadecimal codes, Grundy's game), which algorithm computed
// them.
func ValuesSweep(g Game, upto int, lim Limits) ([]uint64, Sweep, error) {
	if s, ok := g.(sweeper); ok {
		return s.ValuesSweep(upto, lim)
	}
	vs, err := g.Values(upto, lim)
	return vs, Sweep{}, err
}
