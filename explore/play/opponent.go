package play

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
)

// Level is how well the computer plays.
type Level struct {
	Name string
	// Slip is the probability that the computer plays a move at random
	// (uniformly among all its moves) instead of its best move.
	Slip float64
}

// The levels nimbook play offers.
var (
	// Perfect plays a winning move whenever one exists.
	Perfect = Level{Name: "perfect"}
	// Beginner plays at random two moves in five, so that a player who
	// knows the strategy can catch it out.
	Beginner = Level{Name: "beginner", Slip: 0.4}
)

// ParseLevel reads "perfect" or "beginner".
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(s) {
	case "perfect", "":
		return Perfect, nil
	case "beginner":
		return Beginner, nil
	}
	return Level{}, fmt.Errorf("play: unknown level %q; write perfect or beginner", s)
}

func (l Level) String() string { return l.Name }

// lookahead is the most options whose replies the computer examines when
// it must play from a P-position; beyond it, it only keeps the most game.
const lookahead = 400

// A randomMover draws a move uniformly without listing every move (Nim's
// heaps and Wythoff's may hold 2^40 tokens).
type randomMover interface {
	randomMove(p []int, rng *rand.Rand) ([]int, error)
}

// A largeMover counts the moves of p without listing them, and lists the
// n that leave the most game.
type largeMover interface {
	moveCount(p []int) float64
	largestMoves(p []int, n int) [][]int
}

// Opponent chooses the computer's moves. Given the same game, level and
// seed it makes the same moves.
type Opponent struct {
	g     Game
	level Level
	rng   *rand.Rand
}

// NewOpponent returns the computer player of g at level, its random choices
// drawn from seed.
func NewOpponent(g Game, level Level, seed uint64) *Opponent {
	return &Opponent{g: g, level: level, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Move returns the position the computer moves to from p. With no slip, it
// is a winning move, chosen at random among them, whenever one exists. From
// a P-position (every move loses against perfect play) the computer tries to
// make the game last, so that the human has many chances to go wrong:
//
//   - in Nim (any number taken, or a heap rule that allows every amount up
//     to the largest heap), seed 000's advice: take one token from a heap
//     whose lowest set bit is as low as possible;
//   - elsewhere, look one exchange ahead: prefer the move after which the
//     opponent's winning replies leave the most game (Game.Size), then the
//     move that itself leaves the most, ties broken at random.
//
// Move returns an error when p has no move.
func (o *Opponent) Move(p []int) ([]int, error) {
	slip := o.rng.Float64() < o.level.Slip
	if slip {
		if rm, ok := o.g.(randomMover); ok {
			return rm.randomMove(p, o.rng)
		}
		ms, err := o.g.Moves(p)
		if err != nil {
			return nil, err
		}
		if len(ms) == 0 {
			return nil, fmt.Errorf("play: no move from %s", formatPos(p))
		}
		return ms[o.rng.IntN(len(ms))], nil
	}
	win, err := o.g.WinningMoves(p)
	if err != nil {
		return nil, err
	}
	if len(win) > 0 {
		return win[o.rng.IntN(len(win))], nil
	}
	if h, ok := o.g.(*Heaps); ok && h.takesAny(p) {
		return o.nimProlong(p)
	}
	return o.prolong(p)
}

// nimProlong takes one token from a heap whose lowest set bit is lowest:
// the reply that restores a nim-sum of 0 then changes only those low bits.
func (o *Opponent) nimProlong(p []int) ([]int, error) {
	best, cands := 64, []int(nil)
	for i, n := range p {
		if n == 0 {
			continue
		}
		b := bits.TrailingZeros64(uint64(n))
		switch {
		case b < best:
			best, cands = b, []int{i}
		case b == best:
			cands = append(cands, i)
		}
	}
	if cands == nil {
		return nil, fmt.Errorf("play: no move from %s", formatPos(p))
	}
	i := cands[o.rng.IntN(len(cands))]
	q := append([]int(nil), p...)
	q[i]--
	return q, nil
}

// prolong plays from a P-position so that the game lasts.
func (o *Opponent) prolong(p []int) ([]int, error) {
	var ms [][]int
	var err error
	if lm, ok := o.g.(largeMover); ok && lm.moveCount(p) > lookahead {
		// Too many moves to weigh, or even to list: the moves that leave
		// the most game are the candidates.
		ms = lm.largestMoves(p, lookahead)
	} else if ms, err = o.g.Moves(p); err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("play: no move from %s", formatPos(p))
	}
	type score struct{ after, now float64 }
	scores := make([]score, len(ms))
	for i, m := range ms {
		scores[i] = score{now: o.g.Size(m)}
		if len(ms) > lookahead {
			continue
		}
		replies, err := o.g.WinningMoves(m)
		if err != nil {
			return nil, err
		}
		least := o.g.Size(m)
		for j, r := range replies {
			if s := o.g.Size(r); j == 0 || s < least {
				least = s
			}
		}
		scores[i].after = least
	}
	var best []int
	for i, s := range scores {
		if best == nil {
			best = []int{i}
			continue
		}
		b := scores[best[0]]
		switch {
		case s.after > b.after || (s.after == b.after && s.now > b.now):
			best = []int{i}
		case s == b:
			best = append(best, i)
		}
	}
	return ms[best[o.rng.IntN(len(best))]], nil
}
