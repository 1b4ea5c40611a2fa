package reports

import (
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
)

// across returns the Across a section's game shares with the sections
// next to it (a parameter given as a range or list in the job file), or
// nil.
func across(sr *job.SectionResult) *job.Across {
	if sr == nil || sr.Spec == nil {
		return nil
	}
	return sr.Spec.Across
}

// acrossSection builds one section from the sections of a job file's
// section across a parameter: its title, prose and game once (the
// parameter named, not valued), and their values as one table, a row per
// value of the parameter, as the source documents print them.
func (b *builder) acrossSection(i int, srs []*job.SectionResult) *section {
	first := srs[0]
	ac := first.Spec.Across
	s := &section{Title: cleanTitle(ac.Title)}
	if s.Title == "" {
		s.Title = b.tx("section.untitled", args{"N": itoa(i + 1)})
	}
	if strings.TrimSpace(first.Text) != "" {
		s.Blocks = append(s.Blocks, prose{MD: cleanProse(first.Text)})
	}
	if g := b.acrossGame(first, ac.Key); g != "" {
		s.Blocks = append(s.Blocks, para{Spans: text(g)})
	}
	for _, a := range showOrder(first) {
		var blocks []block
		switch a {
		case "values":
			blocks = b.acrossValues(srs, ac)
		case "value":
			blocks = b.acrossValue(srs, ac, slices.Contains(showOrder(first), "plot"))
		case "outcome":
			blocks = b.acrossOutcome(srs, ac)
		}
		if len(blocks) == 0 {
			continue
		}
		s.Blocks = append(s.Blocks, heading{Text: b.tx("h."+a, nil)})
		s.Blocks = append(s.Blocks, blocks...)
	}
	if src := strings.TrimSpace(first.Source); src != "" {
		s.Blocks = withSource(s.Blocks, para{Spans: text(b.tx("source", args{"Source": src})), Note: true, Source: true, Ref: src})
	}
	return s
}

// acrossGame describes the game with the parameter that varies written
// as its name ("turn over at most r coins"), or "" when the words cannot
// hold a name in its place.
func (b *builder) acrossGame(sr *job.SectionResult, key string) string {
	sp := sr.Spec
	var g string
	switch {
	case isAcrossDescriber(sp.Game):
		// The family's own words (a coin game's rule with r or n named).
		if g = sp.Game.(job.AcrossDescriber).DescribeAcross(b.t.Text, key); g == "" {
			return ""
		}
	case sp.Heap() != nil:
		h := sp.Heap()
		data := describeArgs(h)
		data[camelCase(key)] = key
		var err error
		if k := "game." + h.Rule.Name; b.t.Has(k) {
			g, err = b.t.Text(k, data)
		} else if src, ok := h.Rule.Describe[b.o.Lang]; ok {
			g, err = b.t.Format(src, data)
		} else {
			return ""
		}
		if err != nil {
			return ""
		}
	default:
		return ""
	}
	play := b.tx("play.normal", nil)
	if sp.Play == "misere" {
		play = b.tx("play.misere", nil)
	}
	return b.tx("game", args{"Game": g, "Play": play})
}

// acrossValues lays the values of the sections out as one table: a row
// per value of the parameter, a column per n (in tables of Options.Wrap
// columns when the rows are longer), then the notes and, per row, the
// OEIS sequence it is.
func (b *builder) acrossValues(srs []*job.SectionResult, ac *job.Across) []block {
	coins := job.IsCoinRows(specGame(srs[0]))
	lo, hi := 0, -1
	sameFirst := true
	for k, sr := range srs {
		f, n := firstOf(sr, 0), len(sr.Results.Values)
		if k == 0 || f < lo {
			lo = f
		}
		if k > 0 && f != firstOf(srs[0], 0) {
			sameFirst = false
		}
		hi = max(hi, f+n-1)
	}
	if hi < lo {
		return nil
	}
	total := hi - lo + 1
	shownHi := min(hi, lo+b.o.MaxValues-1)
	label := func(k int) string {
		if k < len(ac.Labels) {
			return ac.Labels[k]
		}
		return itoa(k + 1)
	}
	corner := ac.Key + " \\ n"
	zero := false
	out := []block{para{Spans: text(b.tx("values.intro", args{"Coins": coins, "From": itoa(lo), "To": itoa(hi)}))}}
	for c0 := lo; c0 <= shownHi; c0 += b.o.Wrap {
		c1 := min(c0+b.o.Wrap-1, shownHi)
		t := table{Header: []cell{{Text: corner}}}
		for n := c0; n <= c1; n++ {
			t.Header = append(t.Header, cell{Text: itoa(n)})
		}
		for k, sr := range srs {
			row := []cell{{Text: label(k)}}
			f, vals := firstOf(sr, 0), sr.Results.Values
			for n := c0; n <= c1; n++ {
				if i := n - f; i >= 0 && i < len(vals) {
					row = append(row, valueCell(vals[i]))
					zero = zero || vals[i] == 0
				} else {
					row = append(row, cell{})
				}
			}
			t.Rows = append(t.Rows, row)
		}
		out = append(out, t)
	}
	var notes []string
	if zero {
		notes = append(notes, b.tx("values.bold", nil))
	}
	if coins && sameFirst {
		notes = append(notes, b.tx("values.numbering", args{"First": itoa(lo)}))
	}
	if shownHi < hi {
		notes = append(notes, b.tx("values.truncated", args{"From": itoa(lo), "To": itoa(shownHi), "Total": b.big(itoa(total))}))
	}
	if len(notes) > 0 {
		out = append(out, para{Spans: noteSpans(notes, b.tx("values.bold", nil)), Note: true})
	}
	var l list
	for k, sr := range srs {
		for _, p := range b.oeis(sr.Results.Values, firstOf(sr, 0)) {
			if q, ok := p.(para); ok {
				l.Items = append(l.Items, append([]span{{Text: ac.Key + " = " + label(k) + " — "}}, q.Spans...))
			}
		}
	}
	if len(l.Items) > 0 {
		out = append(out, l)
	}
	return out
}
