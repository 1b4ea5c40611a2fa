package misere

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// Genus is Conway's genus g^{γ0γ1…} of a game G (On Numbers and Games,
// ch. 12; Winning Ways, ch. 13): Normal is its normal-play Grundy value g,
// and Misere[k] = γk the misère Grundy value of G plus k nim-heaps of size
// 2. The sequence always ends alternating, γ(k+2) = γk; Misere stops at
// the first pair of values that repeats for ever, so 1^{031} is written
// with three values, never as 1^{03131}. Genera a user writes may be
// longer: compare them with Equal.
type Genus struct {
	Normal int
	Misere []int
}

// At returns γk for any k ≥ 0, reading the alternating tail.
func (g Genus) At(k int) int {
	n := len(g.Misere)
	switch {
	case n == 0:
		return 0
	case k < n:
		return g.Misere[k]
	case n == 1:
		return g.Misere[0]
	}
	return g.Misere[n-2+(k-(n-2))%2]
}

// Equal says whether g and h are the same genus, however long each
// superscript is written: 1^{03131} equals 1^{031}.
func (g Genus) Equal(h Genus) bool {
	if g.Normal != h.Normal {
		return false
	}
	n := max(len(g.Misere), len(h.Misere)) + 2
	for k := range n {
		if g.At(k) != h.At(k) {
			return false
		}
	}
	return true
}

// Short returns g with the superscript written as briefly as it can be:
// up to the first pair of values that then alternates.
func (g Genus) Short() Genus {
	n := len(g.Misere)
	if n <= 2 {
		if n == 2 && g.Misere[0] == g.Misere[1] {
			return Genus{Normal: g.Normal, Misere: g.Misere[:1:1]}
		}
		return g
	}
	// From j on the values alternate: γ(i+2) = γi for i ≥ j, which the
	// stored tail γ(n-2), γ(n-1) satisfies by definition.
	j := n - 2
	for j > 0 && g.Misere[j+1] == g.Misere[j-1] {
		j--
	}
	return Genus{Normal: g.Normal, Misere: slices.Clip(g.Misere[:j+2])}
}

// String writes the genus as "1^{031}"; values past 9 are separated by
// commas, "10^{11,8}", so that the superscript reads one way. Reports
// typeset the superscript (HTML <sup>, LaTeX ^{…}) from Normal and
// Superscript.
func (g Genus) String() string {
	return strconv.Itoa(g.Normal) + "^{" + g.Superscript() + "}"
}

// Superscript is the superscript of String, without braces: "031".
func (g Genus) Superscript() string {
	sep := ""
	for _, v := range g.Misere {
		if v > 9 {
			sep = ","
		}
	}
	parts := make([]string, len(g.Misere))
	for i, v := range g.Misere {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, sep)
}

// ParseGenus reads a genus as String writes it ("1^{031}", "10^{11,8}");
// "1^031" is read too.
func ParseGenus(s string) (Genus, error) {
	base, sup, ok := strings.Cut(strings.TrimSpace(s), "^")
	if !ok {
		return Genus{}, fmt.Errorf("misere: genus %q: want g^{γ0γ1…}, e.g. 1^{031}", s)
	}
	n, err := strconv.Atoi(base)
	if err != nil || n < 0 {
		return Genus{}, fmt.Errorf("misere: genus %q: %q is not a normal-play value", s, base)
	}
	sup = strings.TrimSuffix(strings.TrimPrefix(sup, "{"), "}")
	var vals []int
	if strings.Contains(sup, ",") {
		for _, f := range strings.Split(sup, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || v < 0 {
				return Genus{}, fmt.Errorf("misere: genus %q: %q is not a misère value", s, f)
			}
			vals = append(vals, v)
		}
	} else {
		for _, c := range sup {
			if c < '0' || c > '9' {
				return Genus{}, fmt.Errorf("misere: genus %q: %q is not a digit", s, c)
			}
			vals = append(vals, int(c-'0'))
		}
	}
	if len(vals) == 0 {
		return Genus{}, fmt.Errorf("misere: genus %q has no superscript", s)
	}
	return Genus{Normal: n, Misere: vals}, nil
}

// Tame says whether the genus is one of Conway's tame genera, those of
// the positions of Nim (On Numbers and Games, ch. 12; Winning Ways, ch.
// 13, "Tame games"): 0^{120} and 1^{031} (heaps of 0 and 1), 0^{02} and
// 1^{13} (2+2, 2+3: some heap of 2 or more, nim-sum 0 or 1), and g^{g(g⊕2)}
// for g ≥ 2 (2^{20}, 3^{31}, 4^{46}). Plambeck's 0.312 is wild by its heap
// 4, 2^{1420}. A game plays in misère as Nim does when all its positions
// have tame genera; the genus of one heap says nothing of its options, so
// a table of every heap shows where the first wild one is.
func (g Genus) Tame() bool {
	if g.Equal(NimGenus(g.Normal)) {
		return true
	}
	// A position of Nim with a heap of 2 or more and nim-sum 0 or 1.
	return g.Normal <= 1 && g.Equal(Genus{Normal: g.Normal, Misere: []int{g.Normal, g.Normal ^ 2}})
}

// NimGenus is the genus of a nim-heap of n: 0^{120}, 1^{031}, n^{n(n⊕2)}.
func NimGenus(n int) Genus {
	switch n {
	case 0:
		return Genus{Normal: 0, Misere: []int{1, 2, 0}}
	case 1:
		return Genus{Normal: 1, Misere: []int{0, 3, 1}}
	}
	return Genus{Normal: n, Misere: []int{n, n ^ 2}}
}

// GenusCost is what Genera is estimated to need before it starts.
type GenusCost struct {
	// Positions bounds the positions the recursion memoises: every
	// multiset of heaps reachable from heap upto (by the partitions of
	// the sizes up to upto when a move may split a heap).
	Positions float64
	// Steps bounds the options examined.
	Steps float64
	// Memory is about the bytes of the memo.
	Memory int64
	// Splits says that a move may leave more than one heap.
	Splits bool
}

// bytesPerPosition is about what a memoised position costs: its key, its
// map entry and its two short sequences.
const bytesPerPosition = 200

// EstimateGenus returns the cost of Genera(ctx, g, upto, lim) without
// computing it: the options of every heap 0..upto are listed (not their
// positions) to see whether moves split heaps and keep their sizes; a
// move that never splits reaches single heaps only, one that splits
// reaches the partitions of every size up to upto (Hardy and Ramanujan's
// p(n) ~ exp(π√(2n/3)) / (4n√3) bounds them), and a rule whose parts may
// add up to more than their heap (a Starlark rule) is estimated as if
// they did not, its positions being counted as they come.
func EstimateGenus(g heap.Game, upto int) GenusCost {
	splits := false
	var opts float64
	failed, _ := g.(interface{ Err() error })
	for n := 0; n <= upto; n++ {
		if n%1024 == 1023 && failed != nil && failed.Err() != nil {
			// A rule that failed (or was stopped) lists no more options:
			// the analysis stops with its error.
			upto = n
			break
		}
		if c, ok := heap.OptionCount(g, n); ok && !splits {
			opts += float64(c)
			if s, ok := g.(heap.Splitter); ok && n <= 64 {
				for k := 0; k <= n; k++ {
					if s.Digit(k)&^3 != 0 {
						splits = true
					}
				}
			}
			continue
		}
		os := g.Options(n)
		opts += float64(len(os))
		for _, o := range os {
			if len(o) > 1 {
				splits = true
			}
		}
		if splits {
			break
		}
	}
	var pos float64
	if !splits {
		pos = float64(upto + 1)
	} else {
		for m := 0; m <= upto; m++ {
			pos += partitions(m)
		}
	}
	// Each position is seen with a few nim-heaps of 2 and 1: the
	// sequences are short (most genera alternate from γ1 or γ2) and are
	// kept per position, not per count of nim-heaps.
	per := opts / float64(upto+1)
	if splits {
		per = max(per, float64(upto)/2)
	}
	steps := pos * max(per, 1) * 8
	mem := pos * bytesPerPosition
	if mem > math.MaxInt64/2 {
		mem = math.MaxInt64 / 2
	}
	return GenusCost{Positions: pos, Steps: steps, Memory: int64(mem), Splits: splits}
}

// About says an estimated count: "about 1.23e+06", or "more than 10^18"
// past it (p(n) overflows a float64 from n ≈ 10^5: "about +Inf positions"
// said nothing).
func About(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) || x >= 1e18 {
		return "more than 10^18"
	}
	return fmt.Sprintf("about %.3g", x)
}

// partitions returns p(n), exactly for small n and by Hardy and
// Ramanujan's asymptotic (an over-estimate for the sizes where it
// matters) beyond.
func partitions(n int) float64 {
	if n <= 200 {
		return smallPartitions[n]
	}
	x := float64(n)
	return math.Exp(math.Pi*math.Sqrt(2*x/3)) / (4 * x * math.Sqrt(3))
}

var smallPartitions = func() []float64 {
	p := make([]float64, 201)
	p[0] = 1
	for part := 1; part <= 200; part++ {
		for n := part; n <= 200; n++ {
			p[n] += p[n-part]
		}
	}
	return p
}()

// Genera returns the genus of every heap 0..upto of g (Conway; Winning
// Ways, ch. 13). γk of heap n is the misère Grundy value of heap n plus k
// nim-heaps of size 2, found by a memoised misère Grundy recursion over
// positions: a multiset of the game's heaps (those with no move dropped:
// they are the empty game) with counts of nim-heaps of 2 and of 1. Two
// nim-heaps of 1 are dropped together (* + * = 0 in misère play, On
// Numbers and Games, ch. 12; the tests check it against the recursion
// that keeps them), so a position X holds two sequences, a_k = X + k·2
// and b_k = X + k·2 + 1:
//
//	a_k = mex{a'_k of X's options, a_{k-1}, b_{k-1}}   (1 for the empty X at k = 0)
//	b_k = mex{b'_k of X's options, a_k, a_{k-1}, b_{k-1}}
//
// Once every option alternates (from K0), the pair (a_k, b_k) depends only
// on (a_{k-1}, b_{k-1}) and the parity of k: when a pair comes back two
// steps later, both sequences alternate for ever. That proves where each
// genus stops; no number of terms is guessed.
//
// The work is estimated (EstimateGenus) and refused before it starts when
// it passes lim.MaxPositions, lim.MaxSteps or lim.MaxMemory; ctx (or
// lim.Context) stops it within a few thousand positions.
func Genera(ctx context.Context, g heap.Game, upto int, lim heap.Limits) ([]Genus, error) {
	if upto < 0 {
		return nil, fmt.Errorf("misere: %v: negative heap size %d", g, upto)
	}
	if ctx == nil {
		ctx = lim.Context
	}
	if ctx == nil {
		ctx = context.Background()
	}
	maxPos := lim.MaxPositions
	if maxPos <= 0 {
		maxPos = heap.DefaultMaxPositions
	}
	maxSteps := lim.MaxSteps
	if maxSteps <= 0 {
		maxSteps = heap.DefaultMaxSteps
	}
	if float64(upto)+1 > float64(maxPos) {
		// Refused before the estimate lists the options of every heap.
		return nil, fmt.Errorf("misere: %v: the genera of heaps 0..%d need at least %d positions, more than the limit of %d: %w (lower upto, or raise it with --max-positions or limits.positions in the job file)",
			g, upto, int64(upto)+1, maxPos, game.ErrTooManyPositions)
	}
	// A rule's code (its options) runs within the limits and ctx, from
	// the estimate on.
	ctx, g, release := Bind(ctx, g, lim)
	defer release()
	lim.Context = ctx
	c := EstimateGenus(g, upto)
	if err := budget.Err(ctx); err != nil {
		return nil, fmt.Errorf("misere: %w", err)
	}
	if c.Positions > float64(maxPos) {
		return nil, fmt.Errorf("misere: %v: the genera of heaps 0..%d need %s positions, more than the limit of %d: %w (lower upto, or raise it with --max-positions or limits.positions in the job file)",
			g, upto, About(c.Positions), maxPos, game.ErrTooManyPositions)
	}
	if c.Steps > float64(maxSteps) {
		return nil, fmt.Errorf("misere: %v: the genera of heaps 0..%d need %s steps, more than the limit of %d: %w (lower upto, or raise the limit)",
			g, upto, About(c.Steps), maxSteps, heap.ErrTooManySteps)
	}
	if err := budget.Exceeds(fmt.Sprintf("the genera of %v up to %d", g, upto), c.Memory, lim.MaxMemory); err != nil {
		return nil, fmt.Errorf("misere: %w (raise it with --max-memory or limits.memory)", err)
	}
	normal, err := g.Values(upto, lim)
	if err != nil {
		return nil, fmt.Errorf("misere: %w", err)
	}
	s := &genusSolver{g: g, ctx: ctx, memo: map[string]*genusNode{}, maxPos: maxPos, maxSteps: maxSteps, prog: budget.From(ctx)}
	s.prog.Start(fmt.Sprintf("genera of %v", g), int64(upto)+1)
	out := make([]Genus, upto+1)
	for n := 0; n <= upto; n++ {
		s.prog.Set(int64(n))
		x, err := s.node(s.single(n))
		if err != nil {
			return nil, err
		}
		ms := make([]int, len(x.a))
		for k, v := range x.a {
			ms[k] = int(v)
		}
		if normal[n] > math.MaxInt32 {
			return nil, fmt.Errorf("misere: %v: heap %d has value %d, too large for a genus", g, n, normal[n])
		}
		out[n] = Genus{Normal: int(normal[n]), Misere: ms}.Short()
	}
	if err := budget.Err(ctx); err != nil {
		return nil, fmt.Errorf("misere: %w", err) // a rule failed since the last look
	}
	return out, nil
}

// genusNode is a solved position X: a_k and b_k for k < len, alternating
// from stable on (len = stable + 2).
type genusNode struct {
	a, b   []uint32
	stable int
}

func (x *genusNode) at(k int) (a, b uint32) {
	if k >= len(x.a) {
		k = x.stable + (k-x.stable)%2
	}
	return x.a[k], x.b[k]
}

type genusSolver struct {
	g        heap.Game
	ctx      context.Context
	memo     map[string]*genusNode
	opts     map[int][][]int
	maxPos   int
	maxSteps int64
	steps    int64
	prog     *budget.Progress
	// busy marks the positions being solved, so that a rule whose
	// options loop (a Starlark rule returning its own heap) is an error,
	// not a stack overflow.
	busy map[string]bool
}

// ErrLoop is wrapped by the error of a rule whose moves come back to a
// position: an impartial game must end.
var ErrLoop = errors.New("a move comes back to a position")

func (s *genusSolver) options(n int) [][]int {
	if s.opts == nil {
		s.opts = map[int][][]int{}
	}
	if o, ok := s.opts[n]; ok {
		return o
	}
	o := s.g.Options(n)
	s.opts[n] = o
	return o
}

// single is the key of one heap of n: a multiset of 4-byte sizes,
// ascending, heaps without a move left out.
func (s *genusSolver) single(n int) []int {
	if n <= 0 || len(s.options(n)) == 0 {
		return nil
	}
	return []int{n}
}

func key(hs []int) string {
	b := make([]byte, 0, 4*len(hs))
	for _, h := range hs {
		b = binary.BigEndian.AppendUint32(b, uint32(h))
	}
	return string(b)
}

// node solves X (its heaps ascending, each with a move).
func (s *genusSolver) node(hs []int) (*genusNode, error) {
	id := key(hs)
	if x, ok := s.memo[id]; ok {
		return x, nil
	}
	if s.busy == nil {
		s.busy = map[string]bool{}
	}
	if s.busy[id] {
		return nil, fmt.Errorf("misere: %v: position %v: %w", s.g, hs, ErrLoop)
	}
	s.busy[id] = true
	defer delete(s.busy, id)
	if len(s.memo)&0xfff == 0 {
		if err := budget.Err(s.ctx); err != nil {
			return nil, fmt.Errorf("misere: %w", err)
		}
	}
	if len(s.memo) >= s.maxPos {
		return nil, fmt.Errorf("misere: %v: the genera need more than %d positions, the limit: %w (lower upto, or raise it with --max-positions or limits.positions in the job file)",
			s.g, s.maxPos, game.ErrTooManyPositions)
	}
	// The options of X, each solved first.
	var children []*genusNode
	for i, h := range hs {
		if i > 0 && hs[i-1] == h {
			continue // equal heaps have the same moves
		}
		opts := s.options(h)
		if s.steps += int64(len(opts)) + 1; s.steps > s.maxSteps {
			return nil, fmt.Errorf("misere: %v: stopped after %d steps, the limit: %w (lower upto, or raise the limit)", s.g, s.steps, heap.ErrTooManySteps)
		}
		for _, o := range opts {
			q := make([]int, 0, len(hs)+len(o))
			q = append(q, hs[:i]...)
			q = append(q, hs[i+1:]...)
			for _, p := range o {
				if p < 0 {
					return nil, fmt.Errorf("misere: %v: option %v of heap %d has a negative part", s.g, o, h)
				}
				if p > 0 && len(s.options(p)) > 0 {
					q = append(q, p)
				}
			}
			slices.Sort(q)
			c, err := s.node(q)
			if err != nil {
				return nil, err
			}
			children = append(children, c)
		}
	}
	k0 := 0
	for _, c := range children {
		k0 = max(k0, c.stable)
	}
	x := &genusNode{}
	var set []bool
	mex := func(vs ...uint32) uint32 {
		clear(set)
		for _, v := range vs {
			if int(v) >= len(set) {
				set = append(set, make([]bool, int(v)+1-len(set))...)
			}
			set[v] = true
		}
		for i, in := range set {
			if !in {
				return uint32(i)
			}
		}
		return uint32(len(set))
	}
	vals := make([]uint32, 0, len(children)+3)
	for k := 0; ; k++ {
		vals = vals[:0]
		for _, c := range children {
			a, _ := c.at(k)
			vals = append(vals, a)
		}
		var a uint32
		if k == 0 && len(hs) == 0 {
			a = 1 // the empty position: no move, the last player won
		} else {
			if k > 0 {
				vals = append(vals, x.a[k-1], x.b[k-1])
			}
			a = mex(vals...)
		}
		vals = vals[:0]
		for _, c := range children {
			_, b := c.at(k)
			vals = append(vals, b)
		}
		vals = append(vals, a)
		if k > 0 {
			vals = append(vals, x.a[k-1], x.b[k-1])
		}
		b := mex(vals...)
		x.a = append(x.a, a)
		x.b = append(x.b, b)
		if k-2 >= k0 && x.a[k] == x.a[k-2] && x.b[k] == x.b[k-2] {
			break
		}
	}
	// The pair repeats from k-2 = len-3 on; it may have alternated
	// earlier.
	j := len(x.a) - 3
	for j > 0 && x.a[j+1] == x.a[j-1] && x.b[j+1] == x.b[j-1] {
		j--
	}
	x.stable = j
	x.a, x.b = slices.Clip(x.a[:j+2]), slices.Clip(x.b[:j+2])
	s.memo[id] = x
	return x, nil
}
