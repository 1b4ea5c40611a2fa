package reports

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"

	"github.com/nimbook/nimbook/explore/census"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/plots"
)

// The census section of an octal survey (issue 20): every code with its
// standard form, its result and the published one, grouped by standard
// form, and the verdict of package census; the counts, the algorithms that
// ran, the corrections and the sources.
func init() { surveySections = append(surveySections, (*surveyBuilder).census) }

// censusRow is a code of the census with what its variant computed.
type censusRow struct {
	i         int // variant
	row       census.Row
	algorithm string
}

func (b *surveyBuilder) census() *section {
	if !census.Applies(b.r.Family) {
		return nil
	}
	pub, err := census.Published()
	if err != nil {
		b.err = fmt.Errorf("reports: %w", err)
		return nil
	}
	var rows []censusRow
	counts := map[string]int{}
	algorithms := map[string]int{}
	reached := -1
	stopped, limit := 0, "" // the codes a time limit stopped before upto
	for i := range b.r.Variants {
		v := &b.r.Variants[i]
		res := b.f.Results[i]
		if res == nil || res.Period == nil {
			continue
		}
		code, upto, err := census.CodeOf(v)
		if err != nil {
			b.err = fmt.Errorf("reports: %w", err)
			return nil
		}
		row, err := census.Compare(code, upto, res.Period)
		if err != nil {
			b.err = fmt.Errorf("reports: %w", err)
			return nil
		}
		cr := censusRow{i: i, row: row, algorithm: rareAlgorithm(v.Results)}
		counts[row.Verdict]++
		if row.Verdict == census.Agree && row.Published.Status == census.StatusSolved {
			counts["agree-solved"]++
		}
		if cr.algorithm != "" {
			algorithms[cr.algorithm]++
		}
		if !res.Period.Proven {
			reached = max(reached, res.Period.CheckedTo)
		}
		if rc := res.Reached; rc != nil {
			stopped++
			limit = rc.Limit
		}
		rows = append(rows, cr)
	}
	if len(rows) == 0 {
		return nil
	}
	s := &section{Title: b.tx("census.title", nil), ID: "census"}
	s.Blocks = append(s.Blocks, para{Spans: text(b.tx("census.intro", args{
		"Count": b.big(itoa(len(rows))), "Agree": b.big(itoa(counts[census.Agree])),
		"Solved": b.big(itoa(counts["agree-solved"])), "Open": b.big(itoa(counts[census.Agree] - counts["agree-solved"])),
		"Disagree": b.big(itoa(counts[census.Disagree])), "New": b.big(itoa(counts[census.New])),
		"Beyond": b.big(itoa(counts[census.Beyond])), "Unlisted": b.big(itoa(counts[census.Unlisted])),
	}))})
	if reached >= 0 {
		s.Blocks = append(s.Blocks, para{Spans: text(b.tx("census.reached", args{"N": b.big(itoa(reached))}))})
	}
	if stopped > 0 {
		s.Blocks = append(s.Blocks, para{Spans: text(b.tx("census.timelimit", args{"Count": b.big(itoa(stopped)), "Limit": limit}))})
	}
	if len(algorithms) > 0 {
		var names []string
		for a := range algorithms {
			names = append(names, a)
		}
		sort.Strings(names)
		var parts []string
		for _, a := range names {
			parts = append(parts, a+": "+b.big(itoa(algorithms[a])))
		}
		s.Blocks = append(s.Blocks, para{Spans: text(b.tx("census.algorithms", args{"List": strings.Join(parts, ", ")}))})
	}
	// Grouped by standard form, the groups in the order of their first
	// code in the survey, the codes in survey order.
	order := map[string]int{}
	for k, r := range rows {
		key := r.row.Standard
		if key == "" {
			key = r.row.Code
		}
		if _, ok := order[key]; !ok {
			order[key] = k
		}
	}
	group := func(r censusRow) int {
		if r.row.Standard == "" {
			return order[r.row.Code]
		}
		return order[r.row.Standard]
	}
	slices.SortStableFunc(rows, func(x, y censusRow) int { return group(x) - group(y) })
	withAlg := len(algorithms) > 0
	t := table{Header: []cell{
		{Text: b.tx("census.col.standard", nil)}, {Text: b.tx("census.col.code", nil)},
		{Text: b.tx("census.col.result", nil)},
		{Text: b.tx("census.col.rare", nil)}, {Text: b.tx("census.col.largest", nil)},
		{Text: b.tx("census.col.published", nil)}, {Text: b.tx("census.col.verdict", nil)},
	}}
	if withAlg {
		t.Header = append(t.Header, cell{Text: b.tx("census.col.algorithm", nil)})
	}
	last := ""
	var solvers []string
	solved := map[string][]string{}
	for _, cr := range rows {
		r, res := cr.row, b.f.Results[cr.i]
		std := r.Standard
		if std == last {
			std = ""
		} else {
			last = r.Standard
		}
		code := r.Code
		if r.Shift != 0 {
			code += fmt.Sprintf(" (%+d)", r.Shift)
		}
		if e := r.Published; e != nil && e.SolvedBy != nil {
			who := fmt.Sprintf("%s, %d", e.SolvedBy.Who, e.SolvedBy.Year)
			if !slices.Contains(solvers, who) {
				solvers = append(solvers, who)
			}
			solved[who] = append(solved[who], r.Code)
		}
		result := b.tx("census.open", args{"N": b.big(itoa(res.Period.CheckedTo))})
		if res.Period.Proven {
			result = b.tx("census.proven", args{"Pre": b.big(itoa(res.Period.Preperiod)), "Period": b.big(itoa(res.Period.Period)), "N": b.big(itoa(res.Period.CheckedTo))})
		}
		rare, largest := "", ""
		if rr := res.Rare; rr != nil {
			rare = fmt.Sprintf("%x · %s", rr.Mask, b.big(itoa(rr.Count)))
			if rr.Count > 0 && rr.Last >= 0 {
				rare += " · " + b.big(itoa(rr.Last))
			}
			largest = b.tx("census.largest", args{"V": utoa(rr.Largest), "N": b.big(itoa(rr.LargestAt))})
		}
		row := []cell{{Text: std, Code: std != ""}, {Text: code, Code: true}, {Text: result}, {Text: rare}, {Text: largest},
			{Text: b.published(r)}, {Text: b.verdict(r)}}
		if withAlg {
			row = append(row, cell{Text: cr.algorithm})
		}
		t.Rows = append(t.Rows, row)
	}
	s.Blocks = append(s.Blocks, t, para{Spans: text(b.tx("census.table.note", nil)), Note: true})
	if fig, ok := b.openValues(rows); ok {
		s.Blocks = append(s.Blocks, fig)
	}
	if len(solvers) > 0 {
		var items [][]span
		for _, who := range solvers {
			items = append(items, text(who+": "+strings.Join(solved[who], ", ")))
		}
		s.Blocks = append(s.Blocks, heading{Text: b.tx("census.solvers", nil)}, list{Items: items})
	}
	var corr [][]span
	for _, c := range pub.Corrections {
		corr = append(corr, text(c.Text+" ("+strings.Join(c.Sources, ", ")+")"))
	}
	if len(corr) > 0 {
		s.Blocks = append(s.Blocks, heading{Text: b.tx("census.corrections", nil)}, list{Items: corr})
	}
	var keys []string
	for k := range pub.Sources {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var srcs [][]span
	for _, k := range keys {
		src := pub.Sources[k]
		// Addresses are printed, not linked: a survey's page fetches
		// nothing and links nowhere (TestSurveyHTML).
		srcs = append(srcs, text(k+": "+src.Who+", "+src.Title+". "+src.Where))
	}
	s.Blocks = append(s.Blocks, heading{Text: b.tx("census.sources", nil)}, list{Items: srcs})
	return s
}

// censusFigureValues is how many first values the figure of the codes
// without a proven period draws: the survey keeps no values (they would
// be megabytes a code), so the figure computes these few again.
const censusFigureValues = 256

// openValues is the figure of the first values of the codes without a
// proven period, a row each, in the table's order.
func (b *surveyBuilder) openValues(rows []censusRow) (surveyFigure, bool) {
	var vals [][]uint64
	var names []string
	for _, cr := range rows {
		if p := b.f.Results[cr.i].Period; p == nil || p.Proven {
			continue
		}
		g, err := heap.ParseOctal(cr.row.Code)
		if err != nil {
			continue
		}
		vs, err := g.Values(censusFigureValues-1, heap.Limits{})
		if err != nil {
			continue
		}
		vals, names = append(vals, vs), append(names, cr.row.Code)
	}
	if len(vals) == 0 {
		return surveyFigure{}, false
	}
	return surveyFigure{
		Caption: b.tx("census.plot.open", args{"To": itoa(censusFigureValues - 1), "Count": itoa(len(vals))}), Height: plots.SquareHeight,
		draw: func() (*plot.Plot, error) {
			return plots.ValueRows(vals, 0, plots.Labels{X: b.tx("plot.axis.n", nil), Y: b.tx("survey.axis.variant", nil), Rows: names})
		},
	}, true
}

// published is the published result of a census row, for its code.
func (b *surveyBuilder) published(r census.Row) string {
	e := r.Published
	switch {
	case e == nil:
		return b.tx("census.pub.none", nil)
	case e.Status == census.StatusUnsolved:
		n := ""
		if e.Computed > 0 {
			n = b.big(itoa(e.Computed))
		}
		return b.tx("census.pub.unsolved", args{"N": n})
	}
	return b.tx("census.pub.solved", args{"Pre": b.big(itoa(e.Preperiod)), "Period": b.big(itoa(e.Period))})
}

// verdict says how a census row compares.
func (b *surveyBuilder) verdict(r census.Row) string {
	a := args{}
	if r.FirstDifference != nil {
		a["At"] = b.big(itoa(*r.FirstDifference))
	}
	if r.Published != nil {
		a["Needs"] = b.big(itoa(r.Published.Needs))
	}
	return b.tx("census.verdict."+r.Verdict, a)
}

// rareAlgorithm reads the algorithm of a variant's rare analysis, when
// the results name it ("rare": {"algorithm": "bitset", …}).
func rareAlgorithm(results json.RawMessage) string {
	var x struct {
		Rare *struct {
			Algorithm string `json:"algorithm"`
		} `json:"rare"`
	}
	if len(results) == 0 || json.Unmarshal(results, &x) != nil || x.Rare == nil {
		return ""
	}
	return x.Rare.Algorithm
}
