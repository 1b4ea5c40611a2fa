package play

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
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
	players, result := r.summary()
	var b strings.Builder
	b.WriteString("# A game played with nimbook play. Analyse it with: nimbook run THIS-FILE\n")
	fmt.Fprintf(&b, "title: %q\n", "A game of "+r.Game.String())
	b.WriteString("sections:\n")
	b.WriteString("  - title: \"The game, move by move\"\n")
	b.WriteString("    text: |\n")
	fmt.Fprintf(&b, "      %s\n", players)
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

// summary says who player 1 and 2 were and how the game ended.
func (r *Record) summary() (players, result string) {
	p1, p2 := "you", "the computer"
	if r.First == Computer {
		p1, p2 = p2, p1
	}
	result = "The game was left unfinished."
	switch r.Winner {
	case Human:
		result = "You won."
	case Computer:
		result = "The computer won."
	}
	return fmt.Sprintf("Player 1 is %s, player 2 %s (computer level %s, seed %d).", p1, p2, r.Level, r.Seed), result
}

// A StarlarkPositioner is a game defined in Starlark: it writes a position
// as the Starlark expression the game's move function takes.
type StarlarkPositioner interface {
	StarlarkPosition(p []int) string
}

// WriteNotebook writes the record of a game defined in a Starlark file as
// a Markdown notebook that `nimbook run` analyses, since a job file cannot
// hold a move function: a cell with the file's source src, then a cell
// calling name.record with the positions played. The game must be a
// StarlarkPositioner.
func (r *Record) WriteNotebook(w io.Writer, file string, src []byte, name string) error {
	if len(r.Positions) < 2 {
		return ErrNoMoves
	}
	sp, ok := r.Game.(StarlarkPositioner)
	if !ok {
		return fmt.Errorf("play: %s is not a game defined in Starlark; save it with WriteJob", r.Game)
	}
	players, result := r.summary()
	// A fence longer than any run of backticks in the source.
	fence := "```"
	for strings.Contains(string(src), fence) {
		fence += "`"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# A game of %s\n\n", r.Game)
	fmt.Fprintf(&b, "Played with nimbook play; analyse it with: nimbook run THIS-FILE (add -o game.html for a report).\n%s %s\n\n", players, result)
	fmt.Fprintf(&b, "The game, as defined in %s:\n\n", filepath.Base(file))
	fmt.Fprintf(&b, "%snimbook\n%s\n%s\n\n", fence, strings.TrimRight(string(src), "\n"), fence)
	b.WriteString("## The game, move by move\n\n```nimbook\n")
	fmt.Fprintf(&b, "%s.record([\n", name)
	for _, p := range r.Positions {
		fmt.Fprintf(&b, "    %s,\n", sp.StarlarkPosition(p))
	}
	b.WriteString("])\n```\n")
	_, err := io.WriteString(w, b.String())
	return err
}
