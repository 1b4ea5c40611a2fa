package family_test

import (
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
)

// line is a test family: a path of n vertices, a move takes one vertex
// and its neighbours (Node Kayles on a path, Dawson's Kayles).
type line struct{ n int }

func (l line) Moves(key string) ([]string, error) {
	var out []string
	for i := range len(key) {
		if key[i] == 'o' {
			lo, hi := max(i-1, 0), min(i+2, len(key))
			out = append(out, key[:lo]+strings.Repeat(".", hi-lo)+key[hi:])
		}
	}
	return out, nil
}
func (l line) Start() string          { return strings.Repeat("o", l.n) }
func (l line) Play() game.Play        { return game.Normal }
func (l line) JSON(key string) any    { return key }
func (l line) Show(key string) string { return key }
func (l line) String() string         { return "a path" }
func (l line) Close()                 {}

func init() {
	family.Register(&family.Family{
		Key: "test-path", Order: 999,
		Text:     family.Texts("a path", "un chemin"),
		Params:   []family.Param{{Key: "n", Kind: family.Int, Min: 1, Max: 64, What: "the vertices", Missing: "the vertices, e.g. n: 5"}},
		Analyses: family.PositionAnalyses,
		New:      func(p family.Params, _ family.Env) (family.Game, error) { return line{p.Int("n")}, nil },
	})
}

func TestRegistry(t *testing.T) {
	f, ok := family.Lookup("test-path")
	if !ok || !f.Has("value") || f.Has("values") {
		t.Fatalf("Lookup: %v %v", f, ok)
	}
	if err := f.CheckParams(family.Params{"n": 0}); err == nil || !strings.Contains(err.Error(), "n: 0 is out of range") {
		t.Errorf("CheckParams(n: 0) = %v", err)
	}
	if err := f.CheckParams(family.Params{}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("CheckParams() = %v", err)
	}
	g, err := f.NewGame(family.Params{"n": 4}, family.Env{})
	if err != nil {
		t.Fatal(err)
	}
	// Dawson's Kayles on 4 vertices: the solver over the family's Game.
	sol, err := game.NewSolver[string](g, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := sol.Grundy(g.Start()); err != nil || v != 0 {
		// Node Kayles on P_4 = Dawson's chess value of n = 4, 0 (A002187: 0, 1, 1, 2, 0, 3, …).
		t.Errorf("value %d, %v; want 0", v, err)
	}
	if !strings.Contains(strings.Join(family.Keys(), ","), "test-path") {
		t.Errorf("Keys %v", family.Keys())
	}
	err = family.UnknownError("tst", family.Keys())
	for _, want := range []string{"test-path", "starlark:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("UnknownError %q lacks %q", err, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a second Register of test-path did not panic")
		}
	}()
	family.Register(&family.Family{Key: "test-path"})
}

func TestRegisterHeapName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering a heap rule's name did not panic")
		}
	}()
	family.Register(&family.Family{Key: "nim"})
}
