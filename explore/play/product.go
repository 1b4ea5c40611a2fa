package play

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/job"
)

// Tartan products in job sections; the command line builds them from
// its flags.
func init() {
	registerPlayer(nil, productSection)
	registerCommand[*job.ProductSpec]([]string{"first-coin", "factors", "size"}, productCommand)
}

// productCommand builds nimbook play product: --factors "at-most:2,ruler"
// (a rule, and for at-most and exactly the number of coins after a
// colon; each numbered from --first-coin) on a grid of --size (8,8; 4,4,4
// for three factors), from the far corner unless --position says (cells
// one after the other).
func productCommand(f Flags, play game.Play, lim Limits) (Game, []int, error) {
	spec, _ := f.Get("factors")
	first, _ := f.Get("first-coin")
	firstCoin, _ := strconv.Atoi(first) // the command line read it as a number
	var factors []*coins.Game
	for _, fs := range strings.Split(spec, ",") {
		ruleText, rText, hasR := strings.Cut(strings.TrimSpace(fs), ":")
		rule, err := coins.ParseRule(ruleText)
		if err != nil {
			return nil, nil, flagErrorf("--factors %q: %q is not a rule; write e.g. --factors at-most:2,ruler (at-most:R, exactly:R or ruler)", spec, ruleText)
		}
		r := 0
		if hasR {
			if r, err = strconv.Atoi(strings.TrimSpace(rText)); err != nil {
				return nil, nil, flagErrorf("--factors %q: %q is not a number of coins", spec, rText)
			}
		} else if rule != coins.Ruler {
			return nil, nil, flagErrorf("--factors %q: %s needs a number of coins, e.g. %s:2", spec, rule, rule)
		}
		cg, err := coins.New(rule, r, firstCoin)
		if err != nil {
			return nil, nil, flagErrorf("--factors %q: %s", spec, strings.TrimPrefix(err.Error(), "coins: "))
		}
		factors = append(factors, cg.WithLimits(lim.Coins()))
	}
	p, err := coins.NewProduct(factors...)
	if err != nil {
		return nil, nil, flagErrorf("--factors %q: %s", spec, strings.TrimPrefix(err.Error(), "coins: "))
	}
	size, sizeGiven := f.Get("size")
	sizes, err := f.Ints(size)
	if err != nil {
		return nil, nil, flagErrorf("--size: %v", err)
	}
	if !sizeGiven && len(factors) == 3 {
		sizes = []int{4, 4, 4}
	}
	if len(sizes) != len(factors) {
		return nil, nil, flagErrorf("--size %s: give one size per factor (%d), e.g. --size %s", size, len(factors), strings.TrimSuffix(strings.Repeat("8,", len(factors)), ","))
	}
	g, err := NewProduct(p, sizes, play)
	if err != nil {
		return nil, nil, err
	}
	var flat []int
	if pos, given := f.Get("position"); given {
		if flat, err = f.Ints(pos); err != nil {
			return nil, nil, flagErrorf("--position: %v", err)
		}
	} else {
		for k, n := range sizes {
			flat = append(flat, factors[k].First()+n-1) // the far corner
		}
	}
	start, err := g.Position(flat)
	if err != nil {
		return nil, nil, flagErrorf("--position: %s", strings.TrimPrefix(err.Error(), "play: "))
	}
	return g, start, nil
}

// productSection builds a tartan product from its section; the section's
// cells become the encoded position (see Product).
func productSection(s *job.Section, _ *job.ProductSpec, play game.Play, lim Limits) (Game, []int, error) {
	var factors []*coins.Game
	for _, f := range s.Product().Factors {
		cg, err := f.NewGame()
		if err != nil {
			return nil, nil, fmt.Errorf("play: %w", err)
		}
		factors = append(factors, cg.WithLimits(lim.Coins()))
	}
	p, err := coins.NewProduct(factors...)
	if err != nil {
		return nil, nil, fmt.Errorf("play: %w", err)
	}
	g, err := NewProduct(p, s.Product().Size, play)
	if err != nil {
		return nil, nil, err
	}
	cells, ok := s.Position.([][]int)
	if !ok {
		return g, nil, nil
	}
	var flat []int
	for _, c := range cells {
		flat = append(flat, c...)
	}
	start, err := g.Position(flat)
	if err != nil {
		return nil, nil, err
	}
	if start == nil {
		start = []int{}
	}
	return g, start, nil
}

// maxCells bounds the grid of a product played: Size reads the grid as a
// binary number held in a float64, and a larger grid is no game to type
// coordinates on anyway.
const maxCells = 1000

// maskCells is the largest grid the generic solver handles (a bitmask of
// cells): misère play, here and in the job runner's records.
const maskCells = 64

// Product plays the tartan product of two or three coin games of package
// coins on a grid (or a box) with the given sizes, one per factor.
//
// A position is the list of the cells showing heads, each encoded as its
// row-major index over the 0-based coordinates: the cell (a, b) of a grid
// of sizes [m, n], coordinates numbered from each factor's first coin f₁,
// f₂, is (a−f₁)·n + (b−f₂), and (a, b, c) on [l, m, n] is
// ((a−f₁)·m + (b−f₂))·n + (c−f₃). The list is sorted; it is the bit
// numbering of coins.Product.Mask. Moves are typed and shown as the
// coordinates of the coins turned, in the factors' numbering.
type Product struct {
	p      *coins.Product
	sizes  []int
	cells  int
	play   game.Play
	vals   []uint64             // single-head value of each cell, by index
	solver *game.Solver[uint64] // misère play
}

// NewProduct returns the product p on a grid with one size per factor,
// under play. Misère play is solved by the generic solver over the
// product's bitmask mover, so it needs a grid of at most 64 cells.
func NewProduct(p *coins.Product, sizes []int, play game.Play) (*Product, error) {
	if p == nil {
		return nil, fmt.Errorf("play: no product given")
	}
	if len(sizes) != p.Dims() {
		return nil, fmt.Errorf("play: %d sizes for a product of %d games", len(sizes), p.Dims())
	}
	cells := 1
	for _, s := range sizes {
		if s < 1 {
			return nil, fmt.Errorf("play: a side of the grid has at least 1 coin, not %d", s)
		}
		cells *= s
		if cells > maxCells {
			return nil, fmt.Errorf("play: a grid of sizes %v has more than %d cells, too many to play", sizes, maxCells)
		}
	}
	g := &Product{p: p, sizes: slices.Clone(sizes), cells: cells, play: play}
	t, err := p.Table(sizes...)
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	switch t := t.(type) {
	case [][]uint64:
		for _, row := range t {
			g.vals = append(g.vals, row...)
		}
	case [][][]uint64:
		for _, plane := range t {
			for _, row := range plane {
				g.vals = append(g.vals, row...)
			}
		}
	}
	if play == game.Misere {
		if cells > maskCells {
			return nil, fmt.Errorf("play: misère play of a product is solved on grids of at most %d cells, not %d; use normal play or a smaller size", maskCells, cells)
		}
		m, err := p.Mover(sizes...)
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		maxPos := 0
		if fs := p.Factors(); len(fs) > 0 {
			maxPos = fs[0].Limits().MaxPositions
		}
		s, err := game.NewSolver(m, game.Options{Play: game.Misere, MaxPositions: maxPos})
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		g.solver = s
	}
	return g, nil
}

func (g *Product) String() string {
	dims := make([]string, len(g.sizes))
	for k, s := range g.sizes {
		dims[k] = strconv.Itoa(s)
	}
	s := fmt.Sprintf("the tartan product %s on a %s grid", g.p, strings.Join(dims, "×"))
	if g.play == game.Misere {
		s += ", misère play"
	}
	return s
}

func (g *Product) Play() game.Play { return g.play }

// Coords returns the coordinates of cell i in the factors' numbering.
func (g *Product) Coords(i int) []int {
	fs := g.p.Factors()
	xs := make([]int, len(g.sizes))
	for k := len(g.sizes) - 1; k >= 0; k-- {
		xs[k] = i%g.sizes[k] + fs[k].First()
		i /= g.sizes[k]
	}
	return xs
}

// Index returns the cell at coordinates xs (factors' numbering), or an
// error naming the coordinate outside the grid.
func (g *Product) Index(xs []int) (int, error) {
	if len(xs) != len(g.sizes) {
		return 0, fmt.Errorf("play: a cell has %d coordinates, not %d", len(g.sizes), len(xs))
	}
	fs := g.p.Factors()
	i := 0
	for k, x := range xs {
		lo, hi := fs[k].First(), fs[k].First()+g.sizes[k]-1
		if x < lo || x > hi {
			return 0, fmt.Errorf("play: there is no %s %d: the %s are numbered %d to %d", axisName(len(g.sizes), k), x, axisName(len(g.sizes), k)+"s", lo, hi)
		}
		i = i*g.sizes[k] + x - lo
	}
	return i, nil
}

// Position reads a position given as the coordinates of its heads one
// after the other, e.g. [2, 4, 6, 6] for the cells (2,4) and (6,6), as a
// command line's --position gives it, and returns it encoded.
func (g *Product) Position(coords []int) ([]int, error) {
	d := len(g.sizes)
	if len(coords)%d != 0 {
		return nil, fmt.Errorf("play: %d numbers do not make cells of %d coordinates each", len(coords), d)
	}
	var p []int
	for i := 0; i < len(coords); i += d {
		idx, err := g.Index(coords[i : i+d])
		if err != nil {
			return nil, err
		}
		p = append(p, idx)
	}
	slices.Sort(p)
	if len(slices.Compact(slices.Clone(p))) != len(p) {
		return nil, fmt.Errorf("play: a cell is listed twice; list each head once")
	}
	return p, nil
}

// axisName names coordinate k of a d-dimensional grid for messages.
func axisName(d, k int) string {
	if d == 2 {
		return []string{"row", "column"}[k]
	}
	return []string{"layer", "row", "column"}[k]
}

func (g *Product) cellName(i int) string { return formatPos(g.Coords(i)) }

func (g *Product) Check(p []int) error {
	for i, c := range p {
		if c < 0 || c >= g.cells {
			return fmt.Errorf("play: there is no cell %d: the cells are numbered 0 to %d", c, g.cells-1)
		}
		if i > 0 && c <= p[i-1] {
			return fmt.Errorf("play: list the heads once each, in increasing order")
		}
	}
	return nil
}

// heads converts a position to the engine's coordinate tuples.
func (g *Product) heads(p []int) [][]int {
	out := make([][]int, len(p))
	for i, c := range p {
		out[i] = g.Coords(c)
	}
	return out
}

// encode converts the engine's positions back; they keep their order,
// since the engine sorts cells lexicographically, which is row-major order.
func (g *Product) encode(ps [][][]int) ([][]int, error) {
	out := make([][]int, len(ps))
	for i, hs := range ps {
		q := make([]int, len(hs))
		for j, h := range hs {
			idx, err := g.Index(h)
			if err != nil {
				return nil, err
			}
			q[j] = idx
		}
		slices.Sort(q)
		out[i] = q
	}
	return out, nil
}

func (g *Product) mask(p []int) uint64 {
	var m uint64
	for _, c := range p {
		m |= 1 << c
	}
	return m
}

func (g *Product) Moves(p []int) ([][]int, error) {
	if err := g.Check(p); err != nil {
		return nil, err
	}
	ms, err := g.p.Moves(g.heads(p))
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return g.encode(ms)
}

// HasMove tells the end of a game without listing every move, which on a
// large grid with many heads runs to thousands.
func (g *Product) HasMove(p []int) (bool, error) {
	if err := g.Check(p); err != nil {
		return false, err
	}
	ok, err := g.p.HasMove(g.heads(p))
	if err != nil {
		return false, fmt.Errorf("play: %w", err)
	}
	return ok, nil
}

func (g *Product) Outcome(p []int) (game.Outcome, error) {
	if err := g.Check(p); err != nil {
		return 0, err
	}
	if g.solver != nil {
		o, err := g.solver.Outcome(g.mask(p))
		if err != nil {
			return 0, fmt.Errorf("play: %w", err)
		}
		return o, nil
	}
	var x uint64
	for _, c := range p {
		x ^= g.vals[c]
	}
	if x == 0 {
		return game.P, nil
	}
	return game.N, nil
}

func (g *Product) WinningMoves(p []int) ([][]int, error) {
	if g.solver != nil {
		ms, err := g.Moves(p)
		if err != nil {
			return nil, err
		}
		return filterWinning(ms, g.Outcome)
	}
	if err := g.Check(p); err != nil {
		return nil, err
	}
	ms, err := g.p.WinningMoves(g.heads(p))
	if err != nil {
		return nil, fmt.Errorf("play: %w", err)
	}
	return g.encode(ms)
}

// Values gives each head's value, the nim-product of the factors' values
// at its coordinates; their nim-sum decides the game under normal play.
func (g *Product) Values(p []int) ([]Part, error) {
	parts := make([]Part, len(p))
	for i, c := range p {
		parts[i] = Part{Label: g.cellName(c), Value: g.vals[c]}
	}
	return parts, nil
}

// Size reads the grid as a binary number, cell i the bit i: a move turns
// a head to tails at its largest cell in row-major order, so every move
// makes it smaller.
func (g *Product) Size(p []int) float64 {
	s := 0.0
	for _, c := range p {
		s += math.Ldexp(1, c)
	}
	return s
}

func (g *Product) ParseMove(p []int, s string) ([]int, error) {
	nums, err := numbers(s)
	if err != nil {
		return nil, err
	}
	d := len(g.sizes)
	unit := map[int]string{2: "pairs", 3: "triples"}[d]
	if len(nums) == 0 || len(nums)%d != 0 {
		return nil, illegal("type the coins to turn as %s of coordinates, e.g. %s", unit, g.example(p))
	}
	var turned []int
	for i := 0; i < len(nums); i += d {
		idx, err := g.Index(nums[i : i+d])
		if err != nil {
			return nil, illegal("%s", strings.TrimPrefix(err.Error(), "play: "))
		}
		if slices.Contains(turned, idx) {
			return nil, illegal("coin %s is listed twice", g.cellName(idx))
		}
		turned = append(turned, idx)
	}
	slices.Sort(turned)
	if why := g.whyNot(p, turned); why != "" {
		return nil, illegal("%s", why)
	}
	q := symDiff(p, turned)
	// whyNot has checked the rule; IsMove checks it again, independently.
	if ok, err := g.p.IsMove(g.heads(p), g.heads(q)); err != nil {
		return nil, fmt.Errorf("play: %w", err)
	} else if !ok {
		return nil, illegal("these coins are not a legal set of coins to turn in this game (type help)")
	}
	return q, nil
}

// whyNot explains why turning the cells turned (sorted) from p is not a
// move, or returns "".
func (g *Product) whyNot(p, turned []int) string {
	d := len(g.sizes)
	proj := make([][]int, d)
	for _, c := range turned {
		for k, x := range g.Coords(c) {
			if !slices.Contains(proj[k], x) {
				proj[k] = append(proj[k], x)
			}
		}
	}
	n := 1
	for k := range proj {
		slices.Sort(proj[k])
		n *= len(proj[k])
	}
	if n != len(turned) {
		if d == 2 {
			return "not a legal set of coins for this game: the coins turned must be every listed row crossed with every listed column (the corners of a rectangle, a row segment, ...)"
		}
		return "not a legal set of coins for this game: the coins turned must be every listed layer crossed with every listed row and column"
	}
	corner := make([]int, d)
	for k := range proj {
		corner[k] = proj[k][len(proj[k])-1]
	}
	ci, _ := g.Index(corner)
	if !slices.Contains(p, ci) {
		return fmt.Sprintf("coin %s is tails: the coin turned in the last %s and the last column must go from heads to tails", formatPos(corner), map[int]string{2: "row", 3: "layer, the last row"}[d])
	}
	for k, f := range g.p.Factors() {
		axis := axisName(d, k) + "s"
		switch f.Rule() {
		case coins.AtMost:
			if len(proj[k]) > f.R() {
				return fmt.Sprintf("not a legal set of coins for this game: turn coins in at most %s (you listed %d)", plural(f.R(), axisName(d, k), axis), len(proj[k]))
			}
		case coins.Exactly:
			if len(proj[k]) != f.R() {
				return fmt.Sprintf("not a legal set of coins for this game: turn coins in exactly %s (you listed %d)", plural(f.R(), axisName(d, k), axis), len(proj[k]))
			}
		case coins.Ruler:
			for i := 1; i < len(proj[k]); i++ {
				if proj[k][i] != proj[k][i-1]+1 {
					return fmt.Sprintf("not a legal set of coins for this game: the %s turned must be consecutive (you listed %s)", axis, orAnd(proj[k]))
				}
			}
		}
	}
	return ""
}

// example suggests a move: the last head turned alone, or with the coins
// before it that an exactly-r factor needs.
func (g *Product) example(p []int) string {
	c := g.cells - 1
	if len(p) > 0 {
		c = p[len(p)-1]
	}
	corner := g.Coords(c)
	sets := make([][]int, len(corner))
	for k, f := range g.p.Factors() {
		n := 1
		if f.Rule() == coins.Exactly {
			n = f.R()
		}
		for i := n - 1; i >= 0; i-- {
			sets[k] = append(sets[k], corner[k]-i)
		}
	}
	var cells []string
	var rec func(k int, xs []int)
	rec = func(k int, xs []int) {
		if k == len(sets) {
			cells = append(cells, formatPos(xs))
			return
		}
		for _, x := range sets[k] {
			rec(k+1, append(slices.Clone(xs), x))
		}
	}
	rec(0, nil)
	return strings.Join(cells, " ")
}

// turnedCells lists the coins a move turns, in row-major order.
func (g *Product) turnedCells(from, to []int) []string {
	turned := symDiff(from, to)
	out := make([]string, len(turned))
	for i, c := range turned {
		out[i] = g.cellName(c)
	}
	return out
}

func (g *Product) FormatMove(from, to []int) string {
	return strings.Join(g.turnedCells(from, to), " ")
}

func (g *Product) selfDescribing() {}

func (g *Product) Describe(from, to []int) string {
	cs := g.turnedCells(from, to)
	if len(cs) == 1 {
		return "turn coin " + cs[0]
	}
	return "turn coins " + strings.Join(cs, ", ")
}

// Render draws the grid, row numbers on the left and column numbers on
// top; a box is drawn one layer (first coordinate) at a time.
func (g *Product) Render(p []int) string {
	d := len(g.sizes)
	fs := g.p.Factors()
	rows, cols := g.sizes[d-2], g.sizes[d-1]
	rowFirst, colFirst := fs[d-2].First(), fs[d-1].First()
	rw := len(strconv.Itoa(rowFirst + rows - 1))
	cw := len(strconv.Itoa(colFirst+cols-1)) + 1
	var b strings.Builder
	layers := 1
	if d == 3 {
		layers = g.sizes[0]
	}
	for l := 0; l < layers; l++ {
		if d == 3 {
			if l > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "layer %d\n", fs[0].First()+l)
		}
		fmt.Fprintf(&b, "%*s", rw, "")
		for j := 0; j < cols; j++ {
			fmt.Fprintf(&b, "%*d", cw, colFirst+j)
		}
		b.WriteString("\n")
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&b, "%*d", rw, rowFirst+i)
			for j := 0; j < cols; j++ {
				coin := "○"
				if _, ok := slices.BinarySearch(p, (l*rows+i)*cols+j); ok {
					coin = "●"
				}
				fmt.Fprintf(&b, "%*s", cw, coin)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// factorRule says in words which sets of rows (columns, layers) a factor
// lets a move turn.
func factorRule(f *coins.Game, axis string) string {
	switch f.Rule() {
	case coins.AtMost:
		return fmt.Sprintf("1 to %d %ss", f.R(), axis)
	case coins.Exactly:
		return fmt.Sprintf("exactly %d %ss", f.R(), axis)
	}
	return fmt.Sprintf("a run of consecutive %ss", axis)
}

func (g *Product) Notation() string {
	d := len(g.sizes)
	fs := g.p.Factors()
	var rules, ranges []string
	for k, f := range fs {
		rules = append(rules, factorRule(f, axisName(d, k)))
		ranges = append(ranges, fmt.Sprintf("%ss %d to %d", axisName(d, k), f.First(), f.First()+g.sizes[k]-1))
	}
	ex := "(2,4) (2,6) (6,4) (6,6)   or   2,4 2,6 6,4 6,6   or   2 4 2 6 6 4 6 6"
	unit := "(row,column)"
	corner := "last row and last column"
	if d == 3 {
		corner = "last layer, row and column"
		ex = "(1,2,4) (1,2,6)   or   1 2 4 1 2 6"
		unit = "(layer,row,column)"
	}
	return fmt.Sprintf(`Coins ● are heads, ○ tails; cells are %s, with %s.
A move picks %s and turns over every coin where they cross;
the coin at the %s picked must be heads.
Type the coins to turn as coordinates %s, in any order:
  %s`, unit, strings.Join(ranges, ", "), strings.Join(rules, " and "), corner, unit, ex)
}

// JobGame writes the product in job-file form with the start as its
// position. (Misère play, whose records need the whole grid, is refused
// over 64 cells before play.)
func (g *Product) JobGame(start []int) string {
	var fs []string
	for _, f := range g.p.Factors() {
		r := ""
		if f.Rule() != coins.Ruler {
			r = fmt.Sprintf(", r: %d", f.R())
		}
		fs = append(fs, fmt.Sprintf("{rule: %s%s, first: %d}", f.Rule(), r, f.First()))
	}
	return fmt.Sprintf("{product: {factors: [%s], size: %s, position: %s%s}}",
		strings.Join(fs, ", "), flowList(g.sizes), g.JobPosition(start), playKey(g.play))
}

// JobPosition writes a position as a job file's list of cells,
// [[2, 4], [6, 6]].
func (g *Product) JobPosition(p []int) string {
	cells := make([]string, len(p))
	for i, c := range p {
		cells[i] = flowList(g.Coords(c))
	}
	return "[" + strings.Join(cells, ", ") + "]"
}
