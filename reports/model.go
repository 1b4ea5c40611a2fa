package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/templates"
)

// Options control how a report is rendered. The zero value is usable: the
// report's language (English if unset), embedded templates, rows of 10.
type Options struct {
	// Lang is "en" or "fr"; empty means the report's Lang, else "en".
	Lang string
	// Templates supplies the fixed texts; nil means the embedded ones
	// for Lang. When set, its language wins over Lang.
	Templates *templates.Set
	// Wrap is the number of values per row of a value table (the seeds
	// use 10; 20 suits long runs). 0 means 10.
	Wrap int
	// MaxValues is the most values shown in a value table; more are
	// summarised with a note. 0 means 1000.
	MaxValues int
	// MaxSide is the most rows and columns shown of a 2-D table; larger
	// tables show their top-left corner with a note. 0 means 32.
	MaxSide int
	// MaxList is the most positions listed (P-positions, moves); the
	// rest are counted. 0 means 50.
	MaxList int
	// MaxDOTLines is the most lines of a game graph's DOT text shown.
	// 0 means 200.
	MaxDOTLines int
	// Date, when not empty, is printed under the title. Reports carry
	// no date unless asked, so that the same job gives the same bytes.
	Date string
	// DigitSep separates groups of three digits in large counts and
	// group orders (244 823 040). Empty means a narrow no-break space;
	// PlainDigits turns grouping off.
	DigitSep    string
	PlainDigits bool
	// PNG makes the HTML form and notebook bundles embed figures as PNG
	// images instead of SVG.
	PNG bool
	// NoFigures leaves figures out of HTML and PDF.
	NoFigures bool
	// Figures, when set, writes the figure files of the LaTeX form, which
	// the document includes by name from its own directory
	// (FigureStem-fig1.pdf, …): name has no directory. Without it the
	// LaTeX form leaves its figures out, saying so in a comment.
	Figures func(name string, write func(w io.Writer) error) error
	// FigureStem begins the names of the LaTeX form's figure files
	// (the document's name without .tex); empty means "report".
	FigureStem string
	// MaxMemory, when positive, bounds the memory rendering may take:
	// the forms written as they go (Markdown, HTML, notebook) refuse a
	// section estimated to need more, the PDF (held whole until written)
	// a document. JSON needs a buffer only and is never refused.
	MaxMemory int64
}

func (o Options) withDefaults(r *job.Report) (Options, *templates.Set, error) {
	if o.Wrap <= 0 {
		o.Wrap = 10
	}
	if o.MaxValues <= 0 {
		o.MaxValues = 1000
	}
	if o.MaxSide <= 0 {
		o.MaxSide = 32
	}
	if o.MaxList <= 0 {
		o.MaxList = 50
	}
	if o.MaxDOTLines <= 0 {
		o.MaxDOTLines = 200
	}
	if o.DigitSep == "" {
		o.DigitSep = "\u202f"
	}
	if o.PlainDigits {
		o.DigitSep = ""
	}
	t := o.Templates
	if t == nil {
		lang := o.Lang
		if lang == "" && r != nil {
			lang = r.Lang
		}
		if lang == "" {
			lang = "en"
		}
		var err error
		if t, err = templates.New(lang); err != nil {
			return o, nil, fmt.Errorf("reports: %w", err)
		}
	}
	o.Lang = t.Lang()
	return o, t, nil
}

// The document model: what every renderer walks. Building it once keeps
// the Markdown, HTML and PDF forms in step, and keeps numbers identical
// across languages (only the templates' words change).
type document struct {
	Lang     string
	Title    string
	Date     string
	Sections []*section
}

type section struct {
	Title  string
	Blocks []block
	ID     string // the HTML anchor of a survey's section: overview, figures, census, variants
}

type block interface{ isBlock() }

// heading is an analysis heading inside a section; MDOnly marks one the
// HTML and PDF forms leave out (the figures', whose captions name them).
type heading struct {
	Text   string
	MDOnly bool
}

// para is a paragraph of plain text spans; Note marks a remark set smaller.
type para struct {
	Spans  []span
	Note   bool
	MDOnly bool   // only in Markdown (which cannot hold figures)
	Source bool   // the citation of the section's source
	Ref    string // that source as the job file gives it (the LaTeX form's bibliography)
}

type span struct {
	Text    string
	Code    bool   // a code span: coin rows, commands
	Literal bool   // printed as it is: no scripts read in it (positions)
	Link    string // a web address the text links to, in HTML and PDF (OEIS entries)
	// BoldNote marks the note that P-positions are in bold: plain text
	// has no bold, and leaves the note out.
	BoldNote bool
	// Math is mathematics written as it is typed, letters side by side
	// a product (a b^2, b c = a b): LaTeX sets it whole in math mode;
	// the other forms read its scripts as in any text.
	Math bool
	// Heaps are the heaps of a position of several heaps, whose Text is
	// the tuple: a line breaks after a comma, never inside a number, and
	// the heaps a move changed are marked (bold).
	Heaps []posHeap
}

// posHeap is one heap of a position written as a tuple.
type posHeap struct {
	Text    string
	Changed bool
}

// tupleSpan is a position of several heaps as a literal span whose heaps
// the renderers keep whole; changed marks the heaps a move made (nil:
// none).
func tupleSpan(xs []int64, changed []bool) span {
	hs := make([]posHeap, len(xs))
	for i, x := range xs {
		hs[i] = posHeap{Text: strconv.FormatInt(x, 10), Changed: i < len(changed) && changed[i]}
	}
	return span{Text: templates.Tuple(xs), Literal: true, Heaps: hs}
}

// changedHeaps marks the heaps of to that a move from from made: the one
// heap that differs when the two have as many heaps, else those heaps of
// to that from has not (a heap split or taken away).
func changedHeaps(from, to []int64) []bool {
	out := make([]bool, len(to))
	if len(from) == len(to) {
		for i := range to {
			out[i] = from[i] != to[i]
		}
		return out
	}
	left := map[int64]int{}
	for _, x := range from {
		left[x]++
	}
	for i, x := range to {
		if left[x] > 0 {
			left[x]--
			continue
		}
		out[i] = true
	}
	return out
}

// longTuple is the most heaps a position may have and still be written
// without break opportunities between its heaps: it fits a line.
const longTuple = 8

// tupleText writes a position's heaps with sep after each comma (a
// position of more than longTuple heaps) and each changed heap through
// mark.
func tupleText(hs []posHeap, sep string, mark func(string) string) string {
	if len(hs) <= longTuple {
		sep = ""
	}
	var sb strings.Builder
	sb.WriteByte('(')
	for i, h := range hs {
		if i > 0 {
			sb.WriteString("," + sep)
		}
		if h.Changed {
			sb.WriteString(mark(h.Text))
		} else {
			sb.WriteString(h.Text)
		}
	}
	sb.WriteByte(')')
	return sb.String()
}

// prose is the user's Markdown from the job file.
type prose struct{ MD string }

// table has a header row; the first column holds row labels.
type table struct {
	Header []cell
	Rows   [][]cell
}

type cell struct {
	Text   string
	Strong bool // P-positions (value 0)
	Code   bool
	// Scripts says the text has scripts to typeset (a genus 1^{031}, an
	// element a b^2); other cells are printed as they are.
	Scripts bool
}

// list is a bullet list.
type list struct{ Items [][]span }

type codeBlock struct {
	Lang, Text string
	MDOnly     bool // only in Markdown: a figure shows it elsewhere
}

// figure asks the HTML and PDF renderers for a plot.
type figure struct {
	Kind    string // values, rare, table, weights, graph
	Values  []uint64
	First   int
	Period  *job.Period
	Table   [][]uint64
	RowLo   int
	ColLo   int
	Mark    bool // mark the zeros of a table as P-positions
	Caption string
	Source  string // the section's source, cited under the caption
	Ref     string // that source as the job file gives it
	Title   string
	X, Y    string
	Graph   *job.Graph
	Rare    *job.Rare // the split of Values into rare and common (kind rare)
}

func (heading) isBlock()   {}
func (para) isBlock()      {}
func (prose) isBlock()     {}
func (table) isBlock()     {}
func (list) isBlock()      {}
func (codeBlock) isBlock() {}
func (figure) isBlock()    {}

func text(s string) []span { return []span{{Text: s}} }

// noteSpans joins the notes under a table into one paragraph's spans,
// marking bold, the note that P-positions are in bold, when it comes first.
func noteSpans(ns []string, bold string) []span {
	if len(ns) == 0 || ns[0] != bold {
		return text(strings.Join(ns, " "))
	}
	out := []span{{Text: ns[0], BoldNote: true}}
	if len(ns) > 1 {
		out = append(out, span{Text: " " + strings.Join(ns[1:], " ")})
	}
	return out
}

// literal is text printed as it is, a position say: no scripts are read
// in it.
func literal(s string) []span { return []span{{Text: s, Literal: true}} }

type builder struct {
	o   Options
	t   *templates.Set
	err error
	// stated holds the proofs of periods whose statement the report has
	// given: a second section proven the same way names the argument
	// without its formula again (period.method.NAME.again).
	stated map[string]bool
}

// tx returns a message; the first failure is kept and reported by build.
func (b *builder) tx(key string, data any) string {
	s, err := b.t.Text(key, data)
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("reports: %w", err)
	}
	return s
}

type args = map[string]any

// txf is tx as a job.Tx, for the games that word their own results.
func (b *builder) txf(key string, a map[string]any) string { return b.tx(key, a) }

// specGame is the section's game, or nil.
func specGame(sr *job.SectionResult) job.GameSpec {
	if sr.Spec == nil {
		return nil
	}
	return sr.Spec.Game
}

func isDescriber(g job.GameSpec) bool { _, ok := g.(job.Describer); return ok }
func isOver(g job.GameSpec) bool      { _, ok := g.(job.Over); return ok }
func isFirster(g job.GameSpec) bool   { _, ok := g.(job.Firster); return ok }
func isAcrossDescriber(g job.GameSpec) bool {
	_, ok := g.(job.AcrossDescriber)
	return ok
}

func build(r *job.Report, opts Options) (*document, Options, *templates.Set, error) {
	d, b, err := prepare(r, opts)
	if err != nil {
		return nil, b.o, b.t, err
	}
	err = b.each(r, form{}, func(s *section) error {
		d.Sections = append(d.Sections, s)
		return nil
	})
	return d, b.o, b.t, err
}

// prepare checks the options and makes the document's head (title and
// date), without its sections.
func prepare(r *job.Report, opts Options) (*document, *builder, error) {
	if r == nil {
		return nil, &builder{o: opts}, fmt.Errorf("reports: nil report")
	}
	o, t, err := opts.withDefaults(r)
	if err != nil {
		return nil, &builder{o: o}, err
	}
	b := &builder{o: o, t: t}
	d := &document{Lang: o.Lang, Title: cleanTitle(r.Title)}
	if d.Title == "" {
		d.Title = b.tx("title.untitled", nil)
	}
	if o.Date != "" {
		d.Date = b.tx("date", args{"Date": o.Date})
	}
	return d, b, b.err
}

// each builds the sections of r one at a time and hands each to fn, so
// that a renderer that writes as it goes holds one section's blocks at a
// time. A section whose rendering in form f is estimated to need more
// than Options.MaxMemory is refused before fn sees it (no check for the
// zero form).
func (b *builder) each(r *job.Report, f form, fn func(*section) error) error {
	for i := 0; i < len(r.Sections); i++ {
		sr := r.Sections[i]
		if sr == nil {
			continue
		}
		var s *section
		if ac := across(sr); ac != nil {
			// The sections of one job file section across a parameter: one
			// table, a row each.
			k := i + 1
			for k < len(r.Sections) && across(r.Sections[k]) == ac {
				k++
			}
			s = b.acrossSection(i, r.Sections[i:k])
			i = k - 1
		} else {
			s = b.section(i, sr)
		}
		if b.err != nil {
			return b.err
		}
		if f.perCell > 0 {
			what := fmt.Sprintf("section %d (%q)", i+1, s.Title)
			if err := b.o.checkMemory(f, what, s); err != nil {
				return err
			}
		}
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

// sectionCount is the number of sections each hands its renderer: the
// report's, those across a parameter counted once.
func sectionCount(r *job.Report) int {
	n := 0
	for i, sr := range r.Sections {
		if sr == nil || (i > 0 && across(sr) != nil && across(r.Sections[i-1]) == across(sr)) {
			continue
		}
		n++
	}
	return n
}

func (b *builder) section(i int, sr *job.SectionResult) *section {
	s := &section{Title: cleanTitle(sr.Title)}
	if s.Title == "" {
		s.Title = b.tx("section.untitled", args{"N": itoa(i + 1)})
	}
	if strings.TrimSpace(sr.Text) != "" {
		s.Blocks = append(s.Blocks, prose{MD: cleanProse(sr.Text)})
	}
	if g := b.game(sr); g != "" {
		s.Blocks = append(s.Blocks, para{Spans: text(g)})
	}
	methodSaid := false
	for _, a := range showOrder(sr) {
		var blocks []block
		res := &sr.Results
		switch a {
		case "value":
			blocks = b.value(sr)
		case "values":
			blocks = b.values(sr)
		case "table":
			blocks = b.table(sr)
		case "p-positions":
			blocks = b.ppositions(sr)
		case "period":
			blocks = b.period(sr)
		case "rare":
			blocks = b.rare(sr)
		case "genus":
			blocks = b.genus(sr)
		case "quotient":
			blocks = b.quotient(sr)
		case "row-periods":
			blocks = b.rowPeriods(sr)
		case "outcome":
			blocks = b.outcome(sr)
		case "moves":
			blocks = b.moves(sr)
		case "weights":
			blocks = b.weights(sr)
		case "distribution":
			blocks = b.distribution(sr)
		case "code":
			blocks = b.code(sr)
		case "steiner":
			blocks = b.steiner(sr)
		case "automorphisms":
			blocks = b.automorphisms(sr)
		case "record":
			blocks = b.record(sr)
		case "graph":
			blocks = b.graph(sr)
		case "plot":
			blocks = b.plots(sr)
		}
		if len(blocks) == 0 {
			continue
		}
		// Say once per section how a coin game's code was found.
		if !methodSaid && (a == "code" || a == "weights" || a == "p-positions" || a == "distribution") {
			m := res.Method
			if res.Code != nil && res.Code.Method != "" {
				m = res.Code.Method
			}
			if m != "" && (sr.Spec == nil || job.IsCoinRows(sr.Spec.Game)) {
				blocks = append(blocks, para{Spans: text(b.tx("method", args{"Method": m})), Note: true})
				methodSaid = true
			}
		}
		// The figures' heading is Markdown's, which cannot hold them; in
		// HTML and PDF their captions name the game.
		s.Blocks = append(s.Blocks, heading{Text: b.tx("h."+a, nil), MDOnly: a == "plot"})
		s.Blocks = append(s.Blocks, blocks...)
	}
	if src := strings.TrimSpace(sr.Source); src != "" {
		s.Blocks = withSource(s.Blocks, para{Spans: text(b.tx("source", args{"Source": src})), Note: true, Source: true, Ref: src})
	}
	return s
}

// withSource places the citation of a section's source below its first
// table (after the notes that explain the table), or at the end of the
// section when it has no table: the reader sees where the numbers come
// from next to the numbers.
func withSource(blocks []block, src para) []block {
	at := len(blocks)
	for i, bl := range blocks {
		if _, ok := bl.(table); !ok {
			continue
		}
		at = i + 1
		for at < len(blocks) {
			if p, ok := blocks[at].(para); ok && p.Note {
				at++
				continue
			}
			break
		}
		break
	}
	out := make([]block, 0, len(blocks)+1)
	out = append(out, blocks[:at]...)
	out = append(out, src)
	return append(out, blocks[at:]...)
}

// showOrder is the section's show list; without a spec (a report read
// back from elsewhere), every analysis present, in SPEC.md's order.
func showOrder(sr *job.SectionResult) []string {
	if sr.Spec != nil && len(sr.Spec.Show) > 0 {
		return sr.Spec.Show
	}
	r := &sr.Results
	var out []string
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	add(r.Values != nil, "values")
	add(r.Table != nil, "table")
	add(r.Code != nil, "code")
	add(r.Weights != nil, "weights")
	add(r.Distribution != nil, "distribution")
	add(r.PPositions != nil, "p-positions")
	add(r.Period != nil, "period")
	add(r.Rare != nil, "rare")
	add(r.Genus != nil, "genus")
	add(r.Quotient != nil, "quotient")
	add(r.RowPeriods != nil, "row-periods")
	add(r.Outcome != "", "outcome")
	add(r.Moves != nil, "moves")
	add(r.Steiner != nil, "steiner")
	add(r.Automorphisms != "", "automorphisms")
	add(r.Record != nil, "record")
	add(r.Graph != nil, "graph")
	return out
}

func family(sr *job.SectionResult) string {
	if sr.Spec == nil {
		return ""
	}
	return sr.Spec.Family
}

// game describes the section's game in words, from its spec.
func (b *builder) game(sr *job.SectionResult) string {
	sp := sr.Spec
	if sp == nil {
		return sr.Results.Game
	}
	var g string
	switch {
	case sp.Heap() != nil:
		g = b.heapGame(sp.Heap())
	case isDescriber(sp.Game):
		// A nimbers table has no play convention: say what it is only.
		var played bool
		g, played = sp.Game.(job.Describer).Describe(b.txf, b.o.Lang, &sr.Results)
		if !played {
			return capitalize(g) + "."
		}
	default:
		return sr.Results.Game
	}
	play := b.tx("play.normal", nil)
	if sp.Play == "misere" {
		play = b.tx("play.misere", nil)
	}
	return b.tx("game", args{"Game": g, "Play": play})
}

// heapGame describes a heap game by its rule: the templates' game.RULE
// when they define it (so that a user's templates may reword a rule),
// else the rule's Describe in the report's language, else its Text line.
func (b *builder) heapGame(h *job.HeapSpec) string {
	data := describeArgs(h)
	if key := "game." + h.Rule.Name; b.t.Has(key) {
		return b.tx(key, data)
	}
	src, ok := h.Rule.Describe[b.o.Lang]
	if !ok {
		return h.Rule.Line(b.o.Lang)
	}
	s, err := b.t.Format(src, data)
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("reports: description of %s: %w", h.Rule.Name, err)
	}
	return s
}

// describeArgs are a heap rule's parameters as its Describe reads them:
// each under its key in CamelCase (max-take: .MaxTake), its value as it
// is, the zero value of its kind when absent (so that {{if .MaxTake}}
// works and a misspelt key is an error), and a file as the job file
// wrote it.
func describeArgs(h *job.HeapSpec) map[string]any {
	out := make(map[string]any, len(h.Rule.Params))
	for _, q := range h.Rule.Params {
		v, ok := h.Params[q.Key]
		if w, written := h.Written[q.Key]; written {
			v, ok = w, true
		}
		if !ok {
			switch q.Kind {
			case heap.Int:
				v = 0
			case heap.Ints:
				v = []int(nil)
			case heap.String, heap.File:
				v = ""
			case heap.Map:
				v = map[string]any(nil)
			}
		}
		out[camelCase(q.Key)] = v
	}
	return out
}

// camelCase writes a parameter key as a template field: max-take, max_take → MaxTake.
func camelCase(key string) string {
	var sb strings.Builder
	for part := range strings.FieldsFuncSeq(key, func(r rune) bool { return r == '-' || r == '_' }) {
		sb.WriteString(capitalize(part))
	}
	return sb.String()
}

// position writes a position in the family's notation.
func (b *builder) position(sr *job.SectionResult, v any) []span {
	n, ok := toNode(v)
	if !ok {
		return literal(sprint(v))
	}
	if heads, ok := n.ints(); ok && job.IsCoinRows(specGame(sr)) {
		cn, cfirst := specGame(sr).(job.CoinRows).Board()
		desc := b.tx("position.nocoins", nil)
		if len(heads) > 0 {
			hs := make([]string, len(heads))
			for i, h := range heads {
				hs[i] = strconv.FormatInt(h, 10)
			}
			desc = b.tx("position.coins", args{"Heads": strings.Join(hs, ", ")})
		}
		return []span{{Text: coinRow(heads, cn, cfirst), Code: true}, {Text: " (" + desc + ")"}}
	}
	if cs, ok := specGame(sr).(job.CellSets); ok && cs.CellSets() {
		parts := make([]string, len(n.items))
		for i, c := range n.items {
			parts[i] = plain(c)
		}
		if len(parts) == 0 {
			return text(b.tx("position.empty", nil))
		}
		return literal("{" + strings.Join(parts, ", ") + "}")
	}
	if !n.leaf && len(n.items) == 0 {
		return text(b.tx("position.empty", nil))
	}
	if xs, ok := n.ints(); ok {
		return []span{tupleSpan(xs, nil)}
	}
	return literal(plain(n))
}

// moveTo writes the position a move from the section's position reaches,
// the heaps it changed marked.
func (b *builder) moveTo(sr *job.SectionResult, v any) []span {
	ss := b.subject(sr)
	to := b.position(sr, v)
	if len(ss) == 1 && len(to) == 1 && ss[0].Heaps != nil && to[0].Heaps != nil {
		from := make([]int64, len(ss[0].Heaps))
		for i, h := range ss[0].Heaps {
			from[i], _ = strconv.ParseInt(h.Text, 10, 64)
		}
		xs := make([]int64, len(to[0].Heaps))
		for i, h := range to[0].Heaps {
			xs[i], _ = strconv.ParseInt(h.Text, 10, 64)
		}
		return []span{tupleSpan(xs, changedHeaps(from, xs))}
	}
	return to
}

func spanText(ss []span) string {
	var sb strings.Builder
	for _, s := range ss {
		sb.WriteString(s.Text)
	}
	return sb.String()
}

// firstOf returns the number of the first coin (or row) of axis k.
func firstOf(sr *job.SectionResult, k int) int {
	if sp := sr.Spec; sp != nil {
		switch {
		case isFirster(sp.Game):
			return sp.Game.(job.Firster).FirstOf(k)
		}
		return 0
	}
	if k < len(sr.Results.First) {
		return sr.Results.First[k]
	}
	return 0
}

func (b *builder) big(digits string) string { return group(digits, b.o.DigitSep) }

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
