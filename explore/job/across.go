package job

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
)

// Across is shared by the sections that one section of a job file makes
// when one parameter of its game is a range or a list, as the source
// documents print one table across a parameter (the f_r(n) table for
// r = 1…9):
//
//	sections:
//	  - title: "At most r coins, r = 1 to 9"
//	    game: {coins: {rule: at-most, r: "1..9", n: 10}}
//	    show: [values]
//
// Each value of the parameter is a section of its own, run and written in
// the JSON form as if the job file listed it (titled "… (r = 3)"),
// so that SPEC.md's keys keep their meaning; the reports print the values
// of the sections that share an Across as one table, a row per value.
type Across struct {
	// Title is the job file section's title, the table's.
	Title string
	// Key is the parameter that varies, as the job file writes it ("r").
	Key string
	// Labels are its values as the rows are labelled: "1", "0.77", "1, 3, 4".
	Labels []string
	// Key2 and Labels2, when set, are a second parameter that varies (a
	// registered family's, such as a Starlark game's cols): the sections
	// are then one per pair, Key's values outermost, and the reports
	// print a table of Labels rows and Labels2 columns.
	Key2    string
	Labels2 []string
}

// Stem names the member-th section (from 0) of those sharing ac, for the
// names of exported files: "r3", or "rows2-cols5" when two parameters vary.
func (ac *Across) Stem(member int) string {
	if len(ac.Labels2) == 0 {
		return ac.Key + ac.Labels[member]
	}
	n := len(ac.Labels2)
	return ac.Key + ac.Labels[member/n] + "-" + ac.Key2 + ac.Labels2[member%n]
}

// MaxAcross is the most values a section's parameter may take: the rows
// of one table.
const MaxAcross = 64

// acrossAnalyses are what a section across a parameter may show: the
// values, a row each.
var acrossAnalyses = []string{"values"}

var reRange = regexp.MustCompile(`^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$`)

// across finds the parameter of a section's game given as a range "A..B"
// or as a list where one value is expected (a list of lists for a list
// parameter, such as a subtraction set), and returns its key and a node
// per value; key is "" when every parameter has one value.
func (p *parser) across(game *yaml.Node, path string) (key string, values []*yaml.Node, err error) {
	if game.Kind != yaml.MappingNode || len(game.Content) != 2 {
		return "", nil, nil // p.game reports the shape
	}
	fam := game.Content[0].Value
	fn := game.Content[1]
	if fn.Kind != yaml.MappingNode {
		return "", nil, nil
	}
	// The kind of each key: a list or a single value. Families without
	// values (wythoff, product) vary nothing.
	list := map[string]bool{}
	switch jf := jobFamilyOf(fam); {
	case jf != nil:
		for _, k := range jf.across {
			list[k] = false
		}
	default:
		r, ok := heap.Lookup(fam)
		if !ok {
			return "", nil, nil
		}
		for _, q := range r.Params {
			if q.Kind == heap.Map || q.Key == r.PositionParam {
				continue
			}
			list[q.Key] = q.Kind == heap.Ints
		}
	}
	fp := yamlfile.Join(path, fam)
	for i := 0; i+1 < len(fn.Content); i += 2 {
		k, v := fn.Content[i].Value, fn.Content[i+1]
		isList, known := list[k]
		if !known {
			continue
		}
		var vals []*yaml.Node
		switch {
		case v.Kind == yaml.ScalarNode && !isList && reRange.MatchString(v.Value):
			m := reRange.FindStringSubmatch(v.Value)
			lo, err1 := strconv.Atoi(m[1])
			hi, err2 := strconv.Atoi(m[2])
			if err1 != nil || err2 != nil || lo > hi {
				return "", nil, p.Errf(v, yamlfile.Join(fp, k), "want a range A..B with A ≤ B, not %s", yamlfile.Describe(v))
			}
			if hi-lo+1 > MaxAcross {
				return "", nil, p.Errf(v, yamlfile.Join(fp, k), "%s gives %d values, more than the %d rows of one table; a survey (nimbook survey) runs more", v.Value, hi-lo+1, MaxAcross)
			}
			for x := lo; x <= hi; x++ {
				vals = append(vals, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x), Line: v.Line, Column: v.Column})
			}
		case v.Kind == yaml.SequenceNode && !isList:
			vals = v.Content
		case v.Kind == yaml.SequenceNode && isList && len(v.Content) > 0 && v.Content[0].Kind == yaml.SequenceNode:
			vals = v.Content
		default:
			continue
		}
		if key != "" {
			return "", nil, p.Errf(v, yamlfile.Join(fp, k), "%s and %s both take several values; one parameter may vary in a section (a row of its table per value), several in a survey (nimbook survey)", key, k)
		}
		if len(vals) == 0 {
			return "", nil, p.Errf(v, yamlfile.Join(fp, k), "want at least one value")
		}
		if len(vals) > MaxAcross {
			return "", nil, p.Errf(v, yamlfile.Join(fp, k), "%d values, more than the %d rows of one table; a survey (nimbook survey) runs more", len(vals), MaxAcross)
		}
		key, values = k, vals
	}
	return key, values, nil
}

// acrossLabel writes a parameter's value as its row is labelled.
func acrossLabel(n *yaml.Node) string {
	if n.Kind == yaml.SequenceNode {
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			parts[i] = acrossLabel(c)
		}
		return strings.Join(parts, ", ")
	}
	return n.Value
}

// withParam returns a copy of a section's node whose game's key holds v;
// the other nodes are shared.
func withParam(section *yaml.Node, key string, v *yaml.Node) *yaml.Node {
	return withFamily(section, func(fam *yaml.Node) {
		for j := 0; j+1 < len(fam.Content); j += 2 {
			if fam.Content[j].Value == key {
				fam.Content[j+1] = v
			}
		}
	})
}

// shallow copies a node and its list of children, not the children.
func shallow(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = append([]*yaml.Node(nil), n.Content...)
	return &c
}

// withFamily returns a copy of a section's node whose game's family
// mapping (a copy) edit changes; the other nodes are shared.
func withFamily(section *yaml.Node, edit func(fam *yaml.Node)) *yaml.Node {
	s := shallow(section)
	for i := 0; i+1 < len(s.Content); i += 2 {
		if s.Content[i].Value != "game" {
			continue
		}
		g := shallow(s.Content[i+1])
		fam := shallow(g.Content[1])
		edit(fam)
		g.Content[1] = fam
		s.Content[i+1] = g
	}
	return s
}

// sections reads a job file's section: one section, or one per value of
// the parameter that varies (Across).
func (p *parser) sections(n *yaml.Node, path string) ([]*Section, error) {
	var game *yaml.Node
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "game" {
				game = n.Content[i+1]
			}
		}
	}
	if game == nil {
		s, err := p.section(n, path)
		if err != nil {
			return nil, err
		}
		return []*Section{s}, nil
	}
	if param, keys, vals, ok, err := p.familyAcross(game, yamlfile.Join(path, "game")); ok {
		if err != nil {
			return nil, err
		}
		if len(keys) > 0 {
			return p.familySections(n, path, param, keys, vals)
		}
	}
	key, values, err := p.across(game, yamlfile.Join(path, "game"))
	if err != nil {
		return nil, err
	}
	if key == "" {
		s, err := p.section(n, path)
		if err != nil {
			return nil, err
		}
		return []*Section{s}, nil
	}
	ac := &Across{Key: key}
	var out []*Section
	for _, v := range values {
		s, err := p.section(withParam(n, key, v), path)
		if err != nil {
			return nil, err
		}
		for i, a := range s.Show {
			if !slices.Contains(acrossAnalyses, a) {
				return nil, p.Errf(n, fmt.Sprintf("%s.show[%d]", path, i), "%s takes several values, so the section shows %s only (a row of the table per %s); give %s a section of its own, for one %s", key, strings.Join(acrossAnalyses, ", "), key, a, key)
			}
		}
		if s.Position != nil || s.Record != nil {
			return nil, p.Errf(n, path, "%s takes several values: a position or a record belongs to a section with one game", key)
		}
		label := acrossLabel(v)
		ac.Labels = append(ac.Labels, label)
		ac.Title = s.Title
		if s.Title != "" {
			s.Title += " (" + key + " = " + label + ")"
		}
		s.Across = ac
		out = append(out, s)
	}
	return out, nil
}
