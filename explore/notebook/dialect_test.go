package notebook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nimbook/nimbook/explore/family"
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
