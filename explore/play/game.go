package play

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
)

// Game is one family of games as the play loop sees it: the rules, the
// outcome of positions, and a way to talk about moves. Positions are lists of
// integers in the family's position form (SPEC.md): heaps for heap games,
// [a, b] for Wythoff's game, the sorted numbers of the heads for coins. A
// Game does not hold a position; the loop does.
type Game interface {
	// String names the game, e.g. Kayles as octal 0.77.
	String() string
	// Play is the winning convention.
	Play() game.Play
	// Check reports whether p is a position of the game, saying why not.
	Check(p []int) error
	// Moves lists every position one move from p.
	Moves(p []int) ([][]int, error)
	// WinningMoves lists the moves of p to P-positions under Play; none
	// from a P-position.
	WinningMoves(p []int) ([][]int, error)
	// Outcome is P or N under Play.
	Outcome(p []int) (game.Outcome, error)
	// Values returns the normal-play Grundy values of the parts of p (its
	// heaps, its heads; Wythoff's game is one part) for hints.
	Values(p []int) ([]Part, error)
	// ParseMove reads a move typed in the family's notation and returns
	// the position it leads to, or an *IllegalMove saying why it is not
	// a move.
	ParseMove(p []int, s string) ([]int, error)
	// FormatMove writes the move from → to in the notation ParseMove
	// reads, e.g. "3 2"; Describe says it in words, e.g. "take 2 from
	// heap 3".
	FormatMove(from, to []int) string
	Describe(from, to []int) string
	// Render draws the position as text, ending with a newline.
	Render(p []int) string
	// Notation explains how to type a move, for help.
	Notation() string
	// Size measures how much game is left in p: larger positions can
	// last longer. The computer uses it to make a lost game last.
	Size(p []int) float64
	// JobGame is the game in a job file's flow form, e.g.
	// "{nim: {heaps: [1, 3, 5, 7]}}"; start is the starting position.
	JobGame(start []int) string
}

// Part is one component of a position and its normal-play Grundy value, e.g.
// heap 3 of 5 tokens, worth 5 in Nim.
type Part struct {
	Label string // e.g. "heap 3 (5)", "coin 7", "(7,12)"
	Value uint64
}

// IllegalMove says why a typed move is not a move of the game from the
// current position. Its message is meant for the player.
type IllegalMove struct{ Reason string }

func (e *IllegalMove) Error() string { return e.Reason }

func illegal(format string, args ...any) error {
	return &IllegalMove{Reason: fmt.Sprintf(format, args...)}
}

// IsIllegal reports whether err is an *IllegalMove.
func IsIllegal(err error) bool {
	var im *IllegalMove
	return errors.As(err, &im)
}

// negative finds a minus sign: a dash before a digit, at the start or
// after anything but a digit ("3-2" separates, "-1" and "3 -2" are
// negative).
var negative = regexp.MustCompile(`(?:^|[^0-9])-[0-9]+`)

// numbers reads the integers of a move such as "3 2", "3,2", "3-2" or
// "(1, 4)"; anything but digits, blanks and the separators , ; : - ( ) [ ]
// makes it not a move.
func numbers(s string) ([]int, error) {
	if m := negative.FindString(s); m != "" {
		return nil, illegal("%q: heaps, coins and counts are never negative", Excerpt(m[strings.IndexByte(m, '-'):], 20))
	}
	var out []int
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == ';' || r == ':' || r == '-' ||
			r == '(' || r == ')' || r == '[' || r == ']' || r == '>' || r == '='
	})
	for _, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 {
			return nil, illegal("I do not understand %q: a move is made of numbers (type help)", Excerpt(f, 40))
		}
		out = append(out, v)
	}
	return out, nil
}

// isTarget reports whether a typed move names the position it leads to,
// written in brackets or after "=" or "->": "(2,4)", "[1,3,4]", "= 2 4".
func isTarget(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for _, p := range []string{"(", "[", "=", "->", "to "} {
		if strings.HasPrefix(s, p) {
			return s, true
		}
	}
	return s, false
}

// formatPos writes a position as (1,3,5,7).
func formatPos(p []int) string {
	parts := make([]string, len(p))
	for i, v := range p {
		parts[i] = strconv.Itoa(v)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// flowList writes a YAML flow list of integers: [1, 3, 5, 7].
func flowList(p []int) string {
	parts := make([]string, len(p))
	for i, v := range p {
		parts[i] = strconv.Itoa(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// findMove returns the member of moves equal to q.
func findMove(moves [][]int, q []int) ([]int, bool) {
	for _, m := range moves {
		if slices.Equal(m, q) {
			return m, true
		}
	}
	return nil, false
}

// filterWinning keeps the moves to P-positions.
func filterWinning(moves [][]int, outcome func([]int) (game.Outcome, error)) ([][]int, error) {
	var out [][]int
	for _, m := range moves {
		o, err := outcome(m)
		if err != nil {
			return nil, err
		}
		if o == game.P {
			out = append(out, m)
		}
	}
	return out, nil
}

func playKey(p game.Play) string {
	if p == game.Misere {
		return ", play: misere"
	}
	return ""
}
