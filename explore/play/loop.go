package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
)

// Player is one side of a game.
type Player int

const (
	// Nobody has won a game that is not over.
	Nobody Player = iota
	// Human types moves.
	Human
	// Computer is the Opponent.
	Computer
)

func (p Player) String() string {
	switch p {
	case Human:
		return "human"
	case Computer:
		return "computer"
	}
	return "nobody"
}

// ParsePlayer reads "human" or "computer" (also "me"/"you", "h"/"c").
func ParsePlayer(s string) (Player, error) {
	switch strings.ToLower(s) {
	case "human", "me", "h", "player":
		return Human, nil
	case "computer", "c", "you", "machine":
		return Computer, nil
	}
	return Nobody, fmt.Errorf("play: unknown player %q; write human or computer", s)
}

func (p Player) other() Player {
	if p == Computer {
		return Human
	}
	return Computer
}

// LineReader reads what the human types, one line at a time, after showing
// a prompt. The terminal, a pipe and Jupyter's stdin channel
// (input_request) all fit. It returns io.EOF when the input ends.
type LineReader interface {
	ReadLine(prompt string) (string, error)
}

// Options tune a game.
type Options struct {
	// First is who moves first; the zero value is the human.
	First Player
	// Hint shows the Grundy values and the winning moves before each of
	// the human's turns.
	Hint bool
	// Level is how well the computer plays; the zero value is Perfect.
	Level Level
	// Seed makes the computer's choices reproducible.
	Seed uint64
	// OnTurn, when not nil, is called before each turn with the position
	// and who is to move (a notebook may draw the position).
	OnTurn func(p []int, next Player)
}

// maxListed bounds the winning moves a hint lists.
const maxListed = 8

// Run plays g from start, the human's lines read from in and everything
// shown written to out, until the game is over and the human leaves, the
// human quits, the input ends or ctx is done. It returns the record of the
// game as it stands then (moves taken back are not in it). Errors are those
// of the game's engine, of in other than io.EOF, and ctx's.
func Run(ctx context.Context, g Game, start []int, in LineReader, out io.Writer, opts Options) (*Record, error) {
	if err := g.Check(start); err != nil {
		return nil, err
	}
	if opts.First == Nobody {
		opts.First = Human
	}
	if opts.Level.Name == "" {
		opts.Level = Perfect
	}
	l := &loop{g: g, in: in, out: out, opts: opts, opp: NewOpponent(g, opts.Level, opts.Seed),
		rec: &Record{Game: g, Positions: [][]int{slices.Clone(start)}, First: opts.First, Level: opts.Level, Seed: opts.Seed}}
	err := l.run(ctx)
	return l.rec, err
}

type loop struct {
	g    Game
	in   LineReader
	out  io.Writer
	opts Options
	opp  *Opponent
	rec  *Record
}

func (l *loop) printf(format string, args ...any) { fmt.Fprintf(l.out, format, args...) }

func (l *loop) pos() []int { return l.rec.Positions[len(l.rec.Positions)-1] }

func (l *loop) run(ctx context.Context) error {
	l.printf("%s. %s\n", capitalize(l.g.String()), winText(l.g.Play()))
	l.printf("Type help for how to move, undo to take back a move, quit to stop.\n")
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := l.pos()
		l.printf("\n%s", l.g.Render(p))
		more, err := hasMove(l.g, p)
		if err != nil {
			return err
		}
		if !more {
			again, err := l.over()
			if err != nil || !again {
				return err
			}
			continue
		}
		l.rec.Winner = Nobody
		if l.opts.OnTurn != nil {
			l.opts.OnTurn(slices.Clone(p), l.rec.Next())
		}
		if l.rec.Next() == Computer {
			q, err := l.opp.Move(p)
			if err != nil {
				return err
			}
			l.printf("Computer plays %s: %s.\n", l.g.FormatMove(p, q), l.g.Describe(p, q))
			l.rec.Positions = append(l.rec.Positions, q)
			continue
		}
		if l.opts.Hint {
			if err := l.hint(p); err != nil {
				return err
			}
		}
		done, err := l.human(ctx, p)
		if err != nil || done {
			return err
		}
	}
}

// A moveChecker tells whether a position has a move faster than listing
// its moves.
type moveChecker interface {
	HasMove(p []int) (bool, error)
}

// hasMove reports whether the game goes on from p.
func hasMove(g Game, p []int) (bool, error) {
	if mc, ok := g.(moveChecker); ok {
		return mc.HasMove(p)
	}
	ms, err := g.Moves(p)
	return len(ms) > 0, err
}

// human reads lines until the human moves, takes a move back or leaves.
// maxBlankLines empty answers in a row end the game.
const maxBlankLines = 100

func (l *loop) human(ctx context.Context, p []int) (done bool, err error) {
	blank := 0
	for {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		line, err := l.in.ReadLine("your move> ")
		if errors.Is(err, io.EOF) {
			l.printf("Game left unfinished.\n")
			return true, nil
		}
		var long *LongLineError
		if errors.As(err, &long) {
			l.printf("Not a move: %v.\n", err)
			continue
		}
		if err != nil {
			return true, err
		}
		cmd := strings.ToLower(strings.TrimSpace(line))
		switch cmd {
		case "":
			// An input that only ever answers blank lines (a script, a
			// frontend answering for nobody) would otherwise spin forever.
			if blank++; blank == maxBlankLines {
				l.printf("No move after %d empty lines: game left unfinished.\n", maxBlankLines)
				return true, nil
			}
			continue
		case "quit", "q", "exit", "bye":
			l.printf("Game left unfinished.\n")
			return true, nil
		case "help", "h", "?":
			l.help()
			continue
		case "hint":
			if err := l.hint(p); err != nil {
				return true, err
			}
			continue
		case "show", "board", "position":
			l.printf("%s", l.g.Render(p))
			continue
		case "undo", "u", "back":
			if l.undo() {
				return false, nil
			}
			continue
		}
		q, err := l.g.ParseMove(p, line)
		if IsIllegal(err) {
			// A game may quote what was typed: never more than a line's
			// worth of it.
			l.printf("Not a move: %s.\n", Excerpt(err.Error(), 2*MaxEcho))
			continue
		}
		if err != nil {
			return true, err
		}
		l.printf("You play %s: %s.\n", l.g.FormatMove(p, q), l.g.Describe(p, q))
		l.rec.Positions = append(l.rec.Positions, q)
		return false, nil
	}
}

// over announces the end of the game and offers to take back the last
// move; it reports whether play goes on.
func (l *loop) over() (bool, error) {
	n := len(l.rec.Positions) - 1
	if n == 0 {
		l.printf("No move is possible from this position.\n")
		return false, nil
	}
	last := l.rec.Mover(n - 1)
	l.rec.Winner = last
	if l.g.Play() == game.Misere {
		l.rec.Winner = last.other()
	}
	if l.rec.Winner == Human {
		l.printf("Game over: you win!\n")
	} else {
		l.printf("Game over: the computer wins.\n")
	}
	if !slices.Contains(l.rec.movers(), Human) {
		return false, nil
	}
	line, err := l.in.ReadLine("undo to take back your last move, Enter to leave> ")
	var long *LongLineError
	if errors.Is(err, io.EOF) || errors.As(err, &long) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "undo", "u", "back":
		return l.undo(), nil
	}
	return false, nil
}

// undo takes back the human's last move and the computer's reply.
func (l *loop) undo() bool {
	movers := l.rec.movers()
	i := lastIndex(movers, Human)
	if i < 0 {
		l.printf("Nothing to undo: you have not moved yet.\n")
		return false
	}
	l.rec.Positions = l.rec.Positions[:i+1]
	l.rec.Undos++
	l.rec.Winner = Nobody
	l.printf("Taken back: your move%s.\n", map[bool]string{true: " and the computer's reply", false: ""}[i < len(movers)-1])
	return true
}

func lastIndex(ps []Player, p Player) int {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i] == p {
			return i
		}
	}
	return -1
}

func (l *loop) help() {
	l.printf("%s\n", l.g.Notation())
	l.printf(`Commands:
  undo   take back your last move and the computer's reply
  hint   show the values and the winning moves
  show   draw the position again
  help   this text
  quit   stop (also at the end of the input)
`)
}

// hint shows the values of the parts, the outcome and the winning moves;
// a hint the limits refuse is said so, and the game goes on.
func (l *loop) hint(p []int) error {
	err := l.hintText(p)
	if IsRefusal(err) {
		l.printf("Hint: not available here: %s.\n", strings.TrimPrefix(err.Error(), "play: "))
		return nil
	}
	return err
}

func (l *loop) hintText(p []int) error {
	o, err := l.g.Outcome(p)
	if err != nil {
		return err
	}
	if l.g.Play() == game.Normal {
		parts, err := l.g.Values(p)
		switch {
		case err == nil:
			l.printf("Hint: %s\n", valuesText(parts))
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return err // stopped (Ctrl-C): no half hint
		}
		// Values too large for the limits: the outcome and the moves
		// still help.
	} else if mh, ok := l.g.(misereHinter); ok && mh.MisereHint(p) != "" {
		l.printf("Hint: misère play: %s\n", mh.MisereHint(p))
	} else {
		l.printf("Hint: misère play: the outcome is solved on the whole game, not from the values.\n")
	}
	if o == game.P {
		l.printf("      P-position: every move loses against perfect play.\n")
		return nil
	}
	win, err := l.g.WinningMoves(p)
	if err != nil {
		return err
	}
	var ws []string
	for i, w := range win {
		if i == maxListed {
			ws = append(ws, fmt.Sprintf("and %d more", len(win)-maxListed))
			break
		}
		if _, ok := l.g.(selfDescribing); ok {
			ws = append(ws, l.g.FormatMove(p, w))
			continue
		}
		ws = append(ws, fmt.Sprintf("%s (%s)", l.g.FormatMove(p, w), l.g.Describe(p, w)))
	}
	sep := ", "
	if _, ok := l.g.(selfDescribing); ok {
		sep = "; " // each move is a list of cells
	}
	l.printf("      N-position: winning %s: %s.\n", map[bool]string{true: "move", false: "moves"}[len(win) == 1], strings.Join(ws, sep))
	return nil
}

// A selfDescribing game's moves read fully as FormatMove writes them (the
// cells turned over), so hints list them without a description.
type selfDescribing interface {
	selfDescribing()
}

// valuesText writes "heap 1 (1) = 1, heap 2 (3) = 3; 1 ⊕ 3 = 2".
func valuesText(parts []Part) string {
	if len(parts) == 0 {
		return "no part left: value 0"
	}
	var each, xs []string
	var x uint64
	for _, pt := range parts {
		each = append(each, fmt.Sprintf("%s = %d", pt.Label, pt.Value))
		xs = append(xs, fmt.Sprint(pt.Value))
		x ^= pt.Value
	}
	s := "values " + strings.Join(each, ", ")
	if len(parts) > 1 {
		s += fmt.Sprintf("; nim-sum %s = %d", strings.Join(xs, " ⊕ "), x)
	}
	return s
}

func winText(p game.Play) string {
	if p == game.Misere {
		return "Misère play: whoever makes the last move loses."
	}
	return "Normal play: whoever makes the last move wins."
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
