package play

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// Wythoff plays Wythoff's game: positions are [a, b], two heaps called a and
// b; a move takes any number of tokens from one heap, or the same number from
// both.
type Wythoff struct {
	play   game.Play
	opts   wythoff.Options
	table  *wythoff.Table
	solver *game.Solver[[2]int] // misère play
}

// NewWythoff returns Wythoff's game under play; opts bound the Grundy tables
// of hints and the positions solved under misère play.
func NewWythoff(play game.Play, opts wythoff.Options) (*Wythoff, error) {
	w := &Wythoff{play: play, opts: opts}
	if play == game.Misere {
		s, err := game.NewSolver(wythoff.Mover, game.Options{Play: game.Misere, MaxPositions: opts.MaxCells, Context: opts.Context})
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		w.solver = s
	}
	return w, nil
}

func (w *Wythoff) String() string {
	if w.play == game.Misere {
		return "Wythoff's game, misère play"
	}
	return "Wythoff's game"
}

func (w *Wythoff) Play() game.Play { return w.play }

func (w *Wythoff) Check(p []int) error {
	if len(p) != 2 {
		return fmt.Errorf("play: Wythoff's game has two heaps, not %d", len(p))
	}
	for i, n := range p {
		if n < 0 || n > maxHeap {
			return fmt.Errorf("play: heap %c has %d tokens; heaps hold 0 to %d", 'a'+i, n, maxHeap)
		}
	}
	return nil
}

func pair(p []int) [2]int { return [2]int{p[0], p[1]} }

func (w *Wythoff) Moves(p []int) ([][]int, error) {
	ms := wythoff.Moves(pair(p))
	out := make([][]int, len(ms))
	for i, m := range ms {
		out[i] = []int{m[0], m[1]}
	}
	return out, nil
}

func (w *Wythoff) Outcome(p []int) (game.Outcome, error) {
	if w.solver != nil {
		o, err := w.solver.Outcome(pair(p))
		if err != nil {
			return 0, fmt.Errorf("play: %w", err)
		}
		return o, nil
	}
	return wythoff.Outcome(p[0], p[1], game.Normal)
}

func (w *Wythoff) WinningMoves(p []int) ([][]int, error) {
	if w.solver != nil {
		ms, _ := w.Moves(p)
		return filterWinning(ms, w.Outcome)
	}
	ms, err := wythoff.WinningMoves(p[0], p[1], game.Normal)
	if err != nil {
		return nil, err
	}
	out := make([][]int, len(ms))
	for i, m := range ms {
		out[i] = []int{m[0], m[1]}
	}
	return out, nil
}

// Values returns g(a, b) from a Grundy table, computed once for the largest
// position asked (positions only shrink in play).
func (w *Wythoff) Values(p []int) ([]Part, error) {
	if w.table == nil || p[0] >= w.table.Rows() || p[1] >= w.table.Cols() {
		t, err := wythoff.NewTableOptions(p[0]+1, p[1]+1, w.opts)
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		w.table = t
	}
	return []Part{{Label: formatPos(p), Value: w.table.At(p[0], p[1])}}, nil
}

func (w *Wythoff) Size(p []int) float64 { return float64(p[0] + p[1]) }

var wythoffTake = regexp.MustCompile(`^(a|b|ab|both|d|diag|first|second|left|right)\s*:?\s*(\d+)$`)

func (w *Wythoff) ParseMove(p []int, s string) ([]int, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if m := wythoffTake.FindStringSubmatch(s); m != nil {
		k, err := strconv.Atoi(m[2])
		if err != nil {
			return nil, illegal("%q is too large", m[2])
		}
		return w.take(p, m[1], k)
	}
	t, _ := isTarget(s)
	nums, err := numbers(t)
	if err != nil {
		return nil, illegal("I do not understand %q: type a 3, b 3 or both 3 to take 3 tokens, or the position after your move, e.g. (%d,%d)", s, p[0], max(0, p[1]-1))
	}
	if len(nums) != 2 {
		return nil, illegal("write the two heaps after your move, e.g. (%d,%d), or a 3, b 3, both 3", p[0], max(0, p[1]-1))
	}
	return w.target(p, nums)
}

func (w *Wythoff) take(p []int, heap string, k int) ([]int, error) {
	if k == 0 {
		return nil, illegal("take at least one token")
	}
	switch heap {
	case "a", "first", "left":
		if k > p[0] {
			return nil, illegal("heap a has only %s", plural(p[0], "token", "tokens"))
		}
		return []int{p[0] - k, p[1]}, nil
	case "b", "second", "right":
		if k > p[1] {
			return nil, illegal("heap b has only %s", plural(p[1], "token", "tokens"))
		}
		return []int{p[0], p[1] - k}, nil
	}
	if k > min(p[0], p[1]) {
		return nil, illegal("taking %d from both heaps needs %d in each: heap a has %d, heap b %d", k, k, p[0], p[1])
	}
	return []int{p[0] - k, p[1] - k}, nil
}

func (w *Wythoff) target(p, q []int) ([]int, error) {
	da, db := p[0]-q[0], p[1]-q[1]
	switch {
	case da < 0 || db < 0:
		return nil, illegal("you cannot add tokens: the heaps are %s now", formatPos(p))
	case da == 0 && db == 0:
		return nil, illegal("%s is the position now: a move takes at least one token", formatPos(q))
	case da != 0 && db != 0 && da != db:
		return nil, illegal("%s → %s takes %d from heap a and %d from heap b: take from one heap, or the same number from both", formatPos(p), formatPos(q), da, db)
	}
	return q, nil
}

func (w *Wythoff) FormatMove(from, to []int) string {
	da, db := from[0]-to[0], from[1]-to[1]
	switch {
	case db == 0:
		return fmt.Sprintf("a %d", da)
	case da == 0:
		return fmt.Sprintf("b %d", db)
	}
	return fmt.Sprintf("both %d", da)
}

func (w *Wythoff) Describe(from, to []int) string {
	da, db := from[0]-to[0], from[1]-to[1]
	switch {
	case db == 0:
		return fmt.Sprintf("take %d from heap a, to %s", da, formatPos(to))
	case da == 0:
		return fmt.Sprintf("take %d from heap b, to %s", db, formatPos(to))
	}
	return fmt.Sprintf("take %d from both heaps, to %s", da, formatPos(to))
}

func (w *Wythoff) Render(p []int) string {
	most := max(p[0], p[1])
	var b strings.Builder
	for i, n := range p {
		fmt.Fprintf(&b, "  heap %c  ", 'a'+i)
		if most <= maxSticks {
			b.WriteString(strings.Repeat("| ", n))
			b.WriteString(strings.Repeat("  ", most-n))
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%d\n", n)
	}
	fmt.Fprintf(&b, "  position %s\n", formatPos(p))
	return b.String()
}

func (w *Wythoff) Notation() string {
	return `Two heaps, a and b. A move takes any number of tokens from one heap, or the
same number from both:
   a 3      takes 3 from heap a        b 3   takes 3 from heap b
   both 3   takes 3 from each heap
or write the position after your move:   (2,4)   or   2 4.`
}

func (w *Wythoff) JobGame(start []int) string {
	if w.play == game.Misere {
		return "{wythoff: {play: misere}}"
	}
	return "{wythoff: {}}"
}
