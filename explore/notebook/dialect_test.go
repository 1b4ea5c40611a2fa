package notebook

import (
	"os"
	"path/filepath"
	"testing"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/stargame"
)

// TestOneDialect: examples/games.star, written for job files, runs as a
// notebook cell; its games take components=, canonical= and show=, and
// give the values the job files give: Node Kayles on 3 × 4 is 0 and on
// 3 × 5 is 3 (OEIS A316632, Brown et al., J. Integer Seq. 23 (2020)
// 20.3.5), Chomp (6, 3, 3) is a P-position (A. E. Brouwer, "The game of
// Chomp").
func TestOneDialect(t *testing.T) {
	path := filepath.Join("..", "..", "examples", "games.star")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t)
	got, _, err := run(t, s, string(src), "[node_kayles(3, n).grundy() for n in (4, 5)] + [chomp3(6, 3, 3).outcome()]")
	if err != nil {
		t.Fatal(err)
	}
	if want := `[0, 3, "P"]`; got != want {
		t.Errorf("cell gave %s, want %s", got, want)
	}
	// The job files' family reads the same file, with the same values.
	g, err := stargame.Load(path, "node_kayles", map[string]any{"rows": 3, "cols": 2}, family.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.Show(g.Start()) != "oo/oo/oo" {
		t.Errorf("show of the start %q", g.Show(g.Start()))
	}
}

// TestCellSplits: a cell's game(moves=…, components=…, canonical=…) is
// solved by the generic solver with its parts and symmetries: Node Kayles
// on 3 × n (examples/games.star) has the values of its moves alone
// (OEIS A316632: 2, 1, 1, 0, 3, 3; Brown et al., J. Integer Seq. 23
// (2020) 20.3.5), with fewer positions in the memo and fewer steps.
func TestCellSplits(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "games.star"))
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t)
	got, _, err := run(t, s, string(src),
		"split = [node_kayles(3, n) for n in range(1, 7)]\nplain = [node_kayles(3, n, split=False) for n in range(1, 7)]",
		"[g.grundy() for g in split] + [g.grundy() for g in plain]")
	if err != nil {
		t.Fatal(err)
	}
	if want := "[2, 1, 1, 0, 3, 3, 2, 1, 1, 0, 3, 3]"; got != want {
		t.Errorf("values %s, want %s", got, want)
	}
	stats := func(name string) game.Stats {
		l, ok := s.globals[name].(*starlark.List)
		if !ok {
			t.Fatalf("%s is %v", name, s.globals[name])
		}
		g := l.Index(l.Len() - 1).(*Game)
		if g.solver == nil {
			t.Fatalf("%s: no solver", name)
		}
		return g.solver.Stats()
	}
	sp, pl := stats("split"), stats("plain")
	if sp.Solved >= pl.Solved || sp.Steps >= pl.Steps {
		t.Errorf("3 × 6 with parts and symmetries: %d positions, %d steps; by its moves alone: %d positions, %d steps", sp.Solved, sp.Steps, pl.Solved, pl.Steps)
	}
	t.Logf("3 × 6: %d positions, %d steps split; %d positions, %d steps whole", sp.Solved, sp.Steps, pl.Solved, pl.Steps)
}
