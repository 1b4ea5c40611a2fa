package job

import "fmt"

// GameJSON is the game of a section as a job file writes it, for JSON
// documents that must say what they describe: one key, the family, whose
// value holds the family's parameters with their values in effect
// (defaults written out), e.g. {"octal": {"code": "0.07", "upto": 2000}}.
// "play" appears only for misère play, "position" only when one is
// analysed (for Nim, when it is not the heaps). A nimbers table gives {"nimbers": {"op": …, "size": …}}. A
// section without a family of job files (a notebook's game given by its
// moves) gives nil.
func (s *Section) GameJSON() map[string]any {
	if s == nil {
		return nil
	}
	p := map[string]any{}
	switch {
	case s.Nimbers != nil:
		return map[string]any{"nimbers": map[string]any{"op": s.Nimbers.Op, "size": s.Nimbers.Size}}
	case s.Nim != nil:
		if s.Nim.Heaps != nil {
			p["heaps"] = s.Nim.Heaps
		}
		if s.Nim.MaxTake > 0 {
			p["max-take"] = s.Nim.MaxTake
		}
		p["upto"] = s.Nim.Upto
	case s.Subtraction != nil:
		if s.Subtraction.AllBut {
			p["all-but"] = s.Subtraction.Set
		} else {
			p["set"] = s.Subtraction.Set
		}
		p["upto"] = s.Subtraction.Upto
	case s.Octal != nil:
		p["code"] = s.Octal.Code
		p["upto"] = s.Octal.Upto
	case s.Wythoff != nil:
		p["size"] = []int{s.Wythoff.Size[0], s.Wythoff.Size[1]}
	case s.Coins != nil:
		coinsJSON(p, *s.Coins)
		if s.Coins.Below > 0 {
			p["below"] = s.Coins.Below // every value below it, on as many coins as they take
		} else {
			p["n"] = s.Coins.N
		}
	case s.Product != nil:
		fs := make([]map[string]any, len(s.Product.Factors))
		for i, f := range s.Product.Factors {
			fs[i] = map[string]any{}
			coinsJSON(fs[i], f)
		}
		p["factors"] = fs
		p["size"] = s.Product.Size
	default:
		return nil
	}
	if s.Play == "misere" {
		p["play"] = "misere"
	}
	// Nim's position is its heaps unless the section names another.
	if s.Position != nil && (s.Nim == nil || fmt.Sprint(s.Position) != fmt.Sprint(s.Nim.Heaps)) {
		p["position"] = s.Position
	}
	family := s.Family
	if s.Octal != nil && s.Octal.Hex {
		family = "hex"
	} else if s.Octal != nil {
		family = "octal"
	}
	return map[string]any{family: p}
}

// coinsJSON writes a coin game's rule, r (not for the ruler game) and
// first coin.
func coinsJSON(p map[string]any, c CoinsSpec) {
	p["rule"] = c.Rule
	if c.Rule != "ruler" {
		p["r"] = c.R
	}
	p["first"] = c.First
}
