package nodekayles_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/nimbook/nimbook/explore/chomp"
	_ "github.com/nimbook/nimbook/explore/cram"
	"github.com/nimbook/nimbook/explore/job"
	_ "github.com/nimbook/nimbook/explore/nodekayles"
)

func runJob(t *testing.T, dir, text string) (string, error) {
	t.Helper()
	p := filepath.Join(dir, "job.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := job.ParseFile(p)
	if err != nil {
		return "", err
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		return "", err
	}
	var out []string
	for _, s := range rep.Sections {
		b, _ := json.Marshal(s.Results)
		out = append(out, string(b))
	}
	return strings.Join(out, "\n"), nil
}

// The family from a job file: a grid (A316632's 3 × 12 = 5, its winning
// moves), paths as a range (0.137), a graph file beside the job file, the
// P-positions of a small grid from the generic solver.
func TestFamilyInJobFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "k4.txt"), []byte("a b\na c\na d\nb c\nb d\nc d\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := runJob(t, dir, `
sections:
  - title: grid
    game: {node-kayles: {graph: {grid: [3, 12]}}}
    show: [value, outcome, moves]
  - title: paths
    game: {node-kayles: {graph: {path: "3..5"}}}
    show: [value]
  - title: file
    game: {node-kayles: {graph: {file: k4.txt}}}
    show: [value, p-positions]
  - title: small
    game: {node-kayles: {graph: {grid: [2, 3]}}}
    show: [p-positions]
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"value":5,"outcome":"N","moves":[["#####.######","####...#####","#####.######"],["######.#####","#####...####","######.#####"]]}`,
		`{"value":2}`, `{"value":0}`, `{"value":3}`,
		`{"value":1,"p_positions":{"count":1,"of":2,"list":[[]]}}`,
	}
	lines := strings.Split(got, "\n")
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Errorf("section %d: %s, want %s", i, lines[min(i, len(lines)-1)], w)
		}
	}
	if len(lines) != 6 || !strings.Contains(lines[5], `"p_positions"`) {
		t.Errorf("2 × 3 p-positions: %v", lines)
	}
}

func TestFamilyErrors(t *testing.T) {
	dir := t.TempDir()
	for text, want := range map[string]string{
		`{node-kayles: {graph: {grid: [3]}}}`:      "grid: want [m, n]",
		`{node-kayles: {graph: {torus: 3}}}`:       `"torus" is not a graph`,
		`{node-kayles: {graph: {file: none.dot}}}`: "none.dot",
		`{node-kayles: {graph: {cycle: 2}}}`:       "at least 3 vertices",
	} {
		_, err := runJob(t, dir, "sections:\n  - title: x\n    game: "+text+"\n    show: [value]\n")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "job.yaml") {
			t.Errorf("%s: error %v, want one naming job.yaml and saying %q", text, err, want)
		}
	}
}

// The handouts of examples/boards run, in English and French, and give
// A316632's terms.
func TestHandouts(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the handouts solve 3 × 18 and Cram up to 4 × 7")
	}
	for _, f := range []string{"boards.en.yaml", "boards.fr.yaml"} {
		j, err := job.ParseFile(filepath.Join("..", "..", "examples", "boards", f))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := job.Run(context.Background(), j, job.Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var vs []string
		for _, s := range rep.Sections[:16] {
			b, _ := json.Marshal(s.Results)
			vs = append(vs, string(b))
		}
		if got := strings.Join(vs, ""); got != `{"value":2}{"value":1}{"value":1}{"value":0}{"value":3}{"value":3}{"value":2}{"value":2}{"value":2}{"value":3}{"value":3}{"value":5}{"value":2}{"value":4}{"value":1}{"value":3}` {
			t.Errorf("%s: 3 × 1…16 %s", f, got)
		}
	}
}

// A grid whose memo is estimated past the memory limit is refused before
// any work, the limit named.
func TestFamilyRefusedOverLimit(t *testing.T) {
	_, err := runJob(t, t.TempDir(), "limits: {memory: 64MiB}\nsections:\n  - title: x\n    game: {node-kayles: {graph: {grid: [3, 40]}}}\n    show: [value]\n")
	if err == nil || !strings.Contains(err.Error(), "memory limit") || !strings.Contains(err.Error(), "3 × 40") {
		t.Errorf("3 × 40 under 64 MiB: %v", err)
	}
}
