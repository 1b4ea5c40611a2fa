package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// writeGamesFile writes text to dir/name and returns its path.
func writeGamesFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlayStarCall: play FILE.star#f(args) plays the game a function of
// the file returns (examples/games.star writes games for job files):
// Chomp (4, 3, 2) is an N-position (A. E. Brouwer, "The game of Chomp").
func TestPlayStarCall(t *testing.T) {
	file, err := filepath.Abs("../../examples/games.star")
	if err != nil {
		t.Fatal(err)
	}
	pos, f, set, err := parsePlayFlags([]string{file + "#chomp3(4, 3, 2)"})
	if err != nil {
		t.Fatal(err)
	}
	g, start, _, err := starGame(context.Background(), pos, f, set, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o, err := g.Outcome(start); err != nil || o != game.N {
		t.Errorf("outcome %v, %v; want N", o, err)
	}
}

// TestRunStarlarkGameJSON: nimbook run of a job file with a Starlark game
// whose params range writes a section per value, titled "… (cols = n)",
// each with its game as the job file would write it and its value; an
// unknown family names the registered ones and games of one's own.
func TestRunStarlarkGameJSON(t *testing.T) {
	dir := t.TempDir()
	file, err := filepath.Abs("../../examples/games.star")
	if err != nil {
		t.Fatal(err)
	}
	job := writeGamesFile(t, dir, "job.yaml", "sections:\n  - title: ladder\n    game: {starlark: {file: "+file+", name: node_kayles, params: {rows: 2, cols: \"1..3\"}}}\n    show: [value]\n")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"run", job, "--format", "json", "--quiet"}, nil, &out, &errb); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	var doc struct {
		Sections []struct {
			Title   string         `json:"title"`
			Game    map[string]any `json:"game"`
			Results map[string]any `json:"results"`
		} `json:"sections"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Sections) != 3 {
		t.Fatalf("%d sections", len(doc.Sections))
	}
	for i, s := range doc.Sections {
		// The ladder 2 × n alternates 1, 0 (OEIS A316632's entry).
		if want := float64((i + 1) % 2); s.Results["value"] != want {
			t.Errorf("%s: value %v, want %v", s.Title, s.Results["value"], want)
		}
		params := s.Game["starlark"].(map[string]any)["params"].(map[string]any)
		if params["cols"] != float64(i+1) {
			t.Errorf("%s: game %v", s.Title, s.Game)
		}
	}
	if doc.Sections[1].Title != "ladder (cols = 2)" {
		t.Errorf("title %q", doc.Sections[1].Title)
	}
	// node-kayles is a family of its own now: a key no family has.
	bad := writeGamesFile(t, dir, "bad.yaml", "sections:\n  - game: {grid-kayles: {rows: 3}}\n    show: [value]\n")
	errb.Reset()
	err = run(context.Background(), []string{"run", bad, "--format", "json"}, nil, io.Discard, &errb)
	if err == nil || !strings.Contains(errb.String()+err.Error(), "starlark") {
		t.Errorf("unknown family: %v %s", err, errb.String())
	}
}
