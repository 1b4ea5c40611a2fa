package reports

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/plots"
	"github.com/nimbook/nimbook/templates"
)

func (b *builder) values(sr *job.SectionResult) []block {
	vals := sr.Results.Values
	if len(vals) == 0 {
		return nil
	}
	coins := job.IsCoinRows(specGame(sr))
	first := firstOf(sr, 0)
	shown := vals
	if len(shown) > b.o.MaxValues {
		shown = shown[:b.o.MaxValues]
	}
	label := b.tx("values.label", args{"Coins": coins})
	out := []block{
		para{Spans: text(b.tx("values.intro", args{"Coins": coins, "From": itoa(first), "To": itoa(first + len(vals) - 1)}))},
		valueTable(shown, first, b.o.Wrap, label),
	}
	var notes []string
	if hasZero(shown) {
		notes = append(notes, b.tx("values.bold", nil))
	}
	if coins {
		notes = append(notes, b.tx("values.numbering", args{"First": itoa(first)}))
	}
	if len(shown) < len(vals) {
		notes = append(notes, b.tx("values.truncated", args{"From": itoa(first), "To": itoa(first + len(shown) - 1), "Total": b.big(itoa(len(vals)))}))
	}
	if len(notes) > 0 {
		out = append(out, para{Spans: noteSpans(notes, b.tx("values.bold", nil)), Note: true})
	}
	return append(out, b.oeis(vals, first)...)
}

// oeis says which sequence of the offline OEIS table the values are, or
// where they part from one they follow for a while.
func (b *builder) oeis(vals []uint64, first int) []block {
	var out []block
	for _, r := range lookupOEIS(vals, first) {
		name := r.Entry.Name
		if b.o.Lang == "fr" {
			name = r.Entry.NameFR
		}
		data := args{"ID": r.Entry.ID, "Name": name, "From": itoa(r.From), "To": itoa(r.To),
			"Shift": r.Shift != 0, "At": itoa(r.At), "Want": utoa(r.Want), "Got": utoa(r.Got)}
		key := "oeis.differs"
		if !r.Match {
			data["To"] = itoa(r.At - 1)
		}
		if r.Match {
			key = "oeis.match"
		}
		out = append(out, para{Spans: linkID(b.tx(key, data), r.Entry.ID, "https://oeis.org/"+r.Entry.ID)})
	}
	return out
}

// linkID makes the first id in a message a link to url.
func linkID(msg, id, url string) []span {
	before, after, ok := strings.Cut(msg, id)
	if !ok {
		return text(msg)
	}
	var out []span
	if before != "" {
		out = append(out, span{Text: before})
	}
	out = append(out, span{Text: id, Link: url, Literal: true})
	if after != "" {
		out = append(out, span{Text: after})
	}
	return out
}

func hasZero(vs []uint64) bool {
	for _, v := range vs {
		if v == 0 {
			return true
		}
	}
	return false
}

func valueCell(v uint64) cell { return cell{Text: utoa(v), Strong: v == 0} }

// valueTable lays a sequence out as the seeds do: one row "n | 1 2 … 10"
// when it fits, else rows of wrap values labelled by their range of n.
func valueTable(vals []uint64, first, wrap int, label string) table {
	if len(vals) <= wrap {
		t := table{Header: []cell{{Text: "n"}}}
		row := []cell{{Text: label}}
		for i, v := range vals {
			t.Header = append(t.Header, cell{Text: itoa(first + i)})
			row = append(row, valueCell(v))
		}
		t.Rows = [][]cell{row}
		return t
	}
	t := table{Header: []cell{{Text: "n"}}}
	for k := 0; k < wrap; k++ {
		t.Header = append(t.Header, cell{Text: "+" + itoa(k)})
	}
	for lo := 0; lo < len(vals); lo += wrap {
		hi := min(lo+wrap, len(vals))
		label := itoa(first+lo) + ".." + itoa(first+hi-1)
		if hi-lo == 1 {
			label = itoa(first + lo)
		}
		row := []cell{{Text: label}}
		for _, v := range vals[lo:hi] {
			row = append(row, valueCell(v))
		}
		for len(row) < wrap+1 {
			row = append(row, cell{})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// grid reads a 2-D table; ok is false for another shape.
func grid(v any) ([][]uint64, bool) {
	switch t := v.(type) {
	case [][]uint64:
		return t, true
	}
	n, ok := toNode(v)
	if !ok || n.leaf {
		return nil, false
	}
	out := make([][]uint64, len(n.items))
	for i, row := range n.items {
		xs, ok := row.ints()
		if !ok {
			return nil, false
		}
		out[i] = make([]uint64, len(xs))
		for j, x := range xs {
			out[i][j] = uint64(x)
		}
	}
	return out, true
}

// cube reads a 3-D table.
func cube(v any) ([][][]uint64, bool) {
	if t, ok := v.([][][]uint64); ok {
		return t, true
	}
	n, ok := toNode(v)
	if !ok || n.leaf {
		return nil, false
	}
	var out [][][]uint64
	for _, layer := range n.items {
		g, ok := grid(layer.items)
		if !ok || layer.leaf {
			return nil, false
		}
		out = append(out, g)
	}
	return out, true
}

func (b *builder) corner(sr *job.SectionResult) string {
	if t, ok := specGame(sr).(job.Tabler); ok {
		corner, _ := t.TableTexts(b.txf)
		return corner
	}
	return ""
}

// opTable says whether the section's table holds the values of an
// operation (job.ValueTable: nimbers), not of positions.
func opTable(sr *job.SectionResult) bool {
	v, ok := specGame(sr).(job.ValueTable)
	return ok && v.ValueTable()
}

func (b *builder) table(sr *job.SectionResult) []block {
	res := sr.Results.Table
	if res == nil {
		return nil
	}
	var out []block
	if t, ok := specGame(sr).(job.Tabler); ok {
		if _, intro := t.TableTexts(b.txf); intro != "" {
			out = append(out, para{Spans: text(intro)})
		}
	}
	if g, ok := grid(res); ok {
		return append(out, b.grid(sr, g, firstOf(sr, 0), firstOf(sr, 1))...)
	}
	c, ok := cube(res)
	if !ok {
		return append(out, para{Spans: text(sprint(res))})
	}
	layers := c
	maxLayers := max(1, b.o.MaxSide/4)
	// In a 3-D product the layers run along the first factor.
	for k, layer := range layers {
		if k == maxLayers {
			out = append(out, para{Spans: text(b.tx("table.layers.truncated", args{"Shown": itoa(maxLayers), "Total": itoa(len(layers))})), Note: true})
			break
		}
		out = append(out, para{Spans: text(b.tx("table.layer", args{"K": itoa(k + firstOf(sr, 0))}))})
		out = append(out, b.grid(sr, layer, firstOf(sr, 1), firstOf(sr, 2))...)
	}
	return out
}

// grid renders a 2-D table with rows from rowLo and columns from colLo,
// P-positions (0) in bold, cut to MaxSide with a note.
func (b *builder) grid(sr *job.SectionResult, g [][]uint64, rowLo, colLo int) []block {
	rows := len(g)
	cols := 0
	for _, r := range g {
		cols = max(cols, len(r))
	}
	sr2, sc := min(rows, b.o.MaxSide), min(cols, b.o.MaxSide)
	t := table{Header: []cell{{Text: b.corner(sr)}}}
	for j := 0; j < sc; j++ {
		t.Header = append(t.Header, cell{Text: itoa(colLo + j)})
	}
	zero := false
	for i := 0; i < sr2; i++ {
		row := []cell{{Text: itoa(rowLo + i)}}
		for j := 0; j < sc; j++ {
			if j < len(g[i]) {
				c := valueCell(g[i][j])
				c.Strong = c.Strong && !opTable(sr)
				row = append(row, c)
				zero = zero || g[i][j] == 0
			} else {
				row = append(row, cell{})
			}
		}
		t.Rows = append(t.Rows, row)
	}
	out := []block{t}
	var notes []string
	// In a nimbers table 0 is a value, not a position.
	if zero && !opTable(sr) {
		notes = append(notes, b.tx("values.bold", nil))
	}
	if sr2 < rows || sc < cols {
		notes = append(notes, b.tx("table.truncated", args{"Rows": itoa(rows), "Cols": itoa(cols), "ShownRows": itoa(sr2), "ShownCols": itoa(sc)}))
	}
	if len(notes) > 0 {
		out = append(out, para{Spans: noteSpans(notes, b.tx("values.bold", nil)), Note: true})
	}
	return out
}

func (b *builder) ppositions(sr *job.SectionResult) []block {
	pp := sr.Results.PPositions
	if pp == nil {
		return nil
	}
	of := ""
	if pp.Of > 0 {
		of = b.big(utoa(pp.Of))
	}
	out := []block{para{Spans: text(b.tx("ppos.count", args{"Count": b.big(utoa(pp.Count)), "Of": of, "Percent": b.tx("percent", percent(pp.Count, pp.Of, b.o.Lang))}))}}
	if sp := sr.Spec; sp != nil {
		var over string
		switch h := sp.Heap(); {
		case h != nil:
			over = b.heapsOver(h)
		case isOver(sp.Game):
			over = sp.Game.(job.Over).PPositionsOver(b.txf)
		}
		if over != "" {
			out = append(out, para{Spans: text(over), Note: true})
		}
	}
	if pp.List == nil {
		if pp.Count > job.MaxListed {
			out = append(out, para{Spans: text(b.tx("ppos.notlisted", args{"Max": itoa(job.MaxListed)})), Note: true})
		}
		return out
	}
	n, ok := toNode(pp.List)
	if !ok || n.leaf {
		return append(out, para{Spans: text(sprint(pp.List))})
	}
	items := n.items
	if len(items) > b.o.MaxList {
		out = append(out, para{Spans: text(b.tx("ppos.list.truncated", args{"Shown": itoa(b.o.MaxList), "Count": itoa(len(items))}))})
	} else {
		out = append(out, para{Spans: text(b.tx("ppos.list", nil))})
	}
	shown := items[:min(len(items), b.o.MaxList)]
	if job.IsCoinRows(specGame(sr)) {
		// One coin row per line, so that the code's structure shows.
		var l list
		for _, it := range shown {
			l.Items = append(l.Items, b.position(sr, nodeValue(it)))
		}
		out = append(out, l)
	} else {
		parts := make([]string, len(shown))
		for i, it := range shown {
			parts[i] = spanText(b.position(sr, nodeValue(it)))
		}
		out = append(out, para{Spans: text(strings.Join(parts, ", ") + ".")})
	}
	if more := len(items) - len(shown); more > 0 {
		out = append(out, para{Spans: text(b.tx("ppos.more", args{"More": itoa(more)})), Note: true})
	}
	return out
}

// heapsOver says what a heap game's P-positions were counted over, as the
// job counts them: every position under the given heaps when the rule
// takes its position as a parameter and its game counts them
// (heap.PPositioner), else the single heaps 0..upto.
func (b *builder) heapsOver(h *job.HeapSpec) string {
	if key := h.Rule.PositionParam; key != "" && h.Params.Has(key) {
		if g, err := h.NewGame(); err == nil {
			if _, ok := g.(heap.PPositioner); ok {
				heaps := h.Params.Ints(key)
				if len(heaps) == 0 {
					return ""
				}
				return b.tx("ppos.over.positions", args{"Heaps": templates.Tuple(heaps)})
			}
		}
	}
	return b.tx("ppos.over.heaps", args{"Upto": itoa(h.Upto())})
}

// nodeValue turns a node back into plain Go values for position.
func nodeValue(n node) any {
	if n.leaf {
		return n.n
	}
	out := make([]any, len(n.items))
	for i, c := range n.items {
		out[i] = nodeValue(c)
	}
	return out
}

// periodMethods names, for the templates (period.method.NAME and
// period.why.NAME), the arguments of package heap's certificates: the
// proofs it knows, and why it claims none (a method, not a rule: nim's
// values g(n) = n never repeat). A method not listed here, from a rule
// added later, is printed as the engine writes it (period.why).
var periodMethods = map[string]string{
	heap.MethodSubtraction: "subtraction",
	heap.MethodPlain:       "plain",
	heap.MethodGuySmith:    "guy-smith",
	heap.MethodThreeWay:    "three-way",
	heap.MethodNone:        "none",
	heap.MethodNim:         "nim",
	heap.MethodAllBut:      "all-but",
}

func (b *builder) period(sr *job.SectionResult) []block {
	p := sr.Results.Period
	if p == nil {
		return nil
	}
	if o := p.Observed; o != nil && !p.Proven {
		// SPEC's form for a rule without a theorem, read as the notebook's
		// observed period.
		q := *p
		q.Preperiod, q.Period, q.Method = o.Preperiod, o.Period, job.MethodObserved
		p = &q
	}
	key := "period.proven"
	method, known := periodMethods[p.Method]
	switch {
	case !p.Proven && p.Method == job.MethodObserved && p.Period > 0:
		key = "period.observed"
		if sr.Spec != nil && sr.Spec.Heap() != nil {
			// A rule (a Starlark one) that no periodicity theorem covers.
			key = "period.observed.rule"
		}
	case !p.Proven:
		msg := b.tx("period.notproven", args{"CheckedTo": itoa(p.CheckedTo)})
		switch {
		case known && b.t.Has("period.why."+method):
			msg += " " + b.tx("period.why."+method, nil)
		case sr.Spec != nil && sr.Spec.Heap() != nil && sr.Spec.Heap().Rule.NoPeriod[b.o.Lang] != "":
			// The rule's own reason, in the report's language.
			msg += " " + sr.Spec.Heap().Rule.NoPeriod[b.o.Lang]
		case !known && p.Method != "" && p.Method != job.MethodObserved:
			// A rule's own reason, in the engine's words.
			msg += " " + b.tx("period.why", args{"Why": capitalize(strings.TrimSuffix(p.Method, "."))})
		}
		if rc := sr.Results.Reached; rc != nil {
			msg += " " + b.tx("period.reached."+rc.By, args{"Heap": b.big(itoa(rc.Heap)), "Upto": b.big(itoa(rc.Upto)), "Next": b.big(itoa(rc.Next)), "Limit": rc.Limit})
		}
		return []block{para{Spans: text(msg)}}
	}
	// The engine names its argument in English; the reader reads it in the
	// report's language.
	desc := p.Method
	if known {
		name := "period.method." + method
		if b.stated[method] && b.t.Has(name+".again") {
			name += ".again"
		}
		if b.stated == nil {
			b.stated = map[string]bool{}
		}
		b.stated[method] = true
		desc = b.tx(name, nil)
	}
	out := []block{para{Spans: text(b.tx(key, args{
		"Period": itoa(p.Period), "Preperiod": itoa(p.Preperiod), "LastException": itoa(p.Preperiod - 1),
		"CheckedTo": itoa(p.CheckedTo), "Method": desc,
	}))}}
	// The repeating block, when the values are at hand and it is short.
	vals := sr.Results.Values
	first := firstOf(sr, 0)
	lo := p.Preperiod - first
	if p.Period > 0 && p.Period <= 60 && lo >= 0 && lo+p.Period <= len(vals) {
		parts := make([]string, p.Period)
		for i, v := range vals[lo : lo+p.Period] {
			parts[i] = utoa(v)
		}
		out = append(out, para{Spans: text(b.tx("period.cycle", args{"From": itoa(p.Preperiod), "Cycle": strings.Join(parts, " ")}))})
	}
	return out
}

// rare says how the values split into rare and common ones, and lists the
// rare positions up to MaxList.
func (b *builder) rare(sr *job.SectionResult) []block {
	r := sr.Results.Rare
	if r == nil {
		return nil
	}
	data := args{"Mask": strconv.FormatUint(r.Mask, 2), "Domain": r.Type == "domain", "T": ""}
	if r.T != nil {
		data["T"] = itoa(*r.T)
	}
	last := ""
	if r.Count > 0 && r.Last >= 0 {
		last = itoa(r.Last)
	}
	out := []block{
		para{Spans: text(b.tx("rare.split", data))},
		para{Spans: text(b.tx("rare.count", args{"Count": b.big(itoa(r.Count)), "Total": b.big(itoa(r.CheckedTo + 1)), "CheckedTo": itoa(r.CheckedTo), "Last": last}))},
	}
	if r.Count == 0 {
		return out
	}
	// The positions: from the result, or found again from the values when
	// the result does not list them (more than job.MaxListed).
	pos, _ := r.Positions.([]int)
	if pos == nil && len(r.Values) > 0 {
		for n, v := range r.Values {
			if len(pos) == b.o.MaxList {
				break
			}
			if r.IsRare(n, v) {
				pos = append(pos, n)
			}
		}
	}
	if len(pos) == 0 {
		return append(out, para{Spans: text(b.tx("ppos.notlisted", args{"Max": itoa(job.MaxListed)})), Note: true})
	}
	shown := pos[:min(len(pos), b.o.MaxList)]
	if len(shown) < r.Count {
		out = append(out, para{Spans: text(b.tx("rare.list.truncated", args{"Shown": itoa(len(shown)), "Count": b.big(itoa(r.Count))}))})
	} else {
		out = append(out, para{Spans: text(b.tx("rare.list", nil))})
	}
	parts := make([]string, len(shown))
	for i, n := range shown {
		parts[i] = itoa(n)
	}
	out = append(out, para{Spans: text(strings.Join(parts, ", ") + ".")})
	if more := r.Count - len(shown); more > 0 {
		out = append(out, para{Spans: text(b.tx("ppos.more", args{"More": b.big(itoa(more))})), Note: true})
	}
	return out
}

func (b *builder) rowPeriods(sr *job.SectionResult) []block {
	rp := sr.Results.RowPeriods
	if len(rp) == 0 {
		return nil
	}
	t := table{Header: []cell{{Text: b.tx("rowperiods.row", nil)}, {Text: b.tx("rowperiods.period", nil)}, {Text: b.tx("rowperiods.start", nil)}}}
	for _, r := range rp {
		t.Rows = append(t.Rows, []cell{{Text: itoa(r.Row)}, {Text: itoa(r.Period)}, {Text: itoa(r.Start)}})
	}
	return []block{para{Spans: text(b.tx("rowperiods.intro", nil))}, t}
}

func (b *builder) subject(sr *job.SectionResult) []span {
	var pos any = sr.Results.Position
	if pos == nil && sr.Spec != nil {
		pos = sr.Spec.Position
	}
	return b.position(sr, pos)
}

func misere(sr *job.SectionResult) bool {
	return sr.Results.PlayMisere || (sr.Spec != nil && sr.Spec.Play == "misere")
}

// sentence fills a message whose {{.Position}} is a position with code
// spans: the message is split around a marker so the spans survive.
func (b *builder) sentence(key string, data args, pos []span) []span {
	const mark = "\x00POS\x00"
	data["Position"] = mark
	s := b.tx(key, data)
	before, after, found := strings.Cut(s, mark)
	if !found {
		return text(s)
	}
	var out []span
	if before != "" {
		out = append(out, span{Text: before})
	}
	out = append(out, pos...)
	if after != "" {
		out = append(out, span{Text: after})
	}
	return out
}

func (b *builder) outcome(sr *job.SectionResult) []block {
	o := sr.Results.Outcome
	if o == "" {
		return nil
	}
	out := []block{para{Spans: b.sentence("outcome", args{"Outcome": o, "Misere": misere(sr)}, b.subject(sr))}}
	return append(out, b.misereMethod(sr)...)
}

func (b *builder) moves(sr *job.SectionResult) []block {
	mv := sr.Results.Moves
	if mv == nil {
		return nil
	}
	n, ok := toNode(mv)
	if !ok || n.leaf {
		return []block{para{Spans: text(sprint(mv))}}
	}
	if len(n.items) == 0 {
		return []block{para{Spans: b.sentence("moves.none", args{}, b.subject(sr))}}
	}
	out := []block{para{Spans: b.sentence("moves.intro", args{"Count": itoa(len(n.items))}, b.subject(sr))}}
	var l list
	for i, it := range n.items {
		if i == b.o.MaxList {
			break
		}
		l.Items = append(l.Items, append([]span{{Text: "→ "}}, b.moveTo(sr, nodeValue(it))...))
	}
	out = append(out, l)
	if more := len(n.items) - len(l.Items); more > 0 {
		out = append(out, para{Spans: text(b.tx("ppos.more", args{"More": itoa(more)})), Note: true})
	}
	return out
}

func (b *builder) weights(sr *job.SectionResult) []block {
	w := sr.Results.Weights
	if len(w) == 0 {
		return nil
	}
	var total uint64
	var idx []int
	for i, c := range w {
		total += c
		if c != 0 {
			idx = append(idx, i)
		}
	}
	heads, count := b.tx("weights.heads", nil), b.tx("weights.count", nil)
	var t table
	if len(idx) <= 16 {
		// One row, as the seeds list them: 1, 759, 2576, 759, 1.
		t.Header = []cell{{Text: heads}}
		row := []cell{{Text: count}}
		for _, i := range idx {
			t.Header = append(t.Header, cell{Text: itoa(i)})
			row = append(row, cell{Text: utoa(w[i])})
		}
		t.Rows = [][]cell{row}
	} else {
		t.Header = []cell{{Text: heads}, {Text: count}}
		for _, i := range idx {
			t.Rows = append(t.Rows, []cell{{Text: itoa(i)}, {Text: utoa(w[i])}})
		}
	}
	return []block{para{Spans: text(b.tx("weights.intro", args{"Total": b.big(utoa(total))}))}, t}
}

func (b *builder) distribution(sr *job.SectionResult) []block {
	d := sr.Results.Distribution
	if len(d) == 0 {
		return nil
	}
	// Keep the values (columns) and weights (rows) that occur.
	width := 0
	for _, r := range d {
		width = max(width, len(r))
	}
	var cols []int
	for v := 0; v < width; v++ {
		for _, r := range d {
			if v < len(r) && r[v] != 0 {
				cols = append(cols, v)
				break
			}
		}
	}
	allCols := len(cols)
	cols = cols[:min(len(cols), b.o.MaxSide)]
	t := table{Header: []cell{{Text: b.tx("distribution.corner", nil)}}}
	for _, v := range cols {
		t.Header = append(t.Header, cell{Text: itoa(v)})
	}
	rows := 0
	for w, r := range d {
		nonzero := false
		for _, c := range r {
			nonzero = nonzero || c != 0
		}
		if !nonzero {
			continue
		}
		rows++
		row := []cell{{Text: itoa(w)}}
		for _, v := range cols {
			c := uint64(0)
			if v < len(r) {
				c = r[v]
			}
			row = append(row, cell{Text: utoa(c), Strong: v == 0 && c != 0})
		}
		t.Rows = append(t.Rows, row)
	}
	out := []block{para{Spans: text(b.tx("distribution.intro", nil))}, t}
	if allCols > len(cols) {
		out = append(out, para{Spans: text(b.tx("table.truncated", args{"Rows": itoa(rows), "Cols": itoa(allCols), "ShownRows": itoa(rows), "ShownCols": itoa(len(cols))})), Note: true})
	}
	return out
}

func (b *builder) code(sr *job.SectionResult) []block {
	c := sr.Results.Code
	if c == nil {
		return nil
	}
	return []block{para{Spans: text(b.tx("code", args{"N": itoa(c.Length), "K": itoa(c.Dimension), "D": itoa(c.MinDistance), "Words": b.big(utoa(c.Words))}))}}
}

func (b *builder) steiner(sr *job.SectionResult) []block {
	s := sr.Results.Steiner
	if s == nil {
		return nil
	}
	if !s.Holds {
		return []block{para{Spans: text(b.tx("steiner.none", nil))}}
	}
	count := ""
	if w := sr.Results.Weights; s.K < len(w) && w[s.K] != 0 {
		count = b.big(utoa(w[s.K]))
	}
	data := args{"T": itoa(s.T), "K": itoa(s.K), "V": itoa(s.V), "Lambda": utoa(s.Lambda), "Count": count}
	if s.Lambda == 1 {
		return []block{para{Spans: text(b.tx("steiner.S", data))}}
	}
	return []block{para{Spans: text(b.tx("steiner.design", data))}}
}

// knownGroups names the automorphism groups of the seeds' codes.
var knownGroups = []struct {
	n     int
	order string
	key   string
}{
	{7, "168", "group.GL32"},
	{8, "1344", "group.AGL32"},
	{24, "244823040", "group.M24"},
}

func (b *builder) automorphisms(sr *job.SectionResult) []block {
	a := sr.Results.Automorphisms
	if a == "" {
		return nil
	}
	n := 0
	switch {
	case sr.Spec != nil && job.IsCoinRows(sr.Spec.Game):
		n, _ = sr.Spec.Game.(job.CoinRows).Board()
	case sr.Results.Code != nil:
		n = sr.Results.Code.Length
	}
	name := ""
	for _, g := range knownGroups {
		if g.n == n && g.order == a {
			name = b.tx(g.key, nil)
		}
	}
	return []block{para{Spans: text(b.tx("automorphisms", args{"N": itoa(n), "Order": b.big(a), "Name": name}))}}
}

func (b *builder) record(sr *job.SectionResult) []block {
	rec := sr.Results.Record
	if rec == nil {
		return nil
	}
	t := table{Header: []cell{
		{Text: b.tx("record.move", nil)}, {Text: b.tx("record.player", nil)},
		{Text: b.tx("record.from", nil)}, {Text: b.tx("record.to", nil)},
		{Text: b.tx("record.outcomes", nil)}, {Text: b.tx("record.remark", nil)},
	}}
	for i, m := range rec.Moves {
		remark := b.tx("record.good", nil)
		switch {
		case !m.Legal:
			remark = b.tx("record.illegal", nil)
		case m.Mistake:
			remark = b.tx("record.mistake", nil)
			// Any slice: positions of user-defined games are strings.
			if rv := reflect.ValueOf(m.Missed); rv.Kind() == reflect.Slice && rv.Len() > 0 {
				parts := make([]string, rv.Len())
				for k := range parts {
					parts[k] = spanText(b.position(sr, rv.Index(k).Interface()))
				}
				remark = b.tx("record.mistake.missed", args{"Missed": strings.Join(parts, ", ")})
			}
		}
		outcomes := m.Before + " → " + m.After
		t.Rows = append(t.Rows, []cell{
			{Text: itoa(i + 1)}, {Text: itoa(m.Player)},
			b.posCell(sr, m.From), b.posCell(sr, m.To),
			{Text: outcomes}, {Text: remark, Strong: m.Mistake || !m.Legal},
		})
	}
	winner, illegal := "", ""
	if rec.Winner > 0 {
		winner = itoa(rec.Winner)
	}
	if rec.Illegal > 0 {
		illegal = itoa(rec.Illegal)
	}
	return []block{t, para{Spans: text(b.tx("record.summary", args{"Mistakes": itoa(rec.Mistakes), "Winner": winner, "Illegal": illegal}))}}
}

// posCell is a position in a table cell: coin rows only, so columns stay
// narrow.
func (b *builder) posCell(sr *job.SectionResult, v any) cell {
	ss := b.position(sr, v)
	if len(ss) > 0 && ss[0].Code {
		return cell{Text: ss[0].Text, Code: true}
	}
	return cell{Text: spanText(ss)}
}

func (b *builder) graph(sr *job.SectionResult) []block {
	g := sr.Results.Graph
	if g == nil {
		return nil
	}
	out := []block{para{Spans: text(b.tx("graph.summary", args{"Nodes": b.big(itoa(g.Nodes)), "Edges": b.big(itoa(g.Edges))}))}}
	if len(g.Kernel) > 0 {
		ks := g.Kernel
		more := ""
		if len(ks) > b.o.MaxList {
			ks = ks[:b.o.MaxList]
			more = " " + b.tx("ppos.more", args{"More": itoa(len(g.Kernel) - b.o.MaxList)})
		}
		out = append(out, para{Spans: text(b.tx("graph.kernel", args{"Kernel": strings.Join(ks, ", ")}) + more)})
	}
	// A small graph is drawn (seed 003's pictures) in HTML and PDF, where
	// the picture replaces the DOT text; Markdown keeps the DOT text.
	drawn := !b.o.NoFigures && len(g.Labels) > 0 && len(g.Labels) <= plots.MaxGraphNodes
	if drawn {
		out = append(out, figure{Kind: "graph", Graph: g, Caption: b.tx("plot.graph", nil)})
	}
	if g.DOT != "" {
		lines := strings.Split(strings.TrimRight(g.DOT, "\n"), "\n")
		out = append(out, para{Spans: text(b.tx("graph.dot", nil)), MDOnly: drawn})
		if len(lines) > b.o.MaxDOTLines {
			out = append(out, codeBlock{Lang: "dot", Text: strings.Join(lines[:b.o.MaxDOTLines], "\n") + "\n…", MDOnly: drawn})
			out = append(out, para{Spans: text(b.tx("graph.dot.truncated", args{"Lines": itoa(len(lines)), "Shown": itoa(b.o.MaxDOTLines)})), Note: true, MDOnly: drawn})
		} else {
			out = append(out, codeBlock{Lang: "dot", Text: strings.Join(lines, "\n"), MDOnly: drawn})
		}
	}
	return out
}

// plots adds the figures the section's results allow.
func (b *builder) plots(sr *job.SectionResult) []block {
	r := &sr.Results
	var out []block
	if len(r.Values) > 0 {
		key := "plot.values"
		if job.IsCoinRows(specGame(sr)) {
			key = "plot.values.coins"
		}
		f := figure{Kind: "values", Values: r.Values, First: firstOf(sr, 0), Period: r.Period,
			Title: b.tx(key, nil), X: b.tx("plot.axis.n", nil), Y: b.tx("plot.axis.value", nil)}
		f.Caption = f.Title
		if r.Period != nil && r.Period.Proven {
			f.Caption += " (" + b.tx("plot.period", nil) + ")"
		}
		out = append(out, f)
	}
	if rr := r.Rare; rr != nil && len(rr.Values) > 0 {
		f := figure{Kind: "rare", Values: rr.Values, Rare: rr, Title: b.tx("plot.rare", args{"Domain": rr.Type == "domain"}),
			X: b.tx("plot.axis.n", nil), Y: b.tx("plot.axis.value", nil)}
		f.Caption = f.Title
		out = append(out, f)
	}
	if g, ok := grid(r.Table); ok && r.Table != nil {
		f := figure{Kind: "table", Table: g, RowLo: firstOf(sr, 0), ColLo: firstOf(sr, 1), Mark: !opTable(sr),
			Title: b.tx("plot.table", nil), X: b.tx("plot.axis.col", nil), Y: b.tx("plot.axis.row", nil)}
		if opTable(sr) {
			// No P-positions here: the caption names the table.
			f.Title = sr.Title
		}
		f.Caption = f.Title
		out = append(out, f)
	}
	if len(r.Weights) > 0 {
		f := figure{Kind: "weights", Values: r.Weights, Title: b.tx("plot.weights", nil),
			X: b.tx("plot.axis.heads", nil), Y: b.tx("plot.axis.count", nil)}
		f.Caption = f.Title
		out = append(out, f)
	}
	// A figure names its game and cites its source, so that it reads on
	// its own wherever the page breaks.
	title := cleanTitle(sr.Title)
	source, ref := "", strings.TrimSpace(sr.Source)
	if ref != "" {
		source = b.tx("source", args{"Source": ref})
	}
	for i, bl := range out {
		f := bl.(figure)
		if title != "" && f.Caption != title {
			f.Caption = title + " — " + f.Caption
		}
		f.Source, f.Ref = source, ref
		out[i] = f
	}
	if len(out) > 0 {
		// Markdown cannot hold figures; it prints this note instead.
		out = append([]block{para{Spans: text(b.tx("plot.markdown", nil)), Note: true, MDOnly: true}}, out...)
	}
	return out
}
