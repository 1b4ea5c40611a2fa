package job

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/nimbook/nimbook/explore/chomp" // the board families of the examples
	_ "github.com/nimbook/nimbook/explore/cram"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	_ "github.com/nimbook/nimbook/explore/nodekayles"
	_ "github.com/nimbook/nimbook/explore/stargame" // the starlark family of job files
)

// examplesDir is the repository's examples folder.
var examplesDir = filepath.Join("..", "..", "examples")

// runJob parses and runs a job file's text written in dir.
func runFamilyJob(t testing.TB, dir, text string, opts Options) (*Report, error) {
	t.Helper()
	p := filepath.Join(dir, "job.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := ParseFile(p)
	if err != nil {
		return nil, err
	}
	return Run(context.Background(), j, opts)
}

// TestStarlarkGameJSON: a game of examples/games.star from a job file, its
// analyses under SPEC's keys ("Games of your own").
func TestStarlarkGameJSON(t *testing.T) {
	abs, _ := filepath.Abs(filepath.Join(examplesDir, "games.star"))
	rep, err := runFamilyJob(t, t.TempDir(), `
sections:
  - title: Chomp
    game: {starlark: {file: `+abs+`, name: chomp3, params: {a: 3, b: 2, c: 1}}}
    show: [value, outcome, moves, p-positions]
`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(rep.Sections[0].Results)
	// Chomp (3, 2, 1) is an N-position: (3, 1, 0) leaves the L-shape with
	// equal arms, a P-position by symmetry; so does (2, 2, 0) (a 2 × 2 square
	// less its corner is won by taking the corner opposite the poison).
	want := `{"value":`
	if !strings.HasPrefix(string(got), want) || !strings.Contains(string(got), `"outcome":"N"`) {
		t.Fatalf("got %s", got)
	}
	t.Logf("%s", got)
}

// gamesFile is examples/games.star, absolute, for job files written in
// temporary folders.
func gamesFile(t *testing.T) string { return gamesFileB(t) }

func gamesFileB(t testing.TB) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(examplesDir, "games.star"))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// values reads the value of each section of a report.
func reportValues(t *testing.T, rep *Report) []uint64 {
	t.Helper()
	var out []uint64
	for _, s := range rep.Sections {
		if s.Results.Value == nil {
			t.Fatalf("section %q has no value", s.Title)
		}
		out = append(out, *s.Results.Value)
	}
	return out
}

// TestNodeKaylesGrid3: Node Kayles on the 3 × n grid, by
// examples/games.star's node_kayles (components by flood fill, canonical
// forms by the lattice's symmetries), across cols: the values are OEIS
// A316632, 2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3 for n = 1..16
// (S. Brown et al., "Nimber Sequences of Node-Kayles Games", J. Integer
// Seq. 23 (2020), Article 20.3.5). -short checks n ≤ 7, the full suite
// n ≤ 11; NIMBOOK_A316632=1 all 16 terms (minutes of Starlark).
func TestNodeKaylesGrid3(t *testing.T) {
	a316632 := []uint64{2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3}
	n := 11
	switch {
	case os.Getenv("NIMBOOK_A316632") == "1":
		n = 16
	case testing.Short():
		n = 7
	}
	rep, err := runFamilyJob(t, t.TempDir(), fmt.Sprintf(`
sections:
  - title: Node Kayles on 3 × n
    game: {starlark: {file: %s, name: node_kayles, params: {rows: 3, cols: "1..%d"}}}
    show: [value]
`, gamesFile(t), n), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reportValues(t, rep), a316632[:n]; !slices.Equal(got, want) {
		t.Errorf("values %v, want A316632 %v", got, want)
	}
	if got := rep.Sections[2].Title; got != "Node Kayles on 3 × n (cols = 3)" {
		t.Errorf("title %q", got)
	}
}

// TestNodeKaylesLadder: Node Kayles on the 2 × n grid (the ladder) has
// values 1, 0, 1, 0, … (A000035 from n = 1; the A316632 entry's comment,
// Brown et al. 2020): a second player wins an even ladder by the central
// symmetry. Solved here without components or canonical forms: the
// generic solver on whole positions (sampled against the split solver).
func TestNodeKaylesLadder(t *testing.T) {
	n := 8
	if testing.Short() {
		n = 6
	}
	rep, err := runFamilyJob(t, t.TempDir(), fmt.Sprintf(`
sections:
  - game: {starlark: {file: %s, name: node_kayles, params: {rows: 2, cols: "1..%d"}}}
    show: [value, outcome]
`, gamesFile(t), n), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range reportValues(t, rep) {
		if want := uint64((i + 1) % 2); v != want {
			t.Errorf("2 × %d: value %d, want %d", i+1, v, want)
		}
		if o := rep.Sections[i].Results.Outcome; (o == "P") != (v == 0) {
			t.Errorf("2 × %d: outcome %s with value %d", i+1, o, v)
		}
	}
}

// TestChompThreeRows: the P-positions of three-rowed Chomp (row lengths,
// the poisoned corner's row first) whose shortest row has 3 cells are
// (5, 5, 3), (6, 3, 3) and (7, 4, 3), and (a + 11, a + 7, 5) is a
// P-position for every a ≥ 0 (A. E. Brouwer, "The game of Chomp",
// www.win.tue.nl/~aeb/games/chomp.html, three-rowed Chomp, r = 3 and
// r = 5). The first from the p-positions of (11, 11, 3), every position
// below it; the second for a = 0..3 (0..1 in -short).
func TestChompThreeRows(t *testing.T) {
	file := gamesFile(t)
	as := 4
	if testing.Short() {
		as = 2
	}
	text := fmt.Sprintf(`
sections:
  - game: {starlark: {file: %s, name: chomp3, params: {a: 11, b: 11, c: 3}}}
    show: [p-positions]
`, file)
	for a := range as {
		text += fmt.Sprintf(`  - game: {starlark: {file: %s, name: chomp3, params: {a: %d, b: %d, c: 5}}}
    show: [outcome, value]
`, file, a+11, a+7)
	}
	rep, err := runFamilyJob(t, t.TempDir(), text, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var three []string
	for _, p := range rep.Sections[0].Results.PPositions.List.([]any) {
		if rows := p.([]any); rows[2] == int64(3) {
			three = append(three, fmt.Sprint(rows))
		}
	}
	if got, want := strings.Join(three, " "), "[5 5 3] [6 3 3] [7 4 3]"; got != want {
		t.Errorf("P-positions with 3 cells in the third row: %s, want %s", got, want)
	}
	for a, s := range rep.Sections[1:] {
		if s.Results.Outcome != "P" || *s.Results.Value != 0 {
			t.Errorf("(%d, %d, 5): outcome %s, value %d; want a P-position", a+11, a+7, s.Results.Outcome, *s.Results.Value)
		}
	}
}

// TestCapabilitiesChecked: components or canonical forms that contradict
// the moves are an error naming the function, its file and line, and a
// position where the values differ, before the work.
func TestCapabilitiesChecked(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.star"), []byte(`
def moves(p):
    return [p - t for t in range(1, min(2, p) + 1)]

def halves(p):
    # wrong: a heap is not the sum of its halves
    return [p // 2, p - p // 2]

def heap(n):
    return game(moves=moves, start=n, components=halves)
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := runFamilyJob(t, dir, `
sections:
  - game: {starlark: {file: bad.star, name: heap, params: {n: 9}}}
    show: [value]
`, Options{})
	for _, want := range []string{"components (halves, bad.star:5)", "contradict the moves", "has value"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// TestStarlarkGameErrors: a job file's Starlark game is checked before
// any work, the error naming the job file's line and the .star file's.
func TestStarlarkGameErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "g.star"), []byte("def f(n):\n    return game(moves=lambda p: [p + 0.5], start=n)\ndef spin(n):\n    while True:\n        pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, game string
		want       []string
	}{
		{"unknown family", "{starlrk: {file: g.star, name: f}}", []string{"job.yaml:3", "did you mean \"starlark\"", "a game of your own"}},
		{"no file", "{starlark: {file: h.star, name: f, params: {n: 1}}}", []string{"job.yaml:3", "h.star"}},
		{"a move JSON cannot hold", "{starlark: {file: g.star, name: f, params: {n: 1}}}", []string{"job.yaml:3", "moves (lambda, g.star:2) returned a position", "float 1.5 cannot be a position"}},
		{"a function that loops", "{starlark: {file: g.star, name: spin, params: {n: 1}}}", []string{"job.yaml:3", "spin(n=1) from g.star", "g.star:4", "steps"}},
		{"two ranges too many", "{starlark: {file: g.star, name: f, params: {a: \"1..2\", b: \"1..2\", n: \"1..3\"}}}", []string{"all range"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runFamilyJob(t, dir, "sections:\n  - title: t\n    game: "+tc.game+"\n    show: [value]\n", Options{})
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v lacks %q", err, w)
				}
			}
		})
	}
}

// TestStepsLimit: limits.steps bounds a Starlark game's functions over the
// whole analysis, and says how to raise it.
func TestStepsLimit(t *testing.T) {
	rep, err := runFamilyJob(t, t.TempDir(), fmt.Sprintf(`
limits: {steps: 200000}
sections:
  - game: {starlark: {file: %s, name: node_kayles, params: {rows: 3, cols: 6}}}
    show: [value]
`, gamesFile(t)), Options{})
	if err == nil || !strings.Contains(err.Error(), "limits: {steps: N}") {
		t.Errorf("report %v, error %v; want the step budget's", rep, err)
	}
}

// TestStarlarkGameMisere: play: misere decides outcome and moves of a
// Starlark game: Chomp (2) (one row of two cells, the poisoned one first)
// is N under normal play (take the other cell) and P under misère play
// (whoever takes it made the last move, and loses).
func TestStarlarkGameMisere(t *testing.T) {
	rep, err := runFamilyJob(t, t.TempDir(), fmt.Sprintf(`
sections:
  - game: {starlark: {file: %[1]s, name: chomp3, params: {a: 2, b: 0, c: 0}}}
    show: [outcome, moves]
  - game: {starlark: {file: %[1]s, name: chomp3, params: {a: 2, b: 0, c: 0}, play: misere}}
    show: [outcome, moves]
`, gamesFile(t)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{`"outcome":"N","moves":[[1,0,0]]`, `"outcome":"P","moves":[]`} {
		got, _ := json.Marshal(rep.Sections[i].Results)
		if !strings.Contains(string(got), want) {
			t.Errorf("section %d: %s, want %s", i+1, got, want)
		}
	}
	if g := rep.Sections[1].Spec.GameJSON()["starlark"].(map[string]any); g["play"] != "misere" {
		t.Errorf("game %v", g)
	}
}

// pathGame is Node Kayles on a path of n vertices, "o" free and "."
// taken: a registered family of the tests, with a cost model.
type pathGame struct{ n int }

func (g pathGame) Moves(key string) ([]string, error) {
	var out []string
	for i := range len(key) {
		if key[i] == 'o' {
			lo, hi := max(i-1, 0), min(i+2, len(key))
			out = append(out, key[:lo]+strings.Repeat(".", hi-lo)+key[hi:])
		}
	}
	return out, nil
}
func (g pathGame) Start() string          { return strings.Repeat("o", g.n) }
func (g pathGame) Play() game.Play        { return game.Normal }
func (g pathGame) JSON(key string) any    { return key }
func (g pathGame) Show(key string) string { return key }
func (g pathGame) String() string         { return fmt.Sprintf("a path of %d", g.n) }
func (g pathGame) Close()                 {}

func init() {
	family.Register(&family.Family{
		Key: "test-path", Order: 999,
		Text:     family.Texts("a path", "un chemin"),
		Params:   []family.Param{{Key: "n", Kind: family.Int, Min: 1, Max: 60, What: "the vertices", Missing: "the vertices, e.g. n: 5"}},
		Analyses: family.PositionAnalyses,
		New:      func(p family.Params, _ family.Env) (family.Game, error) { return pathGame{p.Int("n")}, nil },
		// At most 2^n positions, each listing n moves.
		Cost: func(_ context.Context, p family.Params, _ []string) family.Cost {
			n := int64(p.Int("n"))
			return family.Cost{Positions: 1 << n, Steps: n << n, Memory: 64 << n}
		},
	})
}

// TestFamilyCost: a registered family's cost model is the job's estimate
// of its sections (surveys plan and refuse by it), and a family of Go
// code (not Starlark) is run by the same analyses: Node Kayles on the path
// of 7 vertices is Dawson's chess value a(7) = 1 (OEIS A002187: 0, 1, 1,
// 2, 0, 3, 1, 1, …).
func TestFamilyCost(t *testing.T) {
	rep, err := runFamilyJob(t, t.TempDir(), "sections:\n  - game: {test-path: {n: 7}}\n    show: [value]\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Sections[0]
	if v := s.Results.Value; v == nil || *v != 1 {
		t.Errorf("value %v, want 1", v)
	}
	c, err := s.Spec.Estimate(context.Background(), DefaultLimits)
	if err != nil || c.Positions != 128 || c.Steps != 7*128 || c.Memory != 64*128 {
		t.Errorf("estimate %+v, %v", c, err)
	}
}
