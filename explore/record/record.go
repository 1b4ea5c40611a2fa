package record

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
)

// Options tune Analyse. The zero value is normal play with the solver's
// default position budget.
type Options struct {
	// Play decides who wins and which moves are mistakes.
	Play game.Play
	// MaxPositions bounds the positions the solver may visit; 0 means
	// game.DefaultMaxPositions.
	MaxPositions int
	// MaxMemory bounds the bytes the solver holds, estimated as it grows;
	// 0 means no bound.
	MaxMemory int64
	// Context, when not nil, stops the solver once it is done, with an
	// error wrapping budget.Err of it.
	Context context.Context
}

// Move is the analysis of one move of a record, From → To.
type Move[T comparable] struct {
	// Index is the move's rank in the record, from 0: it goes from
	// positions[Index] to positions[Index+1].
	Index int
	// Player is 1 or 2; player 1 makes the first move.
	Player int
	// From and To are the positions before and after the move.
	From, To T
	// Legal reports that To is one of the moves of From. For an illegal
	// move only the fields about From are filled.
	Legal bool
	// GrundyBefore and GrundyAfter are the normal-play Grundy values of
	// From and To, whatever the play.
	GrundyBefore, GrundyAfter uint64
	// Before and After are the outcomes of From and To under the play.
	Before, After game.Outcome
	// Mistake reports a move to an N-position when a move to a P-position
	// existed, that is a move that gave away a won game.
	Mistake bool
	// Missed lists, for a mistake, every winning move from From in the
	// order the move function gives them; it is nil otherwise.
	Missed []T
}

// Winning reports a legal move to a P-position.
func (m Move[T]) Winning() bool { return m.Legal && m.After == game.P }

// String returns one line such as
// "2. player 2: [1 3 5 5] → [1 3 3 5]  N→N (g 2→4)  MISTAKE, missed [1 1 5 5]".
func (m Move[T]) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d. player %d: %v → %v", m.Index+1, m.Player, m.From, m.To)
	if !m.Legal {
		fmt.Fprintf(&b, "  ILLEGAL (from %v, g %d)", m.Before, m.GrundyBefore)
		return b.String()
	}
	fmt.Fprintf(&b, "  %v→%v (g %d→%d)", m.Before, m.After, m.GrundyBefore, m.GrundyAfter)
	if m.Mistake {
		b.WriteString("  MISTAKE, missed")
		for i, q := range m.Missed {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %v", q)
		}
	}
	return b.String()
}

// Analysis is the move-by-move analysis of a game record.
type Analysis[T comparable] struct {
	Play game.Play
	// Start is the first position of the record; StartOutcome says who
	// should win from it (N: player 1, P: player 2).
	Start        T
	StartOutcome game.Outcome
	// Moves holds one entry per analysed move. Analysis stops at the
	// first illegal move, which is the last entry.
	Moves []Move[T]
	// Illegal is the index in Moves of the illegal move, or -1.
	Illegal int
	// Over reports that the record is legal and ends on a terminal
	// position; Winner is then the winning player (1 or 2), else 0.
	Over   bool
	Winner int
}

// Mistakes returns the indices of the moves that were mistakes.
func (a *Analysis[T]) Mistakes() []int {
	var out []int
	for _, m := range a.Moves {
		if m.Mistake {
			out = append(out, m.Index)
		}
	}
	return out
}

// String returns a summary: the start, one line per move, then the end.
func (a *Analysis[T]) String() string {
	var b strings.Builder
	should := 1
	if a.StartOutcome == game.P {
		should = 2
	}
	fmt.Fprintf(&b, "%v play from %v (%v: player %d should win), %d moves\n", a.Play, a.Start, a.StartOutcome, should, len(a.Moves))
	for _, m := range a.Moves {
		b.WriteString(m.String())
		b.WriteByte('\n')
	}
	switch {
	case a.Illegal >= 0:
		fmt.Fprintf(&b, "stopped at illegal move %d\n", a.Illegal+1)
	case a.Over:
		fmt.Fprintf(&b, "game over: player %d wins\n", a.Winner)
	default:
		b.WriteString("game not over\n")
	}
	if ms := a.Mistakes(); len(ms) > 0 {
		b.WriteString("mistakes: move")
		for _, i := range ms {
			fmt.Fprintf(&b, " %d", i+1)
		}
		b.WriteByte('\n')
	} else {
		b.WriteString("no mistakes\n")
	}
	return b.String()
}

// Analyse reads the record positions[0] → positions[1] → … of the game m,
// player 1 moving first. An illegal move is a finding, not an error: it is
// reported in the result and the analysis stops there, because the
// positions after it do not belong to this game. Errors come from the
// move function, the solver (a cycle, the position budget) or an empty
// record.
func Analyse[T comparable](m game.Mover[T], positions []T, opts Options) (*Analysis[T], error) {
	if m == nil {
		return nil, errors.New("record: nil move function")
	}
	if len(positions) == 0 {
		return nil, errors.New("record: empty record (want at least the start position)")
	}
	s, err := game.NewSolver(m, game.Options{Play: opts.Play, MaxPositions: opts.MaxPositions, MaxMemory: opts.MaxMemory, Context: opts.Context})
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	type info struct {
		g uint64
		o game.Outcome
	}
	solve := func(p T) (info, error) {
		g, err := s.Grundy(p)
		if err != nil {
			return info{}, fmt.Errorf("record: %w", err)
		}
		o, err := s.Outcome(p)
		if err != nil {
			return info{}, fmt.Errorf("record: %w", err)
		}
		return info{g, o}, nil
	}
	start, err := solve(positions[0])
	if err != nil {
		return nil, err
	}
	a := &Analysis[T]{Play: opts.Play, Start: positions[0], StartOutcome: start.o, Illegal: -1}
	before := start
	for i := 0; i+1 < len(positions); i++ {
		from, to := positions[i], positions[i+1]
		mv := Move[T]{Index: i, Player: 1 + i%2, From: from, To: to, GrundyBefore: before.g, Before: before.o}
		options, err := m.Moves(from)
		if err != nil {
			return nil, fmt.Errorf("record: moves of %v: %w", from, err)
		}
		for _, q := range options {
			if q == to {
				mv.Legal = true
				break
			}
		}
		if !mv.Legal {
			a.Moves = append(a.Moves, mv)
			a.Illegal = i
			return a, nil
		}
		after, err := solve(to)
		if err != nil {
			return nil, err
		}
		mv.GrundyAfter, mv.After = after.g, after.o
		if before.o == game.N && after.o == game.N {
			// From an N-position some move reaches a P-position, so a move
			// to an N-position threw the win away.
			mv.Mistake = true
			if mv.Missed, err = s.WinningMoves(from); err != nil {
				return nil, fmt.Errorf("record: %w", err)
			}
		}
		a.Moves = append(a.Moves, mv)
		before = after
	}
	last, err := m.Moves(positions[len(positions)-1])
	if err != nil {
		return nil, fmt.Errorf("record: moves of %v: %w", positions[len(positions)-1], err)
	}
	if len(last) == 0 {
		a.Over = true
		// The player to move cannot: under normal play they lose, under
		// misère play their opponent has just made the last move and lost.
		toMove := 1 + len(a.Moves)%2
		a.Winner = 3 - toMove
		if opts.Play == game.Misere {
			a.Winner = toMove
		}
	}
	return a, nil
}
