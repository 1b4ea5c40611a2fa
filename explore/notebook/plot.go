package notebook

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strings"

	"go.starlark.net/starlark"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/plots"
)

// A plot takes matplotlib's keywords: g.plot(30, title="Kayles",
// xlabel="heap", ylabel="g(n)", size=(6, 4), log="y"), the same on the
// module-level plot(r, ...) of a result (values, table, weights, a plot)
// or of plain numbers, plot(ys) or plot(xs, ys). size is (width, height)
// in inches, as matplotlib's figsize; log is "x", "y" or "xy" (True is
// "y"), drawn by gonum's plot.LogScale with plot.LogTicks. A log axis has
// no place for 0 or a negative number: those points are skipped, as
// matplotlib masks them, and the figure's caption says how many (a
// Grundy value 0 is a P-position: plot without log to see them). Without
// any of these keywords a family's plot() is the report's figure, drawn
// by the session's Renderer as before.

// styleKeys are the keywords of a plot's style.
var styleKeys = []string{"title", "xlabel", "ylabel", "size", "log"}

// Bounds of size=, in inches: a figure a page or a screen holds.
const (
	minInches = 1
	maxInches = 40
)

// takeStyle reads the style keywords of the plot call fn out of kwargs;
// rest are the others. st is nil when none was given.
func takeStyle(fn string, kwargs []starlark.Tuple) (st *plots.Style, rest []starlark.Tuple, err error) {
	for _, kv := range kwargs {
		k := string(kv[0].(starlark.String))
		v := kv[1]
		isStyle := false
		for _, s := range styleKeys {
			isStyle = isStyle || s == k
		}
		if !isStyle {
			rest = append(rest, kv)
			continue
		}
		if st == nil {
			st = &plots.Style{}
		}
		if v == starlark.None {
			continue
		}
		switch k {
		case "title", "xlabel", "ylabel":
			s, ok := starlark.AsString(v)
			if !ok {
				return nil, nil, fmt.Errorf("%s: %s must be a string, not %s", fn, k, v.Type())
			}
			switch k {
			case "title":
				st.Title = s
			case "xlabel":
				st.X = s
			default:
				st.Y = s
			}
		case "size":
			w, h, err := inches(fn, v)
			if err != nil {
				return nil, nil, err
			}
			st.Width, st.Height = w, h
		case "log":
			switch v := v.(type) {
			case starlark.Bool:
				st.LogY = bool(v)
			case starlark.String:
				switch string(v) {
				case "x":
					st.LogX = true
				case "y":
					st.LogY = true
				case "xy", "yx":
					st.LogX, st.LogY = true, true
				default:
					return nil, nil, fmt.Errorf("%s: log=%s: write log=\"x\", \"y\" or \"xy\" (True is \"y\")", fn, v)
				}
			default:
				return nil, nil, fmt.Errorf("%s: log must be \"x\", \"y\", \"xy\" or True, not %s", fn, v.Type())
			}
		}
	}
	return st, rest, nil
}

// inches reads size=(width, height) in inches.
func inches(fn string, v starlark.Value) (vg.Length, vg.Length, error) {
	bad := fmt.Errorf("%s: size is (width, height) in inches, as matplotlib's figsize, e.g. size=(6, 4); got %s", fn, v)
	seq, ok := v.(starlark.Indexable)
	if !ok || isString(v) || seq.Len() != 2 {
		return 0, 0, bad
	}
	var out [2]vg.Length
	for i := range out {
		f, ok := starlark.AsFloat(seq.Index(i))
		if !ok {
			return 0, 0, bad
		}
		if math.IsNaN(f) || f < minInches || f > maxInches {
			return 0, 0, fmt.Errorf("%s: size=%s: each side from %d to %d inches", fn, v, minInches, maxInches)
		}
		out[i] = vg.Length(f) * vg.Inch
	}
	return out[0], out[1], nil
}

// plotValue is a figure drawn with a style: of an analysis (sr, what it
// draws: values, table, weights or graph) or of plain points.
type plotValue struct {
	sr     *job.SectionResult
	what   string // values, table, weights, graph, points or cells
	xs, ys []float64
	cells  [][]uint64 // a heatmap's rows (what == "cells")
	first  [2]int     // the numbers of its first row and column
	style  plots.Style
}

var _ starlark.HasAttrs = (*plotValue)(nil)

func (p *plotValue) String() string {
	if p.sr != nil {
		return "plot of " + p.sr.Results.Game
	}
	if p.what == "cells" {
		return fmt.Sprintf("heatmap of %d rows", len(p.cells))
	}
	return fmt.Sprintf("plot of %d points", len(p.ys))
}
func (p *plotValue) Type() string          { return "plot" }
func (p *plotValue) Freeze()               {}
func (p *plotValue) Truth() starlark.Bool  { return true }
func (p *plotValue) Hash() (uint32, error) { return 0, errors.New("unhashable type: plot") }
func (p *plotValue) AttrNames() []string   { return []string{"log", "size", "title", "xlabel", "ylabel"} }

// Attr gives the figure's style back, as it was asked.
func (p *plotValue) Attr(name string) (starlark.Value, error) {
	s := p.style
	switch name {
	case "title":
		return starlark.String(s.Title), nil
	case "xlabel":
		return starlark.String(s.X), nil
	case "ylabel":
		return starlark.String(s.Y), nil
	case "log":
		return starlark.String(map[[2]bool]string{{true, true}: "xy", {true, false}: "x", {false, true}: "y"}[[2]bool{s.LogX, s.LogY}]), nil
	case "size":
		if s.Width == 0 {
			return starlark.None, nil
		}
		return starlark.Tuple{starlark.Float(s.Width / vg.Inch), starlark.Float(s.Height / vg.Inch)}, nil
	}
	return nil, nil
}

// withStyle is p restyled: the keywords given replace p's.
func (p *plotValue) withStyle(st plots.Style) *plotValue {
	q := *p
	if st.Title != "" {
		q.style.Title = st.Title
	}
	if st.X != "" {
		q.style.X = st.X
	}
	if st.Y != "" {
		q.style.Y = st.Y
	}
	if st.Width > 0 {
		q.style.Width, q.style.Height = st.Width, st.Height
	}
	q.style.LogX = q.style.LogX || st.LogX
	q.style.LogY = q.style.LogY || st.LogY
	return &q
}

// styledPlot is the figure of what an analysis sr computed, in style st.
func styledPlot(sr *job.SectionResult, what string, st plots.Style) (*plotValue, error) {
	p := &plotValue{sr: sr, what: what, style: st}
	if _, _, _, _, err := p.draw(); err != nil {
		return nil, err
	}
	return p, nil
}

// firsts are the numbers of the first row and column of sr's values.
func firsts(sr *job.SectionResult) (int, int) {
	var f [2]int
	if sp := sr.Spec; sp != nil {
		if fr, ok := nbFamilies[sp.Family].(firster); ok {
			f = fr.firsts(sp)
		}
	}
	for i := 0; i < 2 && i < len(sr.Results.First); i++ {
		f[i] = sr.Results.First[i]
	}
	return f[0], f[1]
}

// draw draws the figure: gonum's plot, its size, and how many points a
// log axis skipped.
func (p *plotValue) draw() (*plot.Plot, vg.Length, vg.Length, int, error) {
	st := p.style
	noLog := func(what string) error {
		if st.LogX || st.LogY {
			return fmt.Errorf("plot: log= draws values on a logarithmic axis; %s has none (drop log=)", what)
		}
		return nil
	}
	var fig *plot.Plot
	var err error
	skipped := 0
	w, h := plots.Width, plots.Height
	switch p.what {
	case "points":
		fig, skipped, err = plots.Points(p.xs, p.ys, st)
	case "values":
		r := &p.sr.Results
		first, _ := firsts(p.sr)
		defaults := plots.Style{Title: "Grundy values", X: "n", Y: "value", LogX: st.LogX, LogY: st.LogY}
		if st.LogX || st.LogY {
			xs := make([]float64, len(r.Values))
			ys := make([]float64, len(r.Values))
			for i, v := range r.Values {
				xs[i], ys[i] = float64(first+i), float64(v)
			}
			fig, skipped, err = plots.Points(xs, ys, defaults)
		} else {
			fig, err = plots.Values(r.Values, first, r.Period, plots.Labels{Title: defaults.Title, X: defaults.X, Y: defaults.Y})
		}
	case "cells":
		if err = noLog("a heatmap"); err == nil {
			fig, err = plots.Heatmap(p.cells, p.first[0], p.first[1], true, plots.Labels{Title: "Values, 0 marked ×", X: "column", Y: "row"})
			w, h = plots.SquareHeight, plots.SquareHeight
		}
	case "weights":
		if err = noLog("a bar chart of counts"); err == nil {
			fig, err = plots.Bars(p.sr.Results.Weights, plots.Labels{Title: "P-positions by number of heads", X: "heads", Y: "P-positions"})
		}
	case "table":
		t, ok := p.sr.Results.Table.([][]uint64)
		if !ok {
			return nil, 0, 0, 0, errors.New("plot: this table has more than two dimensions: plot a slice of it")
		}
		if err = noLog("a table's heatmap"); err == nil {
			r0, c0 := firsts(p.sr)
			mark := true
			if p.sr.Spec != nil {
				if m, ok := nbFamilies[p.sr.Spec.Family].(tableMarker); ok {
					mark = m.marksP()
				}
			}
			fig, err = plots.Heatmap(t, r0, c0, mark, plots.Labels{Title: "Table, P-positions marked ×", X: "b", Y: "a"})
			w, h = plots.SquareHeight, plots.SquareHeight
		}
	case "graph":
		if p.sr.Results.Graph == nil {
			return nil, 0, 0, 0, errors.New("plot: no game graph was computed")
		}
		if err = noLog("a game graph"); err == nil {
			fig, err = plots.Graph(p.sr.Results.Graph, plots.Labels{Legend: true})
			w, h = plots.SquareHeight, plots.SquareHeight
		}
	default:
		return nil, 0, 0, 0, fmt.Errorf("plot: %s results have no figure", p.what)
	}
	if err != nil {
		return nil, 0, 0, 0, fmt.Errorf("plot: %s", strings.TrimPrefix(strings.TrimPrefix(err.Error(), "plots: "), "plot: "))
	}
	st.Apply(fig)
	w, h = st.Size(w, h)
	return fig, w, h, skipped, nil
}

// bundle draws the figure as a notebook shows it: SVG, PNG (an untrusted
// notebook shows it) and PDF (nbconvert's LaTeX takes it), over a caption
// in text/plain that says which points a log axis skipped.
func (p *plotValue) bundle() (*kernel.Display, error) {
	fig, w, h, skipped, err := p.draw()
	if err != nil {
		return nil, err
	}
	var svg, png, pdf bytes.Buffer
	if err := plots.SVG(&svg, fig, w, h); err != nil {
		return nil, err
	}
	if err := plots.PNG(&png, fig, w, h, 150); err != nil {
		return nil, err
	}
	if err := plots.PDF(&pdf, fig, w, h); err != nil {
		return nil, err
	}
	caption := fig.Title.Text
	if caption == "" {
		caption = p.String()
	}
	switch {
	case skipped == 1:
		caption += " (1 point ≤ 0 not drawn: a log axis has no place for it)"
	case skipped > 1:
		caption += fmt.Sprintf(" (%d points ≤ 0 not drawn: a log axis has no place for them)", skipped)
	}
	return &kernel.Display{Data: map[string]any{
		"text/plain":      caption,
		"image/svg+xml":   svg.String(),
		"image/png":       base64.StdEncoding.EncodeToString(png.Bytes()),
		"application/pdf": base64.StdEncoding.EncodeToString(pdf.Bytes()),
	}, Metadata: map[string]any{}}, nil
}

// builtinPlot is the module-level plot(data, ..., title=, xlabel=,
// ylabel=, size=, log=): a result (values, table, weights, a plot) drawn,
// or plain numbers, plot(ys) against 0, 1, … or plot(xs, ys).
func builtinPlot(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	st, rest, err := takeStyle(b.Name(), kwargs)
	if err != nil {
		return nil, err
	}
	var first starlark.Value
	for _, kv := range rest {
		if string(kv[0].(starlark.String)) != "first" || first != nil {
			return nil, fmt.Errorf("plot: unexpected keyword argument %s; plot takes title, xlabel, ylabel, size and log (and first= for rows of numbers)", kv[0])
		}
		first = kv[1]
	}
	if st == nil {
		st = &plots.Style{}
	}
	if len(args) == 1 && isRows(args[0]) {
		return cellsPlot(args[0], first, *st)
	}
	if first != nil {
		return nil, errors.New("plot: first= numbers the rows and columns of a heatmap, plot(rows); a list of numbers has none")
	}
	switch len(args) {
	case 1:
		switch v := args[0].(type) {
		case *plotValue:
			return v.withStyle(*st), nil
		case *seqResult:
			return resultPlot(v.kind, v.sr, *st)
		case *recResult:
			if v.kind == "plot" && v.sr != nil && v.sr.Spec != nil && len(v.sr.Spec.Show) > 0 {
				return resultPlot(v.sr.Spec.Show[0], v.sr, *st)
			}
			return nil, fmt.Errorf("plot: a %s result has no figure; plot values, a table, weights, or numbers", v.Type())
		}
		ys, err := numbers(b.Name(), "y", args[0])
		if err != nil {
			return nil, err
		}
		xs := make([]float64, len(ys))
		for i := range xs {
			xs[i] = float64(i)
		}
		return pointsPlot(xs, ys, *st)
	case 2:
		xs, err := numbers(b.Name(), "x", args[0])
		if err != nil {
			return nil, err
		}
		ys, err := numbers(b.Name(), "y", args[1])
		if err != nil {
			return nil, err
		}
		if len(xs) != len(ys) {
			return nil, fmt.Errorf("plot: %d x values for %d y values; give as many of each", len(xs), len(ys))
		}
		return pointsPlot(xs, ys, *st)
	}
	return nil, fmt.Errorf("plot: want plot(result), plot(ys) or plot(xs, ys), got %d arguments", len(args))
}

// resultPlot is the styled figure of a result of kind what.
func resultPlot(what string, sr *job.SectionResult, st plots.Style) (starlark.Value, error) {
	if sr == nil {
		return nil, fmt.Errorf("plot: a %s result has no figure", what)
	}
	switch what {
	case "values", "table", "weights", "graph":
		return styledPlot(sr, what, st)
	}
	return nil, fmt.Errorf("plot: %s have no figure; plot values, a table, weights, a graph, or numbers", strings.ReplaceAll(what, "-", "_"))
}

func pointsPlot(xs, ys []float64, st plots.Style) (starlark.Value, error) {
	st.Join = true // plain data, as matplotlib's plot joins it
	p := &plotValue{what: "points", xs: xs, ys: ys, style: st}
	if _, _, _, _, err := p.draw(); err != nil {
		return nil, err
	}
	return p, nil
}

// isRows says whether v is a list of lists (or tuples): the rows of a
// heatmap, as matplotlib's imshow takes them.
func isRows(v starlark.Value) bool {
	l, ok := v.(starlark.Indexable)
	if !ok || isString(v) || l.Len() == 0 {
		return false
	}
	_, ok = l.Index(0).(starlark.Indexable)
	return ok && !isString(l.Index(0))
}

// cellsPlot is plot(rows, first=(r, c)): a heatmap of rows of whole
// numbers ≥ 0 (Grundy values over m × n boards), 0 marked, its rows and
// columns numbered from first (0, 0 by default, as imshow's).
func cellsPlot(v, first starlark.Value, st plots.Style) (starlark.Value, error) {
	p := &plotValue{what: "cells", style: st}
	if first != nil {
		t, ok := first.(starlark.Indexable)
		if !ok || isString(first) || t.Len() != 2 {
			return nil, fmt.Errorf("plot: first= is (row, column), the numbers of the first row and column; got %s", first)
		}
		for i := range 2 {
			n, err := starlark.AsInt32(t.Index(i))
			if err != nil {
				return nil, fmt.Errorf("plot: first= is (row, column) of whole numbers; got %s", first)
			}
			p.first[i] = n
		}
	}
	l := v.(starlark.Indexable)
	if l.Len() > plots.MaxCells {
		return nil, fmt.Errorf("plot: %d rows, more than the %d cells a heatmap draws", l.Len(), plots.MaxCells)
	}
	cells := 0
	for r := range l.Len() {
		row, ok := l.Index(r).(starlark.Indexable)
		if !ok || isString(l.Index(r)) {
			return nil, fmt.Errorf("plot: row %d of a heatmap is a %s, not a list of numbers", r, l.Index(r).Type())
		}
		if cells += row.Len(); cells > plots.MaxCells {
			return nil, fmt.Errorf("plot: more than the %d cells a heatmap draws", plots.MaxCells)
		}
		out := make([]uint64, row.Len())
		for c := range row.Len() {
			x := row.Index(c)
			var n uint64
			if i, ok := x.(starlark.Int); ok {
				if u, ok := i.Uint64(); ok {
					n = u
				} else {
					return nil, fmt.Errorf("plot: cell (%d, %d) of a heatmap is %s; its cells are whole numbers ≥ 0", r, c, x)
				}
			} else {
				return nil, fmt.Errorf("plot: cell (%d, %d) of a heatmap is a %s; its cells are whole numbers ≥ 0", r, c, x.Type())
			}
			out[c] = n
		}
		p.cells = append(p.cells, out)
	}
	if _, _, _, _, err := p.draw(); err != nil {
		return nil, err
	}
	return p, nil
}

// numbers reads a list of numbers (ints, floats) of at most
// plots.MaxPoints.
func numbers(fn, axis string, v starlark.Value) ([]float64, error) {
	it, ok := v.(starlark.Iterable)
	if !ok || isString(v) {
		return nil, fmt.Errorf("%s: the %s values must be a list of numbers, not %s", fn, axis, v.Type())
	}
	if n := starlark.Len(v); n > plots.MaxPoints {
		return nil, fmt.Errorf("%s: %d %s values, more than the %d a figure draws", fn, n, axis, plots.MaxPoints)
	}
	var out []float64
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		f, ok := starlark.AsFloat(x)
		if !ok {
			return nil, fmt.Errorf("%s: the %s values must be numbers; %s is a %s", fn, axis, x, x.Type())
		}
		out = append(out, f)
		if len(out) > plots.MaxPoints {
			return nil, fmt.Errorf("%s: more than the %d %s values a figure draws", fn, plots.MaxPoints, axis)
		}
	}
	return out, nil
}

// withGraphLegend redraws the game graph of sr in d, a bundle whose
// figure is that graph, with the legend of its marks (P-positions,
// N-positions, the start): a notebook's figure has no caption beside it
// that says what they mean. d keeps its text; its SVG, PNG and PDF are
// replaced.
func withGraphLegend(sr *job.SectionResult, d *kernel.Display) error {
	g := sr.Results.Graph
	if g == nil || len(g.Labels) == 0 || len(g.Labels) > plots.MaxGraphNodes {
		return nil
	}
	if _, drawn := d.Data["image/svg+xml"]; !drawn {
		return nil
	}
	p := &plotValue{sr: sr, what: "graph"}
	fig, err := p.bundle()
	if err != nil {
		return err
	}
	for _, mime := range []string{"image/svg+xml", "image/png", "application/pdf"} {
		if _, had := d.Data[mime]; had || mime == "image/svg+xml" {
			d.Data[mime] = fig.Data[mime]
		}
	}
	return nil
}
