package play

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// Heaps plays a heap game of package heap (any registered rule: Nim,
// subtraction, octal games, Grundy's game, a Starlark rule…) on several
// heaps. Heaps are numbered from 1, left to right; an emptied heap stays in
// its place as 0, and a split heap is replaced in place by its parts,
// smaller first (SPEC.md's position form). What the rule can tell a player
// it finds by type assertion on the game (heap.Explainer, heap.Splitter,
// heap.PositionSolver); it never asks which rule it is.
type Heaps struct {
	g heap.Game
	// rule and params are what g was built from, for the job file of a
	// record (JobGame); nil for a game given alone (NewHeaps).
	rule   *heap.Rule
	params heap.Params
	play   game.Play
	lim    heap.Limits
	// formula: g solves whole positions by formula (heap.PositionSolver,
	// Nim), so the engine answers outcomes, winning moves and values of
	// huge heaps without a table.
	formula bool
	vals    []uint64   // g(0..) of one heap, for the other games
	shaped  *moveShape // learnt when first needed (shape)

	// misère play of the other games is solved through a misère quotient
	// of the heaps in play when one is had (quotient), else on whole
	// positions by the solver, which remembers them between moves.
	solver   *game.Solver[heap.Multiset]
	quotient quotientCache
}

// NewHeaps returns g played on several heaps under play, its work bounded by
// lim (the zero value means heap's defaults). A game given alone has no job
// file form: its records cannot be saved (JobGame is ""); NewHeapRule gives
// one that has.
func NewHeaps(g heap.Game, play game.Play, lim heap.Limits) (*Heaps, error) {
	return newHeaps(g, nil, nil, play, lim)
}

// NewHeapRule returns the game of the registered rule r with params (their
// defaults filled in; a bad one is a *heap.ParamError naming its key),
// played on several heaps under play within lim.
func NewHeapRule(r *heap.Rule, params heap.Params, play game.Play, lim heap.Limits) (*Heaps, error) {
	if r == nil {
		return nil, fmt.Errorf("play: no heap rule given")
	}
	p := params.Clone()
	g, err := r.NewGame(p)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return newHeaps(g, r, p, play, lim)
}

func newHeaps(g heap.Game, r *heap.Rule, params heap.Params, play game.Play, lim heap.Limits) (*Heaps, error) {
	if g == nil {
		return nil, fmt.Errorf("play: no heap game given")
	}
	h := &Heaps{g: g, rule: r, params: params, play: play, lim: lim}
	_, h.formula = g.(heap.PositionSolver)
	if play == game.Misere && !h.formula {
		s, err := game.NewSolver(heap.MultisetMover(g), game.Options{Play: game.Misere, MaxPositions: lim.MaxPositions, Context: lim.Context})
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		h.solver = s
	}
	return h, nil
}

// DefaultStart is the position a game of r starts from when none is given:
// the rule's Start, else one heap of 10.
func DefaultStart(r *heap.Rule) []int {
	if r != nil && r.Start != nil {
		return slices.Clone(r.Start)
	}
	return []int{10}
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
		if n < 0 || n > heap.MaxHeap {
			return fmt.Errorf("play: heap %d has %d tokens; heaps hold 0 to %d", i+1, n, heap.MaxHeap)
		}
		most = max(most, n)
	}
	_, err := h.grundy(most)
	return err
}

// grundy returns g(n) of one heap: from the engine's formula when it has
// one (a heap of 2^31 in Nim), else from the values of every heap up to n,
// kept between calls.
func (h *Heaps) grundy(n int) (uint64, error) {
	if h.formula {
		v, err := heap.Grundy(h.g, []int{n}, h.lim)
		if err != nil {
			return 0, fmt.Errorf("play: %w", err)
		}
		return v, nil
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
		if h.formula {
			return heap.Outcome(h.g, p, game.Misere, h.lim)
		}
		if q, err := h.quotientFor(p); err != nil {
			return 0, err
		} else if q != nil {
			inP, err := q.Outcome(p)
			if err != nil {
				return 0, fmt.Errorf("play: %w", err)
			}
			if inP {
				return game.P, nil
			}
			return game.N, nil
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
	if h.formula {
		// Nim's moves grow with the heaps; the engine finds its winning
		// moves by formula.
		return heap.WinningMoves(h.g, p, h.play, h.lim)
	}
	ms, err := h.Moves(p)
	if err != nil {
		return nil, err
	}
	return filterWinning(ms, h.Outcome)
}

// probeHeaps is the largest heap whose options play reads to learn the
// shape of a rule's moves (moveShape); scanTakes the most amounts it asks
// the rule about.
const (
	probeHeaps = 24
	scanTakes  = 4096
)

// moveShape is what play learns of a rule's moves from its capabilities
// and the options of small heaps, so that it reads, draws and counts the
// moves of huge heaps (Nim's 2^31) without listing them.
type moveShape struct {
	// splits: a move may leave two heaps or more (a heap.Splitter, or a
	// rule whose small heaps show it): the notation then names the parts.
	splits bool
	// takeAway: every move takes k tokens from one heap and leaves the
	// rest as one heap, and whether k may be taken does not depend on the
	// heap (a heap.Explainer's Forbidden says it): as the options of every
	// heap up to probeHeaps show.
	takeAway bool
	// takes are the amounts 1..scanTakes a take-away rule allows,
	// ascending.
	takes []int
}

// shape learns the shape of the rule's moves once.
func (h *Heaps) shape() *moveShape {
	if h.shaped != nil {
		return h.shaped
	}
	s := &moveShape{}
	h.shaped = s
	if _, ok := h.g.(heap.Splitter); ok {
		s.splits = true
	}
	ex, explains := h.g.(heap.Explainer)
	for n := 0; n <= probeHeaps && !s.splits; n++ {
		s.splits = slices.ContainsFunc(h.g.Options(n), func(o []int) bool { return len(o) > 1 })
	}
	if s.splits || !explains {
		return s
	}
	for k := 1; k <= scanTakes; k++ {
		if ex.Forbidden(k) == "" {
			s.takes = append(s.takes, k)
		}
	}
	s.takeAway = true
	for n := 0; n <= probeHeaps && s.takeAway; n++ {
		var want [][]int
		for _, k := range s.takes {
			if k > n {
				break
			}
			if k == n {
				want = append(want, []int{})
			} else {
				want = append(want, []int{n - k})
			}
		}
		got := slices.Clone(h.g.Options(n))
		slices.SortFunc(got, slices.Compare)
		slices.SortFunc(want, slices.Compare)
		s.takeAway = slices.EqualFunc(got, want, slices.Equal)
	}
	return s
}

// dense reports whether most amounts may be taken (Nim, all-but games):
// then a huge heap's moves are about as many as its tokens.
func (s *moveShape) dense() bool { return 2*len(s.takes) > scanTakes }

// count is how many moves a heap of n offers in a take-away rule: exact up
// to scanTakes tokens (and in Nim), estimated beyond from the amounts up
// to scanTakes.
func (s *moveShape) count(n int) int {
	if n <= scanTakes {
		c, _ := slices.BinarySearch(s.takes, n+1)
		return c
	}
	if s.dense() {
		return len(s.takes) + (n-scanTakes)*len(s.takes)/scanTakes
	}
	return len(s.takes)
}

// takesAny reports whether every amount up to the largest heap of p may be
// taken, as in Nim: seed 000's advice for a lost position applies.
func (h *Heaps) takesAny(p []int) bool {
	s := h.shape()
	if len(p) == 0 || !s.takeAway || len(s.takes) < scanTakes {
		return false
	}
	most := slices.Max(p)
	return most <= scanTakes || h.forbidden(most) == ""
}

// HasMove reports whether p has a move without listing the moves: in a
// take-away rule, a heap as large as the smallest amount allowed.
func (h *Heaps) HasMove(p []int) (bool, error) {
	if s := h.shape(); s.takeAway && len(s.takes) > 0 {
		return slices.ContainsFunc(p, func(n int) bool { return n >= s.takes[0] }), nil
	}
	ms, err := h.Moves(p)
	return len(ms) > 0, err
}

// randomMove draws a move at random. Take-away rules draw it without
// listing the moves, which a heap of 2^31 tokens could not: uniformly
// while the heaps hold at most scanTakes tokens or every amount may be
// taken (Nim); other rules list their moves.
func (h *Heaps) randomMove(p []int, rng *rand.Rand) ([]int, error) {
	s := h.shape()
	if !s.takeAway {
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
		total += s.count(n)
	}
	if total == 0 {
		return nil, fmt.Errorf("play: no move from %s", formatPos(p))
	}
	i := rng.IntN(total)
	for j, n := range p {
		if c := s.count(n); i >= c {
			i -= c
			continue
		}
		q := slices.Clone(p)
		q[j] -= h.nthTake(n, i, rng)
		return q, nil
	}
	return nil, fmt.Errorf("play: no move from %s", formatPos(p))
}

// nthTake returns the i-th amount a heap of n allows (from 0), or, past
// the amounts scanned, one drawn at random among the larger ones.
func (h *Heaps) nthTake(n, i int, rng *rand.Rand) int {
	s := h.shape()
	if i < len(s.takes) {
		return s.takes[i]
	}
	if k := i + 1; k <= n && h.forbidden(k) == "" {
		return k // Nim: every amount
	}
	for range 64 {
		if n <= scanTakes {
			break
		}
		if k := scanTakes + 1 + rng.IntN(n-scanTakes); h.forbidden(k) == "" {
			return k
		}
	}
	return s.takes[rng.IntN(len(s.takes))]
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
// parts, smaller first. A take-away rule answers without listing the
// options of a huge heap.
func (h *Heaps) options(n, k int) [][]int {
	r := n - k
	if h.shape().takeAway {
		if k < 1 || k > n || h.forbidden(k) != "" {
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

// forbidden explains why taking k tokens is never a move, or returns "":
// the rule's own words (heap.Explainer); a rule without them says nothing
// here, and the options of the heap decide.
func (h *Heaps) forbidden(k int) string {
	if ex, ok := h.g.(heap.Explainer); ok {
		return ex.Forbidden(k)
	}
	return ""
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

// digit is what taking k tokens may leave, as an octal or hexadecimal
// digit, for a heap.Splitter.
func (h *Heaps) digit(k int) (int, bool) {
	if s, ok := h.g.(heap.Splitter); ok {
		return s.Digit(k), true
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
	if why := h.forbidden(k); why != "" {
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
	return strings.Replace(heap.OrList(xs), " or ", " and ", 1)
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
	if h.shape().splits {
		s += `
When what is left may be split, list the heaps left after the number taken:
3 1 2 4   takes 1 from heap 3 (of 7) and leaves two heaps, 2 and 4.
Without them the rest stays as one heap when the rule allows it.`
	}
	return s + "\nThe rule: " + h.explain()
}

// explain says the rule in a sentence: the rule's own (heap.Explainer),
// else what every heap rule does.
func (h *Heaps) explain() string {
	if ex, ok := h.g.(heap.Explainer); ok {
		return ex.Explain()
	}
	return fmt.Sprintf("%s: a move replaces one heap by the heaps of one of its options (type hint to see them).", h.g)
}

// JobGame writes the rule and its parameters as a job file's flow mapping,
// in the rule's order: {nim: {heaps: [1, 3, 5, 7], max-take: 3}}. The
// start stands for the parameter that is the position (Nim's heaps); upto
// is left out (a record needs no values beyond its positions), and so are
// parameters at their zero value when the rule omits them. A game given
// alone (NewHeaps), or a value a job file cannot hold, gives "".
func (h *Heaps) JobGame(start []int) string {
	if h.rule == nil {
		return ""
	}
	var parts []string
	for _, q := range h.rule.Params {
		if q.Key == heap.Upto {
			continue
		}
		if q.Key == h.rule.PositionParam {
			parts = append(parts, q.Key+": "+flowList(start))
			continue
		}
		v, ok := h.params[q.Key]
		if !ok || (q.OmitZero && v == any(0)) {
			continue
		}
		s, ok := flowValue(q.Kind, v)
		if !ok {
			return ""
		}
		parts = append(parts, q.Key+": "+s)
	}
	if h.play == game.Misere {
		parts = append(parts, "play: misere")
	}
	return fmt.Sprintf("{%s: {%s}}", h.rule.Name, strings.Join(parts, ", "))
}

// flowValue writes a parameter's value as a YAML flow value: 3, [1, 3, 4],
// "0.77", a file as its absolute path (the record may be saved elsewhere),
// a mapping with its keys sorted.
func flowValue(kind heap.Kind, v any) (string, bool) {
	switch v := v.(type) {
	case int:
		return strconv.Itoa(v), true
	case []int:
		return flowList(v), true
	case bool:
		return strconv.FormatBool(v), true
	case string:
		if kind == heap.File {
			abs, err := filepath.Abs(v)
			if err != nil {
				return "", false
			}
			v = abs
		}
		return strconv.Quote(v), true
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		parts := make([]string, len(keys))
		for i, k := range keys {
			s, ok := flowValue(heap.String, v[k])
			if !ok {
				return "", false
			}
			parts[i] = strconv.Quote(k) + ": " + s
		}
		return "{" + strings.Join(parts, ", ") + "}", true
	}
	return "", false
}
