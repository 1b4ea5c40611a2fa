package survey

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/job"
)

// DefaultMaxVariants bounds the variants of a survey unless its limits
// (limits.variants) or the command line (--max-variants) say otherwise.
const DefaultMaxVariants = 100_000

// hardMaxVariants is refused whatever the limits: past it the variant
// list alone would not fit a laptop.
const hardMaxVariants = 50_000_000

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
	// (canonical JSON), whatever the way they were written.
	Hash string
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
func (v *Variant) Game() map[string]any {
	m := make(map[string]any, len(v.Params))
	for _, p := range v.Params {
		m[p.Key] = p.Value
	}
	return map[string]any{v.Section.Family: m}
}

// Label names the variant for a progress line, e.g. "octal code=0.07".
func (s *Survey) Label(v *Variant) string {
	var b strings.Builder
	b.WriteString(s.Family)
	for _, p := range v.Params {
		if !contains(s.Varying, p.Key) {
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
	p := &parser{file: name}
	s, err := p.survey(doc.Content[0], o)
	if err != nil {
		return nil, err
	}
	s.Hash = hash(s)
	return s, nil
}

type parser struct {
	file string
	// max is the most variants allowed: a generator or range making more
	// is refused before its values are made.
	max int64
}

func (p *parser) tooMany(n *yaml.Node, path string, count int64, what string) error {
	return p.errf(n, path, "%s make %d variants, more than the limit of %d; narrow them, or raise the limit with --max-variants or limits: {variants: N}", what, count, p.max)
}

func (p *parser) errf(n *yaml.Node, path, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &job.Error{File: p.file, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)}
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
		return nil, p.errf(n, path, "want a mapping (key: value lines), not %s", describe(n))
	}
	var out []entry
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		if seen[k.Value] {
			return nil, p.errf(k, join(path, k.Value), "key given twice; keep one")
		}
		seen[k.Value] = true
		out = append(out, entry{k, v})
	}
	return out, nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// describe words a node as job files do.
func describe(n *yaml.Node) string { return job.Describe(n) }

var families = []string{"nim", "subtraction", "octal", "hex", "wythoff", "coins", "product", "nimbers"}

// listKeys are the family keys whose single value is already a list: a
// list of lists gives one variant per inner list. (A nimbers table's size
// is a number.)
var listKeys = map[string]bool{"heaps": true, "set": true, "all-but": true, "size": true, "position": true, "factors": true}

func (p *parser) survey(root *yaml.Node, o Options) (*Survey, error) {
	es, err := p.entries(root, "")
	if err != nil {
		return nil, err
	}
	s := &Survey{File: p.file, Lang: "en", Limits: job.DefaultLimits, MaxVariants: DefaultMaxVariants}
	var fam, show, position *yaml.Node
	var famKey *yaml.Node
	for _, e := range es {
		switch e.key.Value {
		case "title", "text", "lang":
			if e.val.Kind != yaml.ScalarNode {
				return nil, p.errf(e.val, e.key.Value, "want a single value, not %s", describe(e.val))
			}
			switch e.key.Value {
			case "title":
				s.Title = e.val.Value
			case "text":
				s.Text = e.val.Value
			case "lang":
				if e.val.Value != "en" && e.val.Value != "fr" {
					return nil, p.errf(e.val, "lang", "unknown language %q; write en or fr", e.val.Value)
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
			return nil, p.errf(e.key, "sections", "a survey file has `survey:` (one family with lists or ranges) in place of `sections:`; run a job file with nimbook run")
		default:
			allowed := []string{"title", "text", "lang", "limits", "survey", "show", "position"}
			return nil, p.errf(e.key, e.key.Value, "unknown key; allowed here: %s", strings.Join(allowed, ", "))
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
	if fam == nil {
		return nil, p.errf(root, "survey", "missing: write one family whose parameters are lists or ranges, e.g. survey: {octal: {digits: 2, upto: 2000}}")
	}
	if show == nil {
		return nil, p.errf(root, "show", "missing: list the analyses to run on every variant, e.g. show: [period, values]")
	}
	fes, err := p.entries(fam, "survey")
	if err != nil {
		return nil, err
	}
	if len(fes) != 1 {
		return nil, p.errf(famKey, "survey", "a survey holds exactly one family, from: %s", strings.Join(families, ", "))
	}
	s.Family = fes[0].key.Value
	if !contains(families, s.Family) {
		return nil, p.errf(fes[0].key, join("survey", s.Family), "unknown game family; known families: %s", strings.Join(families, ", "))
	}
	axes, err := p.axes(s.Family, fes[0].val, join("survey", s.Family))
	if err != nil {
		return nil, err
	}
	for _, a := range axes {
		s.Params = append(s.Params, a.key)
		if len(a.values) > 1 {
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
		path := join("limits", e.key.Value)
		if e.val.Kind != yaml.ScalarNode {
			return p.errf(e.val, path, "want a single value, not %s", describe(e.val))
		}
		switch e.key.Value {
		case "positions", "variants":
			v, err := strconv.ParseInt(strings.ReplaceAll(e.val.Value, "_", ""), 10, 64)
			if err != nil || v < 1 {
				return p.errf(e.val, path, "want a positive whole number, not %s", describe(e.val))
			}
			if e.key.Value == "positions" {
				s.Limits.Positions = v
			} else {
				s.MaxVariants = int(min(v, math.MaxInt32))
			}
		case "memory":
			v, err := job.ParseSize(e.val.Value)
			if err != nil {
				return p.errf(e.val, path, "want a size like 512MiB or 4GiB, not %s", describe(e.val))
			}
			s.Limits.Memory = v
		default:
			return p.errf(e.key, path, "unknown key; allowed here: positions, memory, variants")
		}
	}
	return nil
}

// axis is one parameter of the family with its values, each a node that a
// job section accepts; the line of each node is where errors point.
type axis struct {
	key    string
	keyN   *yaml.Node
	values []*yaml.Node
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
		return 0, 0, true, p.errf(n, path, "the range %q has a number too large; write \"A..B\" with whole numbers", n.Value)
	}
	if lo > hi {
		return 0, 0, true, p.errf(n, path, "the range %q is empty; write \"A..B\" with A ≤ B, e.g. \"%d..%d\"", n.Value, hi, lo)
	}
	if hi-lo+1 > p.max {
		return 0, 0, true, p.tooMany(n, path, hi-lo+1, fmt.Sprintf("the %d values of %q", hi-lo+1, n.Value))
	}
	return lo, hi, true, nil
}

func intNode(v int64, line int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10), Line: line}
}

func strNode(v string, line int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line}
}

// axes reads the family's parameters: single values, lists, ranges and the
// generators digits (codes) and within (sets).
func (p *parser) axes(fam string, n *yaml.Node, path string) ([]axis, error) {
	es, err := p.entries(n, path)
	if err != nil {
		return nil, err
	}
	byKey := map[string]entry{}
	for _, e := range es {
		byKey[e.key.Value] = e
	}
	var axes []axis
	for _, e := range es {
		key, kp := e.key.Value, join(path, e.key.Value)
		var a axis
		var err error
		switch {
		case (fam == "octal" || fam == "hex") && (key == "digits" || key == "codes"):
			if _, ok := byKey["code"]; ok {
				return nil, p.errf(e.key, kp, "give either code or %s, not both", key)
			}
			if _, ok := byKey[map[string]string{"digits": "codes", "codes": "digits"}[key]]; ok {
				return nil, p.errf(e.key, kp, "give either digits or codes, not both")
			}
			if key == "digits" {
				a, err = p.digits(fam == "hex", e, kp)
			} else {
				a, err = p.list(e, kp, "codes", `codes: ["0.07", "0.77"]`)
			}
			a.key = "code"
		case fam == "subtraction" && (key == "within" || key == "sets"):
			for _, other := range []string{"set", "all-but", map[string]string{"within": "sets", "sets": "within"}[key]} {
				if _, ok := byKey[other]; ok {
					return nil, p.errf(e.key, kp, "give either %s or %s, not both", key, other)
				}
			}
			if key == "within" {
				a, err = p.within(e, byKey["size"], kp, join(path, "size"))
			} else {
				a, err = p.list(e, kp, "sets", "sets: [[1, 2], [1, 3, 4]]")
			}
			a.key = "set"
		case fam == "subtraction" && key == "size":
			if _, ok := byKey["within"]; !ok {
				return nil, p.errf(e.key, kp, "size counts the amounts of sets within {1..K}: add within: K, e.g. {within: 8, size: \"1..3\"}")
			}
			continue
		default:
			a, err = p.generic(fam, e, kp)
		}
		if err != nil {
			return nil, err
		}
		a.keyN = e.key
		axes = append(axes, a)
	}
	return axes, nil
}

// list reads a key whose value must be a list of variants.
func (p *parser) list(e entry, path, what, example string) (axis, error) {
	if e.val.Kind != yaml.SequenceNode || len(e.val.Content) == 0 {
		return axis{}, p.errf(e.val, path, "want a non-empty list of %s, e.g. %s", what, example)
	}
	return axis{key: e.key.Value, values: e.val.Content}, nil
}

// generic reads a parameter: one value, a list of values, or a range.
func (p *parser) generic(fam string, e entry, path string) (axis, error) {
	a := axis{key: e.key.Value}
	v := e.val
	if listKeys[a.key] && !(fam == "nimbers" && a.key == "size") {
		if v.Kind == yaml.SequenceNode && len(v.Content) > 0 && allSeq(v.Content) {
			a.values = v.Content
			return a, nil
		}
		a.values = []*yaml.Node{v}
		return a, nil
	}
	if v.Kind == yaml.SequenceNode {
		if len(v.Content) == 0 {
			return a, p.errf(v, path, "the list is empty; give at least one value")
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
	for x := lo; x <= hi; x++ {
		a.values = append(a.values, intNode(x, v.Line))
	}
	return a, nil
}

func allSeq(ns []*yaml.Node) bool {
	for _, n := range ns {
		if n.Kind != yaml.SequenceNode {
			return false
		}
	}
	return true
}

// intsOf reads a number or a range "A..B" into [lo, hi].
func (p *parser) intsOf(n *yaml.Node, path, what string, min, max int64) (lo, hi int64, err error) {
	lo, hi, ok, err := p.parseRange(n, path)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 10, 64)
		if n.Kind != yaml.ScalarNode || err != nil {
			return 0, 0, p.errf(n, path, "want %s: a whole number or a range like \"%d..%d\", not %s", what, min, max, describe(n))
		}
		lo, hi = v, v
	}
	if lo < min || hi > max {
		return 0, 0, p.errf(n, path, "%s is out of range: %s must be from %d to %d", n.Value, what, min, max)
	}
	return lo, hi, nil
}

// maxDigits bounds digits: K hexadecimal digits make 15·16^(K−1)+… codes.
const maxDigits = 6

// digits makes every code 0.d1…dj with j ≤ K (or A ≤ j ≤ B for "A..B") and
// dj ≠ 0, by number of digits, then in increasing order.
func (p *parser) digits(hex bool, e entry, path string) (axis, error) {
	lo, hi, err := p.intsOf(e.val, path, "the number of digits after the point", 1, maxDigits)
	if err != nil {
		return axis{}, err
	}
	if e.val.Kind == yaml.ScalarNode && !strings.Contains(e.val.Value, "..") {
		lo = 1 // digits: K means every code with at most K digits
	}
	base := int64(8)
	if hex {
		base = 16
	}
	total := int64(0)
	for j := lo; j <= hi; j++ {
		total += (base - 1) * pow(base, j-1)
	}
	if total > p.max {
		return axis{}, p.tooMany(e.val, path, total, fmt.Sprintf("codes of up to %d digits", hi))
	}
	a := axis{key: "code"}
	for j := lo; j <= hi; j++ {
		for x := int64(0); x < pow(base, j); x++ {
			if x%base == 0 {
				continue
			}
			d := strconv.FormatInt(x, int(base))
			a.values = append(a.values, strNode("0."+strings.Repeat("0", int(j)-len(d))+d, e.val.Line))
		}
	}
	return a, nil
}

func pow(b, e int64) int64 {
	r := int64(1)
	for ; e > 0; e-- {
		r *= b
	}
	return r
}

// maxWithin bounds within: 2^K subsets.
const maxWithin = 24

// within makes every S ⊆ {1..K} with A ≤ |S| ≤ B, by size, then in
// lexicographic order.
func (p *parser) within(e, size entry, path, sizePath string) (axis, error) {
	k, _, err := p.intsOf(e.val, path, "the largest amount", 1, maxWithin)
	if err != nil {
		return axis{}, err
	}
	if strings.Contains(e.val.Value, "..") {
		return axis{}, p.errf(e.val, path, "within takes one number K (sets within {1..K}); put the range on size, e.g. size: \"1..3\"")
	}
	lo, hi := int64(1), k
	if size.val != nil {
		if lo, hi, err = p.intsOf(size.val, sizePath, "the number of amounts in a set", 1, k); err != nil {
			return axis{}, err
		}
	}
	total := int64(0)
	for sz := lo; sz <= hi; sz++ {
		total += binomial(k, sz)
	}
	if total > p.max {
		return axis{}, p.tooMany(e.val, path, total, fmt.Sprintf("the sets within {1..%d} of %d to %d amounts", k, lo, hi))
	}
	a := axis{key: "set"}
	line := e.val.Line
	for sz := lo; sz <= hi; sz++ {
		combos(int(k), int(sz), func(c []int) {
			seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line, Style: yaml.FlowStyle}
			for _, x := range c {
				seq.Content = append(seq.Content, intNode(int64(x), line))
			}
			a.values = append(a.values, seq)
		})
	}
	return a, nil
}

func binomial(n, k int64) int64 {
	r := int64(1)
	for i := int64(1); i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// combos calls f with every size-subset of {1..k} in lexicographic order.
func combos(k, size int, f func([]int)) {
	c := make([]int, size)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == size {
			f(c)
			return
		}
		for x := from; x <= k-(size-i-1); x++ {
			c[i] = x
			rec(i+1, x+1)
		}
	}
	rec(0, 1)
}

// expand makes every combination of the axes (the first axis varies
// slowest), builds its section node and checks it with the job parser.
func (p *parser) expand(s *Survey, famKey *yaml.Node, axes []axis, show, position *yaml.Node) error {
	total := int64(1)
	for _, a := range axes {
		total *= int64(len(a.values))
		if total > int64(s.MaxVariants) {
			break
		}
	}
	if total > int64(s.MaxVariants) {
		var parts []string
		for _, a := range axes {
			if len(a.values) > 1 {
				parts = append(parts, fmt.Sprintf("%d %s", len(a.values), a.key))
			}
		}
		return p.errf(famKey, "survey", "%s make more than %d variants, the limit; narrow the lists or ranges, or raise the limit with --max-variants or limits: {variants: N}", strings.Join(parts, " × "), s.MaxVariants)
	}
	idx := make([]int, len(axes))
	for i := 0; i < int(total); i++ {
		rem := i
		for k := len(axes) - 1; k >= 0; k-- {
			idx[k] = rem % len(axes[k].values)
			rem /= len(axes[k].values)
		}
		fm := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: famKey.Line}
		v := &Variant{Index: i}
		for k, a := range axes {
			val := a.values[idx[k]]
			fm.Content = append(fm.Content, strNode(a.key, a.keyN.Line), val)
			v.Params = append(v.Params, Param{Key: a.key, Value: decode(val)})
		}
		game := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: famKey.Line,
			Content: []*yaml.Node{strNode(s.Family, famKey.Line), fm}}
		sec := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: famKey.Line}
		if s.Family == "nimbers" {
			sec.Content = append(sec.Content, strNode("nimbers", famKey.Line), fm)
		} else {
			sec.Content = append(sec.Content, strNode("game", famKey.Line), game)
		}
		sec.Content = append(sec.Content, strNode("show", show.Line), show)
		if position != nil {
			sec.Content = append(sec.Content, strNode("position", position.Line), position)
		}
		js, err := job.ParseSection(p.file, sec, "survey")
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
