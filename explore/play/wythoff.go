package play

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// Wythoff's game in job sections and by name: the command line's start
// is (7, 12).
func init() {
	registerPlayer([]int{7, 12}, func(s *job.Section, _ *job.WythoffSpec, play game.Play, lim Limits) (Game, []int, error) {
		g, err := NewWythoff(play, lim.Wythoff())
		start, _ := s.Position.([]int)
		return g, start, err
	})
}

// Wythoff plays Wythoff's game: positions are [a, b], two heaps called a and
// b; a move takes any number of tokens from one heap, or the same number from
// both. Under normal play outcomes and winning moves come from the Beatty
// pairs, without listing the moves (a+b+min(a,b) of them); under misère play
// every smaller position is solved, (a+1)(b+1) cells within opts.MaxCells.
type Wythoff struct {
	play  game.Play
	opts  wythoff.Options
	table *wythoff.Table
}

// NewWythoff returns Wythoff's game under play; opts bound the Grundy tables
// of hints and the positions solved under misère play, and their Context
// stops them.
func NewWythoff(play game.Play, opts wythoff.Options) (*Wythoff, error) {
	if play != game.Normal && play != game.Misere {
		return nil, fmt.Errorf("play: unknown play %d", int(play))
	}
	return &Wythoff{play: play, opts: opts}, nil
}

func (w *Wythoff) maxCells() int {
	if w.opts.MaxCells > 0 {
		return w.opts.MaxCells
	}
	return wythoff.DefaultMaxCells
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
		if n < 0 || n > wythoff.MaxHeap {
			return fmt.Errorf("play: heap %c has %d tokens; heaps hold 0 to %d", 'a'+i, n, wythoff.MaxHeap)
		}
	}
	if w.play == game.Misere {
		if cells := float64(p[0]+1) * float64(p[1]+1); cells > float64(w.maxCells()) {
			return tooLarge("play: misère Wythoff from %s is solved on all %.0f positions up to it, more than the limit of %d positions; raise the limit with --max-positions, or start from a smaller position",
				formatPos(p), cells, w.maxCells())
		}
	}
	return nil
}

func pair(p []int) [2]int { return [2]int{p[0], p[1]} }

func (w *Wythoff) Moves(p []int) ([][]int, error) {
	if n := w.moveCount(p); n > float64(w.maxCells()) {
		return nil, tooLarge("play: %s has %.0f moves, more than the limit of %d positions; raise the limit with --max-positions", formatPos(p), n, w.maxCells())
	}
	ms := wythoff.Moves(pair(p))
	out := make([][]int, len(ms))
	for i, m := range ms {
		out[i] = []int{m[0], m[1]}
	}
	return out, nil
}

// HasMove reports whether a heap is not empty.
func (w *Wythoff) HasMove(p []int) (bool, error) { return p[0] > 0 || p[1] > 0, nil }

func (w *Wythoff) Outcome(p []int) (game.Outcome, error) {
	o, err := wythoff.OutcomeOptions(p[0], p[1], w.play, w.opts)
	if err != nil {
		return 0, fmt.Errorf("play: %w", err)
	}
	return o, nil
}

func (w *Wythoff) WinningMoves(p []int) ([][]int, error) {
	if w.play == game.Misere {
		ms, err := wythoff.WinningMovesOptions(p[0], p[1], w.play, w.opts)
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		out := make([][]int, len(ms))
		for i, m := range ms {
			out[i] = []int{m[0], m[1]}
		}
		return out, nil
	}
	return w.normalWinning(p)
}

// normalWinning finds the moves to P-positions under normal play from
// the Beatty pairs: each heap size n ≥ 1 is in exactly one P-position,
// (n, m) with m near nφ or n/φ, and each difference k in exactly one,
// (⌊kφ⌋, ⌊kφ⌋+k). So there are at most three winning moves: to the
// partner of a, to the partner of b, and along the diagonal.
func (w *Wythoff) normalWinning(p []int) ([][]int, error) {
	a, b := p[0], p[1]
	var out [][]int
	add := func(x, y int) error {
		if x < 0 || y < 0 || x > a || y > b || (x == a && y == b) {
			return nil
		}
		if da, db := a-x, b-y; da != 0 && db != 0 && da != db {
			return nil
		}
		o, err := wythoff.Outcome(x, y, game.Normal)
		if err != nil {
			return fmt.Errorf("play: %w", err)
		}
		if o == game.P && !slices.ContainsFunc(out, func(q []int) bool { return q[0] == x && q[1] == y }) {
			out = append(out, []int{x, y})
		}
		return nil
	}
	// candidates lists the integers within 3 of x·f, clamped at 0.
	candidates := func(n int, f float64) []int {
		c := int(math.Round(float64(n) * f))
		var out []int
		for d := -3; d <= 3; d++ {
			if c+d >= 0 {
				out = append(out, c+d)
			}
		}
		return out
	}
	const phi = 1.6180339887498949
	for _, m := range append(candidates(a, phi), candidates(a, 1/phi)...) {
		if err := add(a, m); err != nil { // b shrinks to a's partner
			return nil, err
		}
	}
	for _, m := range append(candidates(b, phi), candidates(b, 1/phi)...) {
		if err := add(m, b); err != nil { // a shrinks to b's partner
			return nil, err
		}
	}
	k := b - a
	for _, x := range candidates(abs(k), phi) { // the pair of difference |k|
		var err error
		if k >= 0 {
			err = add(x, x+k)
		} else {
			err = add(x-k, x)
		}
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, slices.Compare[[]int])
	if out == nil {
		out = [][]int{}
	}
	return out, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// moveCount is the number of moves of p: a + b + min(a, b).
func (w *Wythoff) moveCount(p []int) float64 {
	return float64(p[0]) + float64(p[1]) + float64(min(p[0], p[1]))
}

// randomMove draws one of the moves of p uniformly without listing them.
func (w *Wythoff) randomMove(p []int, rng *rand.Rand) ([]int, error) {
	a, b := p[0], p[1]
	n := a + b + min(a, b)
	if n == 0 {
		return nil, fmt.Errorf("play: no move from %s", formatPos(p))
	}
	i := rng.IntN(n)
	switch {
	case i < a:
		return []int{i, b}, nil
	case i < a+b:
		return []int{a, i - a}, nil
	}
	d := i - a - b + 1
	return []int{a - d, b - d}, nil
}

// largestMoves lists up to n of the moves of p that leave the most
// tokens, in that order: r = 1, 2, ... tokens taken from a, from b, or r/2
// from both.
func (w *Wythoff) largestMoves(p []int, n int) [][]int {
	a, b := p[0], p[1]
	var out [][]int
	for r := 1; len(out) < n && r <= a+b; r++ {
		if r <= a {
			out = append(out, []int{a - r, b})
		}
		if r <= b {
			out = append(out, []int{a, b - r})
		}
		if d := r / 2; r%2 == 0 && d <= min(a, b) {
			out = append(out, []int{a - d, b - d})
		}
	}
	return out
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
			return nil, illegal("%q is too large", Excerpt(m[2], 40))
		}
		return w.take(p, m[1], k)
	}
	t, _ := isTarget(s)
	nums, err := numbers(t)
	if err != nil {
		return nil, illegal("I do not understand %q: type a 3, b 3 or both 3 to take 3 tokens, or the position after your move, e.g. (%d,%d)", Excerpt(s, 40), p[0], max(0, p[1]-1))
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
