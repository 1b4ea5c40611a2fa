package job

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/nimbook/nimbook/explore/stargame" // the starlark family of job files
)

// examplesDir is the repository's examples folder.
var examplesDir = filepath.Join("..", "..", "examples")

// runJob parses and runs a job file's text written in dir.
func runFamilyJob(t *testing.T, dir, text string, opts Options) (*Report, error) {
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
