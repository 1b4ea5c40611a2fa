package notebook

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/kernel"
)

// typist is an Output whose Input answers with the lines given, as a person
// typing into Jupyter's input box; past them it fails like a closed input.
type typist struct {
	recorder
	mu      sync.Mutex
	lines   []string
	prompts []string
	block   bool // wait for ctx instead of failing when the lines run out
	ctx     context.Context
	waiting chan struct{} // when not nil, closed once it blocks
}

func (ty *typist) Input(prompt string, password bool) (string, error) {
	ty.mu.Lock()
	ty.prompts = append(ty.prompts, prompt)
	if len(ty.lines) == 0 {
		ty.mu.Unlock()
		if ty.block {
			if ty.waiting != nil {
				close(ty.waiting)
				ty.waiting = nil
			}
			<-ty.ctx.Done()
			return "", ty.ctx.Err()
		}
		return "", io.EOF
	}
	l := ty.lines[0]
	ty.lines = ty.lines[1:]
	ty.mu.Unlock()
	ty.Stream("stdout", prompt+l+"\n") // as a frontend echoes the answer
	return l, nil
}

func TestPlay(t *testing.T) {
	tests := []struct {
		name  string
		cell  string
		lines []string
		want  []string // in the cell's stdout
	}{
		{
			// From (1,3,5,7), a P-position (seed 000), the human moves
			// first and loses to the perfect opponent whatever he plays.
			name:  "nim, human loses",
			cell:  `play(nim(1, 3, 5, 7), seed=1)`,
			lines: []string{"4 1", "4 1", "4 1", "4 1", "4 1", "4 1", "4 1", "3 1", "3 1", "3 1", "3 1", "3 1", "2 1", "2 1", "2 1", "1 1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1"},
			want:  []string{"computer", "wins"},
		},
		{
			// From (1,2) the winning move is to (1,1): then the computer
			// must leave one heap of 1, and the human takes it.
			name:  "nim, human wins",
			cell:  `play(nim(1, 2))`,
			lines: []string{"2 1", "1"},
			want:  []string{"You win"},
		},
		{
			name:  "subtraction with hint",
			cell:  `play(subtraction([1, 3, 4]), position=(7,), hint=True)`,
			lines: []string{"quit"},
			want:  []string{"Subtraction"},
		},
		{
			name:  "wythoff, computer first",
			cell:  `play(wythoff(), position=(3, 5), first="computer")`,
			lines: []string{"quit"},
			want:  []string{"Wythoff"},
		},
		{
			// Seed 000's Nim × Nim: heads at (2,4) and (6,6), worth
			// 2 ⊗ 4 ⊕ 6 ⊗ 6 = 8 ⊕ 5 = 13; the hint lists the winning moves.
			name:  "tartan product with hint",
			cell:  `play(product(coins(r=2), coins(r=2), size=(7, 7)), position=[(2, 4), (6, 6)], hint=True)`,
			lines: []string{"quit"},
			want:  []string{"nim-sum 8 ⊕ 5 = 13", "(5,6) (6,6)", "●"},
		},
		{
			name:  "coins",
			cell:  `play(coins(r=3, n=8), position=(2, 5, 8))`,
			lines: []string{"quit"},
			want:  []string{"●"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			ty := &typist{lines: tt.lines}
			_, err := s.Execute(context.Background(), tt.cell, ty)
			if err != nil {
				t.Fatalf("%v\n%s", err, ty.stdout.String())
			}
			out := ty.stdout.String()
			for _, w := range tt.want {
				if !strings.Contains(strings.ToLower(out), strings.ToLower(w)) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if len(ty.prompts) == 0 {
				t.Error("no input_request")
			}
		})
	}
}

func TestPlayErrors(t *testing.T) {
	tests := []struct{ name, cell, want string }{
		{"user game without start", `play(game(moves=lambda n: []))`, "position="},
		{"not a game", `play(3)`, "built-in game"},
		{"no position", `play(subtraction([1, 2]))`, "position="},
		{"bad first", `play(nim(1, 2), first="nobody")`, "first="},
		{"bad level", `play(nim(1, 2), level="god")`, "level"},
		{"nimbers", `play(nimbers(size=8))`, "built-in game"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := run(t, newSession(t), tt.cell)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestPlayHeadless: without a frontend that accepts input, play fails with
// a message, and the session goes on.
func TestPlayHeadless(t *testing.T) {
	s := newSession(t)
	if _, err := s.Execute(context.Background(), `play(nim(1, 2))`, nil); err == nil {
		t.Fatal("play without input succeeded")
	}
	if text, _, err := run(t, s, "1+1"); err != nil || text != "2" {
		t.Errorf("after: %q %v", text, err)
	}
}

// TestPlayInterrupt: an interrupt while the loop waits for a move stops the
// cell. The test interrupts once the loop asks for the move; the minute is
// a hang guard only.
func TestPlayInterrupt(t *testing.T) {
	s := newSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waiting := make(chan struct{})
	ty := &typist{block: true, ctx: ctx, waiting: waiting}
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, `play(nim(1, 3, 5, 7))`, ty)
		done <- err
	}()
	select {
	case <-waiting:
	case err := <-done:
		t.Fatalf("play ended without asking for a move: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("play did not ask for a move")
	}
	cancel()
	select {
	case err := <-done:
		var ce *kernel.CellError
		if !errors.As(err, &ce) || ce.Name != "Interrupted" {
			t.Errorf("err = %v, want Interrupted", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("play did not stop on interrupt")
	}
}
