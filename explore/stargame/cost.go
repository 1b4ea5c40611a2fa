package stargame

import (
	"context"
	"slices"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
)

// costSampling is how a game's cost samples it (game.EstimateWith): a
// plan estimates the terms of a range and every variant of a survey
// before any work, so it takes a fifth of Estimate's walks (3 × 12 Node
// Kayles in Starlark: about 0.3 s, where solving it takes 5 s). The pilot
// stays Estimate's: a shorter one leaves more terms to walks and to the
// forecasts from them, which overestimated 3 × 11 threefold.
var costSampling = game.Sampling{Walks: 200}

// cost is the family's cost model: game.EstimateWith of the game the
// parameters make, with the capabilities its file gives (parts and
// canonical forms, as the job's solver uses them), or of whole positions
// when the analyses list them (p-positions, graph). A game that cannot be
// made or sampled within the load budget has an unknown cost (zero):
// its check reports why.
func cost(ctx context.Context, p family.Params, show []string) family.Cost {
	g, err := Load(p.String(keyFile), p.String(keyName), p.Map(keyParams), family.Env{Context: ctx, MaxSteps: costSteps, MaxMemory: loadMemory})
	if err != nil {
		return family.Cost{}
	}
	defer g.Close()
	c, err := Estimate(ctx, g, show)
	if err != nil {
		return family.Cost{}
	}
	return family.Cost{Positions: c.Positions, Memory: c.Bytes, Steps: c.Steps, Exact: c.Exact, What: g.Name()}
}

// costSteps bounds the Starlark steps of a cost estimate: those of about
// a million calls of a small move function.
const costSteps = 1_000_000_000

// Estimate predicts the work of the analyses show of g before they start
// (game.EstimateWith, sampling as costSampling says): the solver's memo of parts
// for the value and outcome of the start, of whole positions when show
// lists the positions reached (p-positions, graph) or the game is misère.
func Estimate(ctx context.Context, g *Game, show []string) (game.Cost, error) {
	m := game.Mover[string](game.Plain[string](g))
	whole := slices.Contains(show, "p-positions") || slices.Contains(show, "graph")
	if !whole {
		var comps func(string) ([]string, error)
		var canon func(string) (string, error)
		if g.HasComponents() {
			comps = g.Components
		}
		if g.HasCanonical() {
			canon = g.Canonical
		}
		m = game.WithCapabilities(game.Plain[string](g), comps, canon)
	}
	return game.EstimateWith(m, g.Start(), game.Options{Play: g.Play(), Context: ctx, Workers: 1}, costSampling)
}
