package survey

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"math/big"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
	"github.com/nimbook/nimbook/explore/job"
)

// DefaultMaxVariants bounds the variants of a survey unless its limits
// (limits.variants) or the command line (--max-variants) say otherwise.
const DefaultMaxVariants = 100_000

// hardMaxVariants is refused whatever the limits: past it the variant
// list alone would not fit a laptop.
const hardMaxVariants = 50_000_000

// VariantBytes is the memory one variant takes while a survey is checked
// and runs: its parameters and checked job section (about 800 bytes), its
// estimate, its status, and what the collector has not yet freed of its
// making (about 8 KiB are allocated per variant, and the process held
// 1.9 KiB a variant after parsing 100 000). The variants are all held at
// once: a survey whose count times this passes the memory limit is
// refused before any is made (4.2 million variants of subtraction took
// 8.6 GiB to check).
const VariantBytes = 2 << 10

// Options override a survey file's keys, as the command line's flags do.
// Zero fields keep the file's values.
type Options struct {
	Limits      job.Limits
	MaxVariants int
}

// Survey is a checked survey file: one family, its variants, and the
// analyses shown for each.
type Survey struct {
	File   string
	Title  string
	Text   string
	Lang   string
	Limits job.Limits
	// MaxVariants is the most variants the survey may have.
	MaxVariants int
	Family      string
	Show        []string
	// Params names the parameters of a variant's game, in the order the
	// survey file gives them (a generator such as digits is named by the
	// parameter it makes, code).
	Params []string
	// Varying names the parameters that take more than one value.
	Varying  []string
	Variants []*Variant
	// Hash identifies the survey: a SHA-256 of its variants and analyses
	// (canonical JSON), whatever the way they were written, and of the
	// content of the rule files they run (Rules).
	Hash string
	// Rules names the rule files the variants run with a SHA-256 of each
	// one's content ("rules.star 3f2a…", one a line); "" when none. A
	// changed rule is another survey: its results are not the old ones.
	Rules string
}

// Variant is one combination of parameters.
type Variant struct {
	Index int
	// Params holds the parameters in Survey.Params order; values are
	// int64, string, bool, float64, nil, []any or map[string]any.
	Params []Param
	// Section is the checked job section that computes the variant.
	Section *job.Section
}

// Param is one parameter of a variant.
type Param struct {
	Key   string
	Value any
}

// Game is the variant's game in the form of a job file's `game:`, e.g.
// {"octal": {"code": "0.07", "upto": 2000}}.
// A dotted key (params.k, a parameter of a Starlark rule's own) is
// nested: {"params": {"k": 3}}.
func (v *Variant) Game() map[string]any {
	m := make(map[string]any, len(v.Params))
	for _, p := range v.Params {
		parent, sub, nested := strings.Cut(p.Key, ".")
		if !nested {
			m[p.Key] = p.Value
			continue
		}
		inner, _ := m[parent].(map[string]any)
		if inner == nil {
			inner = map[string]any{}
			m[parent] = inner
		}
		inner[sub] = p.Value
	}
	return map[string]any{v.Section.Family: m}
}

// identity is Game without the parameters the family keeps its own work
// in (a memo file: heap.Param.Memo), which do not change the results: a
// survey's hash is of these.
func (v *Variant) identity() map[string]any {
	g := v.Game()
	f := v.Section.Registered()
	if f == nil {
		return g
	}
	m := g[v.Section.Family].(map[string]any)
	for _, q := range f.Family.Params {
		if q.Memo {
			delete(m, q.Key)
		}
	}
	return g
}

// Label names the variant for a progress line, e.g. "octal code=0.07".
func (s *Survey) Label(v *Variant) string {
	var b strings.Builder
	b.WriteString(s.Family)
	for _, p := range v.Params {
		if !slices.Contains(s.Varying, p.Key) {
			continue
		}
		fmt.Fprintf(&b, " %s=%s", p.Key, compact(p.Value))
	}
	return b.String()
}

// ParseFile reads and checks the survey file at path.
func ParseFile(path string, o Options) (*Survey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("survey: %w", err)
	}
	return Parse(path, data, o)
}

// Parse reads a survey file and checks every variant it makes, with the
// errors of job files (file, line, key, what to write), before any work.
func Parse(name string, data []byte, o Options) (*Survey, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &job.Error{File: name, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &job.Error{File: name, Msg: "the file is empty; a survey needs `survey:` (one family) and `show:`"}
	}
	p := &parser{Parser: yamlfile.Parser{File: name}}
	s, err := p.survey(doc.Content[0], o)
	if err != nil {
		return nil, err
	}
	if s.Rules, err = ruleDigests(s); err != nil {
		return nil, &job.Error{File: name, Msg: err.Error()}
	}
	s.Hash = hash(s)
	return s, nil
}

type parser struct {
	yamlfile.Parser
	// max is the most variants allowed: a generator or range making more
	// is refused before its values are made.
	max int64
	// memory is the survey's memory limit: variants that would not fit
	// (VariantBytes each) are refused before they are made.
	memory int64
}

// tooLarge refuses count variants whose memory (VariantBytes each) does
// not fit the memory limit, or returns nil.
func (p *parser) tooLarge(n *yaml.Node, path string, count int64, what string) error {
	need := count * VariantBytes
	if need < 1<<20 || budget.Exceeds("", need, p.memory) == nil {
		return nil // a few hundred variants: nothing beside the work
	}
	return p.Errf(n, path, "the %d variants %s need about %s (%s each, all held while the survey runs), more than the memory limit of %s leaves beside the program itself; narrow the lists or ranges, or raise the limit with --max-memory or limits: {memory: SIZE}",
		count, what, budget.FormatSize(need), budget.FormatSize(VariantBytes), budget.FormatSize(p.memory))
}

// tooMany refuses values that make more variants than the limit; count
// is an int64 or, for a range across the int64 limits, a *big.Int.
func (p *parser) tooMany(n *yaml.Node, path string, count any, what string) error {
	return p.Errf(n, path, "%s make %d variants, more than the limit of %d; narrow them, or raise the limit with --max-variants or limits: {variants: N}", what, count, p.max)
}

// tooManyCombined refuses lists or ranges whose combinations make more
// variants than the limit; parts names each with its count ("4 r").
func (p *parser) tooManyCombined(n *yaml.Node, path string, parts []string, max int64) error {
	return p.Errf(n, path, "%s make more than %d variants, the limit; narrow the lists or ranges, or raise the limit with --max-variants or limits: {variants: N}", strings.Join(parts, " × "), max)
}

// entry is one key of a mapping with its nodes.
type entry struct {
	key *yaml.Node
	val *yaml.Node
}

func (p *parser) entries(n *yaml.Node, path string) ([]entry, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.Errf(n, path, "want a mapping (key: value lines), not %s", yamlfile.Describe(n))
	}
	var out []entry
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		if seen[k.Value] {
			return nil, p.Errf(k, yamlfile.Join(path, k.Value), "key given twice; keep one")
		}
		seen[k.Value] = true
		out = append(out, entry{k, v})
	}
	return out, nil
}

// families lists the families a survey may hold: those of job files (the
// heap rules registered, then the others), then those with a section key
// of their own (nimber tables).
func families() []string { return append(job.Families(), job.SectionFamilies()...) }

// otherListKeys are the keys, in the families that are not heap rules,
// whose single value is already a list. (A nimbers table's size is a
// number.)
var otherListKeys = []string{"size", "position", "factors"}

// listKey says whether the single value of key is already a list, so that
// a list of lists gives one variant per inner list: for a heap rule, a
// parameter of kind heap.Ints, or the position.
func listKey(fam, key string) bool {
	if key == "position" {
		return true
	}
	if r, ok := heap.Lookup(fam); ok {
		q := r.Param(key)
		return q != nil && q.Kind == heap.Ints
	}
	return !job.IsSectionFamily(fam) && slices.Contains(otherListKeys, key)
}

func (p *parser) survey(root *yaml.Node, o Options) (*Survey, error) {
	es, err := p.entries(root, "")
	if err != nil {
		return nil, err
	}
	s := &Survey{File: p.File, Lang: "en", Limits: job.DefaultLimits, MaxVariants: DefaultMaxVariants}
	var fam, show, position *yaml.Node
	var famKey *yaml.Node
	for _, e := range es {
		switch e.key.Value {
		case "title", "text", "lang":
			if e.val.Kind != yaml.ScalarNode {
				return nil, p.Errf(e.val, e.key.Value, "want a single value, not %s", yamlfile.Describe(e.val))
			}
			switch e.key.Value {
			case "title":
				s.Title = e.val.Value
			case "text":
				s.Text = e.val.Value
			case "lang":
				if e.val.Value != "en" && e.val.Value != "fr" {
					return nil, p.Errf(e.val, "lang", "unknown language %q; write en or fr", e.val.Value)
				}
				s.Lang = e.val.Value
			}
		case "limits":
			if err := p.limits(s, e.val); err != nil {
				return nil, err
			}
		case "survey":
			famKey = e.key
			fam = e.val
		case "show":
			show = e.val
		case "position":
			position = e.val
		case "sections":
			return nil, p.Errf(e.key, "sections", "a survey file has `survey:` (one family with lists or ranges) in place of `sections:`; run a job file with nimbook run")
		default:
			allowed := []string{"title", "text", "lang", "limits", "survey", "show", "position"}
			return nil, p.Errf(e.key, e.key.Value, "unknown key; allowed here: %s", strings.Join(allowed, ", "))
		}
	}
	if o.Limits.Positions > 0 {
		s.Limits.Positions = o.Limits.Positions
	}
	if o.Limits.Memory > 0 {
		s.Limits.Memory = o.Limits.Memory
	}
	if o.MaxVariants > 0 {
		s.MaxVariants = o.MaxVariants
	}
	p.max = min(int64(s.MaxVariants), hardMaxVariants)
	p.memory = s.Limits.Memory
	if fam == nil {
		return nil, p.Errf(root, "survey", "missing: write one family whose parameters are lists or ranges, e.g. survey: {octal: {digits: 2, upto: 2000}}")
	}
	if show == nil {
		return nil, p.Errf(root, "show", "missing: list the analyses to run on every variant, e.g. show: [period, values]")
	}
	fes, err := p.entries(fam, "survey")
	if err != nil {
		return nil, err
	}
	fams := families()
	if len(fes) != 1 {
		return nil, p.Errf(famKey, "survey", "a survey holds exactly one family, from: %s", strings.Join(fams, ", "))
	}
	s.Family = fes[0].key.Value
	if !slices.Contains(fams, s.Family) {
		return nil, p.Errf(fes[0].key, yamlfile.Join("survey", s.Family), "unknown game family; known families: %s; %s", strings.Join(fams, ", "), family.OwnGame)
	}
	axes, err := p.axes(s.Family, fes[0].val, yamlfile.Join("survey", s.Family))
	if err != nil {
		return nil, err
	}
	for _, a := range axes {
		s.Params = append(s.Params, a.key)
		if a.count() > 1 {
			s.Varying = append(s.Varying, a.key)
		}
	}
	if err := p.expand(s, fes[0].key, axes, show, position); err != nil {
		return nil, err
	}
	return s, nil
}

func (p *parser) limits(s *Survey, n *yaml.Node) error {
	es, err := p.entries(n, "limits")
	if err != nil {
		return err
	}
	for _, e := range es {
		path := yamlfile.Join("limits", e.key.Value)
		if e.val.Kind != yaml.ScalarNode {
			return p.Errf(e.val, path, "want a single value, not %s", yamlfile.Describe(e.val))
		}
		switch e.key.Value {
		case "positions", "variants":
			v, err := strconv.ParseInt(strings.ReplaceAll(e.val.Value, "_", ""), 10, 64)
			if err != nil || v < 1 {
				return p.Errf(e.val, path, "want a positive whole number, not %s", yamlfile.Describe(e.val))
			}
			if e.key.Value == "positions" {
				s.Limits.Positions = v
			} else {
				s.MaxVariants = int(min(v, math.MaxInt32))
			}
		case "memory":
			v, err := job.ParseSize(e.val.Value)
			if err != nil {
				return p.Errf(e.val, path, "want a size like 512MiB or 4GiB, not %s", yamlfile.Describe(e.val))
			}
			s.Limits.Memory = v
		case "steps":
			v, err := strconv.ParseInt(strings.ReplaceAll(e.val.Value, "_", ""), 10, 64)
			if err != nil || v < 1 {
				return p.Errf(e.val, path, "want a positive whole number of Starlark steps, not %s", yamlfile.Describe(e.val))
			}
			s.Limits.Steps = v
		case "time":
			d, err := time.ParseDuration(e.val.Value)
			if err != nil || d <= 0 {
				return p.Errf(e.val, path, "want a positive duration like 90s, 20m or 1h30m, not %s", yamlfile.Describe(e.val))
			}
			s.Limits.Time = d
		default:
			return p.Errf(e.key, path, "unknown key; allowed here: positions, memory, time, steps, variants")
		}
	}
	return nil
}

// axis is one parameter of the family with its values, each a node that a
// job section accepts; the line of each node is where errors point. A
// range "A..B" keeps its ends, and its nodes are made once every variant
// is known to fit the limits (materialize).
type axis struct {
	key    string
	keyN   *yaml.Node
	values []*yaml.Node
	ranged bool
	lo, hi int64
	line   int
}

// count is the number of values of the axis.
func (a *axis) count() int64 {
	if a.ranged {
		return a.hi - a.lo + 1 // at most p.max: refused past it (parseRange)
	}
	return int64(len(a.values))
}

// materialize makes the nodes of a range.
func (a *axis) materialize() {
	if a.ranged && a.values == nil {
		a.values = rangeNodes(a.lo, a.hi, a.line)
	}
}

var rangeRE = regexp.MustCompile(`^\s*(-?[0-9_]+)\s*\.\.\s*(-?[0-9_]+)\s*$`)

// parseRange reads "A..B"; ok is false when s is not a range.
func (p *parser) parseRange(n *yaml.Node, path string) (lo, hi int64, ok bool, err error) {
	if n.Kind != yaml.ScalarNode {
		return 0, 0, false, nil
	}
	m := rangeRE.FindStringSubmatch(n.Value)
	if m == nil {
		return 0, 0, false, nil
	}
	lo, err1 := strconv.ParseInt(strings.ReplaceAll(m[1], "_", ""), 10, 64)
	hi, err2 := strconv.ParseInt(strings.ReplaceAll(m[2], "_", ""), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, true, p.Errf(n, path, "the range %q has a number too large; write \"A..B\" with whole numbers", n.Value)
	}
	if lo > hi {
		return 0, 0, true, p.Errf(n, path, "the range %q is empty; write \"A..B\" with A ≤ B, e.g. \"%d..%d\"", n.Value, hi, lo)
	}
	// Counted in big integers: hi−lo+1 overflows for ranges across the
	// int64 limits, which would then be listed for ever.
	count := new(big.Int).Sub(big.NewInt(hi), big.NewInt(lo))
	count.Add(count, big.NewInt(1))
	if count.Cmp(big.NewInt(p.max)) > 0 {
		return 0, 0, true, p.tooMany(n, path, count, fmt.Sprintf("the %d values of %q", count, n.Value))
	}
	return lo, hi, true, nil
}

// rangeNodes lists lo..hi, hi included even when it is math.MaxInt64.
func rangeNodes(lo, hi int64, line int) []*yaml.Node {
	out := make([]*yaml.Node, 0, hi-lo+1)
	for x := lo; ; x++ {
		out = append(out, intNode(x, line))
		if x == hi {
			return out
		}
	}
}

func intNode(v int64, line int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10), Line: line}
}

func strNode(v string, line int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line}
}

// axes reads the family's parameters: single values, lists, ranges, the
// mappings of a heap rule's Map parameters, and the generators the rule
// registers (heap.Generator: octal's digits, subtraction's within).
func (p *parser) axes(fam string, n *yaml.Node, path string) ([]axis, error) {
	es, err := p.entries(n, path)
	if err != nil {
		return nil, err
	}
	byKey := map[string]entry{}
	for _, e := range es {
		byKey[e.key.Value] = e
	}
	rule, _ := heap.Lookup(fam)
	var axes []axis
	for _, e := range es {
		key, kp := e.key.Value, yamlfile.Join(path, e.key.Value)
		var a axis
		var err error
		var q *heap.Param
		if rule != nil {
			q = rule.Param(key)
		} else if f, ok := family.Lookup(fam); ok {
			q = f.Param(key) // a registered family's params range as a rule's
		}
		switch {
		case rule != nil && rule.Generator(key) != nil:
			a, err = p.generate(rule.Generator(key), e, byKey, path, kp)
		case rule != nil && len(readers(rule, key)) > 0:
			gs := readers(rule, key)
			if !slices.ContainsFunc(gs, func(g *heap.Generator) bool { _, ok := byKey[g.Key]; return ok }) {
				return nil, p.Errf(e.key, kp, "%s", gs[0].Alone)
			}
			continue // read by its generator
		case q != nil && rule == nil && q.Kind == heap.Ints && ranged(fam, key) && e.val.Kind == yaml.SequenceNode:
			// a list of sides (cram: {board: [4, "4..10"]}): one value,
			// whose ranges give a variant each
			var ok bool
			if a, ok, err = p.rangedList(e, kp, true); err == nil && !ok {
				a, err = p.generic(true, e, kp)
			}
		case q != nil && q.Kind == heap.Map && e.val.Kind == yaml.MappingNode:
			// Each of the rule's own parameters is an axis of its own,
			// named by its path (params.k), so that labels, reports and
			// the CSV name what varies.
			inner, err := p.mapAxes(e, kp)
			if err != nil {
				return nil, err
			}
			axes = append(axes, inner...)
			continue
		default:
			a, err = p.generic(listKey(fam, key), e, kp)
		}
		if err != nil {
			return nil, err
		}
		a.keyN = e.key
		axes = append(axes, a)
	}
	return axes, nil
}

// readers returns the generators of r that read key besides their own.
func readers(r *heap.Rule, key string) []*heap.Generator {
	var out []*heap.Generator
	for i := range r.Generators {
		if slices.Contains(r.Generators[i].With, key) {
			out = append(out, &r.Generators[i])
		}
	}
	return out
}

// generate reads a generator's key: the keys it excludes, then its count
// (refused past the limit before any value is made), then its values.
func (p *parser) generate(g *heap.Generator, e entry, byKey map[string]entry, path, kp string) (axis, error) {
	if g.Check != nil {
		has := func(k string) bool { _, ok := byKey[k]; return ok }
		if err := g.Check(has); err != nil {
			return axis{}, p.Errf(e.key, kp, "%s", err)
		}
	}
	if g.List {
		a, err := p.list(e, kp, g.Key, g.Example)
		a.key = g.Param
		return a, err
	}
	if g.Count == nil || g.Make == nil {
		return axis{}, p.Errf(e.key, kp, "%s cannot be surveyed: its generator makes no values", g.Key)
	}
	args := &generatorArgs{p: p, byKey: byKey, path: path}
	count, what, err := g.Count(args)
	if err != nil {
		return axis{}, p.generatorErr(err, e, byKey, path, kp)
	}
	if count > p.max {
		return axis{}, p.tooMany(e.val, kp, count, what)
	}
	// Each value is one variant at least.
	if err := p.tooLarge(e.val, kp, count, "that "+what+" make"); err != nil {
		return axis{}, err
	}
	vals, err := g.Make(args)
	if err != nil {
		return axis{}, p.generatorErr(err, e, byKey, path, kp)
	}
	if len(vals) == 0 || int64(len(vals)) > p.max {
		return axis{}, p.Errf(e.val, kp, "%s makes %d values, not between 1 and %d", g.Key, len(vals), p.max)
	}
	a := axis{key: g.Param}
	for _, v := range vals {
		n, ok := valueNode(v, e.val.Line)
		if !ok {
			return axis{}, p.Errf(e.val, kp, "%s makes %v, not a whole number, a word or a list of whole numbers", g.Key, v)
		}
		a.values = append(a.values, n)
	}
	return a, nil
}

// generatorErr locates a generator's error: a *heap.ParamError at the
// value of its key, the survey's own errors as they are.
func (p *parser) generatorErr(err error, e entry, byKey map[string]entry, path, kp string) error {
	var je *job.Error
	if errors.As(err, &je) {
		return err
	}
	var pe *heap.ParamError
	if errors.As(err, &pe) {
		if k, ok := byKey[pe.Key]; ok {
			return p.Errf(k.val, yamlfile.Join(path, pe.Key), "%s", pe.Msg)
		}
		return p.Errf(e.val, kp, "%s", pe.Msg)
	}
	return p.Errf(e.val, kp, "%s", err)
}

// generatorArgs gives a generator the numbers of its keys.
type generatorArgs struct {
	p     *parser
	byKey map[string]entry
	path  string
}

func (a *generatorArgs) Span(key, what string, min, max int64) (lo, hi int64, ranged, ok bool, err error) {
	e, ok := a.byKey[key]
	if !ok {
		return 0, 0, false, false, nil
	}
	lo, hi, ranged, err = a.p.intsOf(e.val, yamlfile.Join(a.path, key), what, min, max)
	return lo, hi, ranged, true, err
}

// valueNode is the node of a generated value: a string, a whole number or
// a list of whole numbers.
func valueNode(v any, line int) (*yaml.Node, bool) {
	switch v := v.(type) {
	case string:
		return strNode(v, line), true
	case int:
		return intNode(int64(v), line), true
	case int64:
		return intNode(v, line), true
	case []int:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line, Style: yaml.FlowStyle}
		for _, x := range v {
			seq.Content = append(seq.Content, intNode(int64(x), line))
		}
		return seq, true
	}
	return nil, false
}

// list reads a key whose value must be a list of variants.
func (p *parser) list(e entry, path, what, example string) (axis, error) {
	if e.val.Kind != yaml.SequenceNode || len(e.val.Content) == 0 {
		return axis{}, p.Errf(e.val, path, "want a non-empty list of %s, e.g. %s", what, example)
	}
	return axis{key: e.key.Value, values: e.val.Content}, nil
}

// generic reads a parameter: one value, a list of values, or a range.
// When isList, the single value is itself a list, and only a list of
// lists gives several.
func (p *parser) generic(isList bool, e entry, path string) (axis, error) {
	a := axis{key: e.key.Value}
	v := e.val
	if isList {
		if v.Kind == yaml.SequenceNode && len(v.Content) > 0 && allSeq(v.Content) {
			a.values = v.Content
			return a, nil
		}
		a.values = []*yaml.Node{v}
		return a, nil
	}
	if v.Kind == yaml.SequenceNode {
		if len(v.Content) == 0 {
			return a, p.Errf(v, path, "the list is empty; give at least one value")
		}
		a.values = v.Content
		return a, nil
	}
	lo, hi, ok, err := p.parseRange(v, path)
	if err != nil {
		return a, err
	}
	if !ok {
		a.values = []*yaml.Node{v}
		return a, nil
	}
	a.ranged, a.lo, a.hi, a.line = true, lo, hi, v.Line
	return a, nil
}

// ranged says whether fam is a registered family whose parameter key
// ranges in a job file (family.Family.Ranged).
func ranged(fam, key string) bool {
	f, ok := family.Lookup(fam)
	return ok && slices.Contains(f.Ranged, key)
}

// rangedList reads a value that is itself a list, as a job file reads it
// (a grid's [m, n], a board's): its elements that are ranges "A..B" give
// a value per combination, the first slowest (grid: [3, "1..22"]: 22
// grids), and a list of such lists gives all of theirs (grid: [[3,
// "1..22"], [4, "1..9"]]). A plain list is one value when plainIsOne,
// else left to generic (a list of values, one a variant). ok is false
// when the value is none of these.
func (p *parser) rangedList(e entry, path string, plainIsOne bool) (axis, bool, error) {
	v := e.val
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return axis{}, false, nil
	}
	lists := []*yaml.Node{v}
	if allSeq(v.Content) {
		lists = v.Content
	} else if !plainIsOne && !slices.ContainsFunc(v.Content, func(n *yaml.Node) bool {
		return n.Kind == yaml.ScalarNode && rangeRE.MatchString(n.Value)
	}) {
		return axis{}, false, nil
	}
	// Counted before any node is made: refused past the limit.
	total := int64(0)
	for _, l := range lists {
		n := int64(1)
		for _, el := range l.Content {
			lo, hi, ok, err := p.parseRange(el, path)
			if err != nil {
				return axis{}, true, err
			}
			if ok {
				n = min(n*(hi-lo+1), p.max+1)
			}
		}
		total = min(total+n, p.max+1)
	}
	if total > p.max {
		return axis{}, true, p.Errf(v, path, "the ranges of %s make more than %d variants, the limit; narrow them, or raise the limit with --max-variants or limits: {variants: N}", e.key.Value, p.max)
	}
	a := axis{key: e.key.Value}
	for _, l := range lists {
		vals := [][]*yaml.Node{nil}
		for _, el := range l.Content {
			lo, hi, ok, _ := p.parseRange(el, path)
			if !ok {
				for i := range vals {
					vals[i] = append(vals[i], el)
				}
				continue
			}
			var next [][]*yaml.Node
			for _, pre := range vals {
				for x := lo; x <= hi; x++ {
					n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10), Line: el.Line, Column: el.Column}
					next = append(next, append(slices.Clip(pre), n))
				}
			}
			vals = next
		}
		for _, c := range vals {
			a.values = append(a.values, &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: l.Line, Column: l.Column, Content: c})
		}
	}
	return a, true, nil
}

// mapping reads a parameter that is a mapping of its own (a Starlark
// rule's params), whose values may each be one value, a list or a range
// (a list of lists for values that are lists): every combination is one
// value of the parameter, the first key varying slowest. A value that is
// not a mapping is left for the job's parser to refuse.
func (p *parser) mapAxes(e entry, path string) ([]axis, error) {
	es, err := p.entries(e.val, path)
	if err != nil {
		return nil, err
	}
	out := make([]axis, len(es))
	for i, ie := range es {
		ip := yamlfile.Join(path, ie.key.Value)
		ok := false
		if out[i], ok, err = p.rangedList(ie, ip, false); err != nil {
			return nil, err
		}
		if !ok {
			if out[i], err = p.generic(false, ie, ip); err != nil {
				return nil, err
			}
		}
		out[i].key = e.key.Value + "." + ie.key.Value
		out[i].keyN = ie.key
	}
	return out, nil
}

// combinations yields the first total combinations of the values of
// axes, by index, the first axis varying slowest; idx is reused.
func combinations(axes []axis, total int) iter.Seq2[int, []int] {
	return func(yield func(int, []int) bool) {
		idx := make([]int, len(axes))
		for i := range total {
			rem := i
			for k := len(axes) - 1; k >= 0; k-- {
				idx[k] = rem % len(axes[k].values)
				rem /= len(axes[k].values)
			}
			if !yield(i, idx) {
				return
			}
		}
	}
}

func allSeq(ns []*yaml.Node) bool {
	for _, n := range ns {
		if n.Kind != yaml.SequenceNode {
			return false
		}
	}
	return true
}

// intsOf reads a number or a range "A..B" into [lo, hi]; ranged says
// which.
func (p *parser) intsOf(n *yaml.Node, path, what string, min, max int64) (lo, hi int64, ranged bool, err error) {
	lo, hi, ranged, err = p.parseRange(n, path)
	if err != nil {
		return 0, 0, false, err
	}
	if !ranged {
		v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 10, 64)
		if n.Kind != yaml.ScalarNode || err != nil {
			return 0, 0, false, p.Errf(n, path, "want %s: a whole number or a range like \"%d..%d\", not %s", what, min, max, yamlfile.Describe(n))
		}
		lo, hi = v, v
	}
	if lo < min || hi > max {
		return 0, 0, false, p.Errf(n, path, "%s is out of range: %s must be from %d to %d", n.Value, what, min, max)
	}
	return lo, hi, ranged, nil
}

// expand makes every combination of the axes (the first axis varies
// slowest), builds its section node and checks it with the job parser.
func (p *parser) expand(s *Survey, famKey *yaml.Node, axes []axis, show, position *yaml.Node) error {
	// No overflow: total ≤ p.max+1, and no axis holds 2^32 values. The
	// limit is p.max, the hard one when --max-variants asks for more.
	total := int64(1)
	var parts []string
	for _, a := range axes {
		total = min(total*a.count(), p.max+1)
		if a.count() > 1 {
			parts = append(parts, fmt.Sprintf("%d %s", a.count(), a.key))
		}
	}
	if total > p.max {
		return p.tooManyCombined(famKey, "survey", parts, p.max)
	}
	// Counted, not made: the variants must fit the memory limit too.
	what := "of the survey"
	if len(parts) > 0 {
		what = "that " + strings.Join(parts, " × ") + " make"
	}
	if err := p.tooLarge(famKey, "survey", total, what); err != nil {
		return err
	}
	for i := range axes {
		axes[i].materialize()
	}
	for i, idx := range combinations(axes, int(total)) {
		fm := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: famKey.Line}
		v := &Variant{Index: i}
		inner := map[string]*yaml.Node{} // the mappings of dotted keys, by parent
		for k, a := range axes {
			val := a.values[idx[k]]
			v.Params = append(v.Params, Param{Key: a.key, Value: decode(val)})
			parent, sub, nested := strings.Cut(a.key, ".")
			if !nested {
				fm.Content = append(fm.Content, strNode(a.key, a.keyN.Line), val)
				continue
			}
			m, ok := inner[parent]
			if !ok {
				m = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: a.keyN.Line, Style: yaml.FlowStyle}
				inner[parent] = m
				fm.Content = append(fm.Content, strNode(parent, a.keyN.Line), m)
			}
			m.Content = append(m.Content, strNode(sub, a.keyN.Line), val)
		}
		game := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: famKey.Line,
			Content: []*yaml.Node{strNode(s.Family, famKey.Line), fm}}
		sec := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: famKey.Line}
		if job.IsSectionFamily(s.Family) {
			sec.Content = append(sec.Content, strNode(s.Family, famKey.Line), fm)
		} else {
			sec.Content = append(sec.Content, strNode("game", famKey.Line), game)
		}
		sec.Content = append(sec.Content, strNode("show", show.Line), show)
		if position != nil {
			sec.Content = append(sec.Content, strNode("position", position.Line), position)
		}
		js, err := job.ParseSection(p.File, sec, "survey")
		if err != nil {
			return surveyPath(err)
		}
		v.Section = js
		if i == 0 {
			s.Show = js.Show
		}
		s.Variants = append(s.Variants, v)
	}
	return nil
}

// surveyPath rewrites the key paths of the job parser's errors to the
// survey file's: survey.game.octal.code → survey.octal.code.
func surveyPath(err error) error {
	if e, ok := err.(*job.Error); ok {
		c := *e
		c.Path = strings.Replace(c.Path, "survey.game.", "survey.", 1)
		return &c
	}
	return err
}

// decode turns a YAML node into the value of a game's JSON form.
func decode(n *yaml.Node) any {
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!int":
			if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
				return v
			}
		case "!!bool":
			if v, err := strconv.ParseBool(n.Value); err == nil {
				return v
			}
		case "!!float":
			if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
				return v
			}
		case "!!null":
			return nil
		}
		return n.Value
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, decode(c))
		}
		return out
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = decode(n.Content[i+1])
		}
		return out
	case yaml.AliasNode:
		return decode(n.Alias)
	}
	return nil
}
