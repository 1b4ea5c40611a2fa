package chomp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/nimbook/nimbook/explore/chomp"
	"github.com/nimbook/nimbook/explore/job"
)

// Chomp from a job file: (7,4,3) is one of Brouwer's P-positions with
// third row 3; below (3,1,1) (an L with equal arms and a cell: P) the
// P-positions are it, (2,1,0) and the poisoned cell alone.
func TestFamilyInJobFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "job.yaml")
	text := `
sections:
  - title: Chomp
    game: {chomp: {rows: [7, 4, 3]}}
    show: [value, outcome, moves]
  - title: L
    game: {chomp: {rows: [3, 1, 1]}}
    show: [value, p-positions]
`
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := job.ParseFile(p)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range rep.Sections {
		b, _ := json.Marshal(s.Results)
		out = append(out, string(b))
	}
	got := strings.Join(out, "\n")
	want := `{"value":0,"outcome":"P","moves":[]}` + "\n" +
		`{"value":0,"p_positions":{"count":3,"of":9,"list":[[3,1,1],[1,0,0],[2,1,0]]}}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if err := os.WriteFile(p, []byte("sections:\n  - title: x\n    game: {chomp: {rows: [2, 3]}}\n    show: [value]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := job.ParseFile(p); err == nil || !strings.Contains(err.Error(), "non-increasing") {
		t.Errorf("rows [2, 3]: %v", err)
	}
}
