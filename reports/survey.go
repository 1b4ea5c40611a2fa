package reports

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/plots"
)

// A survey's report has three sections: an overview (the survey's text,
// its variants, their status and the notable ones), figures across the
// variants, and the table of the variants, one row each. The Markdown,
// HTML and PDF forms walk the same document.
const (
	// surveyFirstValues is how many first values a row of the table shows.
	surveyFirstValues = 10
	// surveyHeatValues is how many first values the figure of every
	// variant's values draws.
	surveyHeatValues = 100
	// surveyNamed is the most variants a sentence names; the rest are
	// counted. A group of variants with equal values names at most
	// surveyGroupNamed, and at most surveyGroups groups are named.
	surveyNamed      = 20
	surveyGroupNamed = 6
	surveyGroups     = 10
	// surveyWeights is the most weights a cell lists.
	surveyWeights = 6
)

// surveyFigure is a figure across the variants, drawn on demand: the HTML
// form inlines its SVG, the PDF form places it as a picture.
type surveyFigure struct {
	Caption string
	Height  vg.Length
	draw    func() (*plot.Plot, error)
}

func (surveyFigure) isBlock() {}

// surveyBuilder builds the document of a survey's report.
type surveyBuilder struct {
	*builder
	r *survey.Report
	f *survey.Findings
}

// buildSurvey makes the document of r. Options.Lang wins over the
// survey's lang.
func buildSurvey(r *survey.Report, opts Options) (*document, Options, *surveyBuilder, error) {
	if r == nil {
		return nil, opts, nil, fmt.Errorf("reports: nil survey")
	}
	o, t, err := opts.withDefaults(&job.Report{Lang: r.Lang})
	if err != nil {
		return nil, o, nil, err
	}
	f, err := survey.NewFindings(r, 0)
	if err != nil {
		return nil, o, nil, fmt.Errorf("reports: %w", err)
	}
	b := &surveyBuilder{builder: &builder{o: o, t: t}, r: r, f: f}
	d := &document{Lang: o.Lang, Title: r.Title}
	if d.Title == "" {
		d.Title = b.tx("title.untitled", nil)
	}
	if o.Date != "" {
		d.Date = b.tx("date", args{"Date": o.Date})
	}
	ov := b.overview()
	ov.ID = "overview"
	d.Sections = append(d.Sections, ov)
	if figs := b.figures(); len(figs) > 0 {
		blocks := []block{para{Spans: text(b.tx("plot.markdown", nil)), Note: true, MDOnly: true}}
		d.Sections = append(d.Sections, &section{Title: b.tx("survey.figures", nil), Blocks: append(blocks, figs...), ID: "figures"})
	}
	for _, sec := range surveySections {
		if s := sec(b); s != nil {
			d.Sections = append(d.Sections, s)
		}
	}
	vs := b.variants()
	vs.ID = "variants"
	d.Sections = append(d.Sections, vs)
	return d, o, b, b.err
}

// surveySections are the sections a survey's document may have between
// its figures and its table of variants, each written in its own file
// (surveycensus.go) and added there at init, in file order; a section
// returns nil when it does not apply to the survey.
var surveySections []func(b *surveyBuilder) *section

// name names a variant by the parameters that tell it from the others:
// its code or set alone (0.07, [1,3,4]), else key = value pairs.
func (b *surveyBuilder) name(i int) string {
	ps := b.r.VaryingParams(&b.r.Variants[i])
	if len(ps) == 1 && (ps[0].Key == "code" || ps[0].Key == "set") {
		return survey.Compact(ps[0].Value)
	}
	if len(ps) == 0 {
		return "#" + itoa(b.r.Variants[i].Index)
	}
	parts := make([]string, len(ps))
	for k, p := range ps {
		parts[k] = p.Key + " = " + survey.Compact(p.Value)
	}
	return strings.Join(parts, ", ")
}

// names lists variants by name, at most most of them.
func (b *surveyBuilder) names(is []int, sep string, most int) string {
	var parts []string
	for _, i := range is[:min(len(is), most)] {
		parts = append(parts, b.name(i))
	}
	out := strings.Join(parts, sep)
	if len(is) > most {
		out += " " + b.tx("survey.more", args{"N": itoa(len(is) - most)})
	}
	return out
}

func (b *surveyBuilder) overview() *section {
	r, f := b.r, b.f
	s := &section{Title: b.tx("survey.overview", nil)}
	if strings.TrimSpace(r.Text) != "" {
		s.Blocks = append(s.Blocks, prose{MD: r.Text})
	}
	var fixed []string
	for _, p := range r.Fixed() {
		fixed = append(fixed, p.Key+" = "+survey.Compact(p.Value))
	}
	fam := r.Family
	if b.t.Has("survey.family." + fam) {
		fam = b.tx("survey.family."+fam, nil)
	}
	s.Blocks = append(s.Blocks, para{Spans: text(b.tx("survey.what", args{
		"Count": b.big(itoa(r.Count)), "Family": fam, "Varying": strings.Join(r.Varying, ", "),
		"Fixed": strings.Join(fixed, ", "), "Show": strings.Join(r.Show, ", "),
	}))})
	if f.Done == len(r.Variants) {
		s.Blocks = append(s.Blocks, para{Spans: text(b.tx("survey.status.all", args{"Count": b.big(itoa(r.Count))}))})
	} else {
		nz := func(n int) string {
			if n == 0 {
				return ""
			}
			return b.big(itoa(n))
		}
		s.Blocks = append(s.Blocks, para{Spans: text(b.tx("survey.status.some", args{
			"Done": b.big(itoa(f.Done)), "Count": b.big(itoa(r.Count)),
			"Refused": nz(f.Refused), "Errors": nz(f.Errors), "Pending": nz(f.Pending),
		}))})
	}
	var items [][]span
	if f.WithPeriod > 0 {
		items = append(items, text(b.tx("survey.proven", args{"Proven": b.big(itoa(f.Proven)), "With": b.big(itoa(f.WithPeriod))})))
		if len(f.LongestPeriod) > 0 {
			items = append(items, text(b.tx("survey.longest.period", args{"Period": b.big(itoa(f.MaxPeriod)), "Names": b.names(f.LongestPeriod, ", ", surveyNamed)})))
		}
		if len(f.LongestPreperiod) > 0 {
			items = append(items, text(b.tx("survey.longest.preperiod", args{"Preperiod": b.big(itoa(f.MaxPreperiod)), "Names": b.names(f.LongestPreperiod, ", ", surveyNamed)})))
		}
		if len(f.NotProven) > 0 {
			items = append(items, text(b.tx("survey.notproven", args{"Count": b.big(itoa(len(f.NotProven))), "Names": b.names(f.NotProven, ", ", surveyNamed)})))
		}
	}
	if f.Compared > 0 {
		var groups []string
		for k, g := range f.Same {
			if k == surveyGroups {
				groups = append(groups, b.tx("survey.more", args{"N": itoa(len(f.Same) - k)}))
				break
			}
			groups = append(groups, b.names(g, " = ", surveyGroupNamed))
		}
		same := b.tx("survey.same", args{"N": b.big(itoa(f.Compared)), "Groups": itoa(len(f.Same)), "List": groups})
		items = append(items, text(same))
	}
	if len(items) > 0 {
		s.Blocks = append(s.Blocks, heading{Text: b.tx("survey.notable", nil)}, list{Items: items})
	}
	return s
}

// firstOf is the number of the first value of variant i: a coin game's
// first coin (1 unless its parameters say), 0 for heaps.
func (b *surveyBuilder) firstOf(i int) int {
	if !job.IsCoinRows(job.SpecOf(b.r.Family)) {
		return 0
	}
	for _, p := range b.r.Variants[i].Params {
		if p.Key == "first" {
			if n, err := strconv.Atoi(survey.Compact(p.Value)); err == nil {
				return n
			}
		}
	}
	return 1
}

func (b *surveyBuilder) figures() []block {
	f := b.f
	var out []block
	var periods, pres []int
	for _, res := range f.Results {
		if res != nil && res.Period != nil && res.Period.Proven {
			periods = append(periods, res.Period.Period)
			pres = append(pres, res.Period.Preperiod)
		}
	}
	if len(periods) > 0 {
		lo, hi := slices.Min(periods), slices.Max(periods)
		log := hi-lo >= 40 // plots.Histogram's bars by powers of two
		out = append(out, surveyFigure{
			Caption: b.tx("survey.plot.periods", args{"Log": log}), Height: plots.Height,
			draw: func() (*plot.Plot, error) {
				return plots.Histogram(periods, plots.Labels{X: b.tx("survey.axis.period", nil), Y: b.tx("survey.axis.variants", nil)})
			},
		})
		log = hi >= 100 || slices.Max(pres) >= 100 // plots.Scatter's log scales
		out = append(out, surveyFigure{
			Caption: b.tx("survey.plot.scatter", args{"Log": log}), Height: plots.SquareHeight * 3 / 4,
			draw: func() (*plot.Plot, error) {
				return plots.Scatter(periods, pres, plots.Labels{X: b.tx("survey.axis.period", nil), Y: b.tx("survey.axis.preperiod", nil)})
			},
		})
	}
	var orders []int
	for _, res := range f.Results {
		if res != nil && res.Quotient != nil {
			orders = append(orders, res.Quotient.Order)
		}
	}
	if len(orders) > 0 {
		log := slices.Max(orders)-slices.Min(orders) >= 40
		out = append(out, surveyFigure{
			Caption: b.tx("survey.plot.orders", args{"Log": log}), Height: plots.Height,
			draw: func() (*plot.Plot, error) {
				return plots.Histogram(orders, plots.Labels{X: b.tx("survey.axis.order", nil), Y: b.tx("survey.axis.variants", nil)})
			},
		})
	}
	if m, ok := b.periodMap(); ok {
		out = append(out, m)
	}
	names := make([]string, len(f.Results))
	for i := range names {
		names[i] = b.name(i)
	}
	rows := make([][]uint64, len(f.Results))
	weights := make([][]uint64, len(f.Results))
	haveValues, haveWeights := false, false
	first := 0
	for i, res := range f.Results {
		if res == nil {
			continue
		}
		if len(res.Values) > 0 {
			if !haveValues {
				first = b.firstOf(i)
			}
			rows[i] = res.Values[:min(len(res.Values), surveyHeatValues)]
			haveValues = true
		}
		if len(res.Weights) > 0 {
			weights[i] = res.Weights
			haveWeights = true
		}
	}
	if haveValues {
		to := first - 1
		for _, r := range rows {
			to = max(to, first+len(r)-1)
		}
		out = append(out, surveyFigure{
			Caption: b.tx("survey.plot.values", args{"From": itoa(first), "To": itoa(to)}), Height: plots.SquareHeight,
			draw: func() (*plot.Plot, error) {
				return plots.ValueRows(rows, first, plots.Labels{X: b.tx("plot.axis.n", nil), Y: b.tx("survey.axis.variant", nil), Rows: names})
			},
		})
	}
	if haveWeights {
		out = append(out, surveyFigure{
			Caption: b.tx("survey.plot.weights", nil), Height: plots.SquareHeight,
			draw: func() (*plot.Plot, error) {
				return plots.CountRows(weights, 0, plots.Labels{X: b.tx("plot.axis.heads", nil), Y: b.tx("survey.axis.variant", nil), Rows: names})
			},
		})
	}
	return out
}

// periodMap is the figure of the periods across two integer parameters,
// when every variant with a period has two: two varying numbers (k and m
// of a rule), or one varying set of two amounts (subtraction sets {a, b}).
func (b *surveyBuilder) periodMap() (surveyFigure, bool) {
	var cells []plots.MapCell
	xs, ys := map[int]bool{}, map[int]bool{}
	var xKey, yKey string
	set, unknown := false, false
	for i, res := range b.f.Results {
		if res == nil || res.Period == nil {
			continue
		}
		ps := b.r.VaryingParams(&b.r.Variants[i])
		var vals []any
		switch {
		case len(ps) == 2:
			vals, xKey, yKey = []any{ps[0].Value, ps[1].Value}, ps[0].Key, ps[1].Key
		case len(ps) == 1:
			if l, isList := ps[0].Value.([]any); isList && len(l) == 2 {
				vals, set = l, true
			}
		}
		if len(vals) != 2 {
			return surveyFigure{}, false
		}
		x, okx := vals[0].(int64)
		y, oky := vals[1].(int64)
		if !okx || !oky {
			return surveyFigure{}, false
		}
		xs[int(x)], ys[int(y)] = true, true
		unknown = unknown || !res.Period.Proven
		cells = append(cells, plots.MapCell{X: int(x), Y: int(y), Value: uint64(res.Period.Period), Known: res.Period.Proven})
	}
	if len(xs) < 2 || len(ys) < 2 {
		return surveyFigure{}, false
	}
	x, y := xKey, yKey
	if set {
		x, y = "a", "b"
	}
	return surveyFigure{
		Caption: b.tx("survey.plot.map", args{"Set": set, "X": x, "Y": y, "Unknown": unknown}), Height: plots.SquareHeight,
		draw: func() (*plot.Plot, error) { return plots.ParamMap(cells, plots.Labels{X: x, Y: y}) },
	}, true
}

// tableAnalyses are the analyses with columns in the table of variants.
var tableAnalyses = []string{"value", "period", "p-positions", "values", "weights", "steiner", "automorphisms", "outcome", "moves", "rare", "code", "quotient", "genus"}

// column is one column of the variants table: its header and its cell
// for a variant's results.
type column struct {
	head string
	cell func(res *job.Results) string
}

// columns are the table's columns for the analyses the survey shows, in
// its show order; analyses without a one-cell form (tables, graphs,
// distributions, played games) are left to the JSON form.
func (b *surveyBuilder) columns() []column {
	var cols []column
	for _, a := range b.r.Show {
		switch a {
		case "period":
			per := func(res *job.Results) *job.Period { return res.Period }
			cols = append(cols,
				column{b.tx("survey.col.preperiod", nil), func(res *job.Results) string {
					if p := per(res); p != nil && p.Proven {
						return itoa(p.Preperiod)
					}
					return ""
				}},
				column{b.tx("survey.col.period", nil), func(res *job.Results) string {
					if p := per(res); p != nil && p.Proven {
						return itoa(p.Period)
					}
					return ""
				}},
				column{b.tx("survey.col.proven", nil), func(res *job.Results) string {
					switch p := per(res); {
					case p == nil:
						return ""
					case p.Proven:
						return "✓"
					}
					return "✗"
				}},
				column{b.tx("survey.col.checked", nil), func(res *job.Results) string {
					if p := per(res); p != nil {
						return itoa(p.CheckedTo)
					}
					return ""
				}})
		case "p-positions":
			cols = append(cols, column{b.tx("survey.col.p-positions", nil), func(res *job.Results) string {
				if res.PPositions != nil {
					return utoa(res.PPositions.Count)
				}
				return ""
			}})
		case "values":
			f := "g"
			if job.IsCoinRows(job.SpecOf(b.r.Family)) {
				f = "f"
			}
			first := 0
			if len(b.r.Variants) > 0 {
				first = b.firstOf(0)
			}
			head := b.tx("survey.col.values", args{"F": f, "From": itoa(first), "To": itoa(first + surveyFirstValues - 1)})
			cols = append(cols, column{head, func(res *job.Results) string {
				vs := res.Values
				parts := make([]string, 0, surveyFirstValues+1)
				for _, v := range vs[:min(len(vs), surveyFirstValues)] {
					parts = append(parts, utoa(v))
				}
				if len(vs) > surveyFirstValues {
					parts = append(parts, "…")
				}
				return strings.Join(parts, " ")
			}})
		case "weights":
			cols = append(cols, column{b.tx("survey.col.weights", nil), func(res *job.Results) string {
				var parts []string
				for w, c := range res.Weights {
					if c == 0 {
						continue
					}
					if len(parts) == surveyWeights {
						parts = append(parts, "…")
						break
					}
					parts = append(parts, itoa(w)+":"+utoa(c))
				}
				return strings.Join(parts, " ")
			}})
		case "steiner":
			cols = append(cols, column{b.tx("survey.col.steiner", nil), func(res *job.Results) string {
				st := res.Steiner
				switch {
				case st == nil:
					return ""
				case st.Holds:
					return fmt.Sprintf("%d-(%d,%d,%d)", st.T, st.V, st.K, st.Lambda)
				}
				return "—"
			}})
		case "automorphisms":
			cols = append(cols, column{b.tx("survey.col.automorphisms", nil), func(res *job.Results) string { return res.Automorphisms }})
		case "outcome":
			cols = append(cols, column{b.tx("survey.col.outcome", nil), func(res *job.Results) string { return res.Outcome }})
		case "value":
			cols = append(cols, column{b.tx("survey.col.value", nil), func(res *job.Results) string {
				if res.Value == nil {
					return ""
				}
				return utoa(*res.Value)
			}})
		case "moves":
			cols = append(cols, column{b.tx("survey.col.moves", nil), func(res *job.Results) string {
				if n, ok := toNode(res.Moves); ok && !n.leaf {
					return itoa(len(n.items))
				}
				return ""
			}})
		case "rare":
			cols = append(cols, column{b.tx("survey.col.rare", nil), func(res *job.Results) string {
				if res.Rare != nil {
					return itoa(res.Rare.Count)
				}
				return ""
			}})
		case "quotient":
			q := func(res *job.Results) *job.Quotient { return res.Quotient }
			cols = append(cols,
				column{b.tx("survey.col.order", nil), func(res *job.Results) string {
					if q := q(res); q != nil {
						return itoa(q.Order)
					}
					return ""
				}},
				column{b.tx("survey.col.p-portion", nil), func(res *job.Results) string {
					if q := q(res); q != nil {
						return itoa(q.PPortion)
					}
					return ""
				}},
				column{b.tx("survey.col.tame", nil), func(res *job.Results) string {
					switch q := q(res); {
					case q == nil:
						return ""
					case q.Tame:
						return q.TameName
					}
					return b.tx("survey.wild", nil)
				}})
		case "genus":
			cols = append(cols, column{b.tx("survey.col.tame-heaps", nil), func(res *job.Results) string {
				if len(res.Genus) == 0 {
					return ""
				}
				tame, first := 0, ""
				for n, g := range res.Genus {
					if g.Tame() {
						tame++
					} else if first == "" {
						first = itoa(n)
					}
				}
				if first == "" {
					return fmt.Sprintf("%d/%d", tame, len(res.Genus))
				}
				return b.tx("survey.genus", args{"Tame": itoa(tame), "Count": itoa(len(res.Genus)), "First": first})
			}})
		case "code":
			cols = append(cols, column{b.tx("survey.col.code", nil), func(res *job.Results) string {
				if c := res.Code; c != nil {
					return fmt.Sprintf("[%d, %d, %d]", c.Length, c.Dimension, c.MinDistance)
				}
				return ""
			}})
		}
	}
	return cols
}

func (b *surveyBuilder) variants() *section {
	r, f := b.r, b.f
	s := &section{Title: b.tx("survey.variants", nil)}
	s.Blocks = append(s.Blocks, para{Spans: text(b.tx("survey.table.intro", nil)), Note: true})
	cols := b.columns()
	withStatus := f.Done < len(r.Variants)
	t := table{Header: []cell{{Text: b.tx("survey.col.index", nil)}}}
	for _, k := range r.Varying {
		t.Header = append(t.Header, cell{Text: k})
	}
	if withStatus {
		t.Header = append(t.Header, cell{Text: b.tx("survey.col.status", nil)})
	}
	for _, c := range cols {
		t.Header = append(t.Header, cell{Text: c.head})
	}
	var failed [][]span
	for i := range r.Variants {
		v := &r.Variants[i]
		row := []cell{{Text: itoa(v.Index)}}
		for _, p := range r.VaryingParams(v) {
			row = append(row, cell{Text: survey.Compact(p.Value)})
		}
		if withStatus {
			row = append(row, cell{Text: b.tx("survey.status."+v.Status, nil)})
		}
		res := f.Results[i]
		for _, c := range cols {
			txt := ""
			if res != nil {
				txt = c.cell(res)
			}
			row = append(row, cell{Text: txt})
		}
		t.Rows = append(t.Rows, row)
		if v.Status == survey.StatusRefused || v.Status == survey.StatusError {
			failed = append(failed, text(b.tx("survey.failed.item", args{"Index": itoa(v.Index), "Name": b.name(i), "Error": v.Error})))
		}
	}
	s.Blocks = append(s.Blocks, t)
	if slices.Contains(r.Show, "period") {
		s.Blocks = append(s.Blocks, para{Spans: text(b.tx("survey.table.proven", nil)), Note: true})
	}
	var jsonOnly []string
	for _, a := range r.Show {
		if !slices.Contains(tableAnalyses, a) && a != "plot" {
			jsonOnly = append(jsonOnly, a)
		}
	}
	if len(jsonOnly) > 0 {
		s.Blocks = append(s.Blocks, para{Spans: text(b.tx("survey.table.json", args{"Analyses": strings.Join(jsonOnly, ", ")})), Note: true})
	}
	if len(failed) > 0 {
		s.Blocks = append(s.Blocks, para{Spans: text(b.tx("survey.failed", nil))}, list{Items: failed})
	}
	return s
}
