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

// Estimate returns the Cost of g.Values(upto, lim) without computing it,
// except for codes that split a heap in two: they compute their first
// values (up to 4096, a few milliseconds) to choose between the bit-set and
// the sparse-space sweep, as Values does. The error is for an upto Values
// refuses at once (negative, or past MaxPositions) or a cancelled context;
// a cost over the limits is returned without error, for the caller to
// state before Values refuses it.
func Estimate(g Game, upto int, lim Limits) (Cost, error) {
	if err := (Limits{MaxPositions: lim.MaxPositions}).checkUpto(g, upto); err != nil {
		return Cost{}, err
	}
	u := float64(upto + 1)
	values := 8 * (int64(upto) + 1)
	switch g := g.(type) {
	case *Nim:
		return Cost{Method: SweepFormula, Memory: values, Steps: u}, nil
	case *Subtraction:
		if g.allBut {
			k := float64(len(g.set))
			return Cost{Method: SweepAllBut, Memory: values, Steps: u * (k*k + 1)}, nil
		}
		return Cost{Method: SweepPlain, Memory: values, Steps: u * float64(len(g.set))}, nil
	case *Octal:
		p, err := g.plan(g, upto, lim)
		return p.cost, err
	case *Hex:
		p, err := g.plan(g, upto, lim)
		return p.cost, err
	}
	return Cost{}, fmt.Errorf("heap: %v: no estimate for this game", g)
}
