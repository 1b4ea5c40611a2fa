package job

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
	"github.com/nimbook/nimbook/explore/nimber"
)

// Nimber tables in job files, registered with package family: a key of a
// section of its own (nimbers: {op: product, size: 16}), not of game:, as
// the table is of an operation, not of a game. Nothing else in the
// package names it.

// nimbersFamily is the registration of nimber tables.
var nimbersFamily = &family.Family{
	Key:   "nimbers",
	Order: 200,
	Text: family.Texts("the nim-addition or nim-multiplication table of 0..size-1",
		"la table de la nim-addition ou de la nim-multiplication de 0..size-1"),
	Params: []family.Param{
		{Key: "op", Kind: family.String, Default: nimber.OpProduct, Example: nimber.OpProduct,
			Text: family.Texts("the operation: sum (nim-addition) or product (nim-multiplication)", "l’opération : sum (nim-addition) ou product (nim-multiplication)")},
		{Key: "size", Kind: family.Int, Min: 1, Max: maxNimbers, What: "the table size", Example: "16",
			Text: family.Texts("the table shows 0..size-1", "la table montre 0..size-1")},
	},
	Analyses:  []string{"table", "plot"},
	Signature: "nimbers: {op: product, size: 16}",
	Job: &jobFamily{
		parse: parseNimbers,
		position: func(p *parser, _ *Section, n *yaml.Node, path string) (any, error) {
			return nil, p.Errf(n, path, "a nimbers section has no position")
		},
		example: []any{1, 3, 5, 7},
		what:    "the heaps",
		section: true,
		spec:    (*NimbersSpec)(nil),
	},
}

func init() { family.Register(nimbersFamily) }

// maxNimbers bounds the side of a nimber table.
const maxNimbers = 4096

// NimbersSpec asks for a nim addition or multiplication table.
type NimbersSpec struct {
	Op   string // sum or product
	Size int
}

func (n *NimbersSpec) params(p map[string]any) { p["op"], p["size"] = n.Op, n.Size }
func (n *NimbersSpec) clone() GameSpec         { c := *n; return &c }

func (n *NimbersSpec) run(r *runner) error { return r.nimbers() }
func (n *NimbersSpec) memory(r *runner) int64 {
	size := int64(n.Size)
	return sectionOverhead + size*size*8 + size*24
}
func (n *NimbersSpec) cost() Cost {
	s := int64(n.Size)
	return Cost{Positions: s * s, Steps: float64(s * s), Memory: 8 * s * s}
}

// Describe words the table for reports; it has no play convention.
func (n *NimbersSpec) Describe(tx Tx, _ string, _ *Results) (string, bool) {
	op := nimber.OpSum
	if n.Op == nimber.OpProduct {
		op = nimber.OpProduct
	}
	return tx("game.nimbers."+op, map[string]any{"Size": fmt.Sprint(n.Size)}), false
}

// TableTexts are the corner (the operation) and the introduction of the
// table in reports.
func (n *NimbersSpec) TableTexts(tx Tx) (corner, intro string) {
	corner = tx("table.corner.product", nil)
	if n.Op == "sum" {
		corner = tx("table.corner.sum", nil)
	}
	return corner, tx("table.intro.nimbers", nil)
}

// ValueTable: in a nimbers table 0 is a value, not a P-position.
func (n *NimbersSpec) ValueTable() bool { return true }

// Nimbers returns the section's nimber table, or nil.
func (s *Section) Nimbers() *NimbersSpec { n, _ := s.Game.(*NimbersSpec); return n }

// parseNimbers reads a table's operation and size.
func parseNimbers(p *parser, m *yamlfile.Mapping, path string) (GameSpec, error) {
	ns := &NimbersSpec{}
	var err error
	if ns.Op, err = m.Str("op", nimber.OpProduct); err != nil {
		return nil, err
	}
	if ns.Op, err = nimber.ParseOp(ns.Op); err != nil {
		return nil, p.Errf(m.Nodes["op"], yamlfile.Join(path, "op"), "%v", err)
	}
	if !m.Has("size") {
		return nil, p.Errf(m.Node, yamlfile.Join(path, "size"), "missing: the table shows 0..size-1, e.g. size: 16")
	}
	if ns.Size, err = m.Integer("size", 16, 1, maxNimbers, "the table size"); err != nil {
		return nil, err
	}
	return ns, nil
}

func (r *runner) nimbers() error {
	ns := r.s.Nimbers()
	op, name := nimber.Mul, "nim-product"
	if ns.Op == "sum" {
		op, name = nimber.Add, "nim-sum"
	}
	r.res.Game = fmt.Sprintf("%s table of 0..%d", name, ns.Size-1)
	size := int64(ns.Size)
	if size*size > r.lim.Positions {
		return fmt.Errorf("a %d×%d table has %d cells, more than the limit of %d positions; %s", size, size, size*size, r.lim.Positions, limitHint)
	}
	if err := r.checkMemory(fmt.Sprintf("a %d×%d %s table", size, size, name), size*size*8+size*24); err != nil {
		return err
	}
	// Row by row, so that a cancellation is seen within a row: a product
	// table of 4096² takes about a second.
	flat := make([]uint64, ns.Size*ns.Size)
	t := make([][]uint64, ns.Size)
	prog := budget.From(r.ctx)
	prog.Start(name+" table", size)
	for a := range t {
		if err := budget.Err(r.ctx); err != nil {
			return err
		}
		prog.Set(int64(a))
		t[a] = flat[a*ns.Size : (a+1)*ns.Size : (a+1)*ns.Size]
		for b := range t[a] {
			t[a][b] = op(uint64(a), uint64(b))
		}
	}
	r.res.Table = t
	return nil
}
