package reports

import (
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
)

// Renderings of the results of games given by their moves (registered
// families: a Starlark game's value, alone or across its parameters).

// value says the Grundy value of the start.
func (b *builder) value(sr *job.SectionResult) []block {
	v := sr.Results.Value
	if v == nil {
		return nil
	}
	return []block{para{Spans: text(b.tx("value.start", args{"Value": utoa(*v)}))}}
}

// acrossLabels reads the labels of a ranged parameter as the whole
// numbers they are (ranges A..B make them), ok false otherwise.
func acrossLabels(labels []string) (first int, ok bool) {
	for i, l := range labels {
		n, err := strconv.Atoi(l)
		if err != nil || (i > 0 && n != first+i) {
			return 0, false
		}
		if i == 0 {
			first = n
		}
	}
	return first, len(labels) > 0
}

// acrossValue lays the values of the starts out across the parameters:
// one row, a column per value, with the OEIS sequence they are and a
// figure; or, for two parameters, a table and a heatmap.
func (b *builder) acrossValue(srs []*job.SectionResult, ac *job.Across, plot bool) []block {
	vals := make([]uint64, len(srs))
	for i, sr := range srs {
		if sr.Results.Value == nil {
			return nil
		}
		vals[i] = *sr.Results.Value
	}
	if ac.Key2 != "" {
		return b.acrossValueTable(vals, ac, plot, srs[0].Source)
	}
	first, consecutive := acrossLabels(ac.Labels)
	out := []block{para{Spans: text(b.tx("value.across", args{"Key": ac.Key, "From": ac.Labels[0], "To": ac.Labels[len(ac.Labels)-1]}))}}
	if consecutive {
		t := valueTable(vals, first, b.o.Wrap, "g")
		t.Header[0].Text = ac.Key
		out = append(out, t)
	} else {
		t := table{Header: []cell{{Text: ac.Key}}}
		row := []cell{{Text: "g"}}
		for i, l := range ac.Labels {
			t.Header = append(t.Header, cell{Text: l})
			row = append(row, valueCell(vals[i]))
		}
		t.Rows = [][]cell{row}
		out = append(out, t)
	}
	if hasZero(vals) {
		out = append(out, para{Spans: noteSpans([]string{b.tx("values.bold", nil)}, b.tx("values.bold", nil)), Note: true})
	}
	if consecutive {
		out = append(out, b.oeis(vals, first)...)
	}
	if plot && consecutive && !b.o.NoFigures {
		f := figure{Kind: "values", Values: vals, First: first, Title: b.tx("plot.values", nil), X: ac.Key, Y: b.tx("plot.axis.value", nil)}
		f.Caption = cleanTitle(ac.Title)
		if f.Caption == "" {
			f.Caption = f.Title
		}
		b.cite(&f, srs[0].Source)
		out = append(out, para{Spans: text(b.tx("plot.markdown", nil)), Note: true, MDOnly: true}, f)
	}
	return out
}

// acrossValueTable is the table of values for two parameters: a row per
// value of the first, a column per value of the second.
func (b *builder) acrossValueTable(vals []uint64, ac *job.Across, plot bool, src string) []block {
	cols := len(ac.Labels2)
	out := []block{para{Spans: text(b.tx("value.across2", args{"Row": ac.Key, "Col": ac.Key2}))}}
	t := table{Header: []cell{{Text: ac.Key + " \\ " + ac.Key2}}}
	for _, l := range ac.Labels2 {
		t.Header = append(t.Header, cell{Text: l})
	}
	grid := make([][]uint64, len(ac.Labels))
	for r, l := range ac.Labels {
		row := []cell{{Text: l}}
		grid[r] = vals[r*cols : (r+1)*cols]
		for _, v := range grid[r] {
			row = append(row, valueCell(v))
		}
		t.Rows = append(t.Rows, row)
	}
	out = append(out, t)
	if hasZero(vals) {
		out = append(out, para{Spans: noteSpans([]string{b.tx("values.bold", nil)}, b.tx("values.bold", nil)), Note: true})
	}
	r0, okR := acrossLabels(ac.Labels)
	c0, okC := acrossLabels(ac.Labels2)
	if plot && okR && okC && !b.o.NoFigures {
		f := figure{Kind: "table", Table: grid, RowLo: r0, ColLo: c0, Mark: true, Title: b.tx("plot.table", nil), X: ac.Key2, Y: ac.Key}
		f.Caption = cleanTitle(ac.Title)
		if f.Caption == "" {
			f.Caption = f.Title
		}
		b.cite(&f, src)
		out = append(out, para{Spans: text(b.tx("plot.markdown", nil)), Note: true, MDOnly: true}, f)
	}
	return out
}

// acrossOutcome is the outcome of each start across one parameter.
func (b *builder) acrossOutcome(srs []*job.SectionResult, ac *job.Across) []block {
	if ac.Key2 != "" {
		return nil
	}
	t := table{Header: []cell{{Text: ac.Key}}}
	row := []cell{{Text: ""}}
	for i, sr := range srs {
		if sr.Results.Outcome == "" || i >= len(ac.Labels) {
			return nil
		}
		t.Header = append(t.Header, cell{Text: ac.Labels[i]})
		row = append(row, cell{Text: sr.Results.Outcome, Strong: sr.Results.Outcome == "P"})
	}
	t.Rows = [][]cell{row}
	return []block{para{Spans: text(b.tx("outcome.across", args{"Key": ac.Key}))}, t}
}

// cite gives a figure its section's source, as plots does: a figure
// names its game and cites its source wherever the page breaks.
func (b *builder) cite(f *figure, src string) {
	if ref := strings.TrimSpace(src); ref != "" {
		f.Source, f.Ref = b.tx("source", args{"Source": ref}), ref
	}
}
