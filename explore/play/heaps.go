package play

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// maxHeap is the largest heap Wythoff's game accepts, as in job files.
const maxHeap = 1 << 40

// maxHeapTokens is the largest heap of the heap games: package heap's
// bound.
const maxHeapTokens = math.MaxInt32

// Heaps plays a heap game of package heap (Nim, bounded Nim, subtraction,
// octal and hexadecimal games) on several heaps. Heaps are numbered from 1,
// left to right; an emptied heap stays in its place as 0, and a split heap is
// replaced in place by its parts, smaller first (SPEC.md's position form).
type Heaps struct {
	g    heap.Game
	nim  *heap.Nim // g, when it is Nim
	play game.Play
	lim  heap.Limits
	vals []uint64 // g(0..) of one heap, for games other than Nim

	// misère play of games other than Nim is solved on whole positions;
	// the solver remembers them between moves.
	solver *game.Solver[heap.Multiset]
}

// NewHeaps returns g played on several heaps under play, its work bounded by
// lim (the zero value means heap's defaults).
func NewHeaps(g heap.Game, play game.Play, lim heap.Limits) (*Heaps, error) {
	if g == nil {
		return nil, fmt.Errorf("play: no heap game given")
	}
	h := &Heaps{g: g, play: play, lim: lim}
	h.nim, _ = g.(*heap.Nim)
	if play == game.Misere && h.nim == nil {
		s, err := game.NewSolver(heap.MultisetMover(g), game.Options{Play: game.Misere, MaxPositions: lim.MaxPositions, Context: lim.Context})
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		h.solver = s
	}
	return h, nil
}

// NewNim returns Nim on several heaps, at most maxTake tokens a move (0: any
// number), under play.
func NewNim(maxTake int, play game.Play) (*Heaps, error) {
	g, err := heap.NewNim(maxTake)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return NewHeaps(g, play, heap.Limits{})
}

// HeapGame returns the rule of one heap.
func (h *Heaps) HeapGame() heap.Game { return h.g }

func (h *Heaps) String() string {
	if h.play == game.Misere {
		return h.g.String() + ", misère play"
	}
	return h.g.String()
}

func (h *Heaps) Play() game.Play { return h.play }

func (h *Heaps) Check(p []int) error {
	if len(p) == 0 {
		return fmt.Errorf("play: a position needs at least one heap")
	}
	most := 0
	for i, n := range p {
		if n < 0 || n > maxHeapTokens {
			return fmt.Errorf("play: heap %d has %d tokens; heaps hold 0 to %d", i+1, n, maxHeapTokens)
		}
		most = max(most, n)
	}
	_, err := h.grundy(most)
	return err
}

// grundy returns g(n) of one heap.
func (h *Heaps) grundy(n int) (uint64, error) {
	if h.nim != nil {
		if k := h.nim.MaxTake(); k > 0 {
			return uint64(n % (k + 1)), nil
		}
		return uint64(n), nil
	}
	if n >= len(h.vals) {
		vals, err := h.g.Values(n, h.lim)
		if err != nil {
			return 0, fmt.Errorf("play: %w", err)
		}
		h.vals = vals
	}
	return h.vals[n], nil
}

func (h *Heaps) Values(p []int) ([]Part, error) {
	parts := make([]Part, len(p))
	for i, n := range p {
		v, err := h.grundy(n)
		if err != nil {
			return nil, err
		}
		parts[i] = Part{Label: fmt.Sprintf("heap %d (%d)", i+1, n), Value: v}
	}
	return parts, nil
}

func (h *Heaps) Outcome(p []int) (game.Outcome, error) {
	if h.play == game.Misere {
		if h.nim != nil {
			return heap.Outcome(h.g, p, game.Misere, h.lim)
		}
		m, err := heap.NewMultiset(p...)
		if err != nil {
			return 0, fmt.Errorf("play: %w", err)
		}
		o, err := h.solver.Outcome(m)
		if err != nil {
			return 0, fmt.Errorf("play: %w", err)
		}
		return o, nil
	}
	var x uint64
	for _, n := range p {
		v, err := h.grundy(n)
		if err != nil {
			return 0, err
		}
		x ^= v
	}
	if x == 0 {
		return game.P, nil
	}
	return game.N, nil
}

func (h *Heaps) Moves(p []int) ([][]int, error) {
	ms, err := heap.Moves(h.g, p, h.lim)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return ms, nil
}

func (h *Heaps) WinningMoves(p []int) ([][]int, error) {
	if h.nim != nil {
		// Nim's moves grow with the heaps; its winning moves are found by
		// formula.
		return heap.WinningMoves(h.g, p, h.play, h.lim)
	}
	ms, err := h.Moves(p)
	if err != nil {
		return nil, err
	}
	return filterWinning(ms, h.Outcome)
}

// HasMove reports whether p has a move without listing the moves: in
// Nim, any token left.
func (h *Heaps) HasMove(p []int) (bool, error) {
	if h.nim != nil {
		return slices.ContainsFunc(p, func(n int) bool { return n > 0 }), nil
	}
	ms, err := h.Moves(p)
	return len(ms) > 0, err
}

// nimTakes is how many moves a Nim heap of n offers.
func (h *Heaps) nimTakes(n int) int {
	if k := h.nim.MaxTake(); k > 0 && k < n {
		return k
	}
	return n
}

// randomMove draws a move of Nim uniformly without listing the moves,
// which a heap of 2^40 tokens could not; other games list theirs.
func (h *Heaps) randomMove(p []int, rng *rand.Rand) ([]int, error) {
	if h.nim == nil {
		ms, err := h.Moves(p)
		if err != nil {
			return nil, err
		}
		if len(ms) == 0 {
			return nil, fmt.Errorf("play: no move from %s", formatPos(p))
		}
		return ms[rng.IntN(len(ms))], nil
	}
	total := 0
	for _, n := range p {
		total += h.nimTakes(n)
	}
	if total == 0 {
		return nil, fmt.Errorf("play: no move from %s", formatPos(p))
	}
	i := rng.IntN(total)
	for j, n := range p {
		if t := h.nimTakes(n); i >= t {
			i -= t
			continue
		}
		q := slices.Clone(p)
		q[j] -= i + 1
		return q, nil
	}
	return nil, fmt.Errorf("play: no move from %s", formatPos(p))
}

// Size counts the tokens.
func (h *Heaps) Size(p []int) float64 {
	s := 0.0
	for _, n := range p {
		s += float64(n)
	}
	return s
}

// options lists what a heap of n may become by taking k tokens: lists of
// parts, smaller first.
func (h *Heaps) options(n, k int) [][]int {
	r := n - k
	if h.nim != nil {
		if k < 1 || (h.nim.MaxTake() > 0 && k > h.nim.MaxTake()) {
			return nil
		}
		if r == 0 {
			return [][]int{{}}
		}
		return [][]int{{r}}
	}
	var out [][]int
	for _, o := range h.g.Options(n) {
		s := 0
		for _, v := range o {
			s += v
		}
		if s == r {
			out = append(out, o)
		}
	}
	return out
}

// rule explains why taking k tokens is never a move, or returns "".
func (h *Heaps) rule(k int) string {
	switch g := h.g.(type) {
	case *heap.Nim:
		if k == 0 {
			return "take at least one token"
		}
		if g.MaxTake() > 0 && k > g.MaxTake() {
			return fmt.Sprintf("you may take at most %s at a time", plural(g.MaxTake(), "token", "tokens"))
		}
	case *heap.Subtraction:
		if k == 0 {
			return "take at least one token"
		}
		if g.AllBut() {
			if slices.Contains(g.Set(), k) {
				return fmt.Sprintf("you may take any number of tokens but %s", orList(g.Set()))
			}
		} else if !slices.Contains(g.Set(), k) {
			return fmt.Sprintf("you may take %s tokens, not %d", orList(g.Set()), k)
		}
	case *heap.Octal:
		return codeRule(h.g.String(), g.Code(), g.Digit, k)
	case *heap.Hex:
		return codeRule(h.g.String(), g.Code(), g.Digit, k)
	}
	return ""
}

// codeRule explains why the code forbids taking k tokens, or returns "".
func codeRule(name, code string, digit func(int) int, k int) string {
	if digit(k) != 0 {
		return ""
	}
	var ks []int
	if i := strings.IndexByte(code, '.'); i >= 0 {
		for j := 1; j < len(code)-i; j++ {
			if digit(j) != 0 {
				ks = append(ks, j)
			}
		}
	}
	split := ""
	if digit(0) != 0 {
		split = ", or split a heap in two without taking any (type 0 as the number taken)"
	}
	if k == 0 {
		return "take at least one token" + split
	}
	return fmt.Sprintf("in %s you may take %s tokens%s, not %d", name, orList(ks), split, k)
}

// codeWhy explains why a code's digit d for taking k does not allow leaving
// r tokens as asked (parts < 0: as the player did not say).
func codeWhy(d, k, r int) string {
	if r == 0 && d&1 == 0 {
		return fmt.Sprintf("taking %d may not take a whole heap here", k)
	}
	if r > 0 && d&(2|4|8) == 0 {
		return fmt.Sprintf("taking %d must take a whole heap of exactly %d", k, k)
	}
	return ""
}

func (h *Heaps) digit(k int) (int, bool) {
	switch g := h.g.(type) {
	case *heap.Octal:
		return g.Digit(k), true
	case *heap.Hex:
		return g.Digit(k), true
	}
	return 0, false
}

func (h *Heaps) ParseMove(p []int, s string) ([]int, error) {
	if t, ok := isTarget(s); ok {
		nums, err := numbers(t)
		if err != nil {
			return nil, err
		}
		return h.target(p, nums)
	}
	nums, err := numbers(s)
	if err != nil {
		return nil, err
	}
	var nonEmpty []int
	for i, n := range p {
		if n > 0 {
			nonEmpty = append(nonEmpty, i+1)
		}
	}
	switch {
	case len(nums) == 0:
		return nil, illegal("type a move, e.g. %d 1 to take 1 from heap %d", max(1, len(p)), max(1, len(p)))
	case len(nums) == 1 && len(nonEmpty) == 1:
		nums = []int{nonEmpty[0], nums[0]}
	case len(nums) == 1:
		return nil, illegal("say which heap and how many tokens: e.g. %d %d takes %d from heap %d", len(p), nums[0], nums[0], len(p))
	case len(nums) > 5:
		return nil, illegal("too many numbers: a move is a heap, the number taken, and how the rest is split")
	}
	return h.take(p, nums[0], nums[1], nums[2:])
}

// take checks the move "take k from heap i (from 1), leaving parts".
func (h *Heaps) take(p []int, i, k int, parts []int) ([]int, error) {
	if i < 1 || i > len(p) {
		if len(p) == 1 {
			return nil, illegal("there is no heap %d: there is only heap 1", i)
		}
		return nil, illegal("there is no heap %d: the heaps are numbered 1 to %d", i, len(p))
	}
	n := p[i-1]
	if n == 0 {
		return nil, illegal("heap %d is empty", i)
	}
	if k > n {
		return nil, illegal("heap %d has only %s", i, plural(n, "token", "tokens"))
	}
	if why := h.rule(k); why != "" {
		return nil, illegal("%s", why)
	}
	r := n - k
	cands := h.options(n, k)
	if len(cands) == 0 {
		if d, ok := h.digit(k); ok {
			if why := codeWhy(d, k, r); why != "" {
				return nil, illegal("%s", why)
			}
		}
		return nil, illegal("taking %d from a heap of %d is not a move of %s", k, n, h.g)
	}
	var chosen []int
	if len(parts) > 0 {
		parts = slices.Clone(parts)
		sum := 0
		for _, v := range parts {
			if v == 0 {
				return nil, illegal("the heaps left must not be empty: leave out the 0")
			}
			sum += v
		}
		if sum > r {
			return nil, illegal("taking %d from heap %d leaves %d, but the parts %s add up to %d", k, i, r, orAnd(parts), sum)
		}
		if sum < r {
			parts = append(parts, r-sum)
		}
		slices.Sort(parts)
		c, ok := findMove(cands, parts)
		if !ok {
			return nil, illegal("%s: taking %d from a heap of %d may leave %s", h.g, k, n, describeCands(cands))
		}
		chosen = c
	} else {
		found := false
		for _, c := range cands {
			if len(c) <= 1 {
				chosen, found = c, true
			}
		}
		if !found {
			if len(cands) > 1 {
				ex := cands[0]
				return nil, illegal("taking %d from heap %d must split the %d left into %s heaps: say how, e.g. %d %d %d",
					k, i, r, numWord(len(ex)), i, k, ex[0])
			}
			chosen = cands[0]
		}
	}
	q := make([]int, 0, len(p)+len(chosen))
	q = append(q, p[:i-1]...)
	if len(chosen) == 0 {
		q = append(q, 0)
	} else {
		q = append(q, chosen...)
	}
	return append(q, p[i:]...), nil
}

func numWord(n int) string {
	if n == 3 {
		return "three"
	}
	return "two"
}

func orAnd(xs []int) string {
	return strings.Replace(orList(xs), " or ", " and ", 1)
}

// describeCands lists the heaps a move may leave: "nothing, 5, or 1 and 4".
func describeCands(cands [][]int) string {
	words := make([]string, len(cands))
	for i, c := range cands {
		switch len(c) {
		case 0:
			words[i] = "nothing"
		default:
			words[i] = orAnd(c)
		}
	}
	if len(words) == 1 {
		return "only " + words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// target finds the move to the position q, matched exactly or as the same
// non-empty heaps in any order.
func (h *Heaps) target(p, q []int) ([]int, error) {
	if len(q) == 0 {
		return nil, illegal("write the heaps after your move, e.g. (%s)", strings.Trim(formatPos(p), "()"))
	}
	moves, err := h.Moves(p)
	if err != nil {
		return nil, err
	}
	if m, ok := findMove(moves, q); ok {
		return m, nil
	}
	key := nonZeroSorted(q)
	for _, m := range moves {
		if slices.Equal(nonZeroSorted(m), key) {
			return m, nil
		}
	}
	if slices.Equal(nonZeroSorted(p), key) {
		return nil, illegal("%s is the position now: a move must change it", formatPos(q))
	}
	if len(q) == len(p) {
		var diff []int
		for i := range p {
			if p[i] != q[i] {
				diff = append(diff, i)
			}
		}
		if len(diff) == 1 {
			i := diff[0]
			if q[i] > p[i] {
				return nil, illegal("you cannot add tokens: heap %d has %d", i+1, p[i])
			}
			if _, err := h.take(p, i+1, p[i]-q[i], nil); err != nil {
				return nil, err
			}
		}
		if len(diff) > 1 {
			return nil, illegal("%s cannot be reached from %s: a move changes one heap only", formatPos(q), formatPos(p))
		}
	}
	return nil, illegal("%s cannot be reached from %s in one move", formatPos(q), formatPos(p))
}

func nonZeroSorted(p []int) []int {
	var out []int
	for _, v := range p {
		if v > 0 {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// diff finds the heap a move from → to changed (from 0) and what it left.
func diff(from, to []int) (int, []int, bool) {
	d := len(to) - len(from)
	if d < 0 || d > 2 {
		return 0, nil, false
	}
	for i := range from {
		if from[i] == to[i] {
			continue
		}
		parts := to[i : i+d+1]
		if !slices.Equal(to[i+d+1:], from[i+1:]) {
			return 0, nil, false
		}
		if d == 0 && parts[0] == 0 {
			parts = nil
		}
		return i, parts, true
	}
	return 0, nil, false
}

func (h *Heaps) FormatMove(from, to []int) string {
	i, parts, ok := diff(from, to)
	if !ok {
		return formatPos(to)
	}
	k := from[i]
	for _, v := range parts {
		k -= v
	}
	if len(parts) <= 1 {
		return fmt.Sprintf("%d %d", i+1, k)
	}
	s := fmt.Sprintf("%d %d", i+1, k)
	for _, v := range parts {
		s += fmt.Sprintf(" %d", v)
	}
	return s
}

func (h *Heaps) Describe(from, to []int) string {
	i, parts, ok := diff(from, to)
	if !ok {
		return "move to " + formatPos(to)
	}
	k := from[i]
	for _, v := range parts {
		k -= v
	}
	switch {
	case len(parts) == 0:
		return fmt.Sprintf("take the whole heap %d (%s)", i+1, plural(k, "token", "tokens"))
	case len(parts) == 1:
		return fmt.Sprintf("take %d from heap %d", k, i+1)
	case k == 0:
		return fmt.Sprintf("split heap %d into %s", i+1, orAnd(parts))
	}
	return fmt.Sprintf("take %d from heap %d and split the rest into %s", k, i+1, orAnd(parts))
}

// maxSticks is the largest heap drawn as sticks; larger heaps are numbers.
const maxSticks = 30

func (h *Heaps) Render(p []int) string {
	most := 0
	for _, n := range p {
		most = max(most, n)
	}
	w := len(fmt.Sprint(len(p)))
	var b strings.Builder
	for i, n := range p {
		fmt.Fprintf(&b, "  heap %*d  ", w, i+1)
		if most <= maxSticks {
			b.WriteString(strings.Repeat("| ", n))
			b.WriteString(strings.Repeat("  ", most-n))
			b.WriteString(" ")
		}
		if n == 0 {
			b.WriteString("empty\n")
		} else {
			fmt.Fprintf(&b, "%d\n", n)
		}
	}
	return b.String()
}

func (h *Heaps) Notation() string {
	s := `A move names a heap (numbered from 1, left to right) and how many tokens
to take from it:   3 2   takes 2 tokens from heap 3.
With a single heap left, the number taken is enough.
You may also write the heaps after your move in brackets:   (1,3,3,7).`
	switch h.g.(type) {
	case *heap.Octal, *heap.Hex:
		s += `
When what is left may be split, list the heaps left after the number taken:
3 1 2 4   takes 1 from heap 3 (of 7) and leaves two heaps, 2 and 4.
Without them the rest stays as one heap when the rule allows it.`
	}
	return s + "\nThe rule: " + h.ruleText()
}

func (h *Heaps) ruleText() string {
	switch g := h.g.(type) {
	case *heap.Nim:
		if g.MaxTake() > 0 {
			return fmt.Sprintf("take 1 to %d tokens from one heap.", g.MaxTake())
		}
		return "take any number of tokens (at least one) from one heap."
	case *heap.Subtraction:
		if g.AllBut() {
			return fmt.Sprintf("take any number of tokens from one heap, but not %s.", orList(g.Set()))
		}
		return fmt.Sprintf("take %s tokens from one heap.", orList(g.Set()))
	}
	return fmt.Sprintf("the code %s: digit k says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three heaps).", h.g)
}

func (h *Heaps) JobGame(start []int) string {
	play := playKey(h.play)
	switch g := h.g.(type) {
	case *heap.Nim:
		take := ""
		if g.MaxTake() > 0 {
			take = fmt.Sprintf(", max-take: %d", g.MaxTake())
		}
		return fmt.Sprintf("{nim: {heaps: %s%s%s}}", flowList(start), take, play)
	case *heap.Subtraction:
		key := "set"
		if g.AllBut() {
			key = "all-but"
		}
		return fmt.Sprintf("{subtraction: {%s: %s%s}}", key, flowList(g.Set()), play)
	case *heap.Octal:
		return fmt.Sprintf("{octal: {code: %q%s}}", g.Code(), play)
	case *heap.Hex:
		return fmt.Sprintf("{hex: {code: %q%s}}", g.Code(), play)
	}
	return ""
}
