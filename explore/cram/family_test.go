package cram_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/nimbook/nimbook/explore/cram"
	"github.com/nimbook/nimbook/explore/job"
)

func runJob(t *testing.T, text string) (string, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "job.yaml")
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

// Cram from a job file ("." a free cell, "#" a covered one): 4 × 5 = 2
// (Beling's table); on 2 × 3 every vertical domino wins (a 2 × 2 square
// is 0 by symmetry, two dominoes' places are 1 + 1); the P-positions by
// the generic solver; a bad board.
func TestFamilyInJobFiles(t *testing.T) {
	got, err := runJob(t, `
sections:
  - title: Cram
    game: {cram: {board: [4, 5]}}
    show: [value, outcome]
  - title: small
    game: {cram: {board: [2, 3]}}
    show: [value, moves, p-positions]
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"value":2,"outcome":"N"}` + "\n" +
		`{"value":1,"p_positions":{"count":6,"of":18,"list":[["#..","#.."],[".#.",".#."],["..#","..#"],["##.",".##"],[".##","##."],["###","###"]]},"moves":[["#..","#.."],[".#.",".#."],["..#","..#"]]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	_, err = runJob(t, "sections:\n  - title: x\n    game: {cram: {board: [4]}}\n    show: [value]\n")
	if err == nil || !strings.Contains(err.Error(), "board") {
		t.Errorf("board [4]: %v", err)
	}
}
