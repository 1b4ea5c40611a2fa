package job

import "fmt"

// GameJSON is the game of a section as a job file writes it, for JSON
// documents that must say what they describe: one key, the family, whose
// value holds the family's parameters with their values in effect
// (defaults written out), e.g. {"octal": {"code": "0.07", "upto": 2000}}.
// "play" appears only for misère play, "position" only when one is
// analysed (for a rule whose position is one of its parameters, Nim's
// heaps, when it is not that). A family with a section key of its own (a
// nimber table) gives its parameters only, under its key. A section without a family of job files (a notebook's game
// given by its moves) gives nil.
func (s *Section) GameJSON() map[string]any {
	if s == nil || s.Game == nil {
		return nil
	}
	p := map[string]any{}
	s.Game.params(p)
	if IsSectionFamily(s.Family) {
		return map[string]any{s.Family: p}
	}
	if s.Play == "misere" {
		p["play"] = "misere"
	}
	if s.Position != nil && !s.positionIsParam() {
		p["position"] = s.Position
	}
	return map[string]any{s.Family: p}
}

// positionIsParam reports whether the position is the value of the rule's
// PositionParam (Nim's heaps), which then stands for it.
func (s *Section) positionIsParam() bool {
	h := s.Heap()
	if h == nil || h.Rule.PositionParam == "" {
		return false
	}
	v, ok := h.Params[h.Rule.PositionParam]
	return ok && fmt.Sprint(s.Position) == fmt.Sprint(v)
}
