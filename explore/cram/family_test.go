package cram_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/cram"
	"github.com/nimbook/nimbook/explore/job"
)

func runJob(t *testing.T, text string) (string, error) {
	t.Helper()
	return runJobCtx(t, context.Background(), text)
}

func runJobCtx(t *testing.T, ctx context.Context, text string) (string, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "job.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := job.ParseFile(p)
	if err != nil {
		return "", err
	}
	rep, err := job.Run(ctx, j, job.Options{})
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

// method: search finds the value of a board by the pruning search, through
// a job file: Beling's 5 × 6 = 2 (table in cram_test.go). The
// work is pinned by counts: the search's nodes, as its progress line
// reports them, against the components the exact solver (one worker, as
// the family's memo would be without a second) solves for the same board.
func TestFamilySearchMethod(t *testing.T) {
	for _, c := range []struct {
		m, n          int
		value         uint64
		nodes, solved int64
	}{{5, 6, 2, 46242, 356383}} {
		t.Run(fmt.Sprintf("%dx%d", c.m, c.n), func(t *testing.T) {
			p := budget.NewProgress()
			ctx := budget.WithProgress(context.Background(), p)
			got, err := runJobCtx(t, ctx, fmt.Sprintf(`
sections:
  - title: Cram
    game: {cram: {board: [%d, %d], method: search}}
    show: [value]
`, c.m, c.n))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf(`{"value":%d}`, c.value); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
			snap := p.Snapshot()
			if !strings.Contains(snap.Label, "search nodes") {
				t.Errorf("progress %q, want the search's nodes", snap.Label)
			}
			s, _ := cram.NewSolver(cram.Options{})
			b, _ := cram.NewBoard(c.m, c.n)
			if v, err := s.Value(context.Background(), b); err != nil || v != c.value {
				t.Fatalf("exact: %d, %v", v, err)
			}
			solved := s.Stats().Solved
			t.Logf("search %d nodes; exact %d components", snap.Done, solved)
			if snap.Done != c.nodes || solved != c.solved {
				t.Errorf("search %d nodes, exact %d components; want %d and %d", snap.Done, solved, c.nodes, c.solved)
			}
		})
	}
	for _, bad := range []struct{ game, want string }{
		{"{cram: {board: [4, 5], method: guess}}", "want exact or search"},
		{"{cram: {board: [4, 5], method: search, memo: x.memo}}", "keeps no memo file"},
	} {
		_, err := runJob(t, "sections:\n  - title: x\n    game: "+bad.game+"\n    show: [value]\n")
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.game, err, bad.want)
		}
	}
}
