package starrule

import (
	"context"

	"github.com/nimbook/nimbook/explore/sandbox"
)

// CallSteps runs the function for a heap of n on a thread of its own and
// returns the Starlark steps it took, for cost estimates: the steps of
// a rule's function dwarf the options it lists (a survey of rules was
// estimated at 2408 steps, counting options only, for 31 s of work).
// The options found are kept, as by OptionsErr.
func (g *Game) CallSteps(n int) (uint64, error) {
	th, release := g.threads(context.Background(), sandbox.Limits{MaxSteps: CallSteps})
	defer release()
	opts, err := g.call(th, n)
	if err != nil {
		return 0, err
	}
	g.mu.Lock()
	if _, ok := g.cache[n]; !ok && g.cached < maxCached {
		g.cache[n] = opts
		for _, o := range opts {
			g.cached += len(o) + 1
		}
	}
	g.mu.Unlock()
	return th.ExecutionSteps(), nil
}
