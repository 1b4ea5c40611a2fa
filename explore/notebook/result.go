package notebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// A result is what an analysis returns in a cell: a Starlark value that
// computes like plain data (a list of values, a table, a record of fields)
// and carries the engine's typed result, so that it displays through the
// Renderer like a section of a report.
type result interface {
	starlark.Value
	section() *job.SectionResult
}

// seqResult is a result that is a list: values, tables, P-positions,
// winning moves, weights. It indexes, iterates and has a length like a
// list; list(r) copies it into a plain list.
type seqResult struct {
	kind  string // the analysis, as job files name it
	sr    *job.SectionResult
	items *starlark.List
	attrs []field
}

// recResult is a result made of named fields: a period certificate, a
// Steiner system, a game graph.
type recResult struct {
	kind   string
	sr     *job.SectionResult
	fields []field
	text   string // String(), when not the fields
}

type field struct {
	name string
	v    starlark.Value
}

var (
	_ starlark.Sequence   = (*seqResult)(nil)
	_ starlark.Indexable  = (*seqResult)(nil)
	_ starlark.HasAttrs   = (*seqResult)(nil)
	_ starlark.Comparable = (*seqResult)(nil)
	_ starlark.HasAttrs   = (*recResult)(nil)
	_ starlark.Comparable = (*recResult)(nil)
)

func (r *seqResult) section() *job.SectionResult { return r.sr }
func (r *seqResult) String() string              { return r.items.String() }
func (r *seqResult) Type() string                { return strings.ReplaceAll(r.kind, "-", "_") }
func (r *seqResult) Freeze()                     { r.items.Freeze() }
func (r *seqResult) Truth() starlark.Bool        { return r.items.Len() > 0 }
func (r *seqResult) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: %s (use tuple(r) for a key)", r.Type())
}
func (r *seqResult) Has(x starlark.Value) (bool, error) { return r.items.Has(x) }
func (r *seqResult) Len() int                           { return r.items.Len() }
func (r *seqResult) Index(i int) starlark.Value         { return r.items.Index(i) }
func (r *seqResult) Iterate() starlark.Iterator         { return r.items.Iterate() }
func (r *seqResult) AttrNames() []string {
	names := append(fieldNames(r.attrs), "latex", "to_csv", "to_markdown")
	if r.drawable() {
		names = append(names, "plot")
	}
	return names
}

// drawable says whether the result has a figure: values, a table,
// weights (plot.go).
func (r *seqResult) drawable() bool {
	return r.sr != nil && (r.kind == "values" || r.kind == "table" || r.kind == "weights")
}
func (r *seqResult) Attr(n string) (starlark.Value, error) {
	if n == "latex" && r.sr != nil {
		return latexMethod(r), nil
	}
	if n == "to_csv" || n == "to_markdown" {
		return exportMethod(r, n), nil
	}
	if n == "plot" && r.drawable() {
		return starlark.NewBuiltin("plot", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				return nil, fmt.Errorf("plot: %s.plot() draws the result itself; it takes title, xlabel, ylabel, size and log", r.Type())
			}
			return builtinPlot(th, b, starlark.Tuple{r}, kwargs)
		}), nil
	}
	return fieldValue(r.attrs, n), nil
}

// CompareSameType compares the lists.
func (r *seqResult) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, r.items, y.(*seqResult).items, depth-1)
}

func (r *recResult) section() *job.SectionResult { return r.sr }
func (r *recResult) Type() string                { return strings.ReplaceAll(r.kind, "-", "_") }
func (r *recResult) Freeze()                     {}
func (r *recResult) Truth() starlark.Bool        { return true }
func (r *recResult) Hash() (uint32, error)       { return 0, fmt.Errorf("unhashable type: %s", r.Type()) }
func (r *recResult) AttrNames() []string {
	if r.sr == nil {
		return fieldNames(r.fields)
	}
	return append(fieldNames(r.fields), "latex")
}
func (r *recResult) Attr(n string) (starlark.Value, error) {
	if n == "latex" && r.sr != nil {
		return latexMethod(r), nil
	}
	return fieldValue(r.fields, n), nil
}

// LaTeXRenderer is a Renderer that also writes a result as LaTeX for a
// paper: r.latex() in a cell. cmd/nimbook's (reports.Bundler) gives the
// result's tables as tabular environments with booktabs rules.
type LaTeXRenderer interface {
	LaTeX(v any) (string, error)
}

// latexMethod is a result's latex(path=None): the session's
// LaTeXRenderer on the result, a string, or written to path (a .tex file
// of the notebook's folder) as to_csv writes (export.go).
func latexMethod(r result) *starlark.Builtin {
	return starlark.NewBuiltin("latex", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var path starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path?", &path); err != nil {
			return nil, err
		}
		s, _, _ := sessionOf(th)
		lr, ok := s.opts.Renderer.(LaTeXRenderer)
		if !ok {
			return nil, fmt.Errorf("latex: this session renders no LaTeX (run it in the nimbook kernel or nimbook run)")
		}
		tex, err := lr.LaTeX(r.section())
		if err != nil {
			return nil, fmt.Errorf("latex: %s", strings.TrimPrefix(err.Error(), "reports: "))
		}
		return writeOrReturn(th, "latex", path, ".tex", tex)
	})
}
func (r *recResult) String() string {
	if r.text != "" {
		return r.text
	}
	var b strings.Builder
	b.WriteString(r.Type())
	b.WriteByte('(')
	for i, f := range r.fields {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%s", f.name, f.v)
	}
	b.WriteByte(')')
	return b.String()
}

// CompareSameType compares the fields, for == and !=.
func (r *recResult) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*recResult)
	eq := len(r.fields) == len(o.fields)
	for i := 0; eq && i < len(r.fields); i++ {
		ok, err := starlark.EqualDepth(r.fields[i].v, o.fields[i].v, depth-1)
		if err != nil {
			return false, err
		}
		eq = ok && r.fields[i].name == o.fields[i].name
	}
	switch op {
	case syntax.EQL:
		return eq, nil
	case syntax.NEQ:
		return !eq, nil
	}
	return false, fmt.Errorf("%s results are not ordered", r.Type())
}

func fieldNames(fs []field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

func fieldValue(fs []field, name string) starlark.Value {
	for _, f := range fs {
		if f.name == name {
			return f.v
		}
	}
	return nil
}

// fromGo converts the engine's plain data (ints, slices of them, strings)
// into Starlark: slices become lists, or tuples when tuples is set (a
// position must be hashable to serve as a dict key or in a set).
func fromGo(v any, tuples bool) starlark.Value {
	switch v := v.(type) {
	case nil:
		return starlark.None
	case starlark.Value:
		return v
	case shownPosition:
		return v.v
	case bool:
		return starlark.Bool(v)
	case string:
		return starlark.String(v)
	case int:
		return starlark.MakeInt(v)
	case int64:
		return starlark.MakeInt64(v)
	case uint64:
		return starlark.MakeUint64(v)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		elems := make([]starlark.Value, rv.Len())
		for i := range elems {
			elems[i] = fromGo(rv.Index(i).Interface(), tuples)
		}
		if tuples {
			return starlark.Tuple(elems)
		}
		return starlark.NewList(elems)
	}
	return starlark.String(fmt.Sprint(v))
}

// listOf makes the outer list of a result whose items are positions.
func listOf(v any, positions bool) *starlark.List {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || (rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array) {
		return starlark.NewList(nil)
	}
	elems := make([]starlark.Value, rv.Len())
	for i := range elems {
		elems[i] = fromGo(rv.Index(i).Interface(), positions)
	}
	return starlark.NewList(elems)
}

// makeResult wraps the one analysis sr holds.
func makeResult(kind string, sr *job.SectionResult) (starlark.Value, error) {
	r := &sr.Results
	switch kind {
	case "values":
		return &seqResult{kind: kind, sr: sr, items: listOf(r.Values, false)}, nil
	case "weights":
		return &seqResult{kind: kind, sr: sr, items: listOf(r.Weights, false)}, nil
	case "distribution":
		return &seqResult{kind: kind, sr: sr, items: listOf(r.Distribution, false)}, nil
	case "table":
		return &seqResult{kind: kind, sr: sr, items: listOf(r.Table, false)}, nil
	case "moves":
		return &seqResult{kind: kind, sr: sr, items: listOf(r.Moves, true)}, nil
	case "p-positions":
		pp := r.PPositions
		if pp == nil {
			return nil, fmt.Errorf("no P-positions were computed")
		}
		attrs := []field{{"count", starlark.MakeUint64(pp.Count)}, {"of", starlark.MakeUint64(pp.Of)}, {"listed", starlark.Bool(pp.List != nil)}}
		return &seqResult{kind: kind, sr: sr, items: listOf(pp.List, true), attrs: attrs}, nil
	case "row-periods":
		var items []starlark.Value
		for _, rp := range r.RowPeriods {
			items = append(items, &recResult{kind: "row_period", fields: []field{
				{"row", starlark.MakeInt(rp.Row)}, {"period", starlark.MakeInt(rp.Period)}, {"start", starlark.MakeInt(rp.Start)}}})
		}
		return &seqResult{kind: kind, sr: sr, items: starlark.NewList(items)}, nil
	case "period":
		p := r.Period
		fs := []field{{"proven", starlark.Bool(p.Proven)}}
		if p.Proven || p.Method == job.MethodObserved {
			fs = append(fs, field{"preperiod", starlark.MakeInt(p.Preperiod)}, field{"period", starlark.MakeInt(p.Period)})
		}
		fs = append(fs, field{"checked_to", starlark.MakeInt(p.CheckedTo)})
		if p.Method != "" {
			fs = append(fs, field{"method", starlark.String(p.Method)})
		}
		return &recResult{kind: kind, sr: sr, fields: fs}, nil
	case "rare":
		rr := r.Rare
		fs := []field{{"mask", starlark.MakeUint64(rr.Mask)}, {"type", starlark.String(rr.Type)}}
		if rr.T != nil {
			fs = append(fs, field{"t", starlark.MakeInt(*rr.T)})
		}
		fs = append(fs, field{"count", starlark.MakeInt(rr.Count)})
		if rr.Positions != nil {
			fs = append(fs, field{"positions", listOf(rr.Positions, false)})
		}
		fs = append(fs, field{"checked_to", starlark.MakeInt(rr.CheckedTo)})
		return &recResult{kind: kind, sr: sr, fields: fs}, nil
	case "steiner":
		st := r.Steiner
		fs := []field{{"holds", starlark.Bool(st.Holds)}}
		if st.Holds {
			fs = append(fs, field{"t", starlark.MakeInt(st.T)}, field{"k", starlark.MakeInt(st.K)},
				field{"v", starlark.MakeInt(st.V)}, field{"lambda", starlark.MakeUint64(st.Lambda)})
		}
		return &recResult{kind: kind, sr: sr, fields: fs}, nil
	case "code":
		c := r.Code
		return &recResult{kind: kind, sr: sr, fields: []field{
			{"length", starlark.MakeInt(c.Length)}, {"dimension", starlark.MakeInt(c.Dimension)},
			{"words", starlark.MakeUint64(c.Words)}, {"min_distance", starlark.MakeInt(c.MinDistance)},
			{"method", starlark.String(c.Method)}}}, nil
	case "graph":
		g := r.Graph
		kern := make([]starlark.Value, len(g.Kernel))
		for i, k := range g.Kernel {
			kern[i] = starlark.String(k)
		}
		return &recResult{kind: kind, sr: sr, fields: []field{
			{"nodes", starlark.MakeInt(g.Nodes)}, {"edges", starlark.MakeInt(g.Edges)},
			{"kernel", starlark.NewList(kern)}, {"dot", starlark.String(g.DOT)}},
			text: fmt.Sprintf("graph(%d positions, %d moves, %d P-positions)", g.Nodes, g.Edges, len(g.Kernel))}, nil
	case "record":
		rec := r.Record
		var moves []starlark.Value
		for _, m := range rec.Moves {
			fs := []field{{"player", starlark.MakeInt(m.Player)}, {"from", fromGo(m.From, true)}, {"to", fromGo(m.To, true)},
				{"legal", starlark.Bool(m.Legal)}, {"before", starlark.String(m.Before)}, {"after", starlark.String(m.After)},
				{"mistake", starlark.Bool(m.Mistake)}}
			if m.Missed != nil {
				fs = append(fs, field{"missed", listOf(m.Missed, true)})
			}
			moves = append(moves, &recResult{kind: "move", fields: fs})
		}
		return &seqResult{kind: kind, sr: sr, items: starlark.NewList(moves), attrs: []field{
			{"mistakes", starlark.MakeInt(rec.Mistakes)}, {"winner", starlark.MakeInt(rec.Winner)}, {"illegal", starlark.MakeInt(rec.Illegal)}}}, nil
	case "plot":
		return &recResult{kind: kind, sr: sr, text: fmt.Sprintf("plot of %s", r.Game)}, nil
	case "genus":
		return genusResult(sr), nil
	case "quotient":
		return quotientResult(sr), nil
	}
	return nil, fmt.Errorf("no result form for %s", kind)
}

// bundle turns a value into a MIME bundle: the Renderer's, over a plain
// text (and, for results, JSON) fallback. Writing the text counts in th's
// step budget and stops with th (the error is then ErrStopped).
func (s *Session) bundle(th *starlark.Thread, v starlark.Value) (*kernel.Display, error) {
	text, err := displayText(th, v)
	if err != nil {
		return nil, err
	}
	d := &kernel.Display{Data: map[string]any{"text/plain": text}, Metadata: map[string]any{}}
	var sr *job.SectionResult
	switch v := v.(type) {
	case result:
		sr = v.section()
	case *Family:
		d.Data["text/plain"] = v.describe()
	case *Game:
		d.Data["text/plain"] = v.describe()
	case *plotValue:
		return v.bundle()
	case *surveyValue:
		if fr, ok := s.opts.Renderer.(FigureRenderer); ok {
			figs, err := fr.Figures(v.r)
			if err != nil {
				return nil, err
			}
			_, _, out := sessionOf(th)
			for _, f := range figs {
				out.Display(f)
			}
		}
		return v.bundle(s, d), nil
	}
	if sr == nil {
		return d, nil
	}
	if j, ok := resultJSON(sr); ok {
		d.Data["application/json"] = j
	}
	if s.opts.Renderer != nil {
		rich, err := s.opts.Renderer.Bundle(sr)
		if err == nil && rich != nil {
			for k, x := range rich.Data {
				d.Data[k] = x
			}
			for k, x := range rich.Metadata {
				d.Metadata[k] = x
			}
		}
		if sr.Spec != nil && slices.Contains(sr.Spec.Show, "graph") {
			if err := withGraphLegend(sr, d); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// maxDisplay bounds the text of a cell's result: a list of 10000 times the
// same long string is small in memory, not on a screen.
const maxDisplay = 1 << 20

// maxDisplayDepth bounds the nesting a result shows: deeper lists, tuples,
// dicts and sets show as […] (a list nested 400 000 deep is one line of
// brackets nobody reads).
const maxDisplayDepth = 100

// displayText is the text/plain of a value: its repr, nested at most
// maxDisplayDepth deep and cut after about maxDisplay characters with a
// note of how long the value is. The writing takes time linear in the
// text, counts in th's steps and stops with th (th nil: no budget).
func displayText(th *starlark.Thread, v starlark.Value) (string, error) {
	opts := sandbox.TextOptions{MaxDepth: maxDisplayDepth, MaxLen: maxDisplay}
	if th != nil {
		opts.Check = sandbox.ThreadCheck(th)
	}
	w := v
	if r, ok := v.(*seqResult); ok {
		w = r.items // the same text, written within the bounds
	}
	text, cut, err := sandbox.Text(w, opts)
	if err != nil || !cut {
		return text, err
	}
	switch x := w.(type) {
	case starlark.String:
		return text + fmt.Sprintf("  (%d characters)", len(x)), nil
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set:
		return text + fmt.Sprintf("  (%d items)", starlark.Len(x)), nil
	}
	return text, nil
}

// shortText is v's text for help and inspection: its beginning, which
// says what it is, at most about 2000 characters and 20 levels deep.
func shortText(v starlark.Value) string {
	text, _, _ := sandbox.Text(v, sandbox.TextOptions{MaxDepth: 20, MaxLen: 2000})
	return text
}

// resultJSON is the JSON object of the results (SPEC.md's keys), for
// application/json; plots add nothing to it.
func resultJSON(sr *job.SectionResult) (any, bool) {
	b, err := json.Marshal(sr.Results)
	if err != nil {
		return nil, false
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // values past 2^53 stay exact
	if err := dec.Decode(&m); err != nil || len(m) == 0 {
		return nil, false
	}
	return m, true
}

// jsonNumber keeps big ints exact in JSON.
type jsonNumber = json.Number
