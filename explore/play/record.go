package play

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Record is a game as played: the start and the position after each move.
// Moves taken back are not in it.
type Record struct {
	Game Game
	// Positions holds the start, then the position after each move.
	Positions [][]int
	// First made the first move: player 1 of a record's analysis.
	First Player
	Level Level
	Seed  uint64
	// Winner is who won, when the game is over; Nobody otherwise.
	Winner Player
	// Undos counts the moves taken back.
	Undos int
}

// Mover returns who made move i (from 0).
func (r *Record) Mover(i int) Player {
	if i%2 == 0 {
		return r.First
	}
	return r.First.other()
}

// Next returns who moves next.
func (r *Record) Next() Player { return r.Mover(len(r.Positions) - 1) }

func (r *Record) movers() []Player {
	out := make([]Player, len(r.Positions)-1)
	for i := range out {
		out[i] = r.Mover(i)
	}
	return out
}

// jobPositioner is a Game whose job files write positions in another form
// than its list of integers: a product's cells as coordinate lists.
type jobPositioner interface {
	JobPosition(p []int) string
}

// ErrNoMoves is returned by WriteJob for a record without a move: a job's
// record needs at least two positions.
var ErrNoMoves = errors.New("play: no move was played")

// WriteJob writes the record as a job file that `nimbook run` analyses:
// one section with the game, `record:` and `show: [record]`. Player 1 of
// the analysis is whoever moved first; the section's text says who that
// was.
func (r *Record) WriteJob(w io.Writer) error {
	if len(r.Positions) < 2 {
		return ErrNoMoves
	}
	p1, p2 := "you", "the computer"
	if r.First == Computer {
		p1, p2 = p2, p1
	}
	result := "The game was left unfinished."
	switch r.Winner {
	case Human:
		result = "You won."
	case Computer:
		result = "The computer won."
	}
	var b strings.Builder
	b.WriteString("# A game played with nimbook play. Analyse it with: nimbook run THIS-FILE\n")
	fmt.Fprintf(&b, "title: %q\n", "A game of "+r.Game.String())
	b.WriteString("sections:\n")
	b.WriteString("  - title: \"The game, move by move\"\n")
	b.WriteString("    text: |\n")
	fmt.Fprintf(&b, "      Player 1 is %s, player 2 %s (computer level %s, seed %d).\n", p1, p2, r.Level, r.Seed)
	fmt.Fprintf(&b, "      %s\n", result)
	fmt.Fprintf(&b, "    game: %s\n", r.Game.JobGame(r.Positions[0]))
	b.WriteString("    record:\n")
	write := flowList
	if jp, ok := r.Game.(jobPositioner); ok {
		write = jp.JobPosition
	}
	for _, p := range r.Positions {
		fmt.Fprintf(&b, "      - %s\n", write(p))
	}
	b.WriteString("    show: [record]\n")
	_, err := io.WriteString(w, b.String())
	return err
}
