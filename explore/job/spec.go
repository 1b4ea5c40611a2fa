package job

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
)

// Error is a problem in a job file, located by file, line and key path.
type Error = yamlfile.Error

// Limits bound the work a job may do.
type Limits struct {
	// Positions bounds the positions (rows, cells, heap sizes times their
	// options) an analysis may enumerate.
	Positions int64
	// Memory bounds the bytes an analysis may allocate for its tables.
	Memory int64
	// Time, when positive, bounds the time of each section's value sweep
	// (limits.time): the values are computed in doubling stages and kept
	// to the last stage finished in time (Results.Reached). 0: no bound.
	Time time.Duration
	// Steps, when positive, bounds the steps of the Starlark code a
	// section runs (limits.steps, --max-steps): a rule's or a game's
	// functions over the whole analysis. 0: their defaults.
	Steps int64
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
	// shared is the solver of a parameter range's sections (sharedSolver).
	shared *sharedSolver
	Line   int
	Title  string
	Text   string // Markdown prose
	// Source cites where the section's table comes from, e.g.
	// "D. Madore, Le jeu de nim (2017), table of f_r(n)".
	Source string
	// Family is the key of the section's game: a heap rule's name (see
	// heap.Rules), wythoff, coins, product or nimbers; "" for a game a
	// notebook defines by its moves.
	Family string
	// Game holds the family's parameters: a *HeapSpec, *WythoffSpec,
	// *CoinsSpec, *ProductSpec or *NimbersSpec.
	Game GameSpec
	Play string // "normal" or "misere"
	Show []string
	// Position is the position analysed by outcome and moves, in the
	// family's form: heaps, [a, b], head numbers, or grid cells.
	Position any
	// Record is a played sequence of positions, in the same form.
	Record []any
	// Across is set on the sections of a job file's section whose game
	// has a parameter that takes several values (r: "1..9"), one section
	// per value; they share it, and the reports print them as one table.
	Across *Across
}

// GameSpec is the game of a section: one of *HeapSpec, *WythoffSpec,
// *CoinsSpec, *ProductSpec and *NimbersSpec.
type GameSpec interface {
	// params writes the family's parameters as GameJSON gives them.
	params(p map[string]any)
	clone() GameSpec
}

// Heap returns the section's heap rule and parameters, or nil.
func (s *Section) Heap() *HeapSpec { h, _ := s.Game.(*HeapSpec); return h }

// Clone returns a copy of the section whose game can be changed without
// changing s (the position and record are shared).
func (s *Section) Clone() *Section {
	c := *s
	if s.Game != nil {
		c.Game = s.Game.clone()
	}
	c.Show = slices.Clone(s.Show)
	return &c
}

// HeapSpec is a heap game given by a registered rule (package heap) and
// its checked parameters, defaults filled in.
type HeapSpec struct {
	Rule   *heap.Rule
	Params heap.Params
	// Written holds File parameters as the job file wrote them; Params
	// holds them joined to the job file's folder.
	Written map[string]string
}

// Upto is the largest heap whose value is asked for.
func (h *HeapSpec) Upto() int { return h.Params.Int(heap.Upto) }

// NewGame builds the heap game.
func (h *HeapSpec) NewGame() (heap.Game, error) { return h.Rule.New(h.Params) }

func (h *HeapSpec) params(p map[string]any) {
	for _, q := range h.Rule.Params {
		v, ok := h.Params[q.Key]
		if !ok || (q.OmitZero && v == 0) {
			continue
		}
		if w, ok := h.Written[q.Key]; ok {
			v = w
		}
		p[q.Key] = v
	}
}

func (h *HeapSpec) clone() GameSpec {
	c := *h
	c.Params = h.Params.Clone()
	return &c
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
	p := &parser{yamlfile.Parser{File: name}}
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

type parser struct{ yamlfile.Parser }

// Sizes beyond these are refused as absurd whatever the limits: they are
// far past anything the algorithms could finish.
const (
	maxHeap  = heap.MaxHeap // one bound with the engine's: refused here, with the line
	maxUpto  = 100_000_000
	maxCoins = 64 // rows are bit masks: every analysis but values and plot
	maxBelow = 1 << 62
	maxSide  = 1 << 20
)

func (p *parser) job(root *yaml.Node) (*Job, error) {
	m, err := p.Mapping(root, "")
	if err != nil {
		return nil, err
	}
	if err := m.Check("title", "lang", "limits", "sections"); err != nil {
		return nil, err
	}
	j := &Job{File: p.File, Limits: DefaultLimits}
	if j.Title, err = m.Str("title", ""); err != nil {
		return nil, err
	}
	if j.Lang, err = m.Str("lang", "en"); err != nil {
		return nil, err
	}
	if j.Lang != "en" && j.Lang != "fr" {
		return nil, p.Errf(m.Nodes["lang"], "lang", "unknown language %q; write en or fr", j.Lang)
	}
	if n, ok := m.Nodes["limits"]; ok {
		lm, err := p.Mapping(n, "limits")
		if err != nil {
			return nil, err
		}
		if err := lm.Check("positions", "memory", "time", "steps"); err != nil {
			return nil, err
		}
		if pn, ok := lm.Nodes["positions"]; ok {
			v, err := p.Integer(pn, "limits.positions", 1, math.MaxInt, "the number of positions")
			if err != nil {
				return nil, err
			}
			j.Limits.Positions = int64(v)
		}
		if sn, ok := lm.Nodes["steps"]; ok {
			v, err := p.Integer(sn, "limits.steps", 1, math.MaxInt, "the number of Starlark steps")
			if err != nil {
				return nil, err
			}
			j.Limits.Steps = int64(v)
		}
		if mn, ok := lm.Nodes["memory"]; ok {
			v, err := ParseSize(mn.Value)
			if err != nil || mn.Kind != yaml.ScalarNode {
				return nil, p.Errf(mn, "limits.memory", "want a size like 512MiB or 4GiB, not %s", yamlfile.Describe(mn))
			}
			if v <= 0 {
				return nil, p.Errf(mn, "limits.memory", "want a positive size like 512MiB or 4GiB, not %s (leave the key out for the default, %s)", yamlfile.Describe(mn), budget.FormatSize(DefaultLimits.Memory))
			}
			j.Limits.Memory = v
		}
		if tn, ok := lm.Nodes["time"]; ok {
			d, err := time.ParseDuration(tn.Value)
			if err != nil || tn.Kind != yaml.ScalarNode || d <= 0 {
				return nil, p.Errf(tn, "limits.time", "want a positive duration like 90s, 20m or 1h30m, not %s", yamlfile.Describe(tn))
			}
			j.Limits.Time = d
		}
	}
	sn, ok := m.Nodes["sections"]
	if !ok {
		return nil, p.Errf(root, "sections", "missing: a job needs a list of sections, each with a game (or nimbers) and show")
	}
	if sn.Kind != yaml.SequenceNode || len(sn.Content) == 0 {
		return nil, p.Errf(sn, "sections", "want a non-empty list of sections (lines starting with -)")
	}
	for i, n := range sn.Content {
		ss, err := p.sections(n, fmt.Sprintf("sections[%d]", i))
		if err != nil {
			return nil, err
		}
		j.Sections = append(j.Sections, ss...)
	}
	return j, nil
}

// ParseSize reads a byte size such as 4GiB, 512MiB, 100MB or 1048576.
func ParseSize(s string) (int64, error) { return budget.ParseSize(s) }

// Families lists the keys a section's game may hold: the registered heap
// rules (package heap), then the registered families (package family:
// Wythoff's game, coins, products, Starlark games…) by their Order.
func Families() []string {
	out := heap.RuleNames()
	for _, f := range family.Families() {
		if jf, ok := f.Job.(*jobFamily); ok && jf.section {
			continue
		}
		out = append(out, f.Key)
	}
	return out
}

// jobFamily is how a job file reads a registered family whose games are
// not given by their moves (Wythoff's game): its game (parse) and its
// position, with an example of one for hints. Its GameSpec runs its
// analyses (ownSpec). It is the family's Job.
type jobFamily struct {
	parse    func(p *parser, fm *yamlfile.Mapping, fp string) (GameSpec, error)
	position func(p *parser, s *Section, n *yaml.Node, path string) (any, error)
	example  []any
	what     string
	// zero is the family's game with its default parameters, for the
	// games that play builds from a name on the command line.
	zero func() GameSpec
	// spec is a nil game of the family's type, (*WythoffSpec)(nil): what
	// other packages register their parts of the family by (a player).
	spec GameSpec
	// section: the family is a key of a section of its own, beside
	// game: (nimbers: {op: product, size: 16}), not a family of game:.
	section bool
	// allowed, when set, are the keys of the family's mapping in the
	// order errors list them; else its parameters, play and position.
	allowed []string
	// across are the parameters, each a single value, that may take
	// several values in a section: a row of its table per value.
	across []string
	// show, when not nil, refuses an analysis name that the section's
	// game cannot give (at path, node c), before any work.
	show func(p *parser, s *Section, c *yaml.Node, path, name string) error
}

// SectionFamilies lists the families written as a key of a section of
// their own instead of under game: (nimber tables), by Order.
func SectionFamilies() []string {
	var out []string
	for _, f := range family.Families() {
		if jf, ok := f.Job.(*jobFamily); ok && jf.section {
			out = append(out, f.Key)
		}
	}
	return out
}

// IsSectionFamily says whether fam is written as a key of a section of its
// own (SectionFamilies).
func IsSectionFamily(fam string) bool {
	jf := jobFamilyOf(fam)
	return jf != nil && jf.section
}

// SpecOf returns a nil game of the type of family fam's games, or nil
// when fam has no type of its own (a heap rule, a game given by its
// moves): play and others find what they register by type through it.
func SpecOf(fam string) GameSpec {
	if jf := jobFamilyOf(fam); jf != nil {
		return jf.spec
	}
	return nil
}

// DefaultGame returns the game of family fam with its default parameters
// (Wythoff's 10 × 10 table), or nil when fam has none: a heap rule, a
// family whose games are given by their moves.
func DefaultGame(fam string) GameSpec {
	if jf := jobFamilyOf(fam); jf != nil && jf.zero != nil {
		return jf.zero()
	}
	return nil
}

// jobFamilyOf returns the job side of the registered family key, or nil.
func jobFamilyOf(key string) *jobFamily {
	if f, ok := family.Lookup(key); ok {
		jf, _ := f.Job.(*jobFamily)
		return jf
	}
	return nil
}

// ownSpec is the GameSpec of a family that runs its own analyses, and
// estimates their memory and cost (Wythoff's game).
type ownSpec interface {
	GameSpec
	run(r *runner) error
	memory(r *runner) int64
	cost() Cost
}

// heapAnalyses are what show may ask of every heap rule before its own
// (Rule.Analyses): the genus of each heap and the misère quotient are
// found from the rule's options alone (package misere), so every rule
// registered has them, whatever its play.
var heapAnalyses = []string{"values", "p-positions", "period", "genus", "quotient"}

// Analyses returns the analyses show may list for a family, in order: for
// a heap rule, those of every heap rule (heapAnalyses) with the rule's own
// (Rule.Analyses) after them.
func Analyses(fam string) []string {
	if r, ok := heap.Lookup(fam); ok {
		out := slices.Clone(heapAnalyses)
		out = append(out, r.Analyses...)
		return append(out, "outcome", "moves", "graph", "record", "plot")
	}
	if f, ok := family.Lookup(fam); ok {
		return f.Analyses
	}
	return nil
}

func (p *parser) section(n *yaml.Node, path string) (*Section, error) {
	m, err := p.Mapping(n, path)
	if err != nil {
		return nil, err
	}
	own := SectionFamilies()
	keys := append(append([]string{"title", "text", "source", "game"}, own...), "show", "position", "record")
	if err := m.Check(keys...); err != nil {
		return nil, err
	}
	ownKey := "" // a family with a section key of its own
	for _, k := range own {
		if m.Has(k) {
			ownKey = k
			break
		}
	}
	s := &Section{Line: n.Line}
	if s.Title, err = m.Str("title", ""); err != nil {
		return nil, err
	}
	if s.Text, err = m.Str("text", ""); err != nil {
		return nil, err
	}
	if s.Source, err = m.Str("source", ""); err != nil {
		return nil, err
	}
	switch {
	case m.Has("game") && ownKey != "":
		return nil, p.Errf(n, path, "a section holds either game or %s, not both; split it in two sections", ownKey)
	case ownKey != "":
		if err := p.ownSection(s, ownKey, m.Nodes[ownKey], yamlfile.Join(path, ownKey)); err != nil {
			return nil, err
		}
	case m.Has("game"):
		if err := p.game(s, m.Nodes["game"], yamlfile.Join(path, "game")); err != nil {
			return nil, err
		}
	default:
		var or string
		for _, k := range own {
			f, _ := family.Lookup(k)
			or += " or `" + f.Signature + "`"
		}
		return nil, p.Errf(n, path, "missing game: write e.g. `game: {nim: {heaps: [1, 3, 5, 7]}}` (families: %s)%s", strings.Join(Families(), ", "), or)
	}
	// show
	sn, ok := m.Nodes["show"]
	if !ok {
		return nil, p.Errf(n, yamlfile.Join(path, "show"), "missing: list the analyses to run, from: %s", strings.Join(Analyses(s.Family), ", "))
	}
	if sn.Kind == yaml.ScalarNode {
		sn = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{sn}, Line: sn.Line}
	}
	if sn.Kind != yaml.SequenceNode || len(sn.Content) == 0 {
		return nil, p.Errf(sn, yamlfile.Join(path, "show"), "want a list of analyses from: %s", strings.Join(Analyses(s.Family), ", "))
	}
	for i, c := range sn.Content {
		name := c.Value
		ok := false
		for _, a := range Analyses(s.Family) {
			if a == name {
				ok = true
			}
		}
		if c.Kind != yaml.ScalarNode || !ok {
			hint := ""
			if h := yamlfile.Closest(name, Analyses(s.Family)); h != "" {
				hint = fmt.Sprintf("did you mean %q? ", h)
			}
			return nil, p.Errf(c, fmt.Sprintf("%s.show[%d]", path, i), "%s does not apply to %s; %sthose that do: %s", yamlfile.Describe(c), s.Family, hint, strings.Join(Analyses(s.Family), ", "))
		}
		if jf := jobFamilyOf(s.Family); jf != nil && jf.show != nil {
			if err := jf.show(p, s, c, fmt.Sprintf("%s.show[%d]", path, i), name); err != nil {
				return nil, err
			}
		}
		if name == "values" && s.Play == "misere" {
			return nil, p.Errf(c, fmt.Sprintf("%s.show[%d]", path, i), "values are normal-play Grundy values; remove play: misere or ask for outcome and moves instead")
		}
		for _, prev := range s.Show {
			if prev == name {
				return nil, p.Errf(c, fmt.Sprintf("%s.show[%d]", path, i), "%q listed twice", name)
			}
		}
		s.Show = append(s.Show, name)
	}
	// position
	if pn, ok := m.Nodes["position"]; ok {
		if s.Position != nil {
			return nil, p.Errf(pn, yamlfile.Join(path, "position"), "position is given twice (here and in the game); keep one")
		}
		pos, err := p.position(s, pn, yamlfile.Join(path, "position"))
		if err != nil {
			return nil, err
		}
		s.Position = pos
	}
	if h := s.Heap(); s.Position == nil && h != nil && h.Rule.PositionParam != "" {
		if v, ok := h.Params[h.Rule.PositionParam]; ok {
			s.Position = v
		}
	}
	for _, a := range s.Show {
		if (a == "outcome" || a == "moves") && s.Position == nil && s.Registered() == nil {
			return nil, p.Errf(sn, yamlfile.Join(path, "show"), "%s needs a position: add `position:` to the section (%s)", a, positionHint(s.Family))
		}
	}
	if rn, ok := m.Nodes["record"]; ok {
		if rn.Kind != yaml.SequenceNode || len(rn.Content) < 2 {
			return nil, p.Errf(rn, yamlfile.Join(path, "record"), "want a list of at least two positions, the start and each position after a move (%s)", positionHint(s.Family))
		}
		for i, c := range rn.Content {
			pos, err := p.position(s, c, fmt.Sprintf("%s.record[%d]", path, i))
			if err != nil {
				return nil, err
			}
			s.Record = append(s.Record, pos)
		}
	}
	if slices.Contains(s.Show, "record") && s.Record == nil {
		return nil, p.Errf(sn, yamlfile.Join(path, "show"), "record needs the played positions: add `record: [...]` to the section (%s each)", positionHint(s.Family))
	}
	if s.Record != nil && !slices.Contains(s.Show, "record") {
		s.Show = append(s.Show, "record")
	}
	return s, nil
}

// PositionExample is an example position of a family and what its
// numbers are ("the heaps"), for the hints of job files and notebooks
// alike, each in its own syntax.
func PositionExample(fam string) (example []any, what string) {
	if jf := jobFamilyOf(fam); jf != nil {
		return jf.example, jf.what
	}
	return []any{1, 3, 5, 7}, "the heaps"
}

// positionHint words PositionExample for a job file:
// "the heaps, e.g. position: [1, 3, 5, 7]".
func positionHint(family string) string {
	ex, what := PositionExample(family)
	return fmt.Sprintf("%s, e.g. position: %s", what, strings.ReplaceAll(fmt.Sprint(ex), " ", ", "))
}

// position reads a position in the family's form.
func (p *parser) position(s *Section, n *yaml.Node, path string) (any, error) {
	if f := s.Registered(); f != nil {
		return nil, p.Errf(n, path, "a %s game is analysed from its start: give the start in the game itself (%s)", f.Family.Key, f.Family.Signature)
	}
	if jf := jobFamilyOf(s.Family); jf != nil {
		return jf.position(p, s, n, path)
	}
	hs, err := p.IntList(n, path, 0, maxHeap, "a heap size")
	if err != nil {
		return nil, err
	}
	return hs, nil
}

// ownSection reads the game of a family with a section key of its own
// (SectionFamilies).
func (p *parser) ownSection(s *Section, fam string, n *yaml.Node, path string) error {
	m, err := p.Mapping(n, path)
	if err != nil {
		return err
	}
	f, _ := family.Lookup(fam)
	if err := m.Check(f.Keys()...); err != nil {
		return err
	}
	s.Family = fam
	s.Game, err = jobFamilyOf(fam).parse(p, m, path)
	return err
}

func (p *parser) game(s *Section, n *yaml.Node, path string) error {
	m, err := p.Mapping(n, path)
	if err != nil {
		return err
	}
	families := Families()
	if len(m.Keys) != 1 {
		return p.Errf(n, path, "a game holds exactly one family, from: %s", strings.Join(families, ", "))
	}
	fam := m.Keys[0]
	if !slices.Contains(families, fam) {
		hint := ""
		if h := yamlfile.Closest(fam, families); h != "" {
			hint = fmt.Sprintf("did you mean %q? ", h)
		}
		return &Error{File: p.File, Line: m.Lines[fam], Path: yamlfile.Join(path, fam), Msg: fmt.Sprintf("unknown game family; %sknown families: %s; %s", hint, strings.Join(families, ", "), family.OwnGame)}
	}
	s.Family = fam
	fp := yamlfile.Join(path, fam)
	fm, err := p.Mapping(m.Nodes[fam], fp)
	if err != nil {
		return err
	}
	if play, ok := fm.Nodes["play"]; ok {
		switch play.Value {
		case "normal", "misere", "misère":
			s.Play = strings.Replace(play.Value, "è", "e", 1)
		default:
			return p.Errf(play, yamlfile.Join(fp, "play"), "unknown play %q; write normal or misere", play.Value)
		}
	} else {
		s.Play = "normal"
	}
	switch {
	default:
		if jf := jobFamilyOf(fam); jf != nil {
			f, _ := family.Lookup(fam)
			allowed := jf.allowed
			if allowed == nil {
				allowed = append(f.Keys(), "play", "position")
			}
			if err := fm.Check(allowed...); err != nil {
				return err
			}
			if s.Game, err = jf.parse(p, fm, fp); err != nil {
				return err
			}
			break
		}
		if f, ok := family.Lookup(fam); ok {
			if err := p.familyGame(s, f, fm, n, m.Nodes[fam], fp); err != nil {
				return err
			}
			break
		}
		r, _ := heap.Lookup(fam)
		if err := p.heapRule(s, r, fm, n, m.Nodes[fam], fp); err != nil {
			return err
		}
	}
	if pn, ok := fm.Nodes["position"]; ok {
		pos, err := p.position(s, pn, yamlfile.Join(fp, "position"))
		if err != nil {
			return err
		}
		s.Position = pos
	}
	return nil
}

// heapRule reads the parameters of a heap rule (package heap): each by its
// kind and bounds, then the rule's own checks, so that a bad value is
// reported with its line before any work starts.
func (p *parser) heapRule(s *Section, r *heap.Rule, fm *yamlfile.Mapping, gameNode, famNode *yaml.Node, fp string) error {
	if err := fm.Check(append(r.Keys(), "play", "position")...); err != nil {
		return err
	}
	params, written, err := p.readParams(r.Params, fm, fp)
	if err != nil {
		return err
	}
	h := &HeapSpec{Rule: r, Params: params, Written: written}
	if err := r.CheckParams(h.Params); err != nil {
		return p.paramErr(err, fm, gameNode, famNode, fp)
	}
	s.Game = h
	return nil
}

// param reads one parameter's value by its kind.
func (p *parser) param(q heap.Param, n *yaml.Node, path string) (any, error) {
	switch q.Kind {
	case heap.Int:
		return p.Integer(n, path, q.Min, q.Max, q.What)
	case heap.Ints:
		return p.IntList(n, path, q.Min, q.Max, q.What)
	case heap.Map:
		if n.Kind != yaml.MappingNode {
			return nil, p.Errf(n, path, "want a mapping like %s, not %s", q.Example, yamlfile.Describe(n))
		}
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var x any
			if err := v.Decode(&x); err != nil {
				return nil, p.Errf(v, yamlfile.Join(path, k.Value), "want a number, a word or a list, not %s", yamlfile.Describe(v))
			}
			x, ok := heap.MapValue(x)
			if !ok {
				return nil, p.Errf(v, yamlfile.Join(path, k.Value), "want a whole number, a word, true or false, or a list of whole numbers, not %s", yamlfile.Describe(v))
			}
			out[k.Value] = x
		}
		return out, nil
	}
	if n.Kind != yaml.ScalarNode || n.Value == "" {
		return nil, p.Errf(n, path, "want a single value like %s, not %s", q.Example, yamlfile.Describe(n))
	}
	return n.Value, nil
}
