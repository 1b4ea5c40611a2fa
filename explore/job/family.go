package job

import (
	"errors"
	"path/filepath"

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
