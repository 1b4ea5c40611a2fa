package notebook

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/play"
)

// subtractionCell defines subtraction {1, 3, 4} from 20 and a game on
// pairs: take 1 or 2 from one heap of a pair, or 1 from both.
const subtractionCell = `
def sub(n):
    return [n - s for s in (1, 3, 4) if s <= n]
g = game(moves=sub, start=20)

def pairs(p):
    a, b = p
    out = [(a - k, b) for k in (1, 2) if k <= a] + [(a, b - k) for k in (1, 2) if k <= b]
    if a and b:
        out.append((a - 1, b - 1))
    return out
t = game(moves=pairs, start=(3, 4))
`

// userGame returns the global name of the session after cells, as a
// play.Game, and its start.
func userGame(t *testing.T, name, position string, cells ...string) (play.Game, []int) {
	t.Helper()
	s := newSession(t)
	for _, c := range cells {
		if _, _, err := run(t, s, c); err != nil {
			t.Fatal(err)
		}
	}
	g, start, err := s.PlayGame(context.Background(), name, position)
	if err != nil {
		t.Fatal(err)
	}
	return g, start
}

// TestUserPlaySolver checks the adapter against the generic solver on every
// position reachable from the start: moves, outcomes, winning moves and
// values, under normal and misère play.
func TestUserPlaySolver(t *testing.T) {
	sub := func(n int) ([]int, error) {
		var out []int
		for _, s := range []int{1, 3, 4} {
			if s <= n {
				out = append(out, n-s)
			}
		}
		return out, nil
	}
	for _, pl := range []game.Play{game.Normal, game.Misere} {
		t.Run(pl.String(), func(t *testing.T) {
			cell := strings.Replace(subtractionCell, "start=20)", `start=20, play="`+pl.String()+`")`, 1)
			g, start := userGame(t, "g", "", cell)
			if g.Play() != pl {
				t.Fatalf("play %v, want %v", g.Play(), pl)
			}
			ref, err := game.NewSolver[int](game.MoveFunc[int](sub), game.Options{Play: pl})
			if err != nil {
				t.Fatal(err)
			}
			num := func(p []int) int {
				r, err := g.Values(p)
				if err != nil {
					t.Fatal(err)
				}
				var n int
				for _, c := range r[0].Label {
					n = 10*n + int(c-'0')
				}
				return n
			}
			seen := map[int]bool{}
			for todo := [][]int{start}; len(todo) > 0; todo = todo[1:] {
				p := todo[0]
				n := num(p)
				if seen[n] {
					continue
				}
				seen[n] = true
				ms, _ := g.Moves(p)
				want, _ := sub(n)
				var got []int
				for _, m := range ms {
					got = append(got, num(m))
					todo = append(todo, m)
				}
				if !slices.Equal(got, want) {
					t.Errorf("moves of %d: %v, want %v", n, got, want)
				}
				o, _ := g.Outcome(p)
				wo, _ := ref.Outcome(n)
				if o != wo {
					t.Errorf("outcome of %d: %v, want %v", n, o, wo)
				}
				vs, _ := g.Values(p)
				wv, _ := ref.Grundy(n)
				if vs[0].Value != wv {
					t.Errorf("value of %d: %d, want %d", n, vs[0].Value, wv)
				}
				win, _ := g.WinningMoves(p)
				wantWin, _ := ref.WinningMoves(n)
				var gotWin []int
				for _, w := range win {
					gotWin = append(gotWin, num(w))
				}
				if !slices.Equal(gotWin, wantWin) {
					t.Errorf("winning moves of %d: %v, want %v", n, gotWin, wantWin)
				}
				// The longest play takes 1 token at a time.
				if s := g.Size(p); s != float64(n) {
					t.Errorf("size of %d: %v, want %d", n, s, n)
				}
			}
			if len(seen) != 21 {
				t.Errorf("%d positions reachable from 20, want 21", len(seen))
			}
		})
	}
}

func TestUserPlayParseMove(t *testing.T) {
	g, start := userGame(t, "t", "", subtractionCell)
	// From (3, 4): (2, 4), (1, 4), (3, 3), (3, 2), (2, 3).
	tests := []struct {
		name, in, want, illegal string
	}{
		{"number", "2", "(1, 4)", ""},
		{"hash number", "#5", "(2, 3)", ""},
		{"repr", "(3,3)", "(3, 3)", ""},
		{"repr with blanks", " ( 3 ,  2 ) ", "(3, 2)", ""},
		{"equals repr", "=(2, 4)", "(2, 4)", ""},
		{"out of list", "6", "", `"6" is not a move from (3, 4): type a number from 1 to 5, or a position: (2, 4), (1, 4), (3, 3), (3, 2), (2, 3)`},
		{"not one move", "(1, 1)", "", "(1, 1) cannot be reached in one move from (3, 4)"},
		{"itself", "(3, 4)", "", "(3, 4) is the position itself"},
		{"bad hash", "#x", "", "after # comes the number of a move, 1 to 5"},
		{"nonsense", "fish", "", `"fish" is not a move`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := g.ParseMove(start, tt.in)
			if tt.illegal != "" {
				if !play.IsIllegal(err) || !strings.Contains(err.Error(), tt.illegal) {
					t.Fatalf("ParseMove(%q) = %v, %v; want an illegal move saying %q", tt.in, q, err, tt.illegal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Describe(start, q); got != "move to "+tt.want {
				t.Errorf("ParseMove(%q) %s, want move to %s", tt.in, got, tt.want)
			}
			// FormatMove writes what ParseMove reads back.
			back, err := g.ParseMove(start, g.FormatMove(start, q))
			if err != nil || !slices.Equal(back, q) {
				t.Errorf("FormatMove %q reads back as %v, %v", g.FormatMove(start, q), back, err)
			}
		})
	}
}

// TestUserPlayNumbers: when the moves lead to numbers, a number typed is
// the position (from 3 in subtraction {1, 3, 4}, "2" is the position 2).
func TestUserPlayNumbers(t *testing.T) {
	g, start := userGame(t, "g", "3", subtractionCell)
	if r := g.Render(start); r != "position 3\nmoves to: 2   0\n" {
		t.Errorf("Render = %q", r)
	}
	for _, tt := range []struct{ in, want string }{{"2", "move to 2"}, {"0", "move to 0"}, {"=2", "move to 2"}, {"#2", "move to 0"}} {
		q, err := g.ParseMove(start, tt.in)
		if err != nil || g.Describe(start, q) != tt.want {
			t.Errorf("%q: %v %v, want %s", tt.in, q, err, tt.want)
		}
		if f := g.FormatMove(start, q); f != strings.TrimPrefix(tt.want, "move to ") {
			t.Errorf("FormatMove = %q", f)
		}
	}
	_, err := g.ParseMove(start, "1")
	if !play.IsIllegal(err) || err.Error() != `1 cannot be reached in one move from 3` {
		t.Errorf("err = %v", err)
	}
	_, err = g.ParseMove(start, "7")
	if !play.IsIllegal(err) || err.Error() != `"7" is not a move from 3: type the position you move to: 2, 0` {
		t.Errorf("err = %v", err)
	}
	if f := g.JobGame(start); f != "" {
		t.Errorf("JobGame = %q, want empty", f)
	}
}

// TestUserPlayAmbiguous: with moves to 2 and "x", "2" could be move 2 of
// the list (to "x") or the position 2.
func TestUserPlayAmbiguous(t *testing.T) {
	g, start := userGame(t, "g", "", `g = game(moves=lambda p: [2, "x"] if p == 0 else [], start=0)`)
	if r := g.Render(start); r != "position 0\nmoves: 1) 2   2) \"x\"\n" {
		t.Errorf("Render = %q", r)
	}
	_, err := g.ParseMove(start, "2")
	if !play.IsIllegal(err) || !strings.Contains(err.Error(), "type #2 for the list's move, =2 for the position") {
		t.Fatalf("err = %v", err)
	}
	for _, tt := range []struct{ in, want string }{{"#2", `move to "x"`}, {"=2", "move to 2"}, {"1", "move to 2"}, {"x", `move to "x"`}} {
		q, err := g.ParseMove(start, tt.in)
		if err != nil || g.Describe(start, q) != tt.want {
			t.Errorf("%q: %v %v, want %s", tt.in, q, err, tt.want)
		}
	}
	two, _ := g.ParseMove(start, "=2")
	if f := g.FormatMove(start, two); f != "=2" {
		t.Errorf("FormatMove to 2 = %q, want =2", f)
	}
}

func TestUserPlayRender(t *testing.T) {
	g, start := userGame(t, "w", "", `w = game(moves=lambda s: [s[:i] + s[i+1:] for i in range(len(s))] if len(s) == 26 else [], start="abcdefghijklmnopqrstuvwxyz")`)
	r := g.Render(start)
	for _, line := range strings.Split(strings.TrimSuffix(r, "\n"), "\n") {
		if len([]rune(line)) > renderWidth+2 {
			t.Errorf("line of %d columns: %q", len([]rune(line)), line)
		}
	}
	if !strings.Contains(r, `26) "abcdefghijklmnopqrstuvwxy"`) {
		t.Errorf("Render:\n%s", r)
	}
	// A string is typed with or without its quotes.
	for _, in := range []string{`"bcdefghijklmnopqrstuvwxyz"`, `bcdefghijklmnopqrstuvwxyz`, `'bcdefghijklmnopqrstuvwxyz'`} {
		q, err := g.ParseMove(start, in)
		if err != nil || g.Describe(start, q) != `move to "bcdefghijklmnopqrstuvwxyz"` {
			t.Errorf("%s: %v %v", in, q, err)
		}
	}
}

func TestHeights(t *testing.T) {
	// 0 → 1, 2; 1 → 3; 2 → 1; 3 terminal.
	h := heights([][]int{{1, 2}, {3}, {1}, nil})
	if want := []int{3, 1, 2, 0}; !slices.Equal(h, want) {
		t.Errorf("heights = %v, want %v", h, want)
	}
}

func TestPlayUserGameCell(t *testing.T) {
	tests := []struct {
		name  string
		cell  string
		lines []string
		want  []string
	}{
		{
			// From 4 in subtraction {1, 2}: the winning move is to 3, and
			// the human takes the last tokens.
			name:  "human wins",
			cell:  "play(game(moves=lambda n: [n - s for s in (1, 2) if s <= n], start=4))",
			lines: []string{"3", "0"},
			want:  []string{"moves to: 3   2", "You play 3: move to 3", "you win"},
		},
		{
			// From 3 (a P-position) the computer wins whatever the human
			// plays; the human plays the first move of the list each time.
			name:  "computer wins",
			cell:  "play(game(moves=lambda n: [n - s for s in (1, 2) if s <= n], start=4), position=3, seed=2)",
			lines: []string{"#1", "#1", "#1", "#1"},
			want:  []string{"the computer wins"},
		},
		{
			name:  "illegal move, hint, tuples",
			cell:  subtractionCell + "\nplay(t, hint=True)",
			lines: []string{"(0, 0)", "quit"},
			want:  []string{"Not a move: (0, 0) cannot be reached in one move from (3, 4).", "Hint: values (3, 4) = "},
		},
		{
			name:  "sum with a built-in game, computer first",
			cell:  subtractionCell + "\nplay(g + nim(2), position=(5, (2,)), first=\"computer\", seed=1)",
			lines: []string{"quit"},
			want:  []string{"position (5, (2,))", "Computer plays"},
		},
		{
			name:  "misere",
			cell:  `play(game(moves=lambda n: [n - 1] if n else [], start=2, play="misere"), first="computer")`,
			lines: []string{"0"},
			want:  []string{"Misère play", "Computer plays 1", "the computer wins"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			ty := &typist{lines: tt.lines}
			if _, err := s.Execute(context.Background(), tt.cell, ty); err != nil {
				t.Fatalf("%v\n%s", err, ty.stdout.String())
			}
			out := ty.stdout.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestPlayUserGameErrors: what makes a user game unplayable is reported
// before the first move, without reading any input.
func TestPlayUserGameErrors(t *testing.T) {
	tests := []struct{ name, cell, want string }{
		{"cycle", "play(game(moves=lambda n: [(n + 1) % 3], start=0))", "play: the moves form a cycle, so play may never end: 0 → 1 → 2 → 0"},
		{"no start", "play(game(moves=lambda n: []))", "no start: write play(game, position=...)"},
		{"list position", "play(game(moves=lambda n: []), position=[1])", "is a list, which may change"},
		{"too many", "play(game(moves=lambda n: [n + 1], start=0, max_positions=50))", "more than 50 positions"},
		{"move error", "def f(n):\n    return [n // 0]\nplay(game(moves=f, start=1))", "line 2"},
		{"list move", "play(game(moves=lambda n: [[n - 1]] if n else [], start=1))", "a move from 1: the position [0] is a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			ty := &typist{}
			_, err := s.Execute(context.Background(), tt.cell, ty)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if len(ty.prompts) > 0 || strings.Contains(ty.stdout.String(), "Normal play") {
				t.Errorf("the game started:\n%s", ty.stdout.String())
			}
		})
	}
}

func TestExecFile(t *testing.T) {
	s := newSession(t)
	rec := &recorder{}
	if err := s.ExecFile(context.Background(), "games.star", []byte(subtractionCell+"\nprint('loaded')\nn = 3\n"), rec); err != nil {
		t.Fatal(err)
	}
	if got := s.UserGames(); !slices.Equal(got, []string{"g", "t"}) {
		t.Errorf("UserGames = %v", got)
	}
	if rec.stdout.String() != "loaded\n" {
		t.Errorf("stdout %q", rec.stdout.String())
	}
	g, start, err := s.PlayGame(context.Background(), "g", "2 * 5")
	if err != nil || g.String() != "g" || g.Render(start) != "position 10\nmoves to: 9   7   6\n" {
		t.Errorf("PlayGame: %v %v", g, err)
	}
	for _, tt := range []struct{ name, src, game, pos, want string }{
		{"syntax", "x = (\n", "", "", "games.star:2: "},
		{"undefined", "x = 1\ny = z\n", "", "", "games.star:2: name z is not defined"},
		{"runtime", "x = 1\ny = x // 0\n", "", "", "games.star:2: floored division by zero"},
		{"in a move", "def f(n):\n    return [n // 0]\ng = game(moves=f, start=1)\n", "g", "", "games.star:2: floored division by zero"},
		{"cycle", "g = game(moves=lambda n: [1 - n], start=0)\n", "g", "", "the moves form a cycle"},
		{"not a game", "g = 3\n", "g", "", "g is a int, not a game"},
		{"bad position", "g = game(moves=lambda n: [], start=0)\n", "g", "(", "position (: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			err := s.ExecFile(context.Background(), "games.star", []byte(tt.src), nil)
			if err == nil && tt.game != "" {
				_, _, err = s.PlayGame(context.Background(), tt.game, tt.pos)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestTurningTurtlesExample checks the example file: the value of a row is
// the nim-sum of the places of its turtles on their feet (Winning Ways).
func TestTurningTurtlesExample(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "turning-turtles.star")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t)
	if err := s.ExecFile(context.Background(), file, src, nil); err != nil {
		t.Fatal(err)
	}
	g, start, err := s.PlayGame(context.Background(), "turtles", `"HHTHHTH"`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	seen := map[string]bool{}
	for todo := [][]int{start}; len(todo) > 0; todo = todo[1:] {
		vs, _ := g.Values(todo[0])
		row := strings.Trim(vs[0].Label, `"`)
		if seen[row] {
			continue
		}
		seen[row] = true
		var want uint64
		for i, c := range row {
			if c == 'H' {
				want ^= uint64(i + 1)
			}
		}
		if vs[0].Value != want {
			t.Errorf("value of %s: %d, want %d", row, vs[0].Value, want)
		}
		ms, _ := g.Moves(todo[0])
		todo = append(todo, ms...)
		n++
	}
	if n < 50 {
		t.Errorf("only %d rows reachable from HHTHHTH", n)
	}
}

// FuzzUserParseMove: whatever is typed, ParseMove returns an option of the
// position or an *IllegalMove.
func FuzzUserParseMove(f *testing.F) {
	for _, s := range []string{"1", "#2", "=(2, 4)", "(3,3)", "", "#", "=", "99999999999999999999", "'a'", "(1, 4"} {
		f.Add(s)
	}
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	if err := s.ExecFile(context.Background(), "t.star", []byte(subtractionCell), nil); err != nil {
		f.Fatal(err)
	}
	g, start, err := s.PlayGame(context.Background(), "t", "")
	if err != nil {
		f.Fatal(err)
	}
	ms, _ := g.Moves(start)
	f.Fuzz(func(t *testing.T, in string) {
		q, err := g.ParseMove(start, in)
		if err != nil {
			if !play.IsIllegal(err) {
				t.Fatalf("%q: %v is not an *IllegalMove", in, err)
			}
			return
		}
		if !slices.ContainsFunc(ms, func(m []int) bool { return slices.Equal(m, q) }) {
			t.Fatalf("%q: %v is not a move", in, q)
		}
	})
}

// TestUserPlaySumParts: the values of a sum's position are its terms'
// values, nested sums flattened, and their nim-sum is the sum's value on
// every position reachable (Sprague–Grundy), which the solver of the whole
// sum computes independently.
func TestUserPlaySumParts(t *testing.T) {
	cell := subtractionCell + "\nu = g + nim(3, 2) + t\n"
	g, start := userGame(t, "u", "((6, (3, 2)), (2, 2))", cell)
	// The solver of the whole sum, through the session, for comparison.
	s := newSession(t)
	if _, _, err := run(t, s, cell); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for todo := [][]int{start}; len(todo) > 0; todo = todo[1:] {
		p := todo[0]
		sp := g.(play.StarlarkPositioner).StarlarkPosition(p)
		if seen[sp] {
			continue
		}
		seen[sp] = true
		parts, err := g.Values(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != 3 || !strings.HasPrefix(parts[0].Label, "game(moves=sub) at ") || !strings.HasPrefix(parts[1].Label, "nim(3, 2) at (") {
			t.Fatalf("parts of %s: %+v", sp, parts)
		}
		var x uint64
		for _, pt := range parts {
			x ^= pt.Value
		}
		want, _, err := run(t, s, "u.grundy("+sp+")")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(want); got != strconv.FormatUint(x, 10) {
			t.Fatalf("%s: the terms nim-add to %d, the sum's solver says %s", sp, x, got)
		}
		ms, _ := g.Moves(p)
		todo = append(todo, ms...)
	}
	if len(seen) < 50 {
		t.Errorf("only %d positions reached", len(seen))
	}
}
