package job

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
)

// Error is a problem in a job file, located by file, line and key path.
type Error struct {
	File string
	Line int    // 0 when unknown
	Path string // e.g. sections[1].game.coins.r
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Limits bound the work a job may do.
type Limits struct {
	// Positions bounds the positions (rows, cells, heap sizes times their
	// options) an analysis may enumerate.
	Positions int64
	// Memory bounds the bytes an analysis may allocate for its tables.
	Memory int64
}

// DefaultLimits suit a laptop: 2^24 Golay rows pass, 2^40 do not.
var DefaultLimits = Limits{Positions: 100_000_000, Memory: 4 << 30}

// Job is a checked job file.
type Job struct {
	File     string
	Title    string
	Lang     string // "en" or "fr"
	Limits   Limits
	Sections []*Section
}

// Section is one checked section of a job file.
type Section struct {
	Line  int
	Title string
	Text  string // Markdown prose
	// Source cites where the section's table comes from, e.g.
	// "D. Madore, Le jeu de nim (2017), table of f_r(n)".
	Source string
	// Family is one of nim, subtraction, octal, hex, wythoff, coins,
	// product or nimbers; exactly one of the matching fields is set.
	Family      string
	Nim         *NimSpec
	Subtraction *SubtractionSpec
	Octal       *OctalSpec // octal and hex
	Wythoff     *WythoffSpec
	Coins       *CoinsSpec
	Product     *ProductSpec
	Nimbers     *NimbersSpec
	Play        string // "normal" or "misere"
	Show        []string
	// Position is the position analysed by outcome and moves, in the
	// family's form: heaps, [a, b], head numbers, or grid cells.
	Position any
	// Record is a played sequence of positions, in the same form.
	Record []any
}

// NimSpec is Nim with heaps, optionally taking at most MaxTake per move.
type NimSpec struct {
	Heaps   []int
	MaxTake int // 0: any number
	Upto    int
}

// SubtractionSpec is a subtraction game: take s ∈ Set, or with AllBut any
// positive number not in Set.
type SubtractionSpec struct {
	Set    []int
	AllBut bool
	Upto   int
}

// OctalSpec is an octal or hexadecimal code.
type OctalSpec struct {
	Code string
	Hex  bool
	Upto int
}

// WythoffSpec bounds a Wythoff table: 0 ≤ a < Size[0], 0 ≤ b < Size[1].
type WythoffSpec struct {
	Size [2]int
}

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

// ProductSpec is a tartan product of 2 or 3 coin games.
type ProductSpec struct {
	Factors []CoinsSpec // N unused
	Size    []int
}

// NimbersSpec asks for a nim addition or multiplication table.
type NimbersSpec struct {
	Op   string // sum or product
	Size int
}

// Parse reads and checks a job file; name is used in error messages.
func Parse(name string, data []byte) (*Job, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: name, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{File: name, Msg: "the file is empty; a job needs at least `sections:`"}
	}
	p := &parser{file: name}
	return p.job(doc.Content[0])
}

// ParseFile reads and checks the job file at path.
func ParseFile(path string) (*Job, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	return Parse(path, data)
}

type parser struct{ file string }

func (p *parser) errf(n *yaml.Node, path, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: p.file, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// mapping walks a YAML mapping, remembering which keys were read so that
// the rest can be reported as unknown.
type mapping struct {
	p     *parser
	node  *yaml.Node
	path  string
	keys  []string
	nodes map[string]*yaml.Node
	lines map[string]int
}

func (p *parser) mapping(n *yaml.Node, path string) (*mapping, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errf(n, path, "want a mapping (key: value lines), not %s", describe(n))
	}
	m := &mapping{p: p, node: n, path: path, nodes: map[string]*yaml.Node{}, lines: map[string]int{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if _, dup := m.nodes[k.Value]; dup {
			return nil, p.errf(k, join(path, k.Value), "key given twice; keep one")
		}
		m.keys = append(m.keys, k.Value)
		v := n.Content[i+1]
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		m.nodes[k.Value] = v
		m.lines[k.Value] = k.Line
	}
	return m, nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// check reports the first key that is not in allowed.
func (m *mapping) check(allowed ...string) error {
	for _, k := range m.keys {
		ok := false
		for _, a := range allowed {
			if k == a {
				ok = true
			}
		}
		if !ok {
			hint := ""
			if s := closest(k, allowed); s != "" {
				hint = fmt.Sprintf("did you mean %q? ", s)
			}
			return &Error{File: m.p.file, Line: m.lines[k], Path: join(m.path, k),
				Msg: fmt.Sprintf("unknown key; %sallowed here: %s", hint, strings.Join(allowed, ", "))}
		}
	}
	return nil
}

func (m *mapping) has(key string) bool { _, ok := m.nodes[key]; return ok }

func (m *mapping) str(key, def string) (string, error) {
	n, ok := m.nodes[key]
	if !ok {
		return def, nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", m.p.errf(n, join(m.path, key), "want a single value, not %s", describe(n))
	}
	return n.Value, nil
}

// integer reads key as an integer in [lo, hi]; what says what the number is.
func (m *mapping) integer(key string, def, lo, hi int, what string) (int, error) {
	n, ok := m.nodes[key]
	if !ok {
		return def, nil
	}
	return m.p.integer(n, join(m.path, key), lo, hi, what)
}

func (p *parser) integer(n *yaml.Node, path string, lo, hi int, what string) (int, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, p.errf(n, path, "want a whole number (%s), not %s", what, describe(n))
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 10, 64)
	if err != nil {
		return 0, p.errf(n, path, "want a whole number (%s), not %q", what, n.Value)
	}
	if v < int64(lo) || v > int64(hi) {
		if hi == math.MaxInt {
			return 0, p.errf(n, path, "%d is out of range: %s must be at least %d", v, what, lo)
		}
		return 0, p.errf(n, path, "%d is out of range: %s must be from %d to %d", v, what, lo, hi)
	}
	return int(v), nil
}

func (p *parser) intList(n *yaml.Node, path string, lo, hi int, what string) ([]int, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, path, "want a list of whole numbers like [1, 3, 5], not %s", describe(n))
	}
	out := make([]int, 0, len(n.Content))
	for i, c := range n.Content {
		v, err := p.integer(c, fmt.Sprintf("%s[%d]", path, i), lo, hi, what)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Value == "" {
			return "an empty value"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "this"
}

// closest returns the allowed word nearest to s, if it is near enough to
// be a likely typo.
func closest(s string, allowed []string) string {
	best, bestD := "", 3
	for _, a := range allowed {
		if d := editDistance(s, a); d < bestD {
			best, bestD = a, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// Sizes beyond these are refused as absurd whatever the limits: they are
// far past anything the algorithms could finish.
const (
	maxHeap  = heap.MaxHeap // one bound with the engine's: refused here, with the line
	maxPair  = 1 << 40      // Wythoff's heaps: outcomes and moves are O(1)
	maxUpto  = 100_000_000
	maxCoins = 64 // rows are bit masks: every analysis but values and plot
	maxBelow = 1 << 62
	maxSide  = 1 << 20
)

func (p *parser) job(root *yaml.Node) (*Job, error) {
	m, err := p.mapping(root, "")
	if err != nil {
		return nil, err
	}
	if err := m.check("title", "lang", "limits", "sections"); err != nil {
		return nil, err
	}
	j := &Job{File: p.file, Limits: DefaultLimits}
	if j.Title, err = m.str("title", ""); err != nil {
		return nil, err
	}
	if j.Lang, err = m.str("lang", "en"); err != nil {
		return nil, err
	}
	if j.Lang != "en" && j.Lang != "fr" {
		return nil, p.errf(m.nodes["lang"], "lang", "unknown language %q; write en or fr", j.Lang)
	}
	if n, ok := m.nodes["limits"]; ok {
		lm, err := p.mapping(n, "limits")
		if err != nil {
			return nil, err
		}
		if err := lm.check("positions", "memory"); err != nil {
			return nil, err
		}
		if pn, ok := lm.nodes["positions"]; ok {
			v, err := p.integer(pn, "limits.positions", 1, math.MaxInt, "the number of positions")
			if err != nil {
				return nil, err
			}
			j.Limits.Positions = int64(v)
		}
		if mn, ok := lm.nodes["memory"]; ok {
			v, err := ParseSize(mn.Value)
			if err != nil || mn.Kind != yaml.ScalarNode {
				return nil, p.errf(mn, "limits.memory", "want a size like 512MiB or 4GiB, not %s", describe(mn))
			}
			if v <= 0 {
				return nil, p.errf(mn, "limits.memory", "want a positive size like 512MiB or 4GiB, not %s (leave the key out for the default, %s)", describe(mn), budget.FormatSize(DefaultLimits.Memory))
			}
			j.Limits.Memory = v
		}
	}
	sn, ok := m.nodes["sections"]
	if !ok {
		return nil, p.errf(root, "sections", "missing: a job needs a list of sections, each with a game (or nimbers) and show")
	}
	if sn.Kind != yaml.SequenceNode || len(sn.Content) == 0 {
		return nil, p.errf(sn, "sections", "want a non-empty list of sections (lines starting with -)")
	}
	for i, n := range sn.Content {
		s, err := p.section(n, fmt.Sprintf("sections[%d]", i))
		if err != nil {
			return nil, err
		}
		j.Sections = append(j.Sections, s)
	}
	return j, nil
}

// ParseSize reads a byte size such as 4GiB, 512MiB, 100MB or 1048576.
func ParseSize(s string) (int64, error) { return budget.ParseSize(s) }

// families lists the game families with their keys, in SPEC order.
var families = []string{"nim", "subtraction", "octal", "hex", "wythoff", "coins", "product"}

// analyses lists what show may ask of each family.
var analyses = map[string][]string{
	"nim":         {"values", "p-positions", "period", "outcome", "moves", "graph", "record", "plot"},
	"subtraction": {"values", "p-positions", "period", "outcome", "moves", "graph", "record", "plot"},
	"octal":       {"values", "p-positions", "period", "rare", "outcome", "moves", "graph", "record", "plot"},
	"hex":         {"values", "p-positions", "period", "rare", "outcome", "moves", "graph", "record", "plot"},
	"wythoff":     {"table", "p-positions", "row-periods", "outcome", "moves", "graph", "record", "plot"},
	"coins":       {"values", "p-positions", "weights", "distribution", "code", "steiner", "automorphisms", "outcome", "moves", "graph", "record", "plot"},
	"product":     {"table", "outcome", "moves", "record", "plot"},
	"nimbers":     {"table", "plot"},
}

// Analyses returns the analyses show may list for a family, in order.
func Analyses(family string) []string { return analyses[family] }

func (p *parser) section(n *yaml.Node, path string) (*Section, error) {
	m, err := p.mapping(n, path)
	if err != nil {
		return nil, err
	}
	if err := m.check("title", "text", "source", "game", "nimbers", "show", "position", "record"); err != nil {
		return nil, err
	}
	s := &Section{Line: n.Line}
	if s.Title, err = m.str("title", ""); err != nil {
		return nil, err
	}
	if s.Text, err = m.str("text", ""); err != nil {
		return nil, err
	}
	if s.Source, err = m.str("source", ""); err != nil {
		return nil, err
	}
	switch {
	case m.has("game") && m.has("nimbers"):
		return nil, p.errf(n, path, "a section holds either game or nimbers, not both; split it in two sections")
	case m.has("nimbers"):
		if err := p.nimbers(s, m.nodes["nimbers"], join(path, "nimbers")); err != nil {
			return nil, err
		}
	case m.has("game"):
		if err := p.game(s, m.nodes["game"], join(path, "game")); err != nil {
			return nil, err
		}
	default:
		return nil, p.errf(n, path, "missing game: write e.g. `game: {nim: {heaps: [1, 3, 5, 7]}}` (families: %s) or `nimbers: {op: product, size: 16}`", strings.Join(families, ", "))
	}
	// show
	sn, ok := m.nodes["show"]
	if !ok {
		return nil, p.errf(n, join(path, "show"), "missing: list the analyses to run, from: %s", strings.Join(analyses[s.Family], ", "))
	}
	if sn.Kind == yaml.ScalarNode {
		sn = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{sn}, Line: sn.Line}
	}
	if sn.Kind != yaml.SequenceNode || len(sn.Content) == 0 {
		return nil, p.errf(sn, join(path, "show"), "want a list of analyses from: %s", strings.Join(analyses[s.Family], ", "))
	}
	for i, c := range sn.Content {
		name := c.Value
		ok := false
		for _, a := range analyses[s.Family] {
			if a == name {
				ok = true
			}
		}
		if c.Kind != yaml.ScalarNode || !ok {
			hint := ""
			if h := closest(name, analyses[s.Family]); h != "" {
				hint = fmt.Sprintf("did you mean %q? ", h)
			}
			return nil, p.errf(c, fmt.Sprintf("%s.show[%d]", path, i), "%s does not apply to %s; %sthose that do: %s", describe(c), s.Family, hint, strings.Join(analyses[s.Family], ", "))
		}
		if cs := s.Coins; cs != nil && (cs.Below > 0 || cs.N > maxCoins) && name != "values" && name != "plot" {
			what := fmt.Sprintf("%d coins", cs.N)
			if cs.Below > 0 {
				what = "every coin whose value is below a bound"
			}
			return nil, p.errf(c, fmt.Sprintf("%s.show[%d]", path, i), "%s needs at most %d coins (rows are bit masks), not %s; use n: %d or less, or show values only", name, maxCoins, what, maxCoins)
		}
		if name == "values" && s.Play == "misere" {
			return nil, p.errf(c, fmt.Sprintf("%s.show[%d]", path, i), "values are normal-play Grundy values; remove play: misere or ask for outcome and moves instead")
		}
		for _, prev := range s.Show {
			if prev == name {
				return nil, p.errf(c, fmt.Sprintf("%s.show[%d]", path, i), "%q listed twice", name)
			}
		}
		s.Show = append(s.Show, name)
	}
	// position
	if pn, ok := m.nodes["position"]; ok {
		if s.Position != nil {
			return nil, p.errf(pn, join(path, "position"), "position is given twice (here and in the game); keep one")
		}
		pos, err := p.position(s, pn, join(path, "position"))
		if err != nil {
			return nil, err
		}
		s.Position = pos
	}
	if s.Position == nil && s.Family == "nim" && s.Nim.Heaps != nil {
		s.Position = s.Nim.Heaps
	}
	for _, a := range s.Show {
		if (a == "outcome" || a == "moves") && s.Position == nil {
			return nil, p.errf(sn, join(path, "show"), "%s needs a position: add `position:` to the section (%s)", a, positionHint(s.Family))
		}
	}
	if rn, ok := m.nodes["record"]; ok {
		if rn.Kind != yaml.SequenceNode || len(rn.Content) < 2 {
			return nil, p.errf(rn, join(path, "record"), "want a list of at least two positions, the start and each position after a move (%s)", positionHint(s.Family))
		}
		for i, c := range rn.Content {
			pos, err := p.position(s, c, fmt.Sprintf("%s.record[%d]", path, i))
			if err != nil {
				return nil, err
			}
			s.Record = append(s.Record, pos)
		}
	}
	if contains(s.Show, "record") && s.Record == nil {
		return nil, p.errf(sn, join(path, "show"), "record needs the played positions: add `record: [...]` to the section (%s each)", positionHint(s.Family))
	}
	if s.Record != nil && !contains(s.Show, "record") {
		s.Show = append(s.Show, "record")
	}
	return s, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func positionHint(family string) string {
	switch family {
	case "wythoff":
		return "two heaps, e.g. position: [3, 5]"
	case "coins":
		return "the numbers of the coins showing heads, e.g. position: [1, 4, 6]"
	case "product":
		return "the cells showing heads, e.g. position: [[1, 2], [3, 3]]"
	}
	return "the heaps, e.g. position: [1, 3, 5, 7]"
}

// position reads a position in the family's form.
func (p *parser) position(s *Section, n *yaml.Node, path string) (any, error) {
	switch s.Family {
	case "wythoff":
		hs, err := p.intList(n, path, 0, maxPair, "a heap")
		if err != nil {
			return nil, err
		}
		if len(hs) != 2 {
			return nil, p.errf(n, path, "Wythoff's game has two heaps; write e.g. [3, 5]")
		}
		return hs, nil
	case "coins":
		if s.Coins.Below > 0 {
			return nil, p.errf(n, path, "a position needs the number of coins: replace below with n")
		}
		hs, err := p.intList(n, path, s.Coins.First, s.Coins.First+s.Coins.N-1, "a coin number")
		if err != nil {
			return nil, err
		}
		sort.Ints(hs)
		for i := 1; i < len(hs); i++ {
			if hs[i] == hs[i-1] {
				return nil, p.errf(n, path, "coin %d is listed twice; list each head once", hs[i])
			}
		}
		return hs, nil
	case "product":
		if n.Kind != yaml.SequenceNode {
			return nil, p.errf(n, path, "want a list of cells, e.g. [[1, 2], [3, 3]]")
		}
		var cells [][]int
		for i, c := range n.Content {
			cp := fmt.Sprintf("%s[%d]", path, i)
			cell, err := p.intList(c, cp, 0, maxSide, "a coordinate")
			if err != nil {
				return nil, err
			}
			if len(cell) != len(s.Product.Factors) {
				return nil, p.errf(c, cp, "a cell has %d coordinates, one per factor", len(s.Product.Factors))
			}
			for k, v := range cell {
				lo := s.Product.Factors[k].First
				if v < lo || v >= lo+s.Product.Size[k] {
					return nil, p.errf(c, cp, "coordinate %d is %d, outside %d..%d (size and first of factor %d)", k+1, v, lo, lo+s.Product.Size[k]-1, k+1)
				}
			}
			cells = append(cells, cell)
		}
		return cells, nil
	case "nimbers":
		return nil, p.errf(n, path, "a nimbers section has no position")
	}
	hs, err := p.intList(n, path, 0, maxHeap, "a heap size")
	if err != nil {
		return nil, err
	}
	return hs, nil
}

func (p *parser) nimbers(s *Section, n *yaml.Node, path string) error {
	m, err := p.mapping(n, path)
	if err != nil {
		return err
	}
	if err := m.check("op", "size"); err != nil {
		return err
	}
	s.Family = "nimbers"
	ns := &NimbersSpec{}
	if ns.Op, err = m.str("op", "product"); err != nil {
		return err
	}
	switch ns.Op {
	case "sum", "add", "addition":
		ns.Op = "sum"
	case "product", "mul", "multiplication":
		ns.Op = "product"
	default:
		return p.errf(m.nodes["op"], join(path, "op"), "unknown operation %q; write sum or product", ns.Op)
	}
	if !m.has("size") {
		return p.errf(n, join(path, "size"), "missing: the table shows 0..size-1, e.g. size: 16")
	}
	if ns.Size, err = m.integer("size", 16, 1, 4096, "the table size"); err != nil {
		return err
	}
	s.Nimbers = ns
	return nil
}

func (p *parser) game(s *Section, n *yaml.Node, path string) error {
	m, err := p.mapping(n, path)
	if err != nil {
		return err
	}
	if len(m.keys) != 1 {
		return p.errf(n, path, "a game holds exactly one family, from: %s", strings.Join(families, ", "))
	}
	fam := m.keys[0]
	if !contains(families, fam) {
		hint := ""
		if h := closest(fam, families); h != "" {
			hint = fmt.Sprintf("did you mean %q? ", h)
		}
		return &Error{File: p.file, Line: m.lines[fam], Path: join(path, fam), Msg: fmt.Sprintf("unknown game family; %sknown families: %s", hint, strings.Join(families, ", "))}
	}
	s.Family = fam
	fp := join(path, fam)
	fm, err := p.mapping(m.nodes[fam], fp)
	if err != nil {
		return err
	}
	if play, ok := fm.nodes["play"]; ok {
		switch play.Value {
		case "normal", "misere", "misère":
			s.Play = strings.Replace(play.Value, "è", "e", 1)
		default:
			return p.errf(play, join(fp, "play"), "unknown play %q; write normal or misere", play.Value)
		}
	} else {
		s.Play = "normal"
	}
	switch fam {
	case "nim":
		if err := fm.check("heaps", "play", "max-take", "upto"); err != nil {
			return err
		}
		ns := &NimSpec{}
		if hn, ok := fm.nodes["heaps"]; ok {
			if ns.Heaps, err = p.intList(hn, join(fp, "heaps"), 0, maxHeap, "a heap size"); err != nil {
				return err
			}
		}
		if ns.MaxTake, err = fm.integer("max-take", 0, 1, maxHeap, "the most one may take"); err != nil {
			return err
		}
		if ns.Upto, err = fm.integer("upto", 20, 0, maxUpto, "the largest heap"); err != nil {
			return err
		}
		s.Nim = ns
	case "subtraction":
		if err := fm.check("set", "all-but", "upto", "play", "position"); err != nil {
			return err
		}
		ss := &SubtractionSpec{}
		key := "set"
		switch {
		case fm.has("set") && fm.has("all-but"):
			return p.errf(n, fp, "give either set or all-but, not both")
		case fm.has("all-but"):
			key, ss.AllBut = "all-but", true
		case !fm.has("set"):
			return p.errf(m.nodes[fam], join(fp, "set"), "missing: write the amounts one may take, e.g. set: [1, 3, 4] (or all-but: [...])")
		}
		if ss.Set, err = p.intList(fm.nodes[key], join(fp, key), 1, maxUpto, "an amount to take"); err != nil {
			return err
		}
		if len(ss.Set) == 0 && !ss.AllBut {
			return p.errf(fm.nodes[key], join(fp, key), "the set is empty: no move is possible; give at least one amount")
		}
		if ss.Upto, err = fm.integer("upto", 100, 0, maxUpto, "the largest heap"); err != nil {
			return err
		}
		s.Subtraction = ss
	case "octal", "hex":
		if err := fm.check("code", "upto", "play", "position"); err != nil {
			return err
		}
		oc := &OctalSpec{Hex: fam == "hex"}
		cn, ok := fm.nodes["code"]
		if !ok {
			return p.errf(m.nodes[fam], join(fp, "code"), "missing: write the code in quotes, e.g. code: \"0.77\" (Kayles)")
		}
		oc.Code = cn.Value
		if err := checkCode(oc.Code, oc.Hex); err != nil {
			return p.errf(cn, join(fp, "code"), "%v", err)
		}
		if oc.Upto, err = fm.integer("upto", 100, 0, maxUpto, "the largest heap"); err != nil {
			return err
		}
		s.Octal = oc
	case "wythoff":
		if err := fm.check("size", "play", "position"); err != nil {
			return err
		}
		ws := &WythoffSpec{Size: [2]int{10, 10}}
		if sn, ok := fm.nodes["size"]; ok {
			sz, err := p.intList(sn, join(fp, "size"), 1, maxSide, "a table side")
			if err != nil {
				return err
			}
			if len(sz) != 2 {
				return p.errf(sn, join(fp, "size"), "want two sides, e.g. size: [20, 20]")
			}
			ws.Size = [2]int{sz[0], sz[1]}
		}
		s.Wythoff = ws
	case "coins":
		if err := fm.check("rule", "r", "n", "below", "first", "play", "position"); err != nil {
			return err
		}
		cs, err := p.coins(fm, fp, true)
		if err != nil {
			return err
		}
		s.Coins = cs
	case "product":
		if err := fm.check("factors", "size", "position", "play"); err != nil {
			return err
		}
		ps := &ProductSpec{}
		fn, ok := fm.nodes["factors"]
		if !ok || fn.Kind != yaml.SequenceNode || len(fn.Content) < 2 || len(fn.Content) > 3 {
			return p.errf(m.nodes[fam], join(fp, "factors"), "want 2 or 3 coin games, e.g. factors: [{rule: at-most, r: 2}, {rule: ruler}]")
		}
		for i, c := range fn.Content {
			cp := fmt.Sprintf("%s.factors[%d]", fp, i)
			cm, err := p.mapping(c, cp)
			if err != nil {
				return err
			}
			if cm.has("coins") && len(cm.keys) == 1 { // accept {coins: {...}} too
				if cm, err = p.mapping(cm.nodes["coins"], cp+".coins"); err != nil {
					return err
				}
			}
			if err := cm.check("rule", "r", "first"); err != nil {
				return err
			}
			cs, err := p.coins(cm, cp, false)
			if err != nil {
				return err
			}
			ps.Factors = append(ps.Factors, *cs)
		}
		sn, ok := fm.nodes["size"]
		if !ok {
			return p.errf(m.nodes[fam], join(fp, "size"), "missing: one side per factor, e.g. size: [8, 8]")
		}
		if ps.Size, err = p.intList(sn, join(fp, "size"), 1, maxCoins, "a side"); err != nil {
			return err
		}
		if len(ps.Size) != len(ps.Factors) {
			return p.errf(sn, join(fp, "size"), "want %d sides, one per factor", len(ps.Factors))
		}
		s.Product = ps
	}
	if pn, ok := fm.nodes["position"]; ok {
		pos, err := p.position(s, pn, join(fp, "position"))
		if err != nil {
			return err
		}
		s.Position = pos
	}
	return nil
}

func (p *parser) coins(m *mapping, path string, needN bool) (*CoinsSpec, error) {
	cs := &CoinsSpec{}
	var err error
	if cs.Rule, err = m.str("rule", "at-most"); err != nil {
		return nil, err
	}
	rules := []string{"at-most", "exactly", "ruler"}
	if !contains(rules, cs.Rule) {
		return nil, p.errf(m.nodes["rule"], join(path, "rule"), "unknown rule %q; write at-most, exactly or ruler", cs.Rule)
	}
	if cs.Rule == "ruler" {
		if m.has("r") {
			return nil, p.errf(m.nodes["r"], join(path, "r"), "the ruler game turns any run of coins: remove r")
		}
	} else {
		if !m.has("r") {
			return nil, p.errf(m.node, join(path, "r"), "missing: how many coins a move turns (%s r), e.g. r: 3", cs.Rule)
		}
		if cs.R, err = m.integer("r", 0, 1, maxCoins, "the number of coins turned"); err != nil {
			return nil, err
		}
	}
	if cs.First, err = m.integer("first", 1, 0, 1, "the number of the leftmost coin"); err != nil {
		return nil, err
	}
	if cs.Rule == "ruler" && cs.First != 1 {
		return nil, p.errf(m.nodes["first"], join(path, "first"), "the ruler game numbers coins from 1; write first: 1")
	}
	if needN {
		switch {
		case m.has("n") && m.has("below"):
			return nil, p.errf(m.nodes["below"], join(path, "below"), "give n (the number of coins) or below (every coin whose value is below it), not both")
		case m.has("below"):
			if cs.Rule != "at-most" || cs.R < 2 {
				return nil, p.errf(m.nodes["below"], join(path, "below"), "below needs rule: at-most with r: 2 or more (values that increase); give n, the number of coins, instead")
			}
			if cs.Below, err = p.below(m.nodes["below"], join(path, "below")); err != nil {
				return nil, err
			}
		case !m.has("n"):
			return nil, p.errf(m.node, join(path, "n"), "missing: the number of coins, e.g. n: 24 (or below: 2^20 for every value below 2^20)")
		default:
			if cs.N, err = m.integer("n", 0, 1, maxUpto, "the number of coins"); err != nil {
				return nil, err
			}
		}
	}
	return cs, nil
}

// below reads a bound on values: a whole number or a power of two 2^k.
func (p *parser) below(n *yaml.Node, path string) (uint64, error) {
	bad := p.errf(n, path, "want a bound on the values, a whole number or a power of two like 2^28, not %s", describe(n))
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
			return 0, p.errf(n, path, "2^%d is out of range: below must be from 2^1 to 2^62", k)
		}
		return 1 << k, nil
	}
	x, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, bad
	}
	if x < 1 || x > maxBelow {
		return 0, p.errf(n, path, "%d is out of range: below must be from 1 to 2^62", x)
	}
	return x, nil
}

// checkCode checks the syntax of an octal or hexadecimal code with the
// engine's own parser, so that a bad code is reported with its line before
// any work starts.
func checkCode(code string, hex bool) error {
	var err error
	if hex {
		_, err = heap.ParseHex(code)
	} else {
		_, err = heap.ParseOctal(code)
	}
	if err != nil {
		return fmt.Errorf("%s; write it in quotes, e.g. code: \"0.77\" (Kayles)", strings.TrimPrefix(err.Error(), "heap: "))
	}
	return nil
}
