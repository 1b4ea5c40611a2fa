package play

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/job"
	_ "github.com/nimbook/nimbook/explore/stargame" // the starlark family
)

// TestFamilySection: a job section of a registered family (a Starlark
// game) is played: Chomp (4, 3, 2) of examples/games.star is an N-position
// whose winning moves reach (4, 2, 2) and (4, 3, 0), P-positions; a move
// is typed as its number or as the position it reaches.
func TestFamilySection(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join("..", "..", "examples", "games.star"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "job.yaml")
	if err := os.WriteFile(p, []byte("sections:\n  - game: {starlark: {file: "+abs+", name: chomp3, params: {a: 4, b: 3, c: 2}}}\n    show: [value]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := job.ParseFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FindSection(j, "")
	if err != nil {
		t.Fatal(err)
	}
	g, start, err := FromSection(s)
	if err != nil {
		t.Fatal(err)
	}
	if o, err := g.Outcome(start); err != nil || o != game.N {
		t.Fatalf("outcome %v, %v", o, err)
	}
	win, err := g.WinningMoves(start)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range win {
		got = append(got, g.FormatMove(start, w))
	}
	if strings.Join(got, " ") != "(4, 2, 2) (4, 3, 0)" && strings.Join(got, " ") != "(4, 3, 0) (4, 2, 2)" {
		t.Errorf("winning moves %v", got)
	}
	to, err := g.ParseMove(start, "(4,3,0)")
	if err != nil || g.FormatMove(start, to) != "(4, 3, 0)" {
		t.Errorf("ParseMove: %v, %v", to, err)
	}
	if _, err := g.ParseMove(start, "(9, 9, 9)"); !IsIllegal(err) {
		t.Errorf("a move to (9, 9, 9): %v", err)
	}
	if !strings.HasPrefix(g.JobGame(start), `{"starlark":{"file":`) {
		t.Errorf("JobGame %s", g.JobGame(start))
	}
}
