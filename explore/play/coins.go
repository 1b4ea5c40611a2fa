package play

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/job"
)

// Coin games in job sections; the command line builds them from its
// flags.
func init() {
	registerPlayer(nil, func(s *job.Section, c *job.CoinsSpec, play game.Play, lim Limits) (Game, []int, error) {
		cg, err := c.NewGame()
		if err != nil {
			return nil, nil, fmt.Errorf("play: %w", err)
		}
		g, err := NewCoins(cg.WithLimits(lim.Coins()), c.N, play)
		start, _ := s.Position.([]int)
		return g, start, err
	})
	registerCommand[*job.CoinsSpec]([]string{"rule", "r", "n", "first-coin", "heads"}, coinsCommand)
}

// coinsCommand builds nimbook play coins: --rule, --r (not for the ruler
// game unless given), --n coins from --first-coin, all heads up unless
// --heads says which.
func coinsCommand(f Flags, play game.Play, lim Limits) (Game, []int, error) {
	ruleText, _ := f.Get("rule")
	rule, err := coins.ParseRule(ruleText)
	if err != nil {
		return nil, nil, flagErrorf("--rule %q: write at-most, exactly or ruler", ruleText)
	}
	num := func(name string) (int, bool) {
		v, given := f.Get(name)
		n, _ := strconv.Atoi(v) // the command line read it as a number
		return n, given
	}
	r, rGiven := num("r")
	if rule == coins.Ruler && !rGiven {
		r = 0
	}
	first, _ := num("first-coin")
	n, _ := num("n")
	cg, err := coins.New(rule, r, first)
	if err != nil {
		return nil, nil, flagErrorf("%s", strings.TrimPrefix(err.Error(), "coins: "))
	}
	all := make([]string, n)
	for i := range all {
		all[i] = strconv.Itoa(first + i)
	}
	start, err := f.Start(strings.Join(all, ","))
	if err != nil {
		return nil, nil, flagErrorf("--heads: %v", err)
	}
	slices.Sort(start)
	g, err := NewCoins(cg.WithLimits(lim.Coins()), n, play)
	if err != nil {
		return nil, nil, err
	}
	return g, start, nil
}

// maxCoins is the longest row: records are analysed on 64-bit rows.
const maxCoins = 64

// Coins plays a coin-turning game of package coins on a row of n coins.
// Positions are the sorted numbers of the coins showing heads, in the game's
// numbering (from 1 as in the seeds, or from 0).
type Coins struct {
	g      *coins.Game
	n      int
	play   game.Play
	vals   []uint64
	solver *game.Solver[uint64] // misère play
}

// NewCoins returns the game g on a row of n coins under play.
func NewCoins(g *coins.Game, n int, play game.Play) (*Coins, error) {
	if g == nil {
		return nil, fmt.Errorf("play: no coin game given")
	}
	if n < 1 || n > maxCoins {
		return nil, fmt.Errorf("play: a row holds 1 to %d coins, not %d", maxCoins, n)
	}
	vals, err := g.Values(n)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	c := &Coins{g: g, n: n, play: play, vals: vals}
	if play == game.Misere {
		m, err := g.Mover(n)
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		s, err := game.NewSolver(m, game.Options{Play: game.Misere, MaxPositions: g.Limits().MaxPositions})
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		c.solver = s
	}
	return c, nil
}

func (c *Coins) String() string {
	s := fmt.Sprintf("turning coins (%s) on %d coins", c.g, c.n)
	if c.play == game.Misere {
		s += ", misère play"
	}
	return s
}

func (c *Coins) Play() game.Play { return c.play }

func (c *Coins) last() int { return c.g.First() + c.n - 1 }

func (c *Coins) Check(p []int) error {
	for i, h := range p {
		if h < c.g.First() || h > c.last() {
			return fmt.Errorf("play: there is no coin %d: the coins are numbered %d to %d", h, c.g.First(), c.last())
		}
		if i > 0 && h <= p[i-1] {
			return fmt.Errorf("play: list the heads once each, in increasing order")
		}
	}
	return nil
}

func (c *Coins) Moves(p []int) ([][]int, error) {
	ms, err := c.g.Moves(c.n, p)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return ms, nil
}

// HasMove tells the end of a game without listing every move, which on a
// long row takes seconds.
func (c *Coins) HasMove(p []int) (bool, error) {
	ok, err := c.g.HasMove(c.n, p)
	if err != nil {
		return false, fmt.Errorf("play: %w", err)
	}
	return ok, nil
}

// moveCount and largestMoves let the computer weigh the moves that leave
// the most game from a P-position without listing every move (exactly 4
// on 60 heads has 1.6 million).
func (c *Coins) moveCount(p []int) float64 {
	n, err := c.g.MoveCount(c.n, p)
	if err != nil {
		return 0
	}
	return float64(n)
}

func (c *Coins) largestMoves(p []int, n int) [][]int {
	ms, err := c.g.LargestMoves(c.n, p, n)
	if err != nil {
		return nil
	}
	return ms
}

// randomMove is the computer's slip, drawn without listing every move.
func (c *Coins) randomMove(p []int, rng *rand.Rand) ([]int, error) {
	q, err := c.g.RandomMove(c.n, p, rng)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return q, nil
}

func (c *Coins) Outcome(p []int) (game.Outcome, error) {
	if c.solver != nil {
		m, err := c.g.Mask(c.n, p)
		if err != nil {
			return 0, fmt.Errorf("play: %w", err)
		}
		o, err := c.solver.Outcome(m)
		if err != nil {
			return 0, fmt.Errorf("play: %w", err)
		}
		return o, nil
	}
	var x uint64
	for _, h := range p {
		x ^= c.vals[h-c.g.First()]
	}
	if x == 0 {
		return game.P, nil
	}
	return game.N, nil
}

func (c *Coins) WinningMoves(p []int) ([][]int, error) {
	if c.solver != nil {
		ms, err := c.Moves(p)
		if err != nil {
			return nil, err
		}
		return filterWinning(ms, c.Outcome)
	}
	ms, err := c.g.WinningMoves(c.n, p)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return ms, nil
}

func (c *Coins) Values(p []int) ([]Part, error) {
	parts := make([]Part, len(p))
	for i, h := range p {
		parts[i] = Part{Label: fmt.Sprintf("coin %d", h), Value: c.vals[h-c.g.First()]}
	}
	return parts, nil
}

// Size reads the row as a binary number, the rightmost coin the highest
// bit: every move makes it smaller.
func (c *Coins) Size(p []int) float64 {
	s := 0.0
	for _, h := range p {
		s += float64(uint64(1) << (h - c.g.First()))
	}
	return s
}

func (c *Coins) ParseMove(p []int, s string) ([]int, error) {
	if t, ok := isTarget(s); ok {
		q, err := numbers(t)
		if err != nil {
			return nil, err
		}
		for _, h := range q {
			if h < c.g.First() || h > c.last() {
				return nil, illegal("there is no coin %d: the coins are numbered %d to %d", h, c.g.First(), c.last())
			}
		}
		slices.Sort(q)
		q = slices.Compact(q)
		turned := symDiff(p, q)
		if len(turned) == 0 {
			return nil, illegal("%s is the position now: a move turns at least one coin", formatPos(q))
		}
		return c.turn(p, turned)
	}
	nums, err := numbers(s)
	if err != nil {
		return nil, err
	}
	return c.turn(p, nums)
}

// symDiff returns the coins heads in exactly one of p and q, sorted.
func symDiff(p, q []int) []int {
	var out []int
	for _, h := range p {
		if !slices.Contains(q, h) {
			out = append(out, h)
		}
	}
	for _, h := range q {
		if !slices.Contains(p, h) {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// turn checks the move turning the coins listed and returns the heads after.
func (c *Coins) turn(p, list []int) ([]int, error) {
	if len(list) == 0 {
		return nil, illegal("type the numbers of the coins to turn, e.g. %s", c.example(p))
	}
	for _, h := range list {
		if h < c.g.First() || h > c.last() {
			return nil, illegal("there is no coin %d: the coins are numbered %d to %d", h, c.g.First(), c.last())
		}
	}
	turned := slices.Clone(list)
	slices.Sort(turned)
	for i := 1; i < len(turned); i++ {
		if turned[i] == turned[i-1] {
			return nil, illegal("coin %d is listed twice", turned[i])
		}
	}
	right := turned[len(turned)-1]
	if !slices.Contains(p, right) {
		return nil, illegal("coin %d is tails: the rightmost coin turned must go from heads to tails", right)
	}
	switch c.g.Rule() {
	case coins.AtMost:
		if len(turned) > c.g.R() {
			return nil, illegal("turn at most %s (you listed %d)", plural(c.g.R(), "coin", "coins"), len(turned))
		}
	case coins.Exactly:
		if len(turned) != c.g.R() {
			return nil, illegal("turn exactly %s (you listed %d)", plural(c.g.R(), "coin", "coins"), len(turned))
		}
	case coins.Ruler:
		for i := 1; i < len(turned); i++ {
			if turned[i] != turned[i-1]+1 {
				return nil, illegal("the coins turned must be a run of consecutive coins, e.g. %d %d %d", right, right-1, right-2)
			}
		}
	}
	return symDiff(p, turned), nil
}

// example suggests a move: the rightmost head turned alone (or with the
// coins just left of it, as the rule needs).
func (c *Coins) example(p []int) string {
	right := c.last()
	if len(p) > 0 {
		right = p[len(p)-1]
	}
	k := 1
	if c.g.Rule() == coins.Exactly {
		k = c.g.R()
	}
	var parts []string
	for i := 0; i < k; i++ {
		parts = append(parts, fmt.Sprint(right-i))
	}
	return strings.Join(parts, " ")
}

func (c *Coins) FormatMove(from, to []int) string {
	turned := symDiff(from, to)
	parts := make([]string, len(turned))
	for i, h := range turned {
		parts[len(turned)-1-i] = fmt.Sprint(h)
	}
	return strings.Join(parts, " ")
}

func (c *Coins) Describe(from, to []int) string {
	turned := symDiff(from, to)
	slices.Reverse(turned)
	if len(turned) == 1 {
		return fmt.Sprintf("turn coin %d", turned[0])
	}
	return "turn coins " + orAnd(turned)
}

func (c *Coins) Render(p []int) string {
	w := len(fmt.Sprint(c.last())) + 1
	var top, bottom strings.Builder
	top.WriteString(" ")
	bottom.WriteString(" ")
	for i := 0; i < c.n; i++ {
		num := c.g.First() + i
		coin := "○"
		if slices.Contains(p, num) {
			coin = "●"
		}
		fmt.Fprintf(&top, "%*s", w, coin)
		fmt.Fprintf(&bottom, "%*d", w, num)
	}
	return top.String() + "\n" + bottom.String() + "\n"
}

func (c *Coins) Notation() string {
	var rule string
	switch c.g.Rule() {
	case coins.AtMost:
		rule = fmt.Sprintf("turn over 1 to %d coins", c.g.R())
	case coins.Exactly:
		rule = fmt.Sprintf("turn over exactly %d coins", c.g.R())
	case coins.Ruler:
		rule = "turn over a run of consecutive coins"
	}
	return fmt.Sprintf(`Coins ● are heads, ○ tails, numbered %d to %d from the left. A move: %s;
the rightmost coin turned must go from heads to tails.
Type the numbers of the coins to turn, in any order:   5 4 1   turns coins 5, 4 and 1.
You may also write the heads after your move in brackets:   (2,4).`, c.g.First(), c.last(), rule)
}

func (c *Coins) JobGame(start []int) string {
	r := ""
	if c.g.Rule() != coins.Ruler {
		r = fmt.Sprintf(", r: %d", c.g.R())
	}
	return fmt.Sprintf("{coins: {rule: %s%s, n: %d, first: %d%s}}", c.g.Rule(), r, c.n, c.g.First(), playKey(c.play))
}
