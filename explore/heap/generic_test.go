package heap

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// bare is a heap game with none of the package's optional capabilities,
// as a rule written in Starlark: Kayles by its options, its values by
// MexValues.
type bare struct{ opts func(int) [][]int }

func (g bare) String() string                                { return "bare" }
func (g bare) Options(n int) [][]int                         { return g.opts(n) }
func (g bare) Values(upto int, lim Limits) ([]uint64, error) { return MexValues(g, upto, lim) }

// TestGenericGame: a game without an estimate, a period window or a
// formula gets the defaults: the options sweep at a step a heap, no
// period, values and positions from its options.
func TestGenericGame(t *testing.T) {
	kayles := mustOctal(t, "0.77")
	g := bare{kayles.Options}
	c, err := Estimate(g, 1000, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Method != SweepOptions || c.Steps != 1001 || c.Memory != 8*1001 {
		t.Errorf("Estimate = %v", c)
	}
	if _, err := Estimate(g, 1000, Limits{MaxPositions: 100}); !errors.Is(err, game.ErrTooManyPositions) {
		t.Errorf("past the position limit: %v", err)
	}
	vs := mustValues(t, g, 300)
	if want := mustValues(t, kayles, 300); !slices.Equal(vs, want) {
		t.Errorf("MexValues %v\nKayles %v", vs[:20], want[:20])
	}
	if c := Period(g, vs); c != (Certificate{CheckedTo: 300, Method: MethodNone}) {
		t.Errorf("Period = %+v", c)
	}
	checkPositions(t, g, append(tuples(1, 10), tuples(2, 6)...))
	if _, err := g.Values(10_000, Limits{MaxSteps: 1000}); !errors.Is(err, ErrTooManySteps) {
		t.Errorf("over the step limit: %v", err)
	}
	loop := bare{func(n int) [][]int {
		if n == 0 {
			return nil
		}
		return [][]int{{n}}
	}}
	if _, err := loop.Values(5, Limits{}); err == nil || !strings.Contains(err.Error(), "option [1] of heap 1 has a part 1") {
		t.Errorf("a part as large as its heap: %v", err)
	}
}

// TestMexValuesAgainstSolver: MexValues is the generic solver's value on
// one heap, for the games of the package.
func TestMexValuesAgainstSolver(t *testing.T) {
	games := []Game{must(NewNim(0)), must(NewAllBut([]int{2, 3})), mustOctal(t, "0.137"), mustHex(t, "0.f"), NewGrundysGame()}
	for _, g := range games {
		t.Run(g.String(), func(t *testing.T) {
			got, err := MexValues(g, 22, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if want := referenceValues(t, g, 22); !slices.Equal(got, want) {
				t.Errorf("MexValues %v\nsolver %v", got, want)
			}
		})
	}
}
