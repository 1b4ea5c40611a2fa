package job

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
)

// FamilySpec is a game of a registered family (package family) and its
// checked parameters, defaults filled in.
type FamilySpec struct {
	Family *family.Family
	Params family.Params
	// Written holds File parameters as the job file wrote them; Params
	// holds them joined to the job file's folder.
	Written map[string]string
}

func (f *FamilySpec) params(p map[string]any) {
	for _, q := range f.Family.Params {
		v, ok := f.Params[q.Key]
		if !ok || (q.OmitZero && v == 0) {
			continue
		}
		if w, ok := f.Written[q.Key]; ok {
			v = w
		}
		if w, ok := f.Written[q.Key+".file"]; ok { // a Map's file entry
			m := maps.Clone(v.(map[string]any))
			m["file"] = w
			v = m
		}
		p[q.Key] = v
	}
}

func (f *FamilySpec) clone() GameSpec {
	c := *f
	c.Params = f.Params.Clone()
	return &c
}

// Registered returns the section's game of a registered family, or nil.
func (s *Section) Registered() *FamilySpec { f, _ := s.Game.(*FamilySpec); return f }

// readParams reads the parameters of a heap rule or a registered family,
// each by its kind and bounds; File parameters are joined to the job
// file's folder and kept as written in written.
func (p *parser) readParams(qs []heap.Param, fm *yamlfile.Mapping, fp string) (heap.Params, map[string]string, error) {
	out := heap.Params{}
	var written map[string]string
	for _, q := range qs {
		n, ok := fm.Nodes[q.Key]
		if !ok {
			continue
		}
		v, err := p.param(q, n, yamlfile.Join(fp, q.Key))
		if err != nil {
			return nil, nil, err
		}
		if q.Kind == heap.File {
			if written == nil {
				written = map[string]string{}
			}
			written[q.Key] = v.(string)
			if !filepath.IsAbs(v.(string)) {
				v = filepath.Join(filepath.Dir(p.File), v.(string))
			}
		}
		// a Map's file entry (node-kayles: {graph: {file: g.dot}}) is
		// relative to the job file too
		if m, ok := v.(map[string]any); ok && q.Kind == heap.Map {
			if f, ok := m["file"].(string); ok && !filepath.IsAbs(f) {
				if written == nil {
					written = map[string]string{}
				}
				written[q.Key+".file"] = f
				m["file"] = filepath.Join(filepath.Dir(p.File), f)
			}
		}
		out[q.Key] = v
	}
	return out, written, nil
}

// paramErr locates the error of a family's or rule's checks at the key it
// names, else at the game.
func (p *parser) paramErr(err error, fm *yamlfile.Mapping, gameNode, famNode *yaml.Node, fp string) error {
	pe := &heap.ParamError{Msg: err.Error()}
	errors.As(err, &pe)
	node, path := gameNode, fp
	if pe.Key != "" {
		node, path = famNode, yamlfile.Join(fp, pe.Key)
		if n, ok := fm.Nodes[pe.Key]; ok {
			node = n
		}
	}
	return p.Errf(node, path, "%s", pe.Msg)
}

// familyGame reads the game of a registered family: its parameters, then
// its checks (a Starlark game's file loaded and its function called), so
// that a bad value is reported with its line before any work starts.
func (p *parser) familyGame(s *Section, f *family.Family, fm *yamlfile.Mapping, gameNode, famNode *yaml.Node, fp string) error {
	if err := fm.Check(append(f.Keys(), "play")...); err != nil {
		return err
	}
	params, written, err := p.readParams(f.Params, fm, fp)
	if err != nil {
		return err
	}
	if err := f.CheckParams(params); err != nil {
		return p.paramErr(err, fm, gameNode, famNode, fp)
	}
	s.Game = &FamilySpec{Family: f, Params: params, Written: written}
	return nil
}

// familyAcross finds the entries of a registered family's ranged Map
// parameter (a Starlark game's params) given as ranges "A..B": at most
// two, in the order the file writes them, each with a node per value.
// ok is false when the game is not of a registered family.
func (p *parser) familyAcross(game *yaml.Node, path string) (param string, keys []string, values [][]*yaml.Node, ok bool, err error) {
	if game.Kind != yaml.MappingNode || len(game.Content) != 2 {
		return "", nil, nil, false, nil
	}
	f, found := family.Lookup(game.Content[0].Value)
	fn := game.Content[1]
	if !found || fn.Kind != yaml.MappingNode {
		return "", nil, nil, false, nil
	}
	fp := yamlfile.Join(path, f.Key)
	for i := 0; i+1 < len(fn.Content); i += 2 {
		k, v := fn.Content[i].Value, fn.Content[i+1]
		q := f.Param(k)
		if q == nil || !slices.Contains(f.Ranged, k) {
			continue
		}
		if q.Kind == heap.Ints && v.Kind == yaml.SequenceNode {
			// a list with one or two elements ranges (cram: {board: [4, "4..10"]})
			ks, vals, err := p.rangedList(v, yamlfile.Join(fp, k), k)
			if err != nil {
				return "", nil, nil, true, err
			}
			if ks != nil {
				return k, ks, vals, true, nil
			}
			continue
		}
		if q.Kind != heap.Map {
			continue // only a Map's entries and lists range, for now
		}
		if v.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			ek, ev := v.Content[j].Value, v.Content[j+1]
			if ev.Kind == yaml.SequenceNode { // grid: [3, "1..30"]
				ks, vals, err := p.rangedList(ev, yamlfile.Join(yamlfile.Join(fp, k), ek), ek)
				if err != nil {
					return "", nil, nil, true, err
				}
				if len(keys)+len(ks) > 2 {
					return "", nil, nil, true, p.Errf(ev, yamlfile.Join(fp, k), "%s and %s all range; two may range in a section (a table), more in a survey (nimbook survey)", strings.Join(keys, ", "), strings.Join(ks, ", "))
				}
				if ks != nil {
					param = k
					keys = append(keys, ks...)
					values = append(values, vals...)
				}
				continue
			}
			if ev.Kind != yaml.ScalarNode || !reRange.MatchString(ev.Value) {
				continue
			}
			ep := yamlfile.Join(yamlfile.Join(fp, k), ek)
			m := reRange.FindStringSubmatch(ev.Value)
			lo, err1 := strconv.Atoi(m[1])
			hi, err2 := strconv.Atoi(m[2])
			if err1 != nil || err2 != nil || lo > hi {
				return "", nil, nil, true, p.Errf(ev, ep, "want a range A..B with A ≤ B, not %s", yamlfile.Describe(ev))
			}
			if hi-lo+1 > MaxAcross {
				return "", nil, nil, true, p.Errf(ev, ep, "%s gives %d values, more than the %d of one table; a survey (nimbook survey) runs more", ev.Value, hi-lo+1, MaxAcross)
			}
			if len(keys) == 2 {
				return "", nil, nil, true, p.Errf(ev, ep, "%s, %s and %s all range; two may range in a section (a table), more in a survey (nimbook survey)", keys[0], keys[1], ek)
			}
			var vals []*yaml.Node
			for x := lo; x <= hi; x++ {
				vals = append(vals, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x), Line: ev.Line, Column: ev.Column})
			}
			param = k
			keys = append(keys, ek)
			values = append(values, vals)
		}
	}
	if len(keys) == 2 && len(values[0])*len(values[1]) > MaxAcrossCells {
		return "", nil, nil, true, p.Errf(fn, fp, "%s × %s make %d games, more than the %d of one table; narrow the ranges, or run a survey (nimbook survey)", keys[0], keys[1], len(values[0])*len(values[1]), MaxAcrossCells)
	}
	return param, keys, values, true, nil
}

// rangedList finds the elements of a list (named name) that are ranges
// "A..B", at most two: for each, its key (m or n in a pair, name[k] in a
// longer list) and a copy of the list per value, that
// element replaced (the copy's Value the value, for titles and tables, its
// Anchor the list's name, for withEntries). None: nil keys.
func (p *parser) rangedList(list *yaml.Node, path, name string) ([]string, [][]*yaml.Node, error) {
	var at []int
	for i, e := range list.Content {
		if e.Kind == yaml.ScalarNode && reRange.MatchString(e.Value) {
			at = append(at, i)
		}
	}
	if len(at) > 2 {
		return nil, nil, p.Errf(list, path, "%d elements range; two may range in a section (a table), more in a survey (nimbook survey)", len(at))
	}
	var keys []string
	var values [][]*yaml.Node
	for _, i := range at {
		ev := list.Content[i]
		m := reRange.FindStringSubmatch(ev.Value)
		lo, err1 := strconv.Atoi(m[1])
		hi, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil || lo > hi {
			return nil, nil, p.Errf(ev, path, "want a range A..B with A ≤ B, not %s", yamlfile.Describe(ev))
		}
		if hi-lo+1 > MaxAcross {
			return nil, nil, p.Errf(ev, path, "%s gives %d values, more than the %d of one table; a survey (nimbook survey) runs more", ev.Value, hi-lo+1, MaxAcross)
		}
		// The element's name, not the list's: a grid's or a board's
		// [m, n], else name[k] (grid = 7 would read as the whole grid).
		key := name
		switch {
		case len(list.Content) == 2:
			key = []string{"m", "n"}[i]
		case len(list.Content) > 2:
			key = fmt.Sprintf("%s[%d]", name, i+1)
		}
		var vals []*yaml.Node
		for x := lo; x <= hi; x++ {
			c := *list
			c.Content = append([]*yaml.Node(nil), list.Content...)
			c.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x), Line: ev.Line, Column: ev.Column}
			c.Value, c.Anchor = strconv.Itoa(x), name
			vals = append(vals, &c)
		}
		keys = append(keys, key)
		values = append(values, vals)
	}
	return keys, values, nil
}

// mergeList returns a copy of the list orig with the ranged elements that
// the copies in vals replaced (each vals list differs from orig where it
// ranges).
func mergeList(orig *yaml.Node, vals []*yaml.Node) *yaml.Node {
	c := *orig
	c.Content = append([]*yaml.Node(nil), orig.Content...)
	for _, v := range vals {
		for i, e := range orig.Content {
			if i < len(v.Content) && v.Content[i].Value != e.Value {
				c.Content[i] = v.Content[i]
			}
		}
	}
	return &c
}

// listVals are the values in vals that replace elements of the list name.
func listVals(name string, vals []*yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	for _, v := range vals {
		if v.Kind == yaml.SequenceNode && v.Anchor == name {
			out = append(out, v)
		}
	}
	return out
}

// MaxAcrossCells bounds the games of a section whose two parameters
// range: the cells of one table.
const MaxAcrossCells = 1024

// acrossFamilyAnalyses are what a section of a registered family across
// its parameters may show: a value and an outcome per game, and figures.
var acrossFamilyAnalyses = []string{"value", "outcome", "plot"}

// withEntries returns a copy of a section's node whose game's Map
// parameter param holds vals under keys; the other nodes are shared.
func withEntries(section *yaml.Node, param string, keys []string, vals []*yaml.Node) *yaml.Node {
	return withFamily(section, func(fam *yaml.Node) {
		for j := 0; j+1 < len(fam.Content); j += 2 {
			if fam.Content[j].Value != param {
				continue
			}
			if lv := listVals(param, vals); lv != nil { // the list itself ranges
				fam.Content[j+1] = mergeList(fam.Content[j+1], lv)
				continue
			}
			m := shallow(fam.Content[j+1])
			for e := 0; e+1 < len(m.Content); e += 2 {
				if lv := listVals(m.Content[e].Value, vals); lv != nil {
					m.Content[e+1] = mergeList(m.Content[e+1], lv)
				} else if k := slices.Index(keys, m.Content[e].Value); k >= 0 {
					m.Content[e+1] = vals[k]
				}
			}
			fam.Content[j+1] = m
		}
	})
}

// familySections reads a section of a registered family whose params
// range: a section per value (per pair of values, the first key's
// outermost), sharing an Across.
func (p *parser) familySections(n *yaml.Node, path, param string, keys []string, values [][]*yaml.Node) ([]*Section, error) {
	ac := &Across{Key: keys[0]}
	for _, v := range values[0] {
		ac.Labels = append(ac.Labels, v.Value)
	}
	combos := [][]*yaml.Node{}
	if len(keys) == 1 {
		for _, v := range values[0] {
			combos = append(combos, []*yaml.Node{v})
		}
	} else {
		ac.Key2 = keys[1]
		for _, v := range values[1] {
			ac.Labels2 = append(ac.Labels2, v.Value)
		}
		for _, a := range values[0] {
			for _, b := range values[1] {
				combos = append(combos, []*yaml.Node{a, b})
			}
		}
	}
	var out []*Section
	for _, c := range combos {
		s, err := p.section(withEntries(n, param, keys, c), path)
		if err != nil {
			return nil, err
		}
		for i, a := range s.Show {
			if !slices.Contains(acrossFamilyAnalyses, a) {
				return nil, p.Errf(n, fmt.Sprintf("%s.show[%d]", path, i), "%s takes several values, so the section shows %s only (a table across them); give %s a section of its own, for one game", strings.Join(keys, " and "), strings.Join(acrossFamilyAnalyses, ", "), a)
			}
		}
		labels := make([]string, len(keys))
		for i, k := range keys {
			labels[i] = k + " = " + c[i].Value
		}
		ac.Title = s.Title
		if s.Title != "" {
			s.Title += " (" + strings.Join(labels, ", ") + ")"
		}
		s.Across = ac
		out = append(out, s)
	}
	// One solver for the range (its sections' games given by their
	// moves); with two keys, one per value of the first.
	per := len(out)
	if len(keys) > 1 {
		per = len(values[1])
	}
	var shared *sharedSolver
	clock := newRangeClock()
	for i, s := range out {
		if i%per == 0 {
			shared = &sharedSolver{left: per, clock: clock}
		}
		s.shared = shared
		clock.members[s] = i
	}
	return out, nil
}
