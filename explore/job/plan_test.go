package job

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
	_ "github.com/nimbook/nimbook/explore/nodekayles" // the node-kayles family
)

// TestPlanRefusesRange: a range of a game given by a registered family's
// cost model is refused before any section starts, naming the first term
// over the limit and the limit. The figures are pinned: Starlark Node
// Kayles (examples/games.star) is estimated by game.EstimateWith's seeded
// walks, at least game.Forecast of the terms before (3 × 12 alone solves
// 2917 parts, so 3 × 13 past 3000 is right); the built-in family by
// extrapolating its memo from the grids it solves within 20000 entries.
func TestPlanRefusesRange(t *testing.T) {
	abs, _ := filepath.Abs(filepath.Join(examplesDir, "games.star"))
	for _, c := range []struct {
		name, limits, game string
		want               []string
		is                 error
	}{
		{"starlark positions", "{positions: 3000}",
			"{starlark: {file: " + abs + ", name: node_kayles, params: {rows: 3, cols: \"1..20\"}}}",
			[]string{`(cols = 13)`, "the term cols = 13 of the range", "about 5376 positions", "limit of 3000 positions (limits.positions)", "before any work"},
			game.ErrTooManyPositions},
		{"starlark steps", "{steps: 50000}",
			"{starlark: {file: " + abs + ", name: node_kayles, params: {rows: 3, cols: \"1..20\"}}}",
			[]string{"the term cols = 11 of the range", "about 62595 steps", "limit of 50000 steps (limits.steps)"},
			game.ErrTooManySteps},
		{"node-kayles memory", "{memory: 256MiB}",
			"{node-kayles: {graph: {grid: [3, \"1..30\"]}}}",
			[]string{"(n = 26)", "the term n = 26 of the range", "about 12936578 positions", "memory limit of 256 MiB", "before any work"},
			budget.ErrMemory},
	} {
		t.Run(c.name, func(t *testing.T) {
			started := 0
			_, err := runFamilyJob(t, t.TempDir(), "limits: "+c.limits+"\nsections:\n  - title: T\n    game: "+c.game+"\n    show: [value]\n",
				Options{Progress: func(int, *Section) { started++ }})
			if err == nil {
				t.Fatal("no refusal")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
			if !errors.Is(err, c.is) {
				t.Errorf("error %v does not wrap %v", err, c.is)
			}
			if started != 0 {
				t.Errorf("%d sections started before the refusal", started)
			}
		})
	}
}
