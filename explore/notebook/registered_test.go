package notebook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/nimbook/nimbook/explore/chomp" // the board families of the registry
	_ "github.com/nimbook/nimbook/explore/cram"
	"github.com/nimbook/nimbook/explore/family"
	_ "github.com/nimbook/nimbook/explore/nodekayles"
)

// chompMoves and cramMoves are the two games written as game() moves in
// a cell: the generic solver's answers, against which the registered
// families' built-ins are checked.
const chompMoves = `
def chomp_moves(p):
    out = []
    for i in range(len(p)):
        for j in range(p[i]):
            if i == 0 and j == 0:
                continue
            out.append(tuple([x if k < i else min(x, j) for k, x in enumerate(p)]))
    return out
`

const cramMoves = `
def cram_moves(p):
    m, n, free = p
    out = []
    for r in range(m):
        for c in range(n):
            if (r, c) not in free:
                continue
            for d in [(r, c + 1), (r + 1, c)]:
                if d in free:
                    out.append((m, n, tuple(sorted([x for x in free if x != (r, c) and x != d]))))
    return out

def cram_game(m, n):
    return game(moves=cram_moves, start=(m, n, tuple([(r, c) for r in range(m) for c in range(n)])))
`

// TestRegisteredFamilies runs the built-ins the registry's families give
// (node_kayles, cram, chomp): each value is the generic solver's on the
// same game written with game() in the cell, or the octal game the family
// equals (Node Kayles on a path is Dawson's chess, octal 0.137).
func TestRegisteredFamilies(t *testing.T) {
	tests := []struct {
		name  string
		cells []string
		want  string
	}{
		{"node_kayles on paths is 0.137", []string{`[node_kayles(graph={"path": n}).value() for n in range(1, 13)] == list(octal("0.137").values(12))[1:]`}, "True"},
		{"node_kayles 2 × n alternates", []string{`[node_kayles(graph={"grid": [2, n]}).value() for n in range(1, 7)]`}, "[1, 0, 1, 0, 1, 0]"},
		{"node_kayles outcome", []string{`[node_kayles(graph={"cycle": 4}).outcome(), node_kayles(graph={"path": 3}).outcome()]`}, `["P", "N"]`},
		{"cram against game()", []string{cramMoves + `[(cram(board=[m, n]).value(), cram_game(m, n).grundy()) for m, n in [(1, 4), (2, 3), (3, 3), (1, 7)]]`}, "[(2, 2), (1, 1), (0, 0), (1, 1)]"},
		{"chomp against game()", []string{chompMoves + `g = game(moves=chomp_moves, start=(4, 3, 1))
c = chomp(rows=[4, 3, 1])
[c.value() == g.grundy(), c.outcome() == g.outcome(), sorted(c.moves()) == sorted(g.moves())]`}, "[True, True, True]"},
		{"chomp P-positions against game()", []string{chompMoves + `g = game(moves=chomp_moves, start=(3, 3, 2))
pp = chomp(rows=[3, 3, 2]).p_positions()
(pp.count, pp.of) == (len(g.p_positions()), len(g.positions()))`}, "True"},
		{"chomp by position", []string{`[chomp([2, 1]).outcome(), chomp([2, 2]).outcome()]`}, `["P", "N"]`},
		{"misère", []string{`node_kayles(graph={"path": 1}, play="misere").outcome()`}, `"P"`},
		{"play attribute", []string{`cram(board=[2, 2], play="misere").play`}, `"misere"`},
		{"repr", []string{`repr(chomp(rows=[3, 1]))`}, `"chomp(rows=[3, 1])"`},
		{"graph", []string{`chomp(rows=[2, 1]).graph()`}, "graph(4 positions, 4 moves, 2 P-positions)"},
		{"plot is the graph", []string{`type(cram(board=[2, 2]).plot())`}, `"plot"`},
		{"methods", []string{`dir(node_kayles(graph={"path": 3}))`}, `["graph", "moves", "outcome", "p_positions", "play", "plot", "value"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			result, _, err := run(t, s, tc.cells...)
			if err != nil {
				t.Fatal(err)
			}
			if result != tc.want {
				t.Errorf("result %s, want %s", result, tc.want)
			}
		})
	}
}

// TestRegisteredErrors: the registry checks the parameters, and a cell
// reads no file outside its notebook's folder.
func TestRegisteredErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "g.dot"), []byte("graph { a -- b; b -- c }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "x.dot")
	if err := os.WriteFile(outside, []byte("graph { a -- b }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.dot")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cell, err string
	}{
		{"missing", `node_kayles()`, "node_kayles: graph: missing: the graph, e.g."},
		{"bad board", `cram(board=[0, 3])`, "cram: a side of the board = 0 is out of range"},
		{"bad rows", `chomp(rows=[1, 3])`, "chomp: rows: [1 3]: row lengths must be non-increasing"},
		{"unknown keyword", `cram(size=[2, 2])`, "unexpected keyword argument \"size\""},
		{"bad play", `cram(board=[2, 2], play="loopy")`, "unknown play"},
		{"absolute file", `node_kayles(graph={"file": "` + outside + `"})`, "outside the notebook's folder"},
		{"up a folder", `node_kayles(graph={"file": "../x.dot"})`, "outside the notebook's folder"},
		{"a link outside", `node_kayles(graph={"file": "link.dot"})`, "outside the notebook's folder"},
		{"no start but its own", `chomp(rows=[2, 1]).outcome((1, 1))`, "build another game for another start"},
		{"no grundy", `chomp(rows=[2, 1]).grundy()`, "ask chomp(rows=[2, 1]).value()"},
		{"no sums", `chomp(rows=[2, 1]) + nim(3)`, "does not take part in sums"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = run(t, s, tc.cell)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want one about %q", err, tc.err)
			}
		})
	}
	// A file of the process's folder that the notebook's has not is refused.
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	s0, _ := New(Options{Dir: dir})
	if _, _, err := run(t, s0, `node_kayles(graph={"file": "registered_test.go"})`); err == nil || !strings.Contains(err.Error(), "not a file of the notebook's folder") {
		t.Errorf("a file of %s, not of the notebook's folder: %v", cwd, err)
	}
	// A file of the folder is read: a graph, a game written in Starlark
	// (the registry's starlark family, as job files write it).
	if err := os.WriteFile(filepath.Join(dir, "g.star"), []byte("def sub(n):\n    return game(moves=lambda p: [p - k for k in [1, 2] if p >= k], start=n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := run(t, s, `[starlark(file="g.star", name="sub", params={"n": n}).value() for n in range(6)]`); err != nil || got != "[0, 1, 2, 0, 1, 2]" {
		t.Errorf("the starlark family of g.star: %s, %v; want [0, 1, 2, 0, 1, 2]", got, err)
	}
	if got, _, err := run(t, s, `node_kayles(graph={"file": "g.dot"}).value()`); err != nil || got != "2" {
		t.Errorf("node_kayles of g.dot, a path of 3: %s, %v; want 2", got, err)
	}
}

// TestRegisteredHelp: completion and inspection read the registry: every
// family that builds a game is listed, with its signature, help and
// parameters.
func TestRegisteredHelp(t *testing.T) {
	s := newSession(t)
	var names []string
	for _, f := range family.Families() {
		if f.New != nil {
			names = append(names, strings.ReplaceAll(f.Key, "-", "_"))
		}
	}
	if len(names) < 3 {
		t.Fatalf("registered game families: %v, want node-kayles, cram and chomp at least", names)
	}
	for _, name := range names {
		f, _ := registeredOf(name)
		m, _, _ := s.Complete(name[:3], 3)
		if !contains(m, name) {
			t.Errorf("completion of %q: %v, want %s", name[:3], m, name)
		}
		text, ok := s.Inspect(name, len(name))
		if !ok || !strings.HasPrefix(text, name+"(") || !strings.Contains(text, f.Help) || !strings.Contains(text, f.Signature) {
			t.Errorf("inspect %s:\n%s\nwant its call form, %q and %q", name, text, f.Help, f.Signature)
		}
		for _, q := range f.Params {
			if !strings.Contains(text, q.Keyword()+": "+q.Text["en"]) {
				t.Errorf("inspect %s: no line for parameter %s", name, q.Keyword())
			}
		}
		code := name + "(" + f.Params[0].Keyword()[:1]
		m, _, _ = s.Complete(code, len(code))
		if len(m) == 0 || m[0] != f.Params[0].Keyword()+"=" {
			t.Errorf("completion inside %s(: %v, want %s= first", name, m, f.Params[0].Keyword())
		}
	}
	out, _, ok := s.Help("node_kayles?")
	if !ok || !strings.Contains(out, `node_kayles(graph={"grid": [3, 12]}, memo=None, play="normal")`) || !strings.Contains(out, "Methods: value, outcome, moves, p_positions, graph, plot") {
		t.Errorf("node_kayles?:\n%s", out)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestRegisteredPlay plays a registered family's game against the
// computer, with the board the family draws.
func TestRegisteredPlay(t *testing.T) {
	s := newSession(t)
	ty := &typist{lines: []string{"quit"}}
	if _, err := s.Execute(context.Background(), `play(cram(board=[2, 3]), hint=True)`, ty); err != nil {
		t.Fatalf("%v\n%s", err, ty.stdout.String())
	}
	if out := ty.stdout.String(); !strings.Contains(out, "Cram") || len(ty.prompts) == 0 {
		t.Errorf("play(cram(board=[2, 3])):\n%s", out)
	}
	if _, _, err := run(t, s, `play(cram(board=[2, 3]), position=(1,))`); err == nil || !strings.Contains(err.Error(), "starts from the start its parameters give") {
		t.Errorf("play with position=: %v", err)
	}
}

// TestRegisteredA316632: Node Kayles on 3 × n grids, OEIS A316632, 2, 1,
// 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3 for n = 1..16 (Brown et al.,
// J. Integer Seq. 23 (2020), Article 20.3.5), from the cell's built-in;
// to n = 10 in -short.
func TestRegisteredA316632(t *testing.T) {
	want := []string{"2", "1", "1", "0", "3", "3", "2", "2", "2", "3", "3", "5", "2", "4", "1", "3"}
	if testing.Short() {
		want = want[:10]
	}
	s := newSession(t)
	got, _, err := run(t, s, fmt.Sprintf(`[node_kayles(graph={"grid": [3, n]}).value() for n in range(1, %d)]`, len(want)+1))
	if err != nil {
		t.Fatal(err)
	}
	if w := "[" + strings.Join(want, ", ") + "]"; got != w {
		t.Errorf("3 × n for n = 1..%d: %s, want A316632's %s", len(want), got, w)
	}
}

// TestPlayListsFamilies: the refusal to play what is not a game names the
// registry's families among the games one may play.
func TestPlayListsFamilies(t *testing.T) {
	s := newSession(t)
	_, _, err := run(t, s, `play(3)`)
	if err == nil || !strings.Contains(err.Error(), "node_kayles") || !strings.Contains(err.Error(), "chomp") {
		t.Errorf("play(3): %v, want the registered families listed", err)
	}
}
