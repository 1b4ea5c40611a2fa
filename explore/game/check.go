package game

import (
	"fmt"
	"strings"
)

// DefaultCheckPositions is the number of positions CheckCapabilities
// looks at when Options.MaxPositions is zero.
const DefaultCheckPositions = 20_000

// CapabilityError reports a Components or Canonical that contradicts the
// move function: the values the solver would find with it differ from
// the values of the plain game.
type CapabilityError[T comparable] struct {
	// Capability is "Components" or "Canonical".
	Capability string
	// Position is the first position found where they disagree.
	Position T
	// Image is what the capability returned: the parts, or the one
	// canonical form.
	Image []T
	// Want is the Grundy value of Position from its moves, Got the
	// nim-sum of the parts' values or the canonical form's value.
	Want, Got uint64
	// Misere is set when the values agree but the misère outcomes of
	// Position and its canonical form differ.
	Misere bool
}

func (e *CapabilityError[T]) Error() string {
	var b strings.Builder
	switch {
	case e.Capability == "Components":
		parts := make([]string, len(e.Image))
		for i, p := range e.Image {
			parts[i] = fmt.Sprint(p)
		}
		fmt.Fprintf(&b, "game: components of %v are [%s], whose values have nim-sum %d, but %v has Grundy value %d from its moves", e.Position, strings.Join(parts, ", "), e.Got, e.Position, e.Want)
	case e.Misere:
		fmt.Fprintf(&b, "game: the canonical form of %v is %v, whose misère outcome differs from that of %v", e.Position, e.Image[0], e.Position)
	default:
		fmt.Fprintf(&b, "game: the canonical form of %v is %v, with Grundy value %d, but %v has Grundy value %d from its moves", e.Position, e.Image[0], e.Got, e.Position, e.Want)
	}
	return b.String()
}

// CheckCapabilities tests the Components and Canonical of m (when it has
// them) against its moves alone: on every sample and the positions
// reachable from it, in breadth-first order, up to opts.MaxPositions
// positions (DefaultCheckPositions when zero), the nim-sum of the parts'
// values must be the position's value, and the canonical form must have
// its value (and, when opts.Play is Misere, its misère outcome). It
// returns a *CapabilityError for the first disagreement, an error of the
// solver (a cycle, a budget), or nil. The values are those of a solver
// of m without its capabilities, so samples should be small positions.
func CheckCapabilities[T comparable](m Mover[T], samples []T, opts Options) error {
	split, _ := m.(Splitter[T])
	canon, _ := m.(Canonicalizer[T])
	if split == nil && canon == nil {
		return nil
	}
	limit := opts.MaxPositions
	if limit == 0 {
		limit = DefaultCheckPositions
	}
	opts.Workers, opts.Progress = 1, nil
	plain, err := NewSolver(Plain(m), opts)
	if err != nil {
		return err
	}
	seen := make(map[T]bool)
	var queue []T
	for _, p := range samples {
		if !seen[p] {
			seen[p] = true
			queue = append(queue, p)
		}
	}
	for i := 0; i < len(queue) && i < limit; i++ {
		q := queue[i]
		want, err := plain.Grundy(q)
		if err != nil {
			return err
		}
		if split != nil {
			if err := plain.step(1); err != nil {
				return err
			}
			parts, err := split.Components(q)
			if err != nil {
				return fmt.Errorf("game: components of %v: %w", q, err)
			}
			var x uint64
			for _, c := range parts {
				g, err := plain.Grundy(c)
				if err != nil {
					return err
				}
				x ^= g
			}
			if x != want {
				return &CapabilityError[T]{Capability: "Components", Position: q, Image: parts, Want: want, Got: x}
			}
		}
		if canon != nil {
			if err := plain.step(1); err != nil {
				return err
			}
			c, err := canon.Canonical(q)
			if err != nil {
				return fmt.Errorf("game: canonical form of %v: %w", q, err)
			}
			g, err := plain.Grundy(c)
			if err != nil {
				return err
			}
			if g != want {
				return &CapabilityError[T]{Capability: "Canonical", Position: q, Image: []T{c}, Want: want, Got: g}
			}
			if opts.Play == Misere {
				oq, err := plain.Outcome(q)
				if err != nil {
					return err
				}
				oc, err := plain.Outcome(c)
				if err != nil {
					return err
				}
				if oq != oc {
					return &CapabilityError[T]{Capability: "Canonical", Position: q, Image: []T{c}, Want: want, Got: g, Misere: true}
				}
			}
		}
		if len(queue) < limit {
			ms, err := m.Moves(q)
			if err != nil {
				return fmt.Errorf("game: moves of %v: %w", q, err)
			}
			for _, r := range ms {
				if !seen[r] {
					seen[r] = true
					queue = append(queue, r)
				}
			}
		}
	}
	return nil
}
