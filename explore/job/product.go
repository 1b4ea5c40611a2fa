package job

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
	"github.com/nimbook/nimbook/explore/record"
)

// Tartan products of coin games in job files, registered with package
// family: key, parameters, analyses and texts there; how a job file
// writes the game and its position, how its analyses run and how
// reports word it, here. Nothing else in the package names it.

// productFamily is the registration of tartan products.
var productFamily = &family.Family{
	Key:   "product",
	Order: 90,
	Text: family.Texts("the tartan product of 2 or 3 coin-turning games: a move turns a box of heads, the value of a head is the nim-product of its coordinates' values",
		"le produit tartan de 2 ou 3 jeux de pièces : un coup retourne un pavé, la valeur d’une pièce est le nim-produit des valeurs de ses coordonnées"),
	Params: []family.Param{
		{Key: "factors", Kind: family.Map, Example: "[{rule: at-most, r: 2}, {rule: ruler}]",
			Text: family.Texts("2 or 3 coin games, each a coins map without n", "2 ou 3 jeux de pièces, chacun une table coins sans n")},
		{Key: "size", Kind: family.Ints, Min: 1, Max: maxCoins, What: "a side", Example: "[8, 8]",
			Text: family.Texts("one side per factor", "un côté par facteur")},
	},
	Analyses:  []string{"table", "outcome", "moves", "record", "plot"},
	Signature: "product: {factors: [{rule: at-most, r: 2}, {rule: ruler}], size: [8, 8]}",
	Job: &jobFamily{
		parse:    parseProduct,
		position: productPosition,
		example:  []any{[]any{1, 2}, []any{3, 3}},
		what:     "the cells showing heads",
		allowed:  []string{"factors", "size", "position", "play"},
		spec:     (*ProductSpec)(nil),
	},
}

func init() { family.Register(productFamily) }

// ProductSpec is a tartan product of 2 or 3 coin games.
type ProductSpec struct {
	Factors []CoinsSpec // N unused
	Size    []int
}

func (ps *ProductSpec) params(p map[string]any) {
	fs := make([]map[string]any, len(ps.Factors))
	for i, f := range ps.Factors {
		fs[i] = map[string]any{}
		f.ruleParams(fs[i])
	}
	p["factors"] = fs
	p["size"] = ps.Size
}

func (ps *ProductSpec) clone() GameSpec {
	c := *ps
	c.Factors = slices.Clone(ps.Factors)
	c.Size = slices.Clone(ps.Size)
	return &c
}

// Product returns the section's tartan product, or nil.
func (s *Section) Product() *ProductSpec { p, _ := s.Game.(*ProductSpec); return p }

func (ps *ProductSpec) run(r *runner) error    { return r.product() }
func (ps *ProductSpec) memory(r *runner) int64 { return r.lim.Memory }
func (ps *ProductSpec) cost() Cost {
	cells := int64(1)
	for _, x := range ps.Size {
		cells *= int64(x)
	}
	return Cost{Positions: cells, Steps: float64(cells), Memory: 8 * cells}
}

// Describe words the product for reports: its factors and sizes.
func (ps *ProductSpec) Describe(tx Tx, lang string, _ *Results) (string, bool) {
	var fs []string
	for _, f := range ps.Factors {
		fs = append(fs, "«\u202f"+tx("game.factor", map[string]any{"Rule": f.Rule, "R": strconv.Itoa(f.R), "First": strconv.Itoa(f.First)})+"\u202f»")
	}
	if lang == "en" {
		for i := range fs {
			fs[i] = "“" + strings.TrimSuffix(strings.TrimPrefix(fs[i], "«\u202f"), "\u202f»") + "”"
		}
	}
	sizes := make([]string, len(ps.Size))
	for i, s := range ps.Size {
		sizes[i] = strconv.Itoa(s)
	}
	return tx("game.product", map[string]any{"Factors": strings.Join(fs, " × "), "Sizes": strings.Join(sizes, " × ")}), true
}

// TableTexts are the corner and the introduction of its table.
func (ps *ProductSpec) TableTexts(tx Tx) (corner, intro string) {
	return tx("table.corner.tartan", nil), tx("table.intro.tartan", map[string]any{"First1": strconv.Itoa(ps.FirstOf(0)), "First2": strconv.Itoa(ps.FirstOf(1))})
}

// First is the first coin of factor k.
func (ps *ProductSpec) FirstOf(k int) int {
	if k < len(ps.Factors) {
		return ps.Factors[k].First
	}
	return 0
}

// CellSets: its positions are sets of cells, written {(i, j), …}.
func (ps *ProductSpec) CellSets() bool { return true }

// parseProduct reads the factors and sizes.
func parseProduct(p *parser, fm *yamlfile.Mapping, fp string) (GameSpec, error) {
	ps := &ProductSpec{}
	var err error
	fn, ok := fm.Nodes["factors"]
	if !ok || fn.Kind != yaml.SequenceNode || len(fn.Content) < 2 || len(fn.Content) > 3 {
		return nil, p.Errf(fm.Node, yamlfile.Join(fp, "factors"), "want 2 or 3 coin games, e.g. factors: [{rule: at-most, r: 2}, {rule: ruler}]")
	}
	for i, c := range fn.Content {
		cp := fmt.Sprintf("%s.factors[%d]", fp, i)
		cm, err := p.Mapping(c, cp)
		if err != nil {
			return nil, err
		}
		if cm.Has(coinsFamily.Key) && len(cm.Keys) == 1 { // accept {coins: {...}} too
			if cm, err = p.Mapping(cm.Nodes[coinsFamily.Key], cp+"."+coinsFamily.Key); err != nil {
				return nil, err
			}
		}
		if err := cm.Check("rule", "r", "first"); err != nil {
			return nil, err
		}
		cs, err := p.coins(cm, cp, false)
		if err != nil {
			return nil, err
		}
		ps.Factors = append(ps.Factors, *cs)
	}
	sn, ok := fm.Nodes["size"]
	if !ok {
		return nil, p.Errf(fm.Node, yamlfile.Join(fp, "size"), "missing: one side per factor, e.g. size: [8, 8]")
	}
	if ps.Size, err = p.IntList(sn, yamlfile.Join(fp, "size"), 1, maxCoins, "a side"); err != nil {
		return nil, err
	}
	if len(ps.Size) != len(ps.Factors) {
		return nil, p.Errf(sn, yamlfile.Join(fp, "size"), "want %d sides, one per factor", len(ps.Factors))
	}
	return ps, nil
}

// productPosition reads a position: the cells showing heads.
func productPosition(p *parser, s *Section, n *yaml.Node, path string) (any, error) {
	ps := s.Product()
	if n.Kind != yaml.SequenceNode {
		return nil, p.Errf(n, path, "want a list of cells, e.g. [[1, 2], [3, 3]]")
	}
	var cells [][]int
	for i, c := range n.Content {
		cp := fmt.Sprintf("%s[%d]", path, i)
		cell, err := p.IntList(c, cp, 0, maxSide, "a coordinate")
		if err != nil {
			return nil, err
		}
		if len(cell) != len(ps.Factors) {
			return nil, p.Errf(c, cp, "a cell has %d coordinates, one per factor", len(ps.Factors))
		}
		for k, v := range cell {
			lo := ps.Factors[k].First
			if v < lo || v >= lo+ps.Size[k] {
				return nil, p.Errf(c, cp, "coordinate %d is %d, outside %d..%d (size and first of factor %d)", k+1, v, lo, lo+ps.Size[k]-1, k+1)
			}
		}
		cells = append(cells, cell)
	}
	return cells, nil
}

func (r *runner) product() error {
	ps := r.s.Product()
	var factors []*coins.Game
	for _, f := range ps.Factors {
		g, err := r.coinGame(f)
		if err != nil {
			return err
		}
		factors = append(factors, g)
		r.res.First = append(r.res.First, f.First)
	}
	p, err := coins.NewProduct(factors...)
	if err != nil {
		return err
	}
	p = p.WithLimits(r.coinLimits())
	r.res.Game = p.String()
	if r.wants("table") {
		t, err := p.Table(ps.Size...)
		if err != nil {
			return limitErr(err)
		}
		r.res.Table = t
	}
	cells, _ := r.s.Position.([][]int)
	if r.wants("outcome") {
		if r.play() == game.Misere {
			return errors.New("misère outcomes of products are not supported; remove play: misere")
		}
		v, err := p.Value(cells)
		if err != nil {
			return limitErr(err)
		}
		r.res.Outcome = map[bool]string{true: "P", false: "N"}[v == 0]
	}
	if r.wants("moves") {
		ms, err := p.WinningMoves(cells)
		if err != nil {
			return limitErr(err)
		}
		r.res.Moves = nonNil(ms)
	}
	if r.wants("record") {
		if err := r.productRecord(p); err != nil {
			return err
		}
	}
	return nil
}

// productRecord analyses a played product; positions are lists of cells.
// Under normal play the outcomes come from the heads' values (nim-products
// of the factors' values), so a grid of any size is analysed; misère play
// needs the generic solver on the whole grid, a bitmask of at most 64
// cells.
func (r *runner) productRecord(p *coins.Product) error {
	sizes := r.s.Product().Size
	if r.play() == game.Misere {
		cells := 1
		for _, n := range sizes {
			cells *= n
		}
		if cells > 64 {
			return fmt.Errorf("a misère record of a product is solved on the whole grid, at most 64 cells, and size %v has %d: give the smallest size that holds the heads played", sizes, cells)
		}
		m, err := p.Mover(sizes...)
		if err != nil {
			return limitErr(err)
		}
		return r.maskRecord(m, func(pos any) (uint64, error) { return p.Mask(sizes, pos.([][]int)) },
			func(mask uint64) any { return p.Heads(sizes, mask) })
	}
	var played [][][]int
	for _, pos := range r.s.Record {
		heads := slices.Clone(pos.([][]int))
		slices.SortFunc(heads, slices.Compare)
		played = append(played, heads)
	}
	a, table, err := productAnalysis(p, played)
	if err != nil {
		return limitErr(err)
	}
	r.res.Record = RecordOf(a, func(i int) any { return table[i] })
	return nil
}

// productAnalysis is record.Analyse under normal play with the values of
// the product in place of the generic solver. Positions are sorted lists
// of heads; the analysis names them by their index in the table it
// returns: played, then the winning moves missed.
func productAnalysis(p *coins.Product, played [][][]int) (*record.Analysis[int], [][][]int, error) {
	value := func(heads [][]int) (uint64, game.Outcome, error) {
		v, err := p.Value(heads)
		if err != nil {
			return 0, 0, err
		}
		if v == 0 {
			return 0, game.P, nil
		}
		return v, game.N, nil
	}
	g, o, err := value(played[0])
	if err != nil {
		return nil, nil, err
	}
	a := &record.Analysis[int]{Play: game.Normal, Start: 0, StartOutcome: o, Illegal: -1}
	n := len(played)
	for i := 0; i+1 < n; i++ {
		mv := record.Move[int]{Index: i, Player: 1 + i%2, From: i, To: i + 1, GrundyBefore: g, Before: o}
		if mv.Legal, err = p.IsMove(played[i], played[i+1]); err != nil {
			return nil, nil, err
		}
		if !mv.Legal {
			a.Moves = append(a.Moves, mv)
			a.Illegal = i
			return a, played, nil
		}
		if g, o, err = value(played[i+1]); err != nil {
			return nil, nil, err
		}
		mv.GrundyAfter, mv.After = g, o
		if mv.Before == game.N && mv.After == game.N {
			wins, err := p.WinningMoves(played[i])
			if err != nil {
				return nil, nil, err
			}
			for _, w := range wins {
				mv.Missed = append(mv.Missed, len(played))
				played = append(played, w)
			}
			mv.Mistake = true
		}
		a.Moves = append(a.Moves, mv)
	}
	last, err := p.Moves(played[n-1])
	if err != nil {
		return nil, nil, err
	}
	if len(last) == 0 {
		a.Over = true
		a.Winner = 2 - len(a.Moves)%2 // normal play: whoever made the last move wins
	}
	return a, played, nil
}
