package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"codeberg.org/go-fonts/dejavu/dejavusans"
	"codeberg.org/go-fonts/dejavu/dejavusansbold"
	"codeberg.org/go-fonts/dejavu/dejavusansmono"
	"codeberg.org/go-fonts/dejavu/dejavusansoblique"
	"codeberg.org/go-pdf/fpdf"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	gtext "github.com/yuin/goldmark/text"

	"github.com/nimbook/nimbook/explore/job"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/nimbook/nimbook/plots"
	"github.com/nimbook/nimbook/templates"
)

// Page geometry of the PDF handout, in millimetres: A4 with the margins
// of the HTML print stylesheet, so both printed forms look alike.
const (
	pdfLeft, pdfRight = 16.0, 16.0
	pdfTop, pdfBottom = 18.0, 18.0
	pdfWidth          = 210.0 - pdfLeft - pdfRight
	ptMM              = 25.4 / 72 // one point in millimetres
	pdfBase           = 10.0      // body text size in points
	pdfFigureDPI      = 200
)

// pdfEpoch is the creation and modification date written in every PDF.
// fpdf always writes these fields (the current time when unset); a fixed
// value keeps the bytes a function of the report alone.
var pdfEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// PDF writes r as an A4 PDF handout, in pure Go (no external program): the
// same document model as HTML and Markdown, set in an embedded DejaVu Sans
// (subset to the characters used, so ⊕, ⊗, φ, ●, ○, ✓, ✗ and French
// accents print anywhere), figures as PNG images drawn by package plots,
// each section from a new page, tables kept whole when they fit on a page
// (longer ones repeat their header row on each page), and fixed metadata
// so that the same report gives the same bytes.
func PDF(w io.Writer, r *job.Report, opts Options) error {
	d, o, t, err := build(r, opts)
	if err != nil {
		return err
	}
	// A PDF is held whole until it is written: refuse it before the
	// layout when it would not fit.
	if err := o.checkMemory(formPDF, "this report", d.Sections...); err != nil {
		return err
	}
	return writePDF(w, d, o, t)
}

// writePDF sets a document: job reports and executed notebooks alike.
func writePDF(w io.Writer, d *document, o Options, t *templates.Set) error {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetMargins(pdfLeft, pdfTop, pdfRight)
	f.SetAutoPageBreak(true, pdfBottom)
	f.SetCatalogSort(true)
	f.SetCreationDate(pdfEpoch)
	f.SetModificationDate(pdfEpoch)
	f.SetTitle(d.Title, true)
	f.SetCreator("nimbook", true)
	f.SetProducer("nimbook", true)
	f.SetLang(d.Lang)
	// fpdf writes into the font bytes it is given while subsetting them:
	// each PDF gets its own copy, or the second PDF a process writes would
	// differ from the first.
	f.AddUTF8FontFromBytes("dejavu", "", bytes.Clone(dejavusans.TTF))
	f.AddUTF8FontFromBytes("dejavu", "B", bytes.Clone(dejavusansbold.TTF))
	f.AddUTF8FontFromBytes("dejavu", "I", bytes.Clone(dejavusansoblique.TTF))
	f.AddUTF8FontFromBytes("mono", "", bytes.Clone(dejavusansmono.TTF))
	f.AliasNbPages("{nb}")
	f.SetFooterFunc(func() {
		f.SetY(-12)
		f.SetFont("dejavu", "", 8)
		f.SetTextColor(90, 90, 90)
		f.CellFormat(0, 4, fmt.Sprintf("%s — %d/{nb}", d.Title, f.PageNo()), "", 0, "C", false, 0, "")
		f.SetTextColor(0, 0, 0)
	})
	p := &pdfWriter{f: f, o: o, tx: t.Text}
	if !o.NoFigures {
		p.rendered = renderFigures(d)
	}
	f.AddPage()
	p.font("B", 17)
	f.MultiCell(0, 17*ptMM*1.3, d.Title, "", "L", false)
	if d.Date != "" {
		p.font("", 10)
		f.MultiCell(0, 10*ptMM*1.4, d.Date, "", "L", false)
	}
	f.Ln(2)
	for i, s := range d.Sections {
		// Each section starts a page, except after a notebook's untitled
		// introduction, which shares the title page with the first one.
		if i > 0 && d.Sections[i-1].Title != "" {
			f.AddPage()
		}
		p.sectionTitle(s.Title)
		for k, b := range s.Blocks {
			if _, ok := b.(heading); ok {
				// A heading stays with the start of what follows it.
				for _, nb := range s.Blocks[k+1:] {
					if q, ok := nb.(para); ok && q.MDOnly {
						continue
					}
					p.keep(12 + p.estimate(nb))
					break
				}
			}
			if err := p.block(b); err != nil {
				return err
			}
		}
		if f.Err() {
			break
		}
	}
	if err := f.Error(); err != nil {
		return fmt.Errorf("reports: pdf: %w", err)
	}
	var out bytes.Buffer
	if err := f.Output(&out); err != nil {
		return fmt.Errorf("reports: pdf: %w", err)
	}
	if _, err := w.Write(out.Bytes()); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// figureWorkers is how many figures a PDF draws at once: every core, up
// to four, so that the memory the canvases take stays bounded.
func figureWorkers() int { return min(runtime.GOMAXPROCS(0), 4) }

type pdfWriter struct {
	f    *fpdf.Fpdf
	o    Options
	tx   func(string, any) (string, error)
	figs int
	// rendered holds the figures drawn ahead, in the order the document
	// meets them; next is the next one to place.
	rendered []renderedFigure
	next     int
}

// renderedFigure is a figure drawn as PNG before the layout, or the error
// drawFigure gave.
type renderedFigure struct {
	png           []byte
	width, height vg.Length
	err           error
}

// renderFigures draws every figure of d as PNG, on all cores: drawing and
// encoding take most of a PDF's time, and the layout only places them.
// The k-th figure that draws is widened by k pixels, invisible at this
// resolution: fpdf sorts images by pixel width and writes images of equal
// width in map order, so distinct widths keep the bytes reproducible.
func renderFigures(d *document) []renderedFigure {
	var out []renderedFigure
	type job struct {
		i     int
		pl    *plot.Plot
		widen vg.Length
	}
	var jobs []job
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			fg, ok := b.(figure)
			if !ok {
				continue
			}
			pl, w, h, err := drawFigure(fg)
			out = append(out, renderedFigure{width: w, height: h, err: err})
			if err == nil {
				jobs = append(jobs, job{len(out) - 1, pl, vg.Inch * vg.Length(len(jobs)+1) / pdfFigureDPI})
			}
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, figureWorkers())
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			var img bytes.Buffer
			r := &out[j.i]
			if err := plots.PNG(&img, j.pl, r.width+j.widen, r.height, pdfFigureDPI); err != nil {
				r.err = err
				return
			}
			r.png = img.Bytes()
		}()
	}
	wg.Wait()
	return out
}

func (p *pdfWriter) font(style string, size float64) {
	fam := "dejavu"
	if style == "mono" {
		fam, style = "mono", ""
	}
	p.f.SetFont(fam, style, size)
}

// room reports whether h millimetres fit below the current line.
func (p *pdfWriter) room(h float64) bool {
	_, ph := p.f.GetPageSize()
	return p.f.GetY()+h <= ph-pdfBottom
}

// keep starts a new page unless h millimetres fit; a block taller than a
// page is left to break where it must.
func (p *pdfWriter) keep(h float64) {
	_, ph := p.f.GetPageSize()
	if !p.room(h) && h <= ph-pdfTop-pdfBottom && p.f.GetY() > pdfTop+1 {
		p.f.AddPage()
	}
}

// estimate is the height in millimetres a block needs to start well: a
// figure or a table whole (up to a page), a few lines for the rest.
func (p *pdfWriter) estimate(b block) float64 {
	_, ph := p.f.GetPageSize()
	page := ph - pdfTop - pdfBottom - 15
	switch b := b.(type) {
	case figure:
		if p.o.NoFigures {
			return 0
		}
		if _, w, h, err := drawFigure(b); err == nil {
			return min(page, h.Points()*ptMM*min(1, pdfWidth/(w.Points()*ptMM))+10)
		}
	case table:
		return min(page, float64(len(b.Rows)+1)*9*ptMM*1.55+2)
	}
	return 18
}

func (p *pdfWriter) sectionTitle(s string) {
	if s == "" {
		return // a notebook's text before its first heading
	}
	f := p.f
	p.keep(40)
	f.Bookmark(s, 0, -1)
	p.font("B", 14)
	f.MultiCell(0, 14*ptMM*1.3, s, "", "L", false)
	y := f.GetY() + 0.5
	f.SetDrawColor(68, 68, 68)
	f.SetLineWidth(0.3)
	f.Line(pdfLeft, y, pdfLeft+pdfWidth, y)
	f.SetY(y + 2.5)
}

func (p *pdfWriter) block(b block) error {
	f := p.f
	switch b := b.(type) {
	case heading:
		p.keep(30) // a heading stays with what follows it
		f.Ln(1.5)
		p.font("B", 11.5)
		f.MultiCell(0, 11.5*ptMM*1.35, b.Text, "", "L", false)
		f.Ln(0.8)
	case para:
		if b.MDOnly {
			return nil
		}
		size := pdfBase
		if b.Note {
			size = 9
			f.SetTextColor(34, 34, 34)
		}
		p.spans(b.Spans, size, "")
		f.SetTextColor(0, 0, 0)
		f.Ln(size * ptMM * 0.6)
	case prose:
		p.prose(b.MD)
	case table:
		p.table(b)
	case list:
		for _, it := range b.Items {
			p.bullet(func() { p.spans(it, pdfBase, "") })
		}
		f.Ln(1.5)
	case codeBlock:
		if b.MDOnly {
			return nil
		}
		p.code(b.Text)
	case figure:
		if p.o.NoFigures {
			return nil
		}
		return p.figure(b)
	case picture:
		if p.o.NoFigures {
			return nil
		}
		return p.picture(b)
	}
	return nil
}

// spans writes one paragraph of text spans that flow and wrap at the
// right margin; code spans are set in the mono font. style is "", "B" or
// "I" for the plain spans.
func (p *pdfWriter) spans(ss []span, size float64, style string) {
	f := p.f
	h := size * ptMM * 1.4
	p.keep(2 * h)
	for _, s := range ss {
		if s.Code {
			p.font("mono", size*0.95)
		} else {
			p.font(style, size)
		}
		f.Write(h, s.Text)
	}
	f.Ln(h)
}

// bullet writes one list item with a hanging indent.
func (p *pdfWriter) bullet(body func()) {
	f := p.f
	l, _, _, _ := f.GetMargins()
	p.font("", pdfBase)
	f.SetX(l + 2)
	f.Write(pdfBase*ptMM*1.4, "•")
	f.SetLeftMargin(l + 6)
	f.SetX(l + 6)
	body()
	f.SetLeftMargin(l)
	f.SetX(l)
}

func (p *pdfWriter) code(text string) {
	f := p.f
	size := 8.0
	h := size * ptMM * 1.3
	lines := strings.Split(text, "\n")
	p.keep(float64(len(lines))*h + 3)
	p.font("mono", size)
	f.SetFillColor(244, 244, 244)
	f.Ln(1)
	for _, ln := range lines {
		f.MultiCell(0, h, ln, "", "L", true)
	}
	f.Ln(2)
}

// table draws t with thin borders, the header row shaded, the first column
// left-aligned and numbers right-aligned, P-positions (Strong) in bold and
// underlined as in the HTML. The font shrinks (down to 5.5 pt) to fit the
// page width; a table still too wide is cut into groups of columns that
// repeat the label column.
func (p *pdfWriter) table(t table) {
	f := p.f
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return
	}
	get := func(r []cell, j int) cell {
		if j < len(r) {
			return r[j]
		}
		return cell{}
	}
	right := make([]bool, cols)
	for j := 1; j < cols; j++ {
		right[j] = true
		for _, r := range t.Rows {
			if !numeric(get(r, j).Text) {
				right[j] = false
			}
		}
	}
	widths := func(size float64) []float64 {
		w := make([]float64, cols)
		for i, r := range append([][]cell{t.Header}, t.Rows...) {
			for j := range cols {
				c := get(r, j)
				switch {
				case c.Code:
					p.font("mono", size*0.95)
				case c.Strong || i == 0:
					p.font("B", size)
				default:
					p.font("", size)
				}
				w[j] = max(w[j], f.GetStringWidth(c.Text)+2*size*ptMM*0.45, size*ptMM*1.6)
			}
		}
		return w
	}
	sum := func(ws []float64) float64 {
		s := 0.0
		for _, x := range ws {
			s += x
		}
		return s
	}
	size := 9.0
	w := widths(size)
	for sum(w) > pdfWidth && size > 5.5 {
		size -= 0.5
		w = widths(size)
	}
	// Groups of columns that fit, each with the label column.
	var groups [][]int
	cur := []int{0}
	width := w[0]
	for j := 1; j < cols; j++ {
		if width+w[j] > pdfWidth && len(cur) > 1 {
			groups = append(groups, cur)
			cur, width = []int{0}, w[0]
		}
		cur = append(cur, j)
		width += w[j]
	}
	groups = append(groups, cur)

	h := size * ptMM * 1.55
	_, ph := f.GetPageSize()
	f.SetDrawColor(119, 119, 119)
	f.SetLineWidth(0.2)
	for _, g := range groups {
		p.keep(float64(len(t.Rows)+1)*h + 2)
		row := func(r []cell, header bool) {
			f.SetX(pdfLeft)
			for _, j := range g {
				c := get(r, j)
				switch {
				case c.Code:
					p.font("mono", size*0.95)
				case header:
					p.font("B", size)
				case c.Strong:
					p.font("BU", size)
				default:
					p.font("", size)
				}
				align := "L"
				if right[j] && j > 0 {
					align = "R"
				}
				f.SetFillColor(238, 238, 238)
				f.CellFormat(w[j], h, c.Text, "1", 0, align, header, 0, "")
			}
			f.Ln(h)
		}
		row(t.Header, true)
		for _, r := range t.Rows {
			if f.GetY()+h > ph-pdfBottom {
				f.AddPage()
				row(t.Header, true)
			}
			row(r, false)
		}
		f.Ln(2)
	}
}

func (p *pdfWriter) figure(fg figure) error {
	f := p.f
	if p.next >= len(p.rendered) {
		return errors.New("reports: a figure was not drawn ahead") // a block path renderFigures misses
	}
	r := p.rendered[p.next]
	p.next++
	width, height, err := r.width, r.height, r.err
	if err != nil {
		msg, terr := figureNote(err, p.tx)
		if terr != nil {
			return terr
		}
		p.spans(text(msg), 9, "")
		return nil
	}
	p.figs++
	img := bytes.NewReader(r.png)
	wmm, hmm := width.Points()*ptMM, height.Points()*ptMM
	if wmm > pdfWidth {
		hmm *= pdfWidth / wmm
		wmm = pdfWidth
	}
	p.keep(hmm + 10)
	name := fmt.Sprintf("fig%d", p.figs)
	opt := fpdf.ImageOptions{ImageType: "PNG"}
	f.RegisterImageOptionsReader(name, opt, img)
	x := pdfLeft + (pdfWidth-wmm)/2
	f.ImageOptions(name, x, f.GetY(), wmm, hmm, true, opt, 0, "")
	p.font("", 9)
	f.MultiCell(0, 9*ptMM*1.4, fg.Caption, "", "C", false)
	f.Ln(2)
	return nil
}

// prose writes the job file's Markdown: paragraphs, headings, lists,
// code, block quotes and GFM tables. Raw HTML is printed as the text it
// is, never interpreted, as in the HTML form.
func (p *pdfWriter) prose(src string) {
	source := []byte(src)
	doc := md.Parser().Parse(gtext.NewReader(source))
	p.mdBlocks(doc, source)
}

func (p *pdfWriter) mdBlocks(n ast.Node, src []byte) {
	f := p.f
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			p.spansStyled(inlineSpans(c, src, ""), pdfBase)
			f.Ln(pdfBase * ptMM * 0.6)
		case *ast.Heading:
			p.keep(20)
			p.spansStyled([]styledSpan{{span{Text: nodeText(c, src)}, "B"}}, 12)
			f.Ln(1)
		case *ast.List:
			for it := c.FirstChild(); it != nil; it = it.NextSibling() {
				item := it
				p.bullet(func() {
					l, _, _, _ := f.GetMargins()
					for b := item.FirstChild(); b != nil; b = b.NextSibling() {
						switch b.(type) {
						case *ast.Paragraph, *ast.TextBlock:
							p.spansStyled(inlineSpans(b, src, ""), pdfBase)
						default:
							p.mdBlocks(b, src)
						}
						f.SetX(l)
					}
				})
			}
			f.Ln(1.5)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			var sb strings.Builder
			lines := c.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				sb.Write(seg.Value(src))
			}
			p.code(strings.TrimRight(sb.String(), "\n"))
		case *ast.Blockquote:
			l, _, _, _ := f.GetMargins()
			f.SetLeftMargin(l + 6)
			f.SetX(l + 6)
			p.mdBlocks(c, src)
			f.SetLeftMargin(l)
			f.SetX(l)
		case *ast.HTMLBlock:
			var sb strings.Builder
			lines := c.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				sb.Write(seg.Value(src))
			}
			p.spans(text(strings.TrimSpace(sb.String())), pdfBase, "")
		case *ast.ThematicBreak:
			y := f.GetY() + 2
			f.Line(pdfLeft, y, pdfLeft+pdfWidth, y)
			f.SetY(y + 3)
		case *east.Table:
			var t table
			for r := c.FirstChild(); r != nil; r = r.NextSibling() {
				var row []cell
				for k := r.FirstChild(); k != nil; k = k.NextSibling() {
					row = append(row, cell{Text: nodeText(k, src)})
				}
				if _, ok := r.(*east.TableHeader); ok {
					t.Header = row
				} else {
					t.Rows = append(t.Rows, row)
				}
			}
			p.table(t)
		default:
			p.mdBlocks(c, src)
		}
	}
}

type styledSpan struct {
	span
	style string // "", "B" or "I"
}

func (p *pdfWriter) spansStyled(ss []styledSpan, size float64) {
	f := p.f
	h := size * ptMM * 1.4
	p.keep(2 * h)
	for _, s := range ss {
		switch {
		case s.Code:
			p.font("mono", size*0.95)
		default:
			p.font(s.style, size)
		}
		f.Write(h, s.Text)
	}
	f.Ln(h)
}

// inlineSpans flattens a paragraph's inline nodes into styled spans.
func inlineSpans(n ast.Node, src []byte, style string) []styledSpan {
	var out []styledSpan
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			s := string(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				s += " "
			}
			out = append(out, styledSpan{span{Text: s}, style})
		case *ast.String:
			out = append(out, styledSpan{span{Text: string(c.Value)}, style})
		case *ast.CodeSpan:
			out = append(out, styledSpan{span{Text: nodeText(c, src), Code: true}, style})
		case *ast.Emphasis:
			st := "I"
			if c.Level >= 2 {
				st = "B"
			}
			out = append(out, inlineSpans(c, src, st)...)
		case *ast.AutoLink:
			out = append(out, styledSpan{span{Text: string(c.URL(src))}, style})
		case *ast.RawHTML:
			var sb strings.Builder
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				sb.Write(seg.Value(src))
			}
			out = append(out, styledSpan{span{Text: sb.String()}, style})
		default:
			out = append(out, inlineSpans(c, src, style)...)
		}
	}
	return out
}

// nodeText is the plain text under n.
func nodeText(n ast.Node, src []byte) string {
	var sb strings.Builder
	for _, s := range inlineSpans(n, src, "") {
		sb.WriteString(s.Text)
	}
	return strings.TrimSpace(sb.String())
}
