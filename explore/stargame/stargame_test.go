package stargame

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
)

func writeFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "games.star")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const takeAway = `
def take(n, k=3):
    # a heap of n, take 1..k: the values are n mod (k + 1)
    return game(moves=lambda p: [p - t for t in range(1, min(k, p) + 1)], start=n, name="take")

def pairs(a, b):
    return game(moves=lambda p: [(p[0] - 1, p[1])] if p[0] > 0 else [], start=[a, b])

def loops():
    while True:
        pass

def loops_later(n):
    def moves(p):
        while True:
            pass
    return game(moves=moves, start=n)

def not_a_game():
    return 3

def no_start():
    return game(moves=lambda p: [])

def float_start():
    return game(moves=lambda p: [], start=1.5)

def bad_move(n):
    return game(moves=lambda p: [None], start=n)
`

// TestLoad: a file's function makes a game whose solver values are the
// definition's (take 1..k: n mod (k + 1)); lists read as tuples.
func TestLoad(t *testing.T) {
	path := writeFile(t, takeAway)
	g, err := Load(path, "take", map[string]any{"n": 10, "k": 2}, family.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	sol, err := game.NewSolver[string](g, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := sol.Grundy(g.Start()); err != nil || v != 10%3 {
		t.Errorf("take(10, k=2) value %d, %v; want %d", v, err, 10%3)
	}
	if got := g.String(); got != "take(k=2, n=10) from games.star" {
		t.Errorf("String %q", got)
	}
	p, err := Load(path, "pairs", map[string]any{"a": 2, "b": 5}, family.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Start() != "(2, 5)" {
		t.Errorf("start key %q, want (2, 5) (a list read as a tuple)", p.Start())
	}
	ms, err := p.Moves(p.Start())
	if err != nil || len(ms) != 1 || ms[0] != "(1, 5)" {
		t.Errorf("moves %v, %v", ms, err)
	}
	if got, ok := p.JSON(ms[0]).([]any); !ok || len(got) != 2 || got[0] != int64(1) {
		t.Errorf("JSON %#v", p.JSON(ms[0]))
	}
}

// TestErrors: every broken file or function is an error naming the file,
// the line where there is one, and what to change.
func TestErrors(t *testing.T) {
	path := writeFile(t, takeAway)
	for _, tc := range []struct {
		name, fn string
		params   map[string]any
		env      family.Env
		want     []string
	}{
		{"no function", "tak", nil, family.Env{}, []string{"defines no tak", "take"}},
		{"missing param", "take", nil, family.Env{}, []string{"games.star:2", "needs n"}},
		{"unknown param", "take", map[string]any{"n": 1, "m": 2}, family.Env{}, []string{"takes no parameter m"}},
		{"loops", "loops", nil, family.Env{MaxSteps: 10_000}, []string{"games.star:", "steps", "--max-steps"}},
		{"not a game", "not_a_game", nil, family.Env{}, []string{"games.star:", "returned int 3, not a game"}},
		{"no start", "no_start", nil, family.Env{}, []string{"no start"}},
		{"float start", "float_start", nil, family.Env{}, []string{"float 1.5 cannot be a position", "JSON"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(path, tc.fn, tc.params, tc.env)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
	// A move function that loops is stopped by the step budget, and says
	// where and how to raise it.
	g, err := Load(path, "loops_later", map[string]any{"n": 3}, family.Env{MaxSteps: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	_, err = g.Moves(g.Start())
	if err == nil || !errors.Is(err, ErrSteps) || !strings.Contains(err.Error(), "games.star:") {
		t.Errorf("looping moves: %v", err)
	}
	b, err := Load(path, "bad_move", map[string]any{"n": 3}, family.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Moves(b.Start()); err == nil || !strings.Contains(err.Error(), "NoneType None cannot be a position") {
		t.Errorf("a move to None: %v", err)
	}
}

// TestParseKey: a key reads back as the position it names.
func TestParseKey(t *testing.T) {
	for _, v := range []starlark.Value{
		starlark.MakeInt(-7),
		starlark.String(`a "b"\n`),
		starlark.Tuple{},
		starlark.Tuple{starlark.MakeInt(1)},
		starlark.Tuple{starlark.Tuple{starlark.MakeInt(0), starlark.MakeInt(2)}, starlark.String("x,y"), starlark.Tuple{}},
		starlark.MakeBigInt(new(big.Int).Lsh(big.NewInt(1), 80)),
	} {
		got, err := parseKey(v.String())
		if err != nil || got.String() != v.String() {
			t.Errorf("parseKey(%s) = %v, %v", v, got, err)
		}
	}
}
