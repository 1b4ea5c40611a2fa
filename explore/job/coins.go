package job

import (
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/code"
	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/graph"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
)

// Coin-turning games in job files, registered with package family: key,
// parameters, analyses and texts there; how a job file writes the game
// and its position, which of its parameters range, how its analyses run
// and how reports word it, here. Nothing else in the package names it.

// coinsFamily is the registration of coin-turning games.
var coinsFamily = &family.Family{
	Key:   "coins",
	Order: 80,
	Text: family.Texts("coin turning: a row of coins, a move turns some over, the rightmost from heads to tails",
		"pièces à retourner : une rangée de pièces, un coup en retourne, la plus à droite de pile à face"),
	Params: []family.Param{
		{Key: "rule", Kind: family.String, Default: "at-most", Example: "at-most",
			Text: family.Texts("at-most, exactly or ruler", "at-most, exactly ou ruler")},
		{Key: "r", Kind: family.Int, Min: 1, Max: maxCoins, What: "the number of coins turned", Example: "3",
			Text: family.Texts("how many coins a move turns (not for ruler)", "le nombre de pièces qu’un coup retourne (pas pour ruler)")},
		{Key: "n", Kind: family.Int, Min: 1, Max: maxUpto, What: "the number of coins", Example: "24",
			Text: family.Texts("the number of coins", "le nombre de pièces")},
		{Key: "below", Kind: family.String, Example: "2^20",
			Text: family.Texts("instead of n: every coin whose value is below it", "au lieu de n : toute pièce de valeur inférieure")},
		{Key: "first", Kind: family.Int, Min: 0, Max: 1, What: "the number of the leftmost coin", Default: 1, Example: "1",
			Text: family.Texts("the number of the leftmost coin", "le numéro de la pièce la plus à gauche")},
	},
	Analyses:  []string{"values", "p-positions", "weights", "distribution", "code", "steiner", "automorphisms", "outcome", "moves", "graph", "record", "plot"},
	Signature: "coins: {rule: at-most, r: 3, n: 24}",
	Job: &jobFamily{
		parse:    func(p *parser, fm *yamlfile.Mapping, fp string) (GameSpec, error) { return p.coins(fm, fp, true) },
		position: coinsPosition,
		example:  []any{1, 4, 6},
		what:     "the numbers of the coins showing heads",
		allowed:  []string{"rule", "r", "n", "below", "first", "play", "position"},
		across:   []string{"rule", "r", "n", "below", "first"},
		show:     coinsShow,
		spec:     (*CoinsSpec)(nil),
	},
}

func init() { family.Register(coinsFamily) }

// CoinsSpec is a coin-turning game on N coins numbered from First, or,
// with Below set instead of N (at-most r ≥ 2), on every coin whose value
// is below Below.
type CoinsSpec struct {
	Rule  string // at-most, exactly, ruler
	R     int
	N     int
	First int
	Below uint64 // 0: unset
}

func (c *CoinsSpec) params(p map[string]any) {
	c.ruleParams(p)
	if c.Below > 0 {
		p["below"] = c.Below // every value below it, on as many coins as they take
	} else {
		p["n"] = c.N
	}
}

// ruleParams writes a coin game's rule, r (not for the ruler game) and
// first coin.
func (c *CoinsSpec) ruleParams(p map[string]any) {
	p["rule"] = c.Rule
	if c.Rule != "ruler" {
		p["r"] = c.R
	}
	p["first"] = c.First
}

func (c *CoinsSpec) clone() GameSpec { d := *c; return &d }

// NewGame builds the coin game of the rule, r and first coin (N and Below
// are the board, not the game).
func (c *CoinsSpec) NewGame() (*coins.Game, error) {
	rule, err := coins.ParseRule(c.Rule)
	if err != nil {
		return nil, err
	}
	return coins.New(rule, c.R, c.First)
}

// Coins returns the section's coin game, or nil.
func (s *Section) Coins() *CoinsSpec { c, _ := s.Game.(*CoinsSpec); return c }

func (c *CoinsSpec) run(r *runner) error    { return r.coins() }
func (c *CoinsSpec) memory(r *runner) int64 { return r.lim.Memory }
func (c *CoinsSpec) cost() Cost {
	n := int64(c.N)
	return Cost{Positions: n, Steps: float64(n * n), Memory: 64 * n}
}

// Describe words the game for reports: its rule and its row (as long as
// the values reach, under a bound).
func (c *CoinsSpec) Describe(tx Tx, _ string, res *Results) (string, bool) {
	n, key := c.N, "game.coins"
	if c.Below > 0 {
		// The row is as long as the values below the bound reach.
		n, key = len(res.Values), "game.coins.below"
	}
	return tx(key, map[string]any{"Rule": c.Rule, "R": strconv.Itoa(c.R), "N": strconv.Itoa(n), "First": strconv.Itoa(c.First), "Last": strconv.Itoa(c.First + n - 1), "Below": bound(c.Below)}), true
}

// bound writes a bound on values, a large power of two as 2^k.
func bound(x uint64) string {
	if x > 1000 && x&(x-1) == 0 {
		return "2^" + strconv.Itoa(bits.TrailingZeros64(x))
	}
	return strconv.FormatUint(x, 10)
}

// DescribeAcross words the game with r or n, the parameter that varies,
// written as its name; "" for another, or a row under a bound.
func (c *CoinsSpec) DescribeAcross(text func(key string, args any) (string, error), key string) string {
	if c.Below > 0 {
		return ""
	}
	data := map[string]any{"Rule": c.Rule, "R": strconv.Itoa(c.R), "N": strconv.Itoa(c.N), "First": strconv.Itoa(c.First), "Last": strconv.Itoa(c.First + c.N - 1), "Below": ""}
	switch key {
	case "r":
		data["R"] = key
	case "n":
		data["N"] = key
		if c.First == 0 {
			data["Last"] = key + " − 1"
		} else {
			data["Last"] = key
		}
	default:
		return ""
	}
	g, err := text("game.coins", data)
	if err != nil {
		return ""
	}
	return g
}

// PPositionsOver says what its P-positions were counted over: the rows.
func (c *CoinsSpec) PPositionsOver(tx Tx) string {
	return tx("ppos.over.coins", map[string]any{"N": strconv.Itoa(c.N)})
}

// First is the number of the first coin (axis 0).
func (c *CoinsSpec) FirstOf(k int) int {
	if k == 0 {
		return c.First
	}
	return 0
}

// CoinRows: its positions are rows of coins (it holds on a nil spec, for
// reports that know the family only, a survey's).
func (*CoinsSpec) CoinRows() bool { return true }

// Board is the number of coins and the first one's number.
func (c *CoinsSpec) Board() (n, first int) { return c.N, c.First }

// coinsShow refuses the analyses that need rows as bit masks on a board
// too long for them.
func coinsShow(p *parser, s *Section, c *yaml.Node, path, name string) error {
	if cs := s.Coins(); cs != nil && (cs.Below > 0 || cs.N > maxCoins) && name != "values" && name != "plot" {
		what := fmt.Sprintf("%d coins", cs.N)
		if cs.Below > 0 {
			what = "every coin whose value is below a bound"
		}
		return p.Errf(c, path, "%s needs at most %d coins (rows are bit masks), not %s; use n: %d or less, or show values only", name, maxCoins, what, maxCoins)
	}
	return nil
}

// coinsPosition reads a position: the numbers of the coins showing heads.
func coinsPosition(p *parser, s *Section, n *yaml.Node, path string) (any, error) {
	if s.Coins().Below > 0 {
		return nil, p.Errf(n, path, "a position needs the number of coins: replace below with n")
	}
	hs, err := p.IntList(n, path, s.Coins().First, s.Coins().First+s.Coins().N-1, "a coin number")
	if err != nil {
		return nil, err
	}
	sort.Ints(hs)
	for i := 1; i < len(hs); i++ {
		if hs[i] == hs[i-1] {
			return nil, p.Errf(n, path, "coin %d is listed twice; list each head once", hs[i])
		}
	}
	return hs, nil
}

func (p *parser) coins(m *yamlfile.Mapping, path string, needN bool) (*CoinsSpec, error) {
	cs := &CoinsSpec{}
	var err error
	if cs.Rule, err = m.Str("rule", "at-most"); err != nil {
		return nil, err
	}
	rules := []string{"at-most", "exactly", "ruler"}
	if !slices.Contains(rules, cs.Rule) {
		return nil, p.Errf(m.Nodes["rule"], yamlfile.Join(path, "rule"), "unknown rule %q; write at-most, exactly or ruler", cs.Rule)
	}
	if cs.Rule == "ruler" {
		if m.Has("r") {
			return nil, p.Errf(m.Nodes["r"], yamlfile.Join(path, "r"), "the ruler game turns any run of coins: remove r")
		}
	} else {
		if !m.Has("r") {
			return nil, p.Errf(m.Node, yamlfile.Join(path, "r"), "missing: how many coins a move turns (%s r), e.g. r: 3", cs.Rule)
		}
		if cs.R, err = m.Integer("r", 0, 1, maxCoins, "the number of coins turned"); err != nil {
			return nil, err
		}
	}
	if cs.First, err = m.Integer("first", 1, 0, 1, "the number of the leftmost coin"); err != nil {
		return nil, err
	}
	if cs.Rule == "ruler" && cs.First != 1 {
		return nil, p.Errf(m.Nodes["first"], yamlfile.Join(path, "first"), "the ruler game numbers coins from 1; write first: 1")
	}
	if needN {
		switch {
		case m.Has("n") && m.Has("below"):
			return nil, p.Errf(m.Nodes["below"], yamlfile.Join(path, "below"), "give n (the number of coins) or below (every coin whose value is below it), not both")
		case m.Has("below"):
			if cs.Rule != "at-most" || cs.R < 2 {
				return nil, p.Errf(m.Nodes["below"], yamlfile.Join(path, "below"), "below needs rule: at-most with r: 2 or more (values that increase); give n, the number of coins, instead")
			}
			if cs.Below, err = p.below(m.Nodes["below"], yamlfile.Join(path, "below")); err != nil {
				return nil, err
			}
		case !m.Has("n"):
			return nil, p.Errf(m.Node, yamlfile.Join(path, "n"), "missing: the number of coins, e.g. n: 24 (or below: 2^20 for every value below 2^20)")
		default:
			if cs.N, err = m.Integer("n", 0, 1, maxUpto, "the number of coins"); err != nil {
				return nil, err
			}
		}
	}
	return cs, nil
}

// below reads a bound on values: a whole number or a power of two 2^k.
func (p *parser) below(n *yaml.Node, path string) (uint64, error) {
	bad := p.Errf(n, path, "want a bound on the values, a whole number or a power of two like 2^28, not %s", yamlfile.Describe(n))
	if n.Kind != yaml.ScalarNode {
		return 0, bad
	}
	v := strings.ReplaceAll(n.Value, "_", "")
	if base, exp, ok := strings.Cut(v, "^"); ok {
		k, err := strconv.Atoi(exp)
		if base != "2" || err != nil {
			return 0, bad
		}
		if k < 1 || k > 62 {
			return 0, p.Errf(n, path, "2^%d is out of range: below must be from 2^1 to 2^62", k)
		}
		return 1 << k, nil
	}
	x, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, bad
	}
	if x < 1 || x > maxBelow {
		return 0, p.Errf(n, path, "%d is out of range: below must be from 1 to 2^62", x)
	}
	return x, nil
}

func (r *runner) coinGame(c CoinsSpec) (*coins.Game, error) {
	g, err := c.NewGame()
	if err != nil {
		return nil, err
	}
	return g.WithLimits(r.coinLimits()), nil
}

func (r *runner) coins() error {
	cs := r.s.Coins()
	g, err := r.coinGame(*cs)
	if err != nil {
		return err
	}
	r.res.Game = g.String()
	r.res.First = []int{cs.First}
	var values []uint64
	if cs.Below > 0 {
		_, err = g.ValuesBelow(cs.Below, func(_ int, v uint64) error {
			values = append(values, v)
			return nil
		})
	} else {
		values, err = g.Values(cs.N)
	}
	if err != nil {
		return limitErr(err)
	}
	if r.wants("values") {
		r.res.Values = values
	}
	needCode := r.wants("weights") || r.wants("p-positions") || r.wants("distribution") || r.wants("code") || r.wants("steiner") || r.wants("automorphisms")
	if needCode {
		c, err := code.FromValues(values)
		if err != nil {
			return err
		}
		if err := r.codeAnalyses(c, g); err != nil {
			return err
		}
	}
	heads, _ := r.s.Position.([]int)
	if r.wants("outcome") {
		o, err := g.Outcome(cs.N, heads, r.play())
		if err != nil {
			return limitErr(err)
		}
		r.res.Outcome = o.String()
	}
	if r.wants("moves") {
		var ms [][]int
		if r.play() == game.Misere {
			ms, err = g.MisereWinningMoves(cs.N, heads)
		} else {
			ms, err = g.WinningMoves(cs.N, heads)
		}
		if err != nil {
			return limitErr(err)
		}
		r.res.Moves = nonNil(ms)
	}
	if r.wants("record") {
		if err := r.coinsRecord(g); err != nil {
			return err
		}
	}
	if r.wants("graph") {
		if err := r.coinsGraph(g); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) codeAnalyses(c *code.Code, g *coins.Game) error {
	lim := r.codeLimits()
	if r.wants("weights") || r.wants("p-positions") || r.wants("distribution") || r.wants("code") {
		d, err := c.Distribution(r.ctx, lim)
		if err != nil {
			return limitErr(err)
		}
		r.res.Method = string(d.Method)
		if r.wants("weights") {
			r.res.Weights = d.Weights
		}
		if r.wants("distribution") {
			r.res.Distribution = d.ByWeight
			if d.ByWeight == nil {
				return fmt.Errorf("the table of rows by heads and Grundy value is too large for the memory limit of %d bytes; raise it with --max-memory or limits.memory", r.lim.Memory)
			}
		}
		count := d.Count
		if r.wants("p-positions") {
			if !count.IsUint64() {
				return fmt.Errorf("%s P-positions do not fit the JSON count", count)
			}
			total := new(big.Int).Lsh(big.NewInt(1), uint(c.N()))
			pp := &PPositions{Count: count.Uint64()}
			if total.IsUint64() {
				pp.Of = total.Uint64()
			}
			if count.Uint64() <= MaxListed {
				pp.List = codewordHeads(c, g)
			}
			r.res.PPositions = pp
		}
		if r.wants("code") {
			r.res.Code = &CodeInfo{Length: c.N(), Dimension: c.Dim(), Words: count.Uint64(), MinDistance: d.MinDistance, Method: string(d.Method)}
		}
	}
	if r.wants("steiner") {
		d, err := c.Design(r.ctx, lim)
		if err != nil {
			return limitErr(err)
		}
		r.res.Steiner = &Steiner{Holds: d.Holds}
		if d.Holds {
			r.res.Steiner = &Steiner{Holds: true, T: d.T, K: d.K, V: d.V, Lambda: d.Lambda, Blocks: d.Blocks}
		}
	}
	if r.wants("automorphisms") {
		a, err := c.Automorphisms(r.ctx, lim)
		if err != nil {
			return limitErr(err)
		}
		r.res.Automorphisms = a.Order.String()
	}
	return nil
}

// codewordHeads lists the P-positions of a small code as sorted lists of
// head numbers, spanning the basis.
func codewordHeads(c *code.Code, g *coins.Game) [][]int {
	basis := c.Basis()
	words := []uint64{0}
	for _, b := range basis {
		for _, w := range words[:len(words):len(words)] {
			words = append(words, w^b)
		}
	}
	out := make([][]int, 0, len(words))
	for _, w := range words {
		out = append(out, g.Heads(w))
	}
	slices.SortFunc(out, func(a, b []int) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return slices.Compare(a, b)
	})
	return out
}

func (r *runner) coinsRecord(g *coins.Game) error {
	n := r.s.Coins().N
	m, err := g.Mover(n)
	if err != nil {
		return err
	}
	return r.maskRecord(m, func(p any) (uint64, error) { return g.Mask(n, p.([]int)) },
		func(mask uint64) any { return nonNil(g.Heads(mask)) })
}

func (r *runner) coinsGraph(g *coins.Game) error {
	heads, ok := r.s.Position.([]int)
	if !ok {
		return fmt.Errorf("graph needs a position to start from: add position: [heads]")
	}
	n := r.s.Coins().N
	m, err := g.Mover(n)
	if err != nil {
		return err
	}
	start, err := g.Mask(n, heads)
	if err != nil {
		return err
	}
	label := func(mask uint64) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if mask>>i&1 == 1 {
				b.WriteString("●")
			} else {
				b.WriteString("○")
			}
		}
		return b.String()
	}
	gr, err := graph.Build(m, start, graph.Options[uint64]{MaxPositions: r.graphMax(), Play: r.play(), MaxMemory: r.lim.Memory, Context: r.ctx, Label: label})
	if err != nil {
		return limitErr(err)
	}
	r.res.Graph, err = GraphResult(gr, "game")
	return err
}
