package reports

import (
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
)

// genus lays the genera out as the values are: rows of wrap cells, each
// g^{γ0γ1…} (typeset as a superscript in HTML and PDF), the tame ones in
// bold, then how many are tame and which heap is the first wild one.
func (b *builder) genus(sr *job.SectionResult) []block {
	gs := sr.Results.Genus
	if len(gs) == 0 {
		return nil
	}
	shown := gs
	if len(shown) > b.o.MaxValues {
		shown = shown[:b.o.MaxValues]
	}
	cells := make([]cell, len(shown))
	tame, first := 0, -1
	for i, g := range gs {
		if g.Tame() {
			tame++
		} else if first < 0 {
			first = i
		}
		if i < len(shown) {
			cells[i] = cell{Text: g.String(), Strong: g.Tame(), Scripts: true}
		}
	}
	out := []block{
		para{Spans: text(b.tx("genus.intro", args{"From": "0", "To": itoa(len(gs) - 1)}))},
		cellTable(cells, b.o.Wrap, b.tx("genus.label", nil)),
		para{Spans: []span{{Text: b.tx("genus.bold", nil), BoldNote: true}}, Note: true},
		para{Spans: text(b.tx("genus.summary", args{"Tame": itoa(tame), "Wild": itoa(len(gs) - tame), "Count": itoa(len(gs)), "First": itoa(first)}))},
	}
	if len(shown) < len(gs) {
		out = append(out, para{Spans: text(b.tx("values.truncated", args{"From": "0", "To": itoa(len(shown) - 1), "Total": b.big(itoa(len(gs)))})), Note: true})
	}
	return out
}

// cellTable is valueTable for cells already written: one row "n | 0 1 …"
// when they fit, else rows of wrap labelled by their range of n.
func cellTable(cells []cell, wrap int, label string) table {
	if len(cells) <= wrap {
		t := table{Header: []cell{{Text: "n"}}}
		row := []cell{{Text: label}}
		for i, c := range cells {
			t.Header = append(t.Header, cell{Text: itoa(i)})
			row = append(row, c)
		}
		t.Rows = [][]cell{row}
		return t
	}
	t := table{Header: []cell{{Text: "n"}}}
	for k := range wrap {
		t.Header = append(t.Header, cell{Text: "+" + itoa(k)})
	}
	for lo := 0; lo < len(cells); lo += wrap {
		hi := min(lo+wrap, len(cells))
		label := itoa(lo) + ".." + itoa(hi-1)
		if hi-lo == 1 {
			label = itoa(lo)
		}
		row := append([]cell{{Text: label}}, cells[lo:hi]...)
		for len(row) < wrap+1 {
			row = append(row, cell{})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// quotient gives a misère quotient as Plambeck and Siegel write one: its
// order, P-portion and whether it is tame, its presentation, the
// pretending function heap by heap, whether it is proven periodic, and
// for small quotients the multiplication table.
func (b *builder) quotient(sr *job.SectionResult) []block {
	q := sr.Results.Quotient
	if q == nil {
		return nil
	}
	out := []block{para{Spans: b.mathList("quotient.summary", args{
		"Heaps": itoa(q.Heaps), "Order": b.big(itoa(q.Order)), "P": itoa(q.PPortion),
		"Tame": q.Tame, "TameName": q.TameName,
	}, "PList", q.P)}}
	var gens []string
	for _, g := range q.Generators {
		gens = append(gens, b.tx("quotient.generator", args{"Name": g.Name, "Heap": itoa(g.Heap)}))
	}
	if len(gens) == 0 {
		gens = []string{b.tx("quotient.norelation", nil)}
	}
	pres := args{"Generators": strings.Join(gens, ", ")}
	if len(q.Relations) == 0 {
		pres["Relations"] = b.tx("quotient.norelation", nil)
		out = append(out, para{Spans: text(b.tx("quotient.presentation", pres))})
	} else {
		out = append(out, para{Spans: b.mathList("quotient.presentation", pres, "Relations", q.Relations)})
	}
	if len(q.Pretending) > 0 {
		cells := make([]cell, len(q.Pretending))
		for i, w := range q.Pretending {
			cells[i] = cell{Text: w, Strong: slices.Contains(q.P, w), Scripts: true}
		}
		out = append(out, para{Spans: text(b.tx("quotient.pretending", nil))}, cellTable(cells, b.o.Wrap, b.tx("quotient.element", nil)))
	}
	if p := q.Period; p != nil {
		out = append(out, para{Spans: text(b.tx("quotient.period", args{"Period": itoa(p.Period), "Preperiod": itoa(p.Preperiod)}))})
	} else {
		out = append(out, para{Spans: text(b.tx("quotient.holds", args{"Heaps": itoa(q.Heaps)}))})
	}
	if t := q.Table; t != nil && len(t) <= b.o.MaxSide {
		out = append(out, para{Spans: []span{{Text: b.tx("quotient.table", nil)}, {Text: " " + b.tx("quotient.bold", nil), BoldNote: true}}})
		word := func(i int) cell {
			if i < 0 || i >= len(q.Elements) {
				return cell{Text: "?"}
			}
			return cell{Text: q.Elements[i], Strong: slices.Contains(q.P, q.Elements[i]), Scripts: true}
		}
		tb := table{Header: []cell{{Text: "·"}}}
		for i := range t {
			tb.Header = append(tb.Header, word(i))
		}
		for i, row := range t {
			r := []cell{word(i)}
			for _, x := range row {
				r = append(r, word(x))
			}
			tb.Rows = append(tb.Rows, r)
		}
		out = append(out, tb)
	}
	return out
}

// misereMethod says how a misère outcome was found, when the engine says.
func (b *builder) misereMethod(sr *job.SectionResult) []block {
	switch m := sr.Results.MisereMethod; m {
	case job.MethodQuotient, job.MethodGeneric:
		return []block{para{Spans: text(b.tx("method."+m, nil)), Note: true}}
	}
	return nil
}

// mathList fills a message whose field is a list of formulas (elements or
// relations of a quotient, a b^2, b c = a b): each one a span of
// mathematics, so that LaTeX sets it whole.
func (b *builder) mathList(key string, data args, field string, items []string) []span {
	const mark = "\x00MATH\x00"
	data[field] = mark
	before, after, found := strings.Cut(b.tx(key, data), mark)
	if !found {
		data[field] = strings.Join(items, ", ")
		return text(b.tx(key, data))
	}
	var out []span
	if before != "" {
		out = append(out, span{Text: before})
	}
	for i, it := range items {
		if i > 0 {
			out = append(out, span{Text: ", "})
		}
		out = append(out, span{Text: it, Math: true})
	}
	if after != "" {
		out = append(out, span{Text: after})
	}
	return out
}
