package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/play"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// playCases are command lines of nimbook play, one or more per family.
var playCases = []struct {
	name string
	args []string
}{
	{"nim", []string{"nim", "--heaps", "1,3,5,7"}},
	{"misere nim", []string{"nim", "--heaps", "2,3,4", "--misere"}},
	{"bounded nim", []string{"nim", "--heaps", "5,6,7", "--max-take", "3"}},
	{"subtraction", []string{"subtraction", "--set", "1,3,4", "--heaps", "10,12"}},
	{"all-but", []string{"subtraction", "--all-but", "2", "--heaps", "6,7"}},
	{"kayles", []string{"octal", "0.77", "--heaps", "10,7"}},
	{"misere dawson", []string{"octal", "--code", "0.07", "--heaps", "6,5", "--misere"}},
	{"hex", []string{"hex", "0.f", "--heaps", "8,5"}},
	{"wythoff", []string{"wythoff", "--position", "7,12"}},
	{"misere wythoff", []string{"wythoff", "--position", "5,6", "--misere"}},
	{"coins at-most", []string{"coins", "--rule", "at-most", "--r", "3", "--n", "10", "--heads", "2,5,9"}},
	{"coins ruler", []string{"coins", "--rule", "ruler", "--n", "8", "--heads", "8,3,5,6"}},
	{"coins misere", []string{"coins", "--r", "2", "--n", "7", "--first-coin", "0", "--heads", "0,2,5,6", "--misere"}},
}

// humanLines plays the game of args with the library and a random human
// who sometimes types nonsense, and returns the lines typed: the command,
// given the same seed and lines, must play the same game.
func humanLines(t *testing.T, args []string, first play.Player, seed uint64) ([]string, *play.Record) {
	t.Helper()
	pos, f, set, err := parsePlayFlags(args)
	if err != nil {
		t.Fatal(err)
	}
	g, start, err := playGame(context.Background(), pos, f, set)
	if err != nil {
		t.Fatal(err)
	}
	return randomHuman(t, g, start, first, seed, io.Discard)
}

// randomHuman plays g from start with the library and a random human who
// sometimes types nonsense; the transcript goes to out.
func randomHuman(t *testing.T, g play.Game, start []int, first play.Player, seed uint64, out io.Writer) ([]string, *play.Record) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	var cur []int
	var lines []string
	in := lineFunc(func(prompt string) (string, error) {
		if strings.HasPrefix(prompt, "undo") {
			return "", io.EOF
		}
		line := ""
		if rng.IntN(6) == 0 {
			line = []string{"9 9", "x", "undo", "hint", "(1)"}[rng.IntN(5)]
		} else {
			ms, err := g.Moves(cur)
			if err != nil || len(ms) == 0 {
				return "", fmt.Errorf("no move from %v: %v", cur, err)
			}
			line = g.FormatMove(cur, ms[rng.IntN(len(ms))])
		}
		lines = append(lines, line)
		return line, nil
	})
	rec, err := play.Run(context.Background(), g, start, in, out,
		play.Options{First: first, Seed: seed, OnTurn: func(p []int, _ play.Player) { cur = p }})
	if err != nil {
		t.Fatal(err)
	}
	return lines, rec
}

type lineFunc func(string) (string, error)

func (f lineFunc) ReadLine(p string) (string, error) { return f(p) }

// analyse runs the saved job file and returns its record analysis.
func analyse(t *testing.T, path string) *job.Record {
	t.Helper()
	j, err := job.ParseFile(path)
	if err != nil {
		data, _ := os.ReadFile(path)
		t.Fatalf("%v\n%s", err, data)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Sections[0].Results.Record
}

// analyseNotebook runs a game saved as a Markdown notebook (a game of a
// Starlark file) and returns the record analysis its last cell displays.
func analyseNotebook(t *testing.T, path string) *job.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nbformat.ParseMarkdown(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	s, err := newSession("en", job.Limits{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := &cliOutput{stdout: io.Discard, stderr: io.Discard, in: bufio.NewReader(strings.NewReader(""))}
	var last *kernel.Display
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		if last, err = s.Execute(context.Background(), c.Source, out); err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
	}
	if last == nil {
		t.Fatalf("the notebook displays nothing:\n%s", data)
	}
	b, err := json.Marshal(last.Data["application/json"])
	if err != nil {
		t.Fatal(err)
	}
	var r job.Results
	if err := json.Unmarshal(b, &r); err != nil || r.Record == nil {
		t.Fatalf("no record in %s (%v)", b, err)
	}
	return r.Record
}

// checkAnalysis checks the analysis of a game in which first moved first:
// the computer's play (checkComputer), and every human move from N to N,
// and only those, marked as a mistake.
func checkAnalysis(t *testing.T, a *job.Record, first play.Player) {
	t.Helper()
	cp := 2
	if first == play.Computer {
		cp = 1
	}
	checkComputer(t, a, cp)
	for i, m := range a.Moves {
		if m.Player != cp && m.Mistake != (m.Before == "N" && m.After == "N") {
			t.Fatalf("human move %d: mistake %v, %s→%s", i+1, m.Mistake, m.Before, m.After)
		}
	}
}

// checkComputer checks the analysis of a game: the computer (player cp)
// never made a mistake, moved from every N-position to a P-position, and
// won when it once had a won position.
func checkComputer(t *testing.T, a *job.Record, cp int) {
	t.Helper()
	won := false
	for i, m := range a.Moves {
		if !m.Legal {
			t.Fatalf("move %d is illegal", i+1)
		}
		if m.Player != cp {
			continue
		}
		if m.Mistake || (m.Before == "N" && m.After != "P") {
			t.Fatalf("the computer's move %d %v → %v is a mistake", i+1, m.From, m.To)
		}
		won = won || m.Before == "N"
	}
	if won && a.Winner != cp {
		t.Fatalf("the computer had a won position and the winner is player %d", a.Winner)
	}
}

func TestPlayPiped(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	dir := t.TempDir()
	for _, tc := range playCases {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= uint64(games); seed++ {
				first := []play.Player{play.Human, play.Computer}[seed%2]
				lines, want := humanLines(t, tc.args, first, seed)
				save := filepath.Join(dir, fmt.Sprintf("%s-%d.yaml", strings.ReplaceAll(tc.name, " ", "-"), seed))
				args := append(slices.Clone(tc.args), "--seed", fmt.Sprint(seed), "--first", first.String(), "--save", save)
				var out, errb bytes.Buffer
				err := run(context.Background(), append([]string{"play"}, args...), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &errb)
				if err != nil {
					t.Fatalf("%v\n%s%s", err, out.String(), errb.String())
				}
				if !strings.Contains(out.String(), "Game over") || !strings.Contains(out.String(), "Game saved to") {
					t.Fatalf("transcript:\n%s", out.String())
				}
				a := analyse(t, save)
				if len(a.Moves) != len(want.Positions)-1 {
					t.Fatalf("the command played %d moves, the library %d", len(a.Moves), len(want.Positions)-1)
				}
				for i, m := range a.Moves {
					if !slices.Equal(m.To.([]int), want.Positions[i+1]) {
						t.Fatalf("move %d: the command went to %v, the library to %v", i+1, m.To, want.Positions[i+1])
					}
				}
				checkAnalysis(t, a, first)
			}
		})
	}
}

func TestPlayMessages(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		input string
		want  []string
	}{
		{"too many tokens", []string{"nim", "--heaps", "1,3,2"}, "3 5\n", []string{"Not a move: heap 3 has only 2 tokens."}},
		{"coin tails", []string{"coins", "--n", "10", "--heads", "2,5,9"}, "6 5 1\n", []string{"coin 6 is tails: the rightmost coin turned must go from heads to tails"}},
		{"wythoff", []string{"wythoff"}, "(2,4)\n", []string{"(7,12) → (2,4) takes 5 from heap a and 8 from heap b"}},
		{"undo", []string{"nim", "--heaps", "1,2,3"}, "undo\n3 3\nundo\nquit\n", []string{"Nothing to undo", "You play 3 3", "Taken back: your move and the computer's reply."}},
		{"help", []string{"subtraction", "--set", "1,3,4"}, "help\n", []string{"The rule: take 1, 3 or 4 tokens from one heap."}},
		{"hint", []string{"nim", "--heaps", "1,2", "--hint"}, "", []string{"nim-sum 1 ⊕ 2 = 3", "winning move: 2 1 (take 1 from heap 2)"}},
		{"echo and EOF", []string{"nim"}, "4 1", []string{"your move> 4 1\n", "Game left unfinished."}},
		{"computer first", []string{"wythoff", "--position", "3,4", "--first", "computer", "--seed", "1"}, "", []string{"Computer plays"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), append([]string{"play"}, tt.args...), strings.NewReader(tt.input), &out, &errb)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the transcript does not say %q:\n%s", w, out.String())
				}
			}
		})
	}
}

func TestPlayJobFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "games.yaml")
	os.WriteFile(file, []byte(`title: Games
sections:
  - title: Values
    nimbers: {op: sum, size: 4}
    show: [table]
  - title: Kayles
    game: {octal: {code: "0.77", position: [4, 3]}}
    show: [outcome]
  - title: No start
    game: {wythoff: {}}
    show: [table]
`), 0o644)
	for _, sel := range []string{"", "#2", "#kayles"} {
		var out bytes.Buffer
		err := run(context.Background(), []string{"play", file + sel, "--seed", "3"}, strings.NewReader("quit\n"), &out, io.Discard)
		if err != nil || !strings.Contains(out.String(), "Octal 0.77") || !strings.Contains(out.String(), "heap 2  | | |    3") {
			t.Errorf("%q: %v\n%s", sel, err, out.String())
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"play", file + "#3", "--position", "2,3"}, strings.NewReader(""), &out, io.Discard); err != nil || !strings.Contains(out.String(), "position (2,3)") {
		t.Errorf("wythoff with --position: %v\n%s", err, out.String())
	}
	for _, sel := range []string{"#1", "#3", "#9", "#nothing"} {
		if err := run(context.Background(), []string{"play", file + sel}, strings.NewReader(""), io.Discard, io.Discard); err == nil {
			t.Errorf("%q: no error", sel)
		}
	}
}

func TestPlayUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"no game", []string{"play"}},
		{"unknown game", []string{"play", "chess"}},
		{"flag of another game", []string{"play", "nim", "--set", "1,2"}},
		{"subtraction without set", []string{"play", "subtraction"}},
		{"octal without code", []string{"play", "octal"}},
		{"bad code", []string{"play", "octal", "0.9"}},
		{"bad first", []string{"play", "nim", "--first", "nobody"}},
		{"bad level", []string{"play", "nim", "--level", "expert"}},
		{"bad heaps", []string{"play", "nim", "--heaps", "1,x"}},
		{"extra argument", []string{"play", "nim", "7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), tt.args, strings.NewReader(""), io.Discard, io.Discard)
			var u *usageError
			if !errors.As(err, &u) {
				t.Errorf("got %v, want a usage error", err)
			}
		})
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"play", "--help"}, strings.NewReader(""), &out, io.Discard); err != nil || !strings.Contains(out.String(), "Usage: nimbook play GAME") {
		t.Errorf("help: %v %q", err, out.String())
	}
}

// TestPlayTmux plays through a real terminal: nimbook play runs in a
// detached tmux session, the test types moves with send-keys and reads the
// screen with capture-pane. Without tmux it is skipped, unless
// NIMBOOK_E2E=1 asks for it.
// TestPlayTmuxFamilies plays one game of each family in a terminal, as
// TestPlayPiped does through a pipe: a random human types at each prompt,
// the computer's moves are the library's, and the saved record clears it.
func TestPlayTmuxFamilies(t *testing.T) {
	tx := e2e.NewTmux(t)
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	cases := slices.Clone(playCases)
	cases = append(cases,
		struct {
			name string
			args []string
		}{"product", []string{abs("../../examples/products.yaml") + "#2"}},
		struct {
			name string
			args []string
		}{"starlark", []string{abs("../../examples/turning-turtles.star")}},
	)
	quote := func(a string) string { return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'" }
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pos, f, set, err := parsePlayFlags(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			var g play.Game
			var start []int
			star := isStarFile(pos[0])
			if star {
				g, start, _, err = starGame(context.Background(), pos, f, set, io.Discard, io.Discard)
			} else {
				g, start, err = playGame(context.Background(), pos, f, set)
			}
			if err != nil {
				t.Fatal(err)
			}
			const seed = 5
			var transcript bytes.Buffer
			lines, want := randomHuman(t, g, start, play.Human, seed, &transcript)
			save := filepath.Join(tx.Dir, fmt.Sprintf("game-%d.yaml", i))
			if star {
				save = strings.TrimSuffix(save, ".yaml") + ".md"
			}
			cmd := quote(tx.Bin) + " play"
			for _, a := range append(slices.Clone(tc.args), "--seed", fmt.Sprint(seed), "--save", save) {
				cmd += " " + quote(a)
			}
			session := fmt.Sprintf("game%d", i)
			tx.TM("-f", "/dev/null", "new-session", "-d", "-s", session, "-x", "120", "-y", "50", cmd+"; echo EXITED $?; sleep 60")
			// One line per prompt, as a person types.
			for k, l := range lines {
				tx.WaitCount(t, session, "your move>", k+1)
				tx.TM("send-keys", "-t", session, "-l", l)
				tx.TM("send-keys", "-t", session, "Enter")
			}
			tx.Screen(t, session, "Game over")
			tx.TM("send-keys", "-t", session, "Enter")
			screen := tx.Screen(t, session, "EXITED 0")
			if os.Getenv("SHOWSCREEN") != "" {
				t.Log(screen)
			}
			if !strings.Contains(screen, "Game saved to "+save) {
				t.Fatalf("no save message:\n%s", screen)
			}
			if got, w := computerLines(screen), computerLines(transcript.String()); !slices.Equal(got, w) {
				t.Fatalf("the terminal showed\n%s\nthe library played\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
			}
			var a *job.Record
			if star {
				a = analyseNotebook(t, save)
			} else {
				a = analyse(t, save)
			}
			if len(a.Moves) != len(want.Positions)-1 || a.Illegal != 0 {
				t.Fatalf("the record has %d moves (illegal %d), the game %d", len(a.Moves), a.Illegal, len(want.Positions)-1)
			}
			checkAnalysis(t, a, play.Human)
		})
	}
}

func TestPlayTmux(t *testing.T) {
	tx := e2e.NewTmux(t)
	dir, bin, tm := tx.Dir, tx.Bin, tx.TM
	save := filepath.Join(dir, "game.yaml")
	cmd := fmt.Sprintf("%s play nim --heaps 1,2,3 --seed 7 --hint --save %s; echo EXITED $?; sleep 60", bin, save)
	tm("-f", "/dev/null", "new-session", "-d", "-s", "play", "-x", "100", "-y", "50", cmd)
	screen := func(want string) string { t.Helper(); return tx.Screen(t, "play", want) }
	screen("your move>")
	// (1,2,3) is a P-position: the hint says so; any move loses against
	// perfect play, and the computer answers with a winning move.
	s := screen("P-position: every move loses")
	if !strings.Contains(s, "heap 3  | | |  3") {
		t.Errorf("the heaps are not drawn as sticks:\n%s", s)
	}
	tm("send-keys", "-t", "play", "5 1", "Enter")
	screen("Not a move: there is no heap 5: the heaps are numbered 1 to 3.")
	tm("send-keys", "-t", "play", "3 3", "Enter")
	screen("Computer plays 2 1: take 1 from heap 2.")
	tm("send-keys", "-t", "play", "undo", "Enter")
	screen("Taken back: your move and the computer's reply.")
	tm("send-keys", "-t", "play", "1 1", "Enter")
	screen("Computer plays")
	// Play on until the game is over, answering each prompt with "1 1",
	// "2 1" or "3 1" as the heaps allow: take from the first non-empty heap.
	for i := 0; i < 6; i++ {
		s = tm("capture-pane", "-p", "-J", "-t", "play", "-S", "-200")
		if strings.Contains(s, "Game over") {
			break
		}
		tm("send-keys", "-t", "play", "(", "Enter") // not a move: nothing changes
		for h := 1; h <= 3; h++ {
			tm("send-keys", "-t", "play", fmt.Sprintf("%d 1", h), "Enter")
		}
		time.Sleep(200 * time.Millisecond)
	}
	screen("Game over: the computer wins.")
	tm("send-keys", "-t", "play", "Enter")
	s = screen("EXITED 0")
	if !strings.Contains(s, "Game saved to "+save) {
		t.Errorf("no save message:\n%s", s)
	}
	a := analyse(t, save)
	checkComputer(t, a, 2)
	if a.Winner != 2 {
		t.Errorf("winner %d, want the computer (2)", a.Winner)
	}
}

// starFiles are games defined in Starlark, for nimbook play FILE.star.
var starFiles = map[string]string{
	// Subtraction {1, 3, 4} from 20 (20 is an N-position: 20 mod 7 = 6).
	"sub.star": `
def sub(n):
    return [n - s for s in (1, 3, 4) if s <= n]
subtraction = game(moves=sub, start=20)
`,
	// Positions are tuples: take 1 or 2 from one heap of a pair, or 1 from
	// both; misère play.
	"pairs.star": `
def pairs(p):
    a, b = p
    out = [(a - k, b) for k in (1, 2) if k <= a] + [(a, b - k) for k in (1, 2) if k <= b]
    if a and b:
        out.append((a - 1, b - 1))
    return out
pairs_game = game(moves=pairs, start=(5, 7), play="misere")
`,
	"two.star": `
a = game(moves=lambda n: [n - 1] if n else [], start=3)
b = a + a
`,
	"none.star":   "x = 1\n",
	"cycle.star":  "loop = game(moves=lambda n: [(n + 1) % 4], start=0)\n",
	"syntax.star": "x = 1\ny = (\n",
	"broken.star": "def f(n):\n    return [n // 0]\ng = game(moves=f, start=2)\n",
	"prints.star": "print(\"loaded\")\ng = game(moves=lambda n: [n - 1] if n else [], start=1)\n",
}

func writeStarFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range starFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// playLines runs nimbook play with args, typing lines, and checks that the
// computer made the moves of the library's transcript want.
func playLines(t *testing.T, args, lines []string, want string) string {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"play"}, args...), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errb.String())
	}
	if got, w := computerLines(out.String()), computerLines(want); !slices.Equal(got, w) || len(w) == 0 {
		t.Fatalf("the command played\n%s\nthe library\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
	}
	return out.String()
}

// computerLines are the lines of a transcript that tell the computer's
// moves and the end of the game.
func computerLines(transcript string) []string {
	var out []string
	for _, l := range strings.Split(transcript, "\n") {
		if strings.HasPrefix(l, "Computer plays") || strings.HasPrefix(l, "Game over") {
			out = append(out, l)
		}
	}
	return out
}

// TestPlayStarPiped plays games defined in Starlark through the command
// with piped input, against the same games played with the library: the
// command makes the same moves, and the computer never misses a winning
// move from an N-position and never loses from one.
func TestPlayStarPiped(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	dir := writeStarFiles(t)
	cases := []struct {
		name string
		args []string
	}{
		{"subtraction", []string{filepath.Join(dir, "sub.star")}},
		{"tuples misere", []string{filepath.Join(dir, "pairs.star")}},
		{"sum, named", []string{filepath.Join(dir, "two.star") + "#b", "--position", "(4, 2)"}},
		{"example", []string{filepath.Join("..", "..", "examples", "turning-turtles.star"), "--position", `"THHTHHT"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pos, f, set, err := parsePlayFlags(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			g, start, _, err := starGame(context.Background(), pos, f, set, io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= uint64(games); seed++ {
				first := []play.Player{play.Human, play.Computer}[seed%2]
				var want bytes.Buffer
				lines, rec := randomHuman(t, g, start, first, seed, &want)
				checkRecord(t, g, rec)
				save := filepath.Join(t.TempDir(), "game.md")
				args := append(slices.Clone(tc.args), "--seed", fmt.Sprint(seed), "--first", first.String(), "--save", save)
				playLines(t, args, lines, want.String())
				// The saved notebook replays the game through the file's
				// own move function, and its analysis clears the computer.
				a := analyseNotebook(t, save)
				if len(a.Moves) != len(rec.Positions)-1 || a.Illegal != 0 {
					t.Fatalf("the notebook analyses %d moves (illegal %d), the game had %d", len(a.Moves), a.Illegal, len(rec.Positions)-1)
				}
				checkAnalysis(t, a, first)
			}
		})
	}
}

// checkRecord checks the computer's moves of a game played to its end:
// from an N-position it always moves to a P-position, and once it has had
// an N-position it wins.
func checkRecord(t *testing.T, g play.Game, rec *play.Record) {
	t.Helper()
	if rec.Winner == play.Nobody {
		t.Fatal("the game is not over")
	}
	won := false
	for i := 0; i+1 < len(rec.Positions); i++ {
		if rec.Mover(i) != play.Computer {
			continue
		}
		before, err := g.Outcome(rec.Positions[i])
		if err != nil {
			t.Fatal(err)
		}
		after, err := g.Outcome(rec.Positions[i+1])
		if err != nil {
			t.Fatal(err)
		}
		if before == game.N && after != game.P {
			t.Fatalf("the computer's move %d %s misses a win", i+1, g.Describe(rec.Positions[i], rec.Positions[i+1]))
		}
		won = won || before == game.N
	}
	if won && rec.Winner != play.Computer {
		t.Fatal("the computer had a won position and lost")
	}
}

func TestPlayStarMessages(t *testing.T) {
	dir := writeStarFiles(t)
	file := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name  string
		args  []string
		input string
		want  []string
	}{
		{"illegal", []string{file("sub.star")}, "21\n", []string{"position 20\nmoves to: 19   17   16\n", `Not a move: "21" is not a move from 20: type the position you move to: 19, 17, 16.`}},
		{"not one move", []string{file("sub.star")}, "3\n", []string{"Not a move: 3 cannot be reached in one move from 20."}},
		{"tuple", []string{file("pairs.star"), "--hint"}, "(4,7)\n", []string{"Misère play", "moves: 1) (4, 7)   2) (3, 7)", "You play (4, 7): move to (4, 7)."}},
		{"list number", []string{file("pairs.star")}, "5\n", []string{"You play (4, 6): move to (4, 6)."}},
		{"help", []string{file("sub.star")}, "help\n", []string{"type the number you move to"}},
		{"hint", []string{file("sub.star"), "--hint"}, "", []string{"Hint: values 20 = 2", "winning move: 16 (move to 16)"}},
		{"position", []string{file("sub.star"), "--position", "2 * 3"}, "", []string{"position 6\n"}},
		{"prints", []string{file("prints.star")}, "0\n", []string{"loaded\n", "Game over: you win!"}},
		{"named", []string{file("two.star") + "#a"}, "", []string{"position 3\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), append([]string{"play"}, tt.args...), strings.NewReader(tt.input), &out, &errb)
			if err != nil {
				t.Fatalf("%v\n%s", err, errb.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the transcript does not say %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestPlayStarErrors: what stops a Starlark game is said before it starts.
func TestPlayStarErrors(t *testing.T) {
	dir := writeStarFiles(t)
	file := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name  string
		args  []string
		want  string
		usage bool
	}{
		{"cycle", []string{file("cycle.star")}, "cycle.star#loop: the moves form a cycle, so play may never end: 0 → 1 → 2 → 3 → 0", false},
		{"several", []string{file("two.star")}, "defines 2 games (a, b): choose one with " + file("two.star") + "#a", false},
		{"none", []string{file("none.star")}, "defines no game: define one with e.g. g = game(moves=f, start=p)", false},
		{"unknown name", []string{file("sub.star") + "#nim"}, "defines no nim; its games: subtraction", false},
		{"syntax", []string{file("syntax.star")}, file("syntax.star") + ":3:", false},
		{"move error", []string{file("broken.star")}, file("broken.star") + ":2: floored division by zero", false},
		{"missing", []string{file("nothing.star")}, "no such file", false},
		{"bad position", []string{file("sub.star"), "--position", "[1]"}, "is a list, which may change", false},
		{"save as a job", []string{file("sub.star"), "--save", file("game.yaml")}, "a game defined in Starlark is saved as a Markdown notebook", true},
		{"family flag", []string{file("sub.star"), "--heaps", "3"}, "--heaps does not apply to a Starlark game", true},
		{"misere", []string{file("sub.star"), "--misere"}, "play=", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(context.Background(), append([]string{"play"}, tt.args...), strings.NewReader("1\n"), &out, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			var u *usageError
			if errors.As(err, &u) != tt.usage {
				t.Errorf("usage error: %v, want %v", errors.As(err, &u), tt.usage)
			}
			if strings.Contains(out.String(), "your move>") || strings.Contains(out.String(), "play:") {
				t.Errorf("the game started:\n%s", out.String())
			}
		})
	}
	if _, err := os.Stat(file("game.yaml")); err == nil {
		t.Error("--save wrote a file")
	}
}

// TestPlayProductPiped plays tartan products of coin games from job files
// with piped input, against the same games played with the library: the
// command makes the same moves, the computer never misses a winning move
// from an N-position and never loses from one; when the job runner
// analyses records of products, the saved game is analysed with no mistake
// for the computer and the human's mistakes marked.
func TestPlayProductPiped(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "small.yaml")
	os.WriteFile(file, []byte(`title: Small products
sections:
  - title: Misère twins × ruler
    game: {product: {factors: [{rule: exactly, r: 2, first: 0}, {rule: ruler}], size: [3, 4], play: misere, position: [[1, 2], [2, 4], [2, 3]]}}
    show: [table]
  - title: A box
    game: {product: {factors: [{rule: at-most, r: 2}, {rule: ruler}, {rule: at-most, r: 2}], size: [2, 3, 3], position: [[1, 1, 1], [2, 3, 3], [2, 2, 1]]}}
    show: [table]
`), 0o644)
	examples := filepath.Join("..", "..", "examples", "products.yaml")
	cases := []struct {
		name string
		args []string
	}{
		{"nim × nim", []string{examples + "#2"}},
		{"ruler × ruler", []string{examples + "#3"}},
		{"twins × twins from a position", []string{examples + "#1", "--position", "7,7,3,5,1,1"}},
		{"misère", []string{file + "#1"}},
		{"three factors", []string{file + "#2"}},
		{"command line, nim × nim", []string{"product", "--size", "5,6"}},
		{"command line, misère box", []string{"product", "--factors", "exactly:2,at-most:2,exactly:2", "--first-coin", "0", "--size", "2,3,3", "--position", "1,2,2,1,1,1", "--misere"}},
		{"command line, 10×10", []string{"product", "--factors", "at-most:3,ruler", "--size", "10,10", "--position", "10,10,9,2,4,7"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pos, f, set, err := parsePlayFlags(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			g, start, err := playGame(context.Background(), pos, f, set)
			if err != nil {
				t.Fatal(err)
			}
			pg := g.(*play.Product)
			for seed := uint64(1); seed <= uint64(games); seed++ {
				first := []play.Player{play.Human, play.Computer}[seed%2]
				var want bytes.Buffer
				lines, rec := randomHuman(t, g, start, first, seed, &want)
				checkRecord(t, g, rec)
				args := append(slices.Clone(tc.args), "--seed", fmt.Sprint(seed), "--first", first.String())
				save := filepath.Join(dir, fmt.Sprintf("%s-%d.yaml", strings.ReplaceAll(tc.name, " ", "-"), seed))
				args = append(args, "--save", save)
				playLines(t, args, lines, want.String())
				a := analyse(t, save)
				if len(a.Moves) != len(rec.Positions)-1 {
					t.Fatalf("the command played %d moves, the library %d", len(a.Moves), len(rec.Positions)-1)
				}
				for i, m := range a.Moves {
					var cells [][]int
					for _, c := range rec.Positions[i+1] {
						cells = append(cells, pg.Coords(c))
					}
					if got := m.To.([][]int); !slices.EqualFunc(got, cells, slices.Equal) {
						t.Fatalf("move %d: the record says %v, the library went to %v", i+1, got, cells)
					}
				}
				checkAnalysis(t, a, first)
			}
		})
	}

}

func TestPlayProductMessages(t *testing.T) {
	examples := filepath.Join("..", "..", "examples", "products.yaml")
	tests := []struct {
		name  string
		args  []string
		input string
		want  []string
	}{
		{"start", []string{examples + "#2"}, "", []string{"(at-most 2, coins from 1) × (at-most 2, coins from 1) on a 7×7 grid", "  1 2 3 4 5 6 7\n1 ○ ○ ○ ○ ○ ○ ○\n2 ○ ○ ○ ● ○ ○ ○\n"}},
		{"not a product of sets", []string{examples + "#2"}, "(2,4) (6,6)\n", []string{"Not a move: not a legal set of coins for this game: the coins turned must be every listed row crossed with every listed column"}},
		{"tails", []string{examples + "#2"}, "7 7\n", []string{"Not a move: coin (7,7) is tails: the coin turned in the last row and the last column must go from heads to tails."}},
		{"ruler", []string{examples + "#3"}, "4 4 4 3 2 4 2 3\n", []string{"Not a move: not a legal set of coins for this game: the rows turned must be consecutive (you listed 2 and 4)."}},
		{"a move", []string{examples + "#2", "--hint"}, "2,2 2,4 1,2 1,4\n", []string{"values (2,4) = 8, (6,6) = 5; nim-sum 8 ⊕ 5 = 13", "winning moves: (1,2) (1,4) (2,2) (2,4); (1,3) (1,6) (6,3) (6,6); ", "You play (1,2) (1,4) (2,2) (2,4): turn coins (1,2), (1,4), (2,2), (2,4)."}},
		{"help", []string{examples + "#2"}, "help\n", []string{"A move picks 1 to 2 rows and 1 to 2 columns"}},
		{"position", []string{examples + "#2", "--position", "1,1,7,7"}, "", []string{"1 ● ○ ○ ○ ○ ○ ○\n", "7 ○ ○ ○ ○ ○ ○ ●\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), append([]string{"play"}, tt.args...), strings.NewReader(tt.input), &out, &errb)
			if err != nil {
				t.Fatalf("%v\n%s", err, errb.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the transcript does not say %q:\n%s", w, out.String())
				}
			}
		})
	}
	// A grid of more than 64 cells is saved too: under normal play its
	// record is analysed from the heads' values. Heads at (9,9) and (2,3)
	// are worth 9 ⊗ 9 ⊕ 2 ⊗ 3 = 13 ⊕ 1: turning (9,9) alone leaves 1, a
	// mistake, and the computer wins.
	big := filepath.Join(t.TempDir(), "big.yaml")
	os.WriteFile(big, []byte("title: Big\nsections:\n  - title: Nim × nim\n    game: {product: {factors: [{rule: at-most, r: 2}, {rule: at-most, r: 2}], size: [9, 9], position: [[9, 9], [2, 3]]}}\n    show: [table]\n"), 0o644)
	save := filepath.Join(t.TempDir(), "game.yaml")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"play", big, "--save", save, "--seed", "1"}, strings.NewReader("9 9\n"), &out, io.Discard); err != nil {
		t.Fatalf("--save on a 9×9 grid: %v\n%s", err, out.String())
	}
	a := analyse(t, save)
	if len(a.Moves) < 2 || a.Illegal != 0 || a.Moves[0].To == nil {
		t.Fatalf("record of the 9×9 game: %+v\n%s", a, out.String())
	}
	checkComputer(t, a, 2)
	if !a.Moves[0].Mistake || a.Winner != 2 {
		t.Errorf("the human's mistake or the computer's win is not marked: %+v", a)
	}
	for _, pos := range []string{"1,1,8,8", "1,1,1"} {
		err := run(context.Background(), []string{"play", examples + "#2", "--position", pos}, strings.NewReader(""), io.Discard, io.Discard)
		var u *usageError
		if !errors.As(err, &u) {
			t.Errorf("--position %s: %v, want a usage error", pos, err)
		}
	}
}

// ruleArgs finds the command line that plays a heap rule from its
// examples: the rule's name, then each parameter the command says it
// needs, with the value it suggests.
func ruleArgs(t *testing.T, r *heap.Rule) []string {
	t.Helper()
	needs := regexp.MustCompile(`needs (?:--(\S+), e\.g\. --\S+|a \S+, e\.g\. nimbook play \S+) (\S+)`)
	args := []string{r.Name}
	for range len(r.Params) + 1 {
		pos, f, set, err := parsePlayFlags(args)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err = playGame(context.Background(), pos, f, set); err == nil {
			return args
		}
		m := needs.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("%v: %v", args, err)
		}
		if m[1] != "" {
			args = append(args, "--"+m[1])
		}
		args = append(args, m[2])
	}
	t.Fatalf("%s: no command line plays it", r.Name)
	return nil
}

// TestPlayEveryRule plays every registered heap rule whose parameters can
// be typed, from the examples the command gives, through a pipe, and
// analyses the saved record.
func TestPlayEveryRule(t *testing.T) {
	dir := t.TempDir()
	for _, r := range heap.Rules() {
		if slices.ContainsFunc(r.Params, func(q heap.Param) bool { return q.Kind == heap.File || q.Kind == heap.Map }) {
			continue // a file or a mapping: no example to play from
		}
		t.Run(r.Name, func(t *testing.T) {
			args := ruleArgs(t, r)
			if !strings.Contains(playUsage, "\n  "+strings.Join(args, " ")) && !strings.Contains(playUsage, "\n  "+r.Name+" ") {
				t.Errorf("the usage has no line for %s:\n%s", r.Name, playUsage)
			}
			for seed := uint64(1); seed <= 2; seed++ {
				first := []play.Player{play.Human, play.Computer}[seed%2]
				lines, want := humanLines(t, args, first, seed)
				save := filepath.Join(dir, fmt.Sprintf("%s-%d.yaml", r.Name, seed))
				cmd := append(slices.Clone(args), "--seed", fmt.Sprint(seed), "--first", first.String(), "--save", save)
				var out, errb bytes.Buffer
				if err := run(context.Background(), append([]string{"play"}, cmd...), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &errb); err != nil {
					t.Fatalf("%v: %v\n%s%s", cmd, err, out.String(), errb.String())
				}
				a := analyse(t, save)
				if len(a.Moves) != len(want.Positions)-1 {
					t.Fatalf("the command played %d moves, the library %d", len(a.Moves), len(want.Positions)-1)
				}
				checkAnalysis(t, a, first)
			}
		})
	}
}

// TestPlayRuleFlags: a heap rule's flags come from its parameters, and
// what is wrong with them is said in the flags' words.
func TestPlayRuleFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"subtraction"}, "subtraction needs --set, e.g. --set 1,3,4"},
		{[]string{"octal"}, "octal needs a code, e.g. nimbook play octal 0.77"},
		{[]string{"hex", "--heaps", "3"}, "hex needs a code, e.g. nimbook play hex 0.77"},
		{[]string{"octal", "0.9"}, "octal 0.9: "},
		{[]string{"octal", "--code", "0.9"}, "--code: "},
		{[]string{"subtraction", "--set", "1,3", "--all-but", "2"}, "subtraction: give either set or all-but, not both"},
		{[]string{"subtraction", "--set", "1,x"}, `--set: "x" is not a whole number ≥ 0; write e.g. 1,3,4`},
		{[]string{"subtraction", "--set", ""}, "--set: the set is empty"},
		{[]string{"nim", "--max-take", "x"}, "max-take"},
		{[]string{"nim", "--code", "0.77"}, "--code applies to octal, hex only"},
		{[]string{"wythoff", "--max-take", "2"}, "--max-take applies to nim only"},
		{[]string{"coins", "--heaps", "3"}, "--heaps applies to nim, subtraction, octal, hex"},
		{[]string{"octal", "0.77", "3"}, `unexpected "0.77" after octal`},
		{[]string{"misere-chess"}, `unknown game "misere-chess": write nim, subtraction, octal, hex`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			err := run(context.Background(), append([]string{"play"}, tt.args...), strings.NewReader(""), io.Discard, io.Discard)
			var u *usageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a usage error saying %q", err, tt.want)
			}
		})
	}
	// --max-take 0 is Nim's absence of a bound; misere-RULE is misère play
	// of any rule; the position defaults to the rule's start.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"nim", "--max-take", "0"}, "heap 4  | | | | | | |  7"},
		{[]string{"misere-nim"}, "Misère play"},
		{[]string{"misere-octal", "0.77", "--heaps", "4"}, "Octal 0.77, misère play"},
		{[]string{"subtraction", "--all-but", "2"}, "|  15\n"},
	} {
		var out bytes.Buffer
		if err := run(context.Background(), append([]string{"play"}, tt.args...), strings.NewReader("quit\n"), &out, io.Discard); err != nil || !strings.Contains(out.String(), tt.want) {
			t.Errorf("%v: %v, want %q in\n%s", tt.args, err, tt.want, out.String())
		}
	}
}

// TestPlayGrundy: Grundy's game, when the engine has it, is played with
// splits typed as parts.
func TestPlayGrundy(t *testing.T) {
	if _, ok := heap.Lookup("grundy"); !ok {
		t.Skip("no grundy rule registered")
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"play", "grundy", "--heaps", "7", "--seed", "1"}, strings.NewReader("1 1\n1 0\n1 0 3\nquit\n"), &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"take no token", "must split the 7 left into two heaps", "You play 1 0 3 4: split heap 1 into 3 and 4."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out.String())
		}
	}
}
