package coins

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/nimbook/nimbook/explore/game"
)

// indices checks heads (coin numbers in the game's numbering) against a row
// of n coins and returns them as sorted 0-based indices.
func (g *Game) indices(n int, heads []int) ([]int, error) {
	if n < 0 {
		return nil, fmt.Errorf("coins: negative number of coins %d", n)
	}
	idx := make([]int, len(heads))
	for k, h := range heads {
		i := h - g.first
		if i < 0 || i >= n {
			return nil, fmt.Errorf("coins: head %d is not one of the coins %d..%d", h, g.first, g.first+n-1)
		}
		idx[k] = i
	}
	slices.Sort(idx)
	for k := 1; k < len(idx); k++ {
		if idx[k] == idx[k-1] {
			return nil, fmt.Errorf("coins: head %d given twice", idx[k]+g.first)
		}
	}
	return idx, nil
}

// RowValue returns the Grundy value of the row whose heads are the given
// coins (numbers in the game's numbering): the nim-sum of their values.
func (g *Game) RowValue(heads []int) (uint64, error) {
	top := 0
	for _, h := range heads {
		top = max(top, h-g.first+1)
	}
	idx, err := g.indices(top, heads)
	if err != nil {
		return 0, err
	}
	vs, err := g.values0(top)
	if err != nil {
		return 0, err
	}
	var x uint64
	for _, i := range idx {
		x ^= vs[i]
	}
	return x, nil
}

// binomSum returns Σ_{s=lo..hi} C(m, s), saturated at limit+1.
func binomSum(m, lo, hi int, limit int64) int64 {
	var total int64
	c := int64(1) // C(m, s), s from 0
	for s := 0; s <= hi && s <= m; s++ {
		if s > 0 {
			// C(m, s) = C(m, s−1)·(m−s+1)/s, exact; stop before overflow.
			hiMul, lo64 := bits.Mul64(uint64(c), uint64(m-s+1))
			if hiMul != 0 || lo64/uint64(s) > uint64(limit)+1 {
				c = limit + 1
			} else {
				c = int64(lo64 / uint64(s))
			}
		}
		if s >= lo {
			total += c
			if total > limit {
				return limit + 1
			}
		}
	}
	return total
}

// sizes returns the allowed numbers of other coins turned with the
// rightmost one, for the subset rules.
func (g *Game) sizes() (lo, hi int) {
	if g.rule == Exactly {
		return g.r - 1, g.r - 1
	}
	return 0, g.r - 1
}

// allows reports whether turning the 0-based coins of set (sorted, not
// empty) is a move of g, heads or tails aside.
func (g *Game) allows(set []int) bool {
	if g.rule == Ruler {
		for i := 1; i < len(set); i++ {
			if set[i] != set[i-1]+1 {
				return false
			}
		}
		return len(set) > 0
	}
	lo, hi := g.sizes()
	return len(set)-1 >= lo && len(set)-1 <= hi
}

// countSets returns the number of move sets whose rightmost coin is i.
func (g *Game) countSets(i int) int64 {
	if g.rule == Ruler {
		return int64(i) + 1
	}
	lo, hi := g.sizes()
	return binomSum(i, lo, hi, g.limits.MaxSteps)
}

// eachSet calls f with every set of coins below i that a move whose
// rightmost coin is i may turn with it (0-based indices, ascending; the
// slice is reused between calls).
func (g *Game) eachSet(i int, f func(set []int)) {
	if g.rule == Ruler {
		set := make([]int, 0, i)
		for m := i; m >= 0; m-- {
			set = set[:0]
			for k := m; k < i; k++ {
				set = append(set, k)
			}
			f(set)
		}
		return
	}
	lo, hi := g.sizes()
	set := make([]int, 0, hi)
	var rec func(next int)
	rec = func(next int) {
		if len(set) >= lo {
			f(set)
		}
		if len(set) == hi {
			return
		}
		for k := next; k < i; k++ {
			set = append(set, k)
			rec(k + 1)
			set = set[:len(set)-1]
		}
	}
	rec(0)
}

// toggle returns the sorted heads (game numbering) of idx with the coins
// set ∪ {i} turned over.
func (g *Game) toggle(idx []int, set []int, i int) []int {
	on := make(map[int]bool, len(idx)+len(set)+1)
	for _, k := range idx {
		on[k] = true
	}
	for _, k := range set {
		on[k] = !on[k]
	}
	on[i] = !on[i]
	out := []int{}
	for k, b := range on {
		if b {
			out = append(out, k+g.first)
		}
	}
	slices.Sort(out)
	return out
}

func (g *Game) checkMoveCount(idx []int) error {
	var total int64
	for _, i := range idx {
		total += g.countSets(i)
		if total > g.limits.MaxSteps {
			return g.limits.tooManySteps(fmt.Sprintf("%v: the move sets to enumerate", g))
		}
	}
	// Each move is a list of heads: a header and at most len(idx) + r of them.
	per := int64(24 + 8*(len(idx)+max(g.r, 1)))
	return g.limits.checkMemory(fmt.Sprintf("listing the %d moves of %d heads", total, len(idx)), total*per)
}

// Moves returns every position reachable in one move from the row of n
// coins with the given heads, each as its sorted list of heads, the list
// in lexicographic order.
func (g *Game) Moves(n int, heads []int) ([][]int, error) {
	idx, err := g.indices(n, heads)
	if err != nil {
		return nil, err
	}
	if err := g.checkMoveCount(idx); err != nil {
		return nil, err
	}
	out := [][]int{}
	for _, i := range idx {
		g.eachSet(i, func(set []int) {
			out = append(out, g.toggle(idx, set, i))
		})
	}
	slices.SortFunc(out, slices.Compare)
	return out, nil
}

// HasMove reports whether a move exists from the row of n coins with the
// given heads, without listing the moves (exactly 4 on 60 heads has
// 1.6 million): some head has at least as many coins to its left as the
// rule turns besides it (none for at most r and the ruler).
func (g *Game) HasMove(n int, heads []int) (bool, error) {
	idx, err := g.indices(n, heads)
	if err != nil {
		return false, err
	}
	lo, _ := g.sizes()
	return slices.ContainsFunc(idx, func(i int) bool { return i >= lo }), nil
}

// MoveCount returns how many moves the row of n coins with the given heads
// has, without listing them; past the step limit it says so much and no
// more.
func (g *Game) MoveCount(n int, heads []int) (int64, error) {
	idx, err := g.indices(n, heads)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, i := range idx {
		total += g.countSets(i)
		if total > g.limits.MaxSteps {
			break
		}
	}
	return total, nil
}

// LargestMoves returns the k moves from the row of n coins with the given
// heads (all of them when fewer) that leave the most game, the row read as
// a binary number whose last coin is the highest bit, largest first,
// without listing every move. Of two moves, the highest coin that one
// turns and the other does not decides: so the lowest head that can move
// comes first, and below it the coins are taken from the top down, a tails
// coin turned before one left alone, and that before a heads coin turned.
func (g *Game) LargestMoves(n int, heads []int, k int) ([][]int, error) {
	idx, err := g.indices(n, heads)
	if err != nil {
		return nil, err
	}
	out := [][]int{}
	if k <= 0 {
		return out, nil
	}
	if g.rule == Ruler {
		// At most i + 1 runs end at head i: list them and sort.
		ms, err := g.Moves(n, heads)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(ms, func(a, b []int) int { return compareRows(b, a) })
		return ms[:min(k, len(ms))], nil
	}
	isHead := make([]bool, n)
	for _, i := range idx {
		isHead[i] = true
	}
	lo, hi := g.sizes()
	set := make([]int, 0, hi)
	var head int
	// next decides coin pos, then those below it, in the order of the
	// moves they make; it returns false once k moves are found.
	var next func(pos int) bool
	next = func(pos int) bool {
		if len(set)+pos+1 < lo {
			return true // too few coins left to turn
		}
		if pos < 0 {
			out = append(out, g.toggle(idx, set, head))
			return len(out) < k
		}
		turn := func() bool {
			if len(set) == hi {
				return true
			}
			set = append(set, pos)
			ok := next(pos - 1)
			set = set[:len(set)-1]
			return ok
		}
		if !isHead[pos] {
			return turn() && next(pos-1)
		}
		return next(pos-1) && turn()
	}
	for _, i := range idx {
		if i < lo {
			continue
		}
		head = i
		if !next(i - 1) {
			break
		}
	}
	return out, nil
}

// RandomMove draws one of the moves from the row of n coins with the given
// heads at random, without listing them: a head with the weight of its
// moves, then the number of other coins turned, then which (each move
// equally likely, as far as float64 weights tell past 2^53 moves).
func (g *Game) RandomMove(n int, heads []int, rng *rand.Rand) ([]int, error) {
	idx, err := g.indices(n, heads)
	if err != nil {
		return nil, err
	}
	lo, hi := g.sizes()
	weight := func(i, s int) float64 { return binomial(i, s) }
	if g.rule == Ruler {
		// i + 1 runs end at head i, one of each length 0..i.
		lo, hi = 0, 0
		weight = func(i, _ int) float64 { return float64(i + 1) }
	}
	sum := func(i int) float64 {
		w := 0.0
		for s := lo; s <= min(hi, i); s++ {
			w += weight(i, s)
		}
		return w
	}
	total := 0.0
	for _, i := range idx {
		total += sum(i)
	}
	if total == 0 {
		return nil, fmt.Errorf("coins: no move from heads %v", heads)
	}
	x := rng.Float64() * total
	head := -1
	for _, i := range idx {
		if w := sum(i); w > 0 {
			head = i
			if x < w {
				break
			}
			x -= w
		}
	}
	var set []int
	if g.rule == Ruler {
		for k := rng.IntN(head + 1); k < head; k++ {
			set = append(set, k)
		}
		return g.toggle(idx, set, head), nil
	}
	x = rng.Float64() * sum(head)
	size := lo
	for s := lo; s <= min(hi, head); s++ {
		size = s
		if x < weight(head, s) {
			break
		}
		x -= weight(head, s)
	}
	// size distinct coins below the head, each set equally likely (Floyd).
	chosen := make(map[int]bool, size)
	for j := head - size; j < head; j++ {
		t := rng.IntN(j + 1)
		if chosen[t] {
			t = j
		}
		chosen[t] = true
		set = append(set, t)
	}
	return g.toggle(idx, set, head), nil
}

// binomial is C(n, k) in floating point.
func binomial(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	c := 1.0
	for j := 1; j <= k; j++ {
		c = c * float64(n-k+j) / float64(j)
	}
	return c
}

// compareRows compares two rows given by their sorted heads as binary
// numbers whose highest bit is the last coin.
func compareRows(a, b []int) int {
	for len(a) > 0 && len(b) > 0 {
		x, y := a[len(a)-1], b[len(b)-1]
		if x != y {
			return cmp.Compare(x, y)
		}
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	return cmp.Compare(len(a), len(b))
}

// WinningMoves returns the positions reached by the normal-play winning
// moves from the row of n coins with the given heads (those of value 0),
// each as its sorted list of heads, the list in lexicographic order; it
// is empty from a P-position.
func (g *Game) WinningMoves(n int, heads []int) ([][]int, error) {
	idx, err := g.indices(n, heads)
	if err != nil {
		return nil, err
	}
	vs, err := g.values0(n)
	if err != nil {
		return nil, err
	}
	var total uint64
	for _, i := range idx {
		total ^= vs[i]
	}
	out := [][]int{}
	if total == 0 {
		return out, nil
	}
	if g.rule == Ruler {
		for _, i := range idx {
			// Turning the run m..i changes the value by the run's nim-sum.
			x := vs[i]
			for m := i; m >= 0; m-- {
				if m < i {
					x ^= vs[m]
				}
				if x == total {
					set := make([]int, 0, i-m)
					for k := m; k < i; k++ {
						set = append(set, k)
					}
					out = append(out, g.toggle(idx, set, i))
				}
			}
		}
		slices.SortFunc(out, slices.Compare)
		return out, nil
	}
	// Subset rules: choose all but the last coin of the set, then look the
	// last one up by its value, which saves a factor of about n.
	where := make(map[uint64][]int)
	for k, v := range vs {
		where[v] = append(where[v], k)
	}
	lo, hi := g.sizes()
	var work int64
	for _, i := range idx {
		if hi > 0 {
			work += binomSum(i, 0, hi-1, g.limits.MaxSteps)
		}
		if work > g.limits.MaxSteps {
			return nil, g.limits.tooManySteps(fmt.Sprintf("%v: the partial move sets to enumerate", g))
		}
	}
	var steps int
	var stop error
	for _, i := range idx {
		if stop != nil {
			return nil, stop
		}
		want := total ^ vs[i] // nim-sum the other turned coins must have
		if lo == 0 && want == 0 {
			out = append(out, g.toggle(idx, nil, i))
		}
		if hi == 0 {
			continue
		}
		set := make([]int, 0, hi)
		var rec func(next int, x uint64)
		rec = func(next int, x uint64) {
			if steps++; steps&4095 == 0 && stop == nil {
				stop = g.limits.stopped()
			}
			if stop != nil {
				return
			}
			// Complete the set with one more coin k ≥ next, k < i.
			if len(set)+1 >= lo {
				for _, k := range where[want^x] {
					if k >= next && k < i {
						set = append(set, k)
						out = append(out, g.toggle(idx, set, i))
						set = set[:len(set)-1]
					}
				}
			}
			if len(set)+1 == hi {
				return
			}
			for k := next; k < i; k++ {
				set = append(set, k)
				rec(k+1, x^vs[k])
				set = set[:len(set)-1]
			}
		}
		rec(0, 0)
	}
	if stop != nil {
		return nil, stop
	}
	slices.SortFunc(out, slices.Compare)
	return out, nil
}

// Mask returns the row of n ≤ 64 coins with the given heads as a bitmask:
// bit k is the coin numbered first+k.
func (g *Game) Mask(n int, heads []int) (uint64, error) {
	if n > 64 {
		return 0, fmt.Errorf("coins: a bitmask holds at most 64 coins, not %d", n)
	}
	idx, err := g.indices(n, heads)
	if err != nil {
		return 0, err
	}
	var m uint64
	for _, i := range idx {
		m |= 1 << i
	}
	return m, nil
}

// Heads returns the coin numbers of the heads of a bitmask row, ascending.
func (g *Game) Heads(mask uint64) []int {
	out := []int{}
	for mask != 0 {
		i := bits.TrailingZeros64(mask)
		out = append(out, i+g.first)
		mask &= mask - 1
	}
	return out
}

// Mover returns the moves of the game on rows of n ≤ 64 coins as bitmasks
// (see Mask), for the generic solver. Its moves are listed in no promised
// order; a position with more move sets than the step limit is an error.
func (g *Game) Mover(n int) (game.Mover[uint64], error) {
	if n < 0 || n > 64 {
		return nil, fmt.Errorf("coins: a bitmask row has 0 to 64 coins, not %d", n)
	}
	return game.MoveFunc[uint64](func(p uint64) ([]uint64, error) {
		if n < 64 && p>>n != 0 {
			return nil, fmt.Errorf("coins: position %#x has heads beyond coin %d", p, g.first+n-1)
		}
		var count int64
		for q := p; q != 0; q &= q - 1 {
			count += g.countSets(bits.TrailingZeros64(q))
			if count > g.limits.MaxSteps {
				return nil, g.limits.tooManySteps(fmt.Sprintf("%v: the moves from %v", g, g.Heads(p)))
			}
		}
		if err := g.limits.checkMemory(fmt.Sprintf("listing the %d moves from %v", count, g.Heads(p)), 8*count); err != nil {
			return nil, err
		}
		out := make([]uint64, 0, count)
		for q := p; q != 0; q &= q - 1 {
			i := bits.TrailingZeros64(q)
			g.eachSet(i, func(set []int) {
				m := uint64(1) << i
				for _, k := range set {
					m |= 1 << k
				}
				out = append(out, p^m)
			})
		}
		return out, nil
	}), nil
}

// Outcome returns P or N for the row of n ≤ 64 coins with the given heads.
// Normal play reads it from the nim-sum of the values; misère play has no
// such rule and is solved on the whole game graph by the generic solver,
// within the position limit (a row whose rightmost head is coin k reaches
// up to 2^(k−first+1) rows).
func (g *Game) Outcome(n int, heads []int, play game.Play) (game.Outcome, error) {
	if play == game.Normal {
		if _, err := g.indices(n, heads); err != nil {
			return game.N, err
		}
		v, err := g.RowValue(heads)
		if err != nil {
			return game.N, err
		}
		if v == 0 {
			return game.P, nil
		}
		return game.N, nil
	}
	s, p, err := g.solver(n, heads, play)
	if err != nil {
		return game.N, err
	}
	o, err := s.Outcome(p)
	if err != nil {
		return game.N, fmt.Errorf("coins: %w", err)
	}
	return o, nil
}

// MisereWinningMoves returns the positions reached by the misère winning
// moves from the row, as WinningMoves does for normal play, solved by the
// generic solver (see Outcome for its bound).
func (g *Game) MisereWinningMoves(n int, heads []int) ([][]int, error) {
	s, p, err := g.solver(n, heads, game.Misere)
	if err != nil {
		return nil, err
	}
	win, err := s.WinningMoves(p)
	if err != nil {
		return nil, fmt.Errorf("coins: %w", err)
	}
	out := make([][]int, len(win))
	for k, q := range win {
		out[k] = g.Heads(q)
	}
	slices.SortFunc(out, slices.Compare)
	return out, nil
}

func (g *Game) solver(n int, heads []int, play game.Play) (*game.Solver[uint64], uint64, error) {
	p, err := g.Mask(n, heads)
	if err != nil {
		return nil, 0, err
	}
	m, err := g.Mover(n)
	if err != nil {
		return nil, 0, err
	}
	maxPos := g.limits.MaxPositions
	if maxPos == 0 {
		maxPos = game.DefaultMaxPositions
	}
	if top := bits.Len64(p); top < 63 && int64(1)<<top > int64(maxPos) {
		return nil, 0, fmt.Errorf("coins: misère play on %d coins may visit %d rows, more than the limit of %d positions: %w (raise it with --max-positions or limits.positions in the job file)", top, int64(1)<<top, maxPos, ErrLimit)
	} else if top >= 63 {
		return nil, 0, fmt.Errorf("coins: misère play on %d coins may visit 2^%d rows, more than the limit of %d positions: %w (raise it with --max-positions or limits.positions in the job file)", top, top, maxPos, ErrLimit)
	}
	s, err := game.NewSolver[uint64](m, game.Options{Play: play, MaxPositions: maxPos, MaxMemory: g.limits.MaxMemory, Context: g.limits.Context})
	if err != nil {
		return nil, 0, fmt.Errorf("coins: %w", err)
	}
	return s, p, nil
}
