package coins

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/nimber"
)

// Product is the tartan product of two or three coin games, played on a
// grid (or a box) of coins. A move picks, for each factor, a set of coins
// that factor allows a move to turn; the coin whose coordinates are the
// sets' rightmost coins must be heads, and every coin of the sets' product
// is turned over. The value of a head at (a, b) is the nim-product of the
// factors' values f₁(a) ⊗ f₂(b) (⊗ f₃(c)).
//
// Cells are given by their coordinates in each factor's numbering; the
// first coordinate belongs to the first factor (the rows of a table).
// A Product is safe for concurrent use.
type Product struct {
	factors []*Game
	limits  Limits
}

// NewProduct returns the tartan product of two or three games.
func NewProduct(factors ...*Game) (*Product, error) {
	if len(factors) != 2 && len(factors) != 3 {
		return nil, fmt.Errorf("coins: a product has 2 or 3 factors, not %d", len(factors))
	}
	for k, f := range factors {
		if f == nil {
			return nil, fmt.Errorf("coins: product factor %d is nil", k+1)
		}
	}
	return &Product{factors: slices.Clone(factors), limits: Limits{}.withDefaults()}, nil
}

// WithLimits returns a copy of p bounded by l (zero fields: defaults). The
// factors keep their own limits for their values.
func (p *Product) WithLimits(l Limits) *Product {
	return &Product{factors: p.factors, limits: l.withDefaults()}
}

// Factors returns the factors, first (rows) first.
func (p *Product) Factors() []*Game { return slices.Clone(p.factors) }

// Dims returns the number of factors, 2 or 3.
func (p *Product) Dims() int { return len(p.factors) }

// String describes the product, e.g. "(at-most 2, coins from 1) × (ruler, coins from 1)".
func (p *Product) String() string {
	parts := make([]string, len(p.factors))
	for k, f := range p.factors {
		parts[k] = "(" + f.String() + ")"
	}
	return strings.Join(parts, " × ")
}

func (p *Product) checkSizes(sizes []int) (int64, error) {
	if len(sizes) != len(p.factors) {
		return 0, fmt.Errorf("coins: %d sizes for a product of %d games", len(sizes), len(p.factors))
	}
	cells := int64(1)
	for _, s := range sizes {
		if s < 0 {
			return 0, fmt.Errorf("coins: negative size %d", s)
		}
		cells *= int64(s)
		if cells > p.limits.MaxSteps {
			return 0, p.limits.tooManySteps(fmt.Sprintf("the cells of a table of sizes %v", sizes))
		}
	}
	return cells, nil
}

// factorValues returns each factor's values on its size.
func (p *Product) factorValues(sizes []int) ([][]uint64, error) {
	vs := make([][]uint64, len(sizes))
	for k, f := range p.factors {
		v, err := f.values0(sizes[k])
		if err != nil {
			return nil, err
		}
		vs[k] = v
	}
	return vs, nil
}

// Table returns the value of a single head on each cell of a grid with the
// given sizes (one per factor): a [][]uint64 for two factors, where
// t[i][j] is the value at (i+first₁, j+first₂), or a [][][]uint64 for
// three. Table2 and Table3 return the same with their static types.
func (p *Product) Table(sizes ...int) (any, error) {
	if len(p.factors) == 2 && len(sizes) == 2 {
		return p.Table2(sizes[0], sizes[1])
	}
	if len(p.factors) == 3 && len(sizes) == 3 {
		return p.Table3(sizes[0], sizes[1], sizes[2])
	}
	return nil, fmt.Errorf("coins: %d sizes for a product of %d games", len(sizes), len(p.factors))
}

// Table2 is Table for a product of two games.
func (p *Product) Table2(a, b int) ([][]uint64, error) {
	if _, err := p.checkSizes([]int{a, b}); err != nil {
		return nil, err
	}
	if err := p.limits.checkMemory(fmt.Sprintf("a %d×%d table", a, b), tableBytes(a, b)); err != nil {
		return nil, err
	}
	vs, err := p.factorValues([]int{a, b})
	if err != nil {
		return nil, err
	}
	t := make([][]uint64, a)
	for i := range t {
		if err := p.limits.stopped(); err != nil {
			return nil, err
		}
		t[i] = make([]uint64, b)
		for j := range t[i] {
			t[i][j] = nimber.Mul(vs[0][i], vs[1][j])
		}
	}
	return t, nil
}

// Table3 is Table for a product of three games.
func (p *Product) Table3(a, b, c int) ([][][]uint64, error) {
	if _, err := p.checkSizes([]int{a, b, c}); err != nil {
		return nil, err
	}
	if err := p.limits.checkMemory(fmt.Sprintf("a %d×%d×%d table", a, b, c), int64(a)*24+int64(a)*tableBytes(b, c)); err != nil {
		return nil, err
	}
	vs, err := p.factorValues([]int{a, b, c})
	if err != nil {
		return nil, err
	}
	t := make([][][]uint64, a)
	for i := range t {
		if err := p.limits.stopped(); err != nil {
			return nil, err
		}
		t[i] = make([][]uint64, b)
		for j := range t[i] {
			t[i][j] = make([]uint64, c)
			ij := nimber.Mul(vs[0][i], vs[1][j])
			for k := range t[i][j] {
				t[i][j][k] = nimber.Mul(ij, vs[2][k])
			}
		}
	}
	return t, nil
}

// tableBytes is the size of an a × b [][]uint64, with its factors' values.
func tableBytes(a, b int) int64 {
	return int64(a)*(24+8*int64(b)) + 8*int64(a+b)
}

// cell is a 0-based cell; unused coordinates are 0.
type cell [3]int

// cells checks heads and returns them 0-based, with the grid size that
// holds them (max coordinate + 1 per factor).
func (p *Product) cells(heads [][]int) ([]cell, []int, error) {
	d := len(p.factors)
	out := make([]cell, len(heads))
	extent := make([]int, d)
	seen := make(map[cell]bool, len(heads))
	for h, xs := range heads {
		if len(xs) != d {
			return nil, nil, fmt.Errorf("coins: head %v has %d coordinates, want %d", xs, len(xs), d)
		}
		var c cell
		for k, x := range xs {
			i := x - p.factors[k].first
			if i < 0 {
				return nil, nil, fmt.Errorf("coins: head %v: coordinate %d is below the first coin %d", xs, x, p.factors[k].first)
			}
			c[k] = i
			extent[k] = max(extent[k], i+1)
		}
		if seen[c] {
			return nil, nil, fmt.Errorf("coins: head %v given twice", xs)
		}
		seen[c] = true
		out[h] = c
	}
	return out, extent, nil
}

func (p *Product) valueOf(vs [][]uint64, c cell) uint64 {
	x := vs[0][c[0]]
	for k := 1; k < len(vs); k++ {
		x = nimber.Mul(x, vs[k][c[k]])
	}
	return x
}

// Value returns the Grundy value of the position whose heads are the given
// cells: the nim-sum of their single-head values.
func (p *Product) Value(heads [][]int) (uint64, error) {
	cs, extent, err := p.cells(heads)
	if err != nil {
		return 0, err
	}
	vs, err := p.factorValues(extent)
	if err != nil {
		return 0, err
	}
	var x uint64
	for _, c := range cs {
		x ^= p.valueOf(vs, c)
	}
	return x, nil
}

// factorSet is one factor's move set with a given rightmost coin: its
// 0-based coins (the rightmost last) and the nim-sum of their values.
type factorSet struct {
	coins []int
	value uint64
}

func (p *Product) factorSets(k, i int, vs []uint64) []factorSet {
	var out []factorSet
	p.factors[k].eachSet(i, func(set []int) {
		fs := factorSet{coins: append(slices.Clone(set), i), value: vs[i]}
		for _, m := range set {
			fs.value ^= vs[m]
		}
		out = append(out, fs)
	})
	return out
}

// turn returns the position cs with the product of the sets turned over,
// as sorted heads in the factors' numbering.
func (p *Product) turn(cs []cell, sets []factorSet) [][]int {
	on := make(map[cell]bool, len(cs))
	for _, c := range cs {
		on[c] = true
	}
	var rec func(k int, c cell)
	rec = func(k int, c cell) {
		if k == len(sets) {
			on[c] = !on[c]
			return
		}
		for _, x := range sets[k].coins {
			c[k] = x
			rec(k+1, c)
		}
	}
	rec(0, cell{})
	out := [][]int{}
	for c, b := range on {
		if b {
			xs := make([]int, len(p.factors))
			for k := range xs {
				xs[k] = c[k] + p.factors[k].first
			}
			out = append(out, xs)
		}
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

func comparePositions(a, b [][]int) int { return slices.CompareFunc(a, b, slices.Compare) }

// countMoves returns the number of moves from the heads cs, refusing more
// than the step limit, or factor sets past the memory limit.
func (p *Product) countMoves(cs []cell) (int64, error) {
	var total int64
	for _, c := range cs {
		n := int64(1)
		for k, f := range p.factors {
			n *= f.countSets(c[k])
			if n > p.limits.MaxSteps {
				break
			}
		}
		total += n
		if total > p.limits.MaxSteps {
			return 0, p.limits.tooManySteps(fmt.Sprintf("%v: the moves to enumerate", p))
		}
	}
	// Each head's factor sets are listed, with their coins.
	var sets int64
	for _, c := range cs {
		for k, f := range p.factors {
			sets += f.countSets(c[k]) * int64(48+8*max(f.r, 1))
		}
	}
	return total, p.limits.checkMemory(fmt.Sprintf("listing the move sets of %d heads", len(cs)), sets)
}

// Moves returns every position reachable in one move, each as its sorted
// list of heads, the list sorted.
func (p *Product) Moves(heads [][]int) ([][][]int, error) {
	cs, extent, err := p.cells(heads)
	if err != nil {
		return nil, err
	}
	total, err := p.countMoves(cs)
	if err != nil {
		return nil, err
	}
	// A move is a list of heads, each a list of coordinates; a move turns
	// at most the heads there are plus the cells of its sets.
	per := int64(24 + (len(cs)+16)*(24+8*len(p.factors)))
	if err := p.limits.checkMemory(fmt.Sprintf("listing the %d moves of %d heads", total, len(cs)), total*per); err != nil {
		return nil, err
	}
	vs, err := p.factorValues(extent)
	if err != nil {
		return nil, err
	}
	out := [][][]int{}
	var steps int
	var stop error
	for _, c := range cs {
		lists := make([][]factorSet, len(p.factors))
		for k := range lists {
			lists[k] = p.factorSets(k, c[k], vs[k])
		}
		eachCombo(lists, func(sets []factorSet) {
			if steps++; steps&1023 == 0 && stop == nil {
				stop = p.limits.stopped()
			}
			if stop == nil {
				out = append(out, p.turn(cs, sets))
			}
		})
		if stop != nil {
			return nil, stop
		}
	}
	slices.SortFunc(out, comparePositions)
	return out, nil
}

func eachCombo(lists [][]factorSet, f func([]factorSet)) {
	pick := make([]factorSet, len(lists))
	var rec func(k int)
	rec = func(k int) {
		if k == len(lists) {
			f(pick)
			return
		}
		for _, s := range lists[k] {
			pick[k] = s
			rec(k + 1)
		}
	}
	rec(0)
}

// HasMove reports whether a move exists from heads, without listing the
// moves: some head must be the rightmost coin of a move set in every
// factor.
func (p *Product) HasMove(heads [][]int) (bool, error) {
	cs, _, err := p.cells(heads)
	if err != nil {
		return false, err
	}
	for _, c := range cs {
		ok := true
		for k, f := range p.factors {
			ok = ok && f.countSets(c[k]) > 0
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// IsMove reports whether to is one move from `from`, both lists of heads:
// the cells that differ must be S₁ × S₂ (× S₃), each Sₖ a move set of
// factor k, with the cell of their rightmost coins a head in from. It
// checks one move without listing them all, which Moves would.
func (p *Product) IsMove(from, to [][]int) (bool, error) {
	fc, _, err := p.cells(from)
	if err != nil {
		return false, err
	}
	tc, _, err := p.cells(to)
	if err != nil {
		return false, err
	}
	diff := make(map[cell]bool, len(fc)+len(tc))
	for _, c := range fc {
		diff[c] = true
	}
	for _, c := range tc {
		diff[c] = !diff[c]
	}
	d := len(p.factors)
	proj := make([][]int, d)
	n := 0
	for c, on := range diff {
		if !on {
			continue
		}
		n++
		for k := range d {
			if !slices.Contains(proj[k], c[k]) {
				proj[k] = append(proj[k], c[k])
			}
		}
	}
	if n == 0 {
		return false, nil
	}
	cross := 1
	var corner cell
	for k := range d {
		slices.Sort(proj[k])
		cross *= len(proj[k])
		corner[k] = proj[k][len(proj[k])-1]
		if !p.factors[k].allows(proj[k]) {
			return false, nil
		}
	}
	// n distinct cells inside a product of cross cells are all of it when
	// n = cross.
	return n == cross && slices.Contains(fc, corner), nil
}

// WinningMoves returns the positions reached by the normal-play winning
// moves, each as its sorted list of heads, the list sorted; it is empty
// from a P-position. A move turning the product of sets with nim-sums
// α, β (, γ) changes the value by α ⊗ β (⊗ γ), by distributivity, so only
// distinct nim-sums are multiplied.
func (p *Product) WinningMoves(heads [][]int) ([][][]int, error) {
	cs, extent, err := p.cells(heads)
	if err != nil {
		return nil, err
	}
	if _, err := p.countMoves(cs); err != nil {
		return nil, err
	}
	vs, err := p.factorValues(extent)
	if err != nil {
		return nil, err
	}
	var total uint64
	for _, c := range cs {
		total ^= p.valueOf(vs, c)
	}
	out := [][][]int{}
	if total == 0 {
		return out, nil
	}
	var steps int
	var stop error
	for _, c := range cs {
		// Group each factor's sets by nim-sum, in first-seen order.
		groups := make([][][]factorSet, len(p.factors))
		for k := range groups {
			index := map[uint64]int{}
			for _, s := range p.factorSets(k, c[k], vs[k]) {
				at, ok := index[s.value]
				if !ok {
					at = len(groups[k])
					index[s.value] = at
					groups[k] = append(groups[k], nil)
				}
				groups[k][at] = append(groups[k][at], s)
			}
		}
		pick := make([][]factorSet, len(groups))
		var rec func(k int, x uint64)
		rec = func(k int, x uint64) {
			if steps++; steps&4095 == 0 && stop == nil {
				stop = p.limits.stopped()
			}
			if stop != nil {
				return
			}
			if k == len(groups) {
				if x == total {
					eachCombo(pick, func(sets []factorSet) {
						out = append(out, p.turn(cs, sets))
					})
				}
				return
			}
			for _, g := range groups[k] {
				pick[k] = g
				y := g[0].value
				if k > 0 {
					y = nimber.Mul(x, y)
				}
				rec(k+1, y)
			}
		}
		rec(0, 0)
		if stop != nil {
			return nil, stop
		}
	}
	slices.SortFunc(out, comparePositions)
	return out, nil
}

// Mask returns a position of a grid with the given sizes (at most 64
// cells) as a bitmask: the cell with 0-based coordinates (i, j) is bit
// i·sizes[1] + j, and (i, j, k) is bit (i·sizes[1] + j)·sizes[2] + k.
func (p *Product) Mask(sizes []int, heads [][]int) (uint64, error) {
	cells, err := p.checkSizes(sizes)
	if err != nil {
		return 0, err
	}
	if cells > 64 {
		return 0, fmt.Errorf("coins: a bitmask holds at most 64 cells, not %d", cells)
	}
	cs, _, err := p.cells(heads)
	if err != nil {
		return 0, err
	}
	var m uint64
	for h, c := range cs {
		bit := 0
		for k, s := range sizes {
			if c[k] >= s {
				return 0, fmt.Errorf("coins: head %v is outside the grid %v", heads[h], sizes)
			}
			bit = bit*s + c[k]
		}
		m |= 1 << bit
	}
	return m, nil
}

// Heads returns the cells of a bitmask position of a grid with the given
// sizes (see Mask), sorted.
func (p *Product) Heads(sizes []int, mask uint64) [][]int {
	out := [][]int{}
	for ; mask != 0; mask &= mask - 1 {
		bit := bits.TrailingZeros64(mask)
		xs := make([]int, len(sizes))
		for k := len(sizes) - 1; k >= 0; k-- {
			xs[k] = bit%sizes[k] + p.factors[k].first
			bit /= sizes[k]
		}
		out = append(out, xs)
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// Mover returns the moves of the product on a grid with the given sizes
// (at most 64 cells) as bitmasks (see Mask), for the generic solver.
func (p *Product) Mover(sizes ...int) (game.Mover[uint64], error) {
	cells, err := p.checkSizes(sizes)
	if err != nil {
		return nil, err
	}
	if cells > 64 {
		return nil, fmt.Errorf("coins: a bitmask holds at most 64 cells, not %d", cells)
	}
	sz := slices.Clone(sizes)
	var count int64
	for k, f := range p.factors {
		for i := range sz[k] {
			count += f.countSets(i)
		}
	}
	if count > p.limits.MaxSteps {
		return nil, p.limits.tooManySteps(fmt.Sprintf("%v: the factor move sets on the grid %v", p, sz))
	}
	// Each factor's move sets by rightmost coin, as masks of its coins.
	sets := make([][][]uint64, len(sz))
	for k, f := range p.factors {
		sets[k] = make([][]uint64, sz[k])
		for i := range sz[k] {
			f.eachSet(i, func(set []int) {
				m := uint64(1) << i
				for _, x := range set {
					m |= 1 << x
				}
				sets[k][i] = append(sets[k][i], m)
			})
		}
	}
	return game.MoveFunc[uint64](func(pos uint64) ([]uint64, error) {
		if cells < 64 && pos>>cells != 0 {
			return nil, fmt.Errorf("coins: position %#x has heads outside the grid %v", pos, sz)
		}
		var count int64
		for q := pos; q != 0; q &= q - 1 {
			n := int64(1)
			for k, c := range gridCell(sz, bits.TrailingZeros64(q)) {
				n *= int64(len(sets[k][c]))
			}
			if count += n; count > p.limits.MaxSteps {
				return nil, p.limits.tooManySteps(fmt.Sprintf("%v: the moves from %v", p, p.Heads(sz, pos)))
			}
		}
		if err := p.limits.checkMemory(fmt.Sprintf("listing the %d moves from %v", count, p.Heads(sz, pos)), 8*count); err != nil {
			return nil, err
		}
		out := make([]uint64, 0, count)
		for q := pos; q != 0; q &= q - 1 {
			bit := bits.TrailingZeros64(q)
			c := make([]int, len(sz))
			for k := len(sz) - 1; k >= 0; k-- {
				c[k] = bit % sz[k]
				bit /= sz[k]
			}
			picks := make([]uint64, len(sz))
			var rec func(k int)
			rec = func(k int) {
				if k == len(sz) {
					out = append(out, pos^productMask(sz, picks))
					return
				}
				for _, m := range sets[k][c[k]] {
					picks[k] = m
					rec(k + 1)
				}
			}
			rec(0)
		}
		return out, nil
	}), nil
}

// gridCell returns the 0-based coordinates of a bit of a grid mask.
func gridCell(sizes []int, bit int) []int {
	c := make([]int, len(sizes))
	for k := len(sizes) - 1; k >= 0; k-- {
		c[k] = bit % sizes[k]
		bit /= sizes[k]
	}
	return c
}

// productMask returns the grid mask of the product of factor masks.
func productMask(sizes []int, picks []uint64) uint64 {
	var out uint64
	var rec func(k, bit int)
	rec = func(k, bit int) {
		if k == len(sizes) {
			out |= 1 << bit
			return
		}
		for m := picks[k]; m != 0; m &= m - 1 {
			rec(k+1, bit*sizes[k]+bits.TrailingZeros64(m))
		}
	}
	rec(0, 0)
	return out
}
