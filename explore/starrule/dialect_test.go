package starrule

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nimbook/nimbook/explore/heap"
)

// TestGameInRuleFile: a rule file may define games too (game() is
// predeclared, as in game files and notebook cells: one dialect); it
// used to fail with "name game is not defined".
func TestGameInRuleFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "both.star")
	if err := os.WriteFile(p, []byte(`
def take2(n):
    return [[n - t] for t in range(1, min(2, n) + 1)]

def take2_game(n):
    return game(moves=lambda p: [p - t for t in range(1, min(2, p) + 1)], start=n)

played = take2_game(5)
`), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Load(p, "take2", nil)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := g.Values(6, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// take 1 or 2: g(n) = n mod 3.
	for n, v := range vs {
		if v != uint64(n%3) {
			t.Errorf("g(%d) = %d, want %d", n, v, n%3)
		}
	}
}
