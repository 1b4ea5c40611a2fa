package play

import (
	"fmt"
	"strings"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/misere"
)

// misereHinter is a game that says, in a hint, how a misère position is
// solved: the element of the misère quotient it is.
type misereHinter interface {
	// MisereHint says it in a sentence, or "" when no quotient is known.
	MisereHint(p []int) string
}

var _ misereHinter = (*Heaps)(nil)

// quotientCache keeps the misère quotient found for the largest heaps
// played so far, and the largest heap for which none could be had (past
// the limits), so that each is computed once in a game.
type quotientCache struct {
	q    *misere.Quotient
	none int // no quotient for heaps this large or larger; 0: not tried
}

// quotientFor returns a misère quotient that holds for the heaps of p:
// of the heaps 1..h, h doubling from 32 to the largest heap of p, so
// that a pretending function proven periodic (0.75) answers heaps of any
// size. It returns nil (and no error) when none can be had within the
// limits: the caller then solves the whole position.
func (h *Heaps) quotientFor(p []int) (*misere.Quotient, error) {
	top := 1
	for _, n := range p {
		top = max(top, n)
	}
	c := &h.quotient
	if c.q != nil {
		if _, err := c.q.Element(p); err == nil {
			return c.q, nil
		}
	}
	if c.none > 0 && top >= c.none {
		return nil, nil
	}
	maxSteps := h.lim.MaxSteps
	if maxSteps <= 0 {
		maxSteps = heap.DefaultMaxSteps
	}
	from := 32
	if c.q != nil {
		from = 2 * c.q.Heaps
	}
	for n := min(top, from); ; n = min(2*n, top) {
		if steps, _ := misere.EstimateQuotient(h.g, n); steps > maxSteps {
			break
		}
		q, err := misere.NewQuotient(h.lim.Context, h.g, n, h.lim, nil)
		if err != nil {
			if h.lim.Context != nil && budget.Err(h.lim.Context) != nil {
				return nil, fmt.Errorf("play: %w", err)
			}
			break
		}
		c.q = q
		if _, err := q.Element(p); err == nil {
			return q, nil
		}
		if n >= top {
			break
		}
	}
	c.none = top
	return nil, nil
}

// MisereHint names the element of the misère quotient that p is, and the
// P-portion it is or is not in.
func (h *Heaps) MisereHint(p []int) string {
	if h.formula {
		return ""
	}
	q, err := h.quotientFor(p)
	if err != nil || q == nil {
		return ""
	}
	x, err := q.Element(p)
	if err != nil {
		return ""
	}
	var ps []string
	for _, i := range q.P {
		ps = append(ps, q.Elements[i].Word)
	}
	kind := "wild"
	if q.Tame {
		kind = "tame, " + q.TameName
	}
	holds := fmt.Sprintf("heaps up to %d", q.Heaps)
	if q.Period != nil && q.Period.Proven {
		holds = "every heap, its pretending function proven periodic"
	}
	in := "not in"
	if q.Elements[x].P {
		in = "in"
	}
	return fmt.Sprintf("through the misère quotient (order %d, %s; it holds for %s), this position is %s, %s the P-portion {%s}.",
		q.Order, kind, holds, q.Elements[x].Word, in, strings.Join(ps, ", "))
}
