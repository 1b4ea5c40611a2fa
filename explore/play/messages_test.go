package play

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/wythoff"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func heapGame(t testing.TB, hg heap.Game) *Heaps {
	t.Helper()
	g, err := NewHeaps(hg, game.Normal, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestIllegalMoves(t *testing.T) {
	nim := heapGame(t, must(heap.NewNim(0)))
	bounded := heapGame(t, must(heap.NewNim(3)))
	sub := heapGame(t, must(heap.NewSubtraction([]int{1, 3, 4})))
	allBut := heapGame(t, must(heap.NewAllBut([]int{2})))
	kayles := heapGame(t, must(heap.ParseOctal("0.77")))
	dawson := heapGame(t, must(heap.ParseOctal("0.07")))
	chess := heapGame(t, must(heap.ParseOctal("0.137")))
	w, _ := NewWythoff(game.Normal, wythoff.Options{})
	at3, _ := coins.New(coins.AtMost, 3, 1)
	c3, _ := NewCoins(at3, 10, game.Normal)
	ex2, _ := coins.New(coins.Exactly, 2, 1)
	cx, _ := NewCoins(ex2, 6, game.Normal)
	ruler, _ := coins.New(coins.Ruler, 0, 1)
	cr, _ := NewCoins(ruler, 8, game.Normal)

	tests := []struct {
		name string
		g    Game
		p    []int
		in   string
		want string
	}{
		{"no heap", nim, []int{1, 3, 2}, "5 1", "there is no heap 5: the heaps are numbered 1 to 3"},
		{"too many", nim, []int{1, 3, 2}, "3 5", "heap 3 has only 2 tokens"},
		{"empty heap", nim, []int{0, 3, 2}, "1 1", "heap 1 is empty"},
		{"take none", nim, []int{1, 3, 2}, "2 0", "take at least one token"},
		{"which heap", nim, []int{1, 3, 2}, "2", "say which heap"},
		{"words", nim, []int{1, 3, 2}, "take two", "I do not understand"},
		{"add tokens", nim, []int{1, 3, 2}, "(1,4,2)", "you cannot add tokens: heap 2 has 3"},
		{"two heaps", nim, []int{1, 3, 2}, "(0,2,2)", "a move changes one heap only"},
		{"same", nim, []int{1, 3, 2}, "(1,3,2)", "is the position now"},
		{"max take", bounded, []int{5, 6}, "2 4", "you may take at most 3 tokens at a time"},
		{"set", sub, []int{10}, "1 2", "you may take 1, 3 or 4 tokens, not 2"},
		{"all-but", allBut, []int{10}, "1 2", "you may take any number of tokens but 2"},
		{"octal digit", kayles, []int{10}, "1 3", "in octal 0.77 you may take 1 or 2 tokens, not 3"},
		{"split sum", kayles, []int{10}, "1 1 5 5", "add up to 10"},
		{"dawson digit", dawson, []int{5, 1}, "1 1", "in octal 0.07 you may take 2 tokens, not 1"},
		{"chess split", chess, []int{5}, "1 2 1 2", "octal 0.137: taking 2 from a heap of 5 may leave only 3"},
		{"dawson's chess", chess, []int{5}, "1 1", "taking 1 must take a whole heap of exactly 1"},
		{"wythoff shape", w, []int{7, 12}, "(2,4)", "takes 5 from heap a and 8 from heap b"},
		{"wythoff add", w, []int{7, 12}, "8 12", "you cannot add tokens"},
		{"wythoff heap", w, []int{7, 12}, "a 8", "heap a has only 7 tokens"},
		{"wythoff both", w, []int{7, 12}, "both 8", "needs 8 in each"},
		{"wythoff words", w, []int{7, 12}, "left", "I do not understand"},
		{"coin tails", c3, []int{2, 4}, "5 4 1", "coin 5 is tails: the rightmost coin turned must go from heads to tails"},
		{"coin range", c3, []int{2, 4}, "11", "there is no coin 11: the coins are numbered 1 to 10"},
		{"coin twice", c3, []int{2, 4}, "4 4", "coin 4 is listed twice"},
		{"at most", c3, []int{2, 4}, "4 3 2 1", "turn at most 3 coins (you listed 4)"},
		{"exactly", cx, []int{2, 4}, "4", "turn exactly 2 coins (you listed 1)"},
		{"ruler run", cr, []int{2, 5}, "5 3", "a run of consecutive coins"},
		{"coin same", c3, []int{2, 4}, "(2,4)", "is the position now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := tt.g.ParseMove(tt.p, tt.in)
			if err == nil {
				t.Fatalf("%q from %v was accepted as %v", tt.in, tt.p, q)
			}
			if !IsIllegal(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%q: got %q, want it to say %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestForgivingNotation(t *testing.T) {
	nim := heapGame(t, must(heap.NewNim(0)))
	kayles := heapGame(t, must(heap.ParseOctal("0.77")))
	w, _ := NewWythoff(game.Normal, wythoff.Options{})
	at3, _ := coins.New(coins.AtMost, 3, 1)
	c3, _ := NewCoins(at3, 10, game.Normal)
	tests := []struct {
		name string
		g    Game
		p    []int
		in   string
		want []int
	}{
		{"space", nim, []int{1, 3, 5, 7}, "3 2", []int{1, 3, 3, 7}},
		{"comma", nim, []int{1, 3, 5, 7}, " 3,2 ", []int{1, 3, 3, 7}},
		{"colon", nim, []int{1, 3, 5, 7}, "3:2", []int{1, 3, 3, 7}},
		{"one heap left", nim, []int{0, 0, 5}, "2", []int{0, 0, 3}},
		{"target", nim, []int{1, 3, 5, 7}, "(1,3,3,7)", []int{1, 3, 3, 7}},
		{"target reordered", nim, []int{1, 3, 5, 7}, "[7 3 3 1]", []int{1, 3, 3, 7}},
		{"target emptied", nim, []int{1, 3, 5, 7}, "(3,5,7)", []int{0, 3, 5, 7}},
		{"kayles one heap", kayles, []int{7}, "1 1", []int{6}},
		{"kayles split", kayles, []int{7}, "1 1 2 4", []int{2, 4}},
		{"kayles split short", kayles, []int{7}, "1 1 2", []int{2, 4}},
		{"kayles split any order", kayles, []int{3, 7}, "2 2 1", []int{3, 1, 4}},
		{"wythoff a", w, []int{7, 12}, "a 3", []int{4, 12}},
		{"wythoff B", w, []int{7, 12}, "B 3", []int{7, 9}},
		{"wythoff both", w, []int{7, 12}, "both 3", []int{4, 9}},
		{"wythoff pair", w, []int{7, 12}, "(7,4)", []int{7, 4}},
		{"wythoff bare", w, []int{7, 12}, "4 9", []int{4, 9}},
		{"coins", c3, []int{2, 5, 9}, "9 4 1", []int{1, 2, 4, 5}},
		{"coins any order", c3, []int{2, 5, 9}, "1,9", []int{1, 2, 5}},
		{"coins target", c3, []int{2, 5, 9}, "(2,5)", []int{2, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := tt.g.ParseMove(tt.p, tt.in)
			if err != nil || !slices.Equal(q, tt.want) {
				t.Errorf("%q from %v: got %v, %v; want %v", tt.in, tt.p, q, err, tt.want)
			}
		})
	}
}

func TestLoopMessagesAndUndo(t *testing.T) {
	g := heapGame(t, must(heap.NewNim(0)))
	var out bytes.Buffer
	in := &script{lines: []string{"undo", "9 1", "1 2", "help", "2 1", "undo", "3 3", "show", "quit"}, out: &out}
	rec, err := Run(context.Background(), g, []int{1, 2, 3}, in, &out, Options{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"your move> undo\nNothing to undo: you have not moved yet.",
		"Not a move: there is no heap 9: the heaps are numbered 1 to 3.",
		"Not a move: heap 1 has only 1 token.",
		"A move names a heap",
		"You play 2 1: take 1 from heap 2.",
		"Taken back: your move and the computer's reply.",
		"You play 3 3: take the whole heap 3 (3 tokens).",
		"Game left unfinished.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out.String())
		}
	}
	// After the undo the game goes on from the start: 3 3 is the first
	// move of the record, then the computer's reply.
	if len(rec.Positions) != 3 || !slices.Equal(rec.Positions[1], []int{1, 2, 0}) || rec.Undos != 1 {
		t.Errorf("record %v, %d undos", rec.Positions, rec.Undos)
	}
}

func TestUndoAfterGameOver(t *testing.T) {
	g := heapGame(t, must(heap.NewNim(0)))
	var out bytes.Buffer
	// From (2) the human takes 2 and wins; undo, then take 1: the computer
	// takes the last one and wins.
	in := &script{lines: []string{"1 2", "undo", "1 1", ""}, out: &out}
	rec, err := Run(context.Background(), g, []int{2}, in, &out, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Game over: you win!") || !strings.Contains(out.String(), "Game over: the computer wins.") {
		t.Errorf("transcript:\n%s", out.String())
	}
	if rec.Winner != Computer || len(rec.Positions) != 3 {
		t.Errorf("record %v, winner %v", rec.Positions, rec.Winner)
	}
}

// TestRecordAnalysis saves games as job files and reads them back with the
// job runner: the analysis marks the human's mistakes and no computer move.
func TestRecordAnalysis(t *testing.T) {
	for _, f := range families(t) {
		t.Run(f.name, func(t *testing.T) {
			b := &bot{g: f.g, rng: rand2(3)}
			opts := Options{Seed: 9, OnTurn: func(p []int, _ Player) { b.pos = p }}
			rec, err := Run(context.Background(), f.g, f.start, b, io.Discard, opts)
			if err != nil {
				t.Fatal(err)
			}
			var file bytes.Buffer
			if err := rec.WriteJob(&file); err != nil {
				t.Fatal(err)
			}
			j, err := job.Parse("game.yaml", file.Bytes())
			if err != nil {
				t.Fatalf("%v\n%s", err, file.String())
			}
			rep, err := job.Run(context.Background(), j, job.Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, file.String())
			}
			a := rep.Sections[0].Results.Record
			if a == nil || len(a.Moves) != len(rec.Positions)-1 || a.Illegal != 0 {
				t.Fatalf("analysis %+v of\n%s", a, file.String())
			}
			wantWinner := 0
			switch rec.Winner {
			case rec.First:
				wantWinner = 1
			case rec.First.other():
				wantWinner = 2
			}
			if a.Winner != wantWinner {
				t.Errorf("winner %d, want %d", a.Winner, wantWinner)
			}
			mistakes := 0
			for i, m := range a.Moves {
				before, _ := f.outcome(rec.Positions[i])
				after, _ := f.outcome(rec.Positions[i+1])
				want := before == game.N && after == game.N
				if m.Mistake != want || (m.Mistake && rec.Mover(i) == Computer) {
					t.Errorf("move %d (%v): mistake %v, want %v", i, rec.Mover(i), m.Mistake, want)
				}
				if m.Mistake {
					mistakes++
					if m.Missed == nil {
						t.Errorf("move %d: a mistake without the winning moves missed", i)
					}
				}
			}
			if a.Mistakes != mistakes {
				t.Errorf("%d mistakes counted, %d marked", a.Mistakes, mistakes)
			}
		})
	}
}

func TestHumanMistakeMarked(t *testing.T) {
	g := ruleGame(t, "nim", nil)
	// (1,3,5) is an N-position (1 ⊕ 3 ⊕ 5 = 7): taking heap 1 leaves
	// 3 ⊕ 5 = 6, a mistake; the winning move was 3 1 → (1,3,2)... and
	// the analysis lists it.
	in := &script{lines: []string{"1 1"}}
	rec, err := Run(context.Background(), g, []int{1, 3, 5}, in, io.Discard, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if err := rec.WriteJob(&file); err != nil {
		t.Fatal(err)
	}
	j, err := job.Parse("game.yaml", file.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Sections[0].Results.Record
	if !a.Moves[0].Mistake || a.Moves[1].Mistake || a.Mistakes != 1 {
		t.Fatalf("analysis %+v", a)
	}
	missed, _ := a.Moves[0].Missed.([]any)
	if len(missed) != 1 || !slices.Equal(missed[0].([]int), []int{1, 3, 2}) {
		t.Errorf("missed %v, want [[1 3 2]]", a.Moves[0].Missed)
	}
	if !strings.Contains(file.String(), "Player 1 is you, player 2 the computer") {
		t.Errorf("the job does not say who played:\n%s", file.String())
	}
}

func TestWriteJobNoMoves(t *testing.T) {
	g := heapGame(t, must(heap.NewNim(0)))
	rec, err := Run(context.Background(), g, []int{1, 2}, &script{}, io.Discard, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.WriteJob(io.Discard); err != ErrNoMoves {
		t.Errorf("got %v, want ErrNoMoves", err)
	}
}

func TestComputerFirstFromTerminal(t *testing.T) {
	g := heapGame(t, must(heap.NewNim(0)))
	var out bytes.Buffer
	rec, err := Run(context.Background(), g, []int{0, 0}, &script{}, &out, Options{First: Computer})
	if err != nil || len(rec.Positions) != 1 || !strings.Contains(out.String(), "No move is possible") {
		t.Errorf("%v %v\n%s", rec, err, out.String())
	}
}

func TestLines(t *testing.T) {
	var prompts bytes.Buffer
	l := NewLines(context.Background(), strings.NewReader("3 2\r\n\nlast"), &prompts)
	l.Echo = true
	for _, want := range []string{"3 2", "", "last"} {
		got, err := l.ReadLine("> ")
		if err != nil || got != want {
			t.Fatalf("got %q, %v; want %q", got, err, want)
		}
	}
	if _, err := l.ReadLine("> "); err != io.EOF {
		t.Fatalf("at the end: %v, want io.EOF", err)
	}
	if _, err := l.ReadLine("> "); err != io.EOF {
		t.Fatalf("after the end: %v, want io.EOF", err)
	}
	if prompts.String() != "> 3 2\n> \n> last\n> \n" {
		t.Errorf("prompts and echo: %q", prompts.String())
	}
}

func TestLinesCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	defer w.Close()
	l := NewLines(ctx, r, nil)
	done := make(chan error)
	go func() {
		_, err := l.ReadLine("> ")
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Errorf("got %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute): // a hang guard only
		t.Fatal("ReadLine did not return when its context was cancelled")
	}
}

// starNim is Nim posing as a game of a Starlark file: positions written
// as Starlark tuples.
type starNim struct{ Game }

func (starNim) StarlarkPosition(p []int) string {
	parts := make([]string, len(p))
	for i, h := range p {
		parts[i] = fmt.Sprint(h)
	}
	return "(" + strings.Join(parts, ", ") + ",)"
}

func TestWriteNotebook(t *testing.T) {
	g := starNim{heapGame(t, must(heap.NewNim(0)))}
	rec, err := Run(context.Background(), g, []int{1, 2}, &script{lines: []string{"2 1", "1"}}, io.Discard, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The source holds a fence of three backticks: the cell's fence must
	// be longer, or the notebook would end the cell there.
	src := "# ```not a fence```\nnim2 = game(moves=f)\n"
	var b strings.Builder
	if err := rec.WriteNotebook(&b, "dir/games.star", []byte(src), "nim2"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"defined in games.star:",
		"````nimbook\n" + src + "````\n",
		"nim2.record([\n    (1, 2,),\n    (1, 1,),\n    (1, 0,),\n    (0, 0,),\n])",
		"Player 1 is you, player 2 the computer",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("notebook lacks %q:\n%s", want, b.String())
		}
	}
	// A game with no Starlark form, or no move, has no notebook.
	plain := heapGame(t, must(heap.NewNim(0)))
	rec2, err := Run(context.Background(), plain, []int{1, 2}, &script{lines: []string{"2 1"}}, io.Discard, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec2.WriteNotebook(io.Discard, "x.star", nil, "x"); err == nil {
		t.Error("a built-in game written as a notebook")
	}
	rec3, _ := Run(context.Background(), g, []int{1, 2}, &script{}, io.Discard, Options{})
	if err := rec3.WriteNotebook(io.Discard, "x.star", nil, "x"); err != ErrNoMoves {
		t.Errorf("got %v, want ErrNoMoves", err)
	}
}
