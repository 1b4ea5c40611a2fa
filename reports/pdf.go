package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"codeberg.org/go-fonts/dejavu/dejavusans"
	"codeberg.org/go-fonts/dejavu/dejavusansbold"
	"codeberg.org/go-fonts/dejavu/dejavusansmono"
	"codeberg.org/go-fonts/dejavu/dejavusansoblique"
	"codeberg.org/go-pdf/fpdf"

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
// sections following one another with what a reader needs together kept
// on one page (see partsOf; a figure drawn smaller, down to minFigureScale, rather
// than pushed to the next page), a page that continues a section headed
// by its title, tables kept whole when they fit on a page (longer ones
// repeat their header row on each page), and fixed metadata so that the
// same report gives the same bytes.
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
// Sections follow one another on the page; what a reader needs together
// (a heading and what it heads, a sentence and the table or list it
// introduces, a table or figure and the notes under it) is a chain kept
// on one page when it fits on one. The chains' heights come from a first
// layout on a page too tall to break.
func writePDF(w io.Writer, d *document, o Options, t *templates.Set) error {
	var rendered []renderedFigure
	if !o.NoFigures {
		rendered = renderFigures(d)
	}
	m := &pdfWriter{f: newFpdf(d, pdfMeasureHeight), o: o, tx: t.Text, rendered: rendered, measuring: true}
	if err := m.layout(d); err != nil {
		return err
	}
	heights := m.heights
	m = nil // the measuring document is garbage before the real one grows
	f := newFpdf(d, 297)
	f.AliasNbPages("{nb}")
	f.SetFooterFunc(func() {
		f.SetY(-12)
		f.SetFont("dejavu", "", 8)
		f.SetTextColor(90, 90, 90)
		f.CellFormat(0, 4, fmt.Sprintf("%s — %d/{nb}", plainScripts(d.Title), f.PageNo()), "", 0, "C", false, 0, "")
		f.SetTextColor(0, 0, 0)
	})
	p := &pdfWriter{f: f, o: o, tx: t.Text, rendered: rendered, heights: heights, figScale: 1}
	// A page that continues a section is headed by the section's title,
	// so that what it holds names its game.
	f.SetHeaderFunc(func() {
		if p.running == "" {
			return
		}
		f.SetY(9)
		f.SetFont("dejavu", "", 8)
		f.SetTextColor(90, 90, 90)
		f.CellFormat(0, 4, plainScripts(p.running), "", 0, "L", false, 0, "")
		f.SetTextColor(0, 0, 0)
		f.SetY(pdfTop)
	})
	if err := p.layout(d); err != nil {
		return err
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

// pdfMeasureHeight is the height in millimetres of the page of the first
// layout, which measures the blocks: tall enough that a handout never
// breaks on it.
const pdfMeasureHeight = 5000

// newFpdf makes an empty A4-wide document of the given page height, its
// fonts loaded and its metadata fixed.
func newFpdf(d *document, height float64) *fpdf.Fpdf {
	f := fpdf.NewCustom(&fpdf.InitType{OrientationStr: "P", UnitStr: "mm", Size: fpdf.SizeType{Wd: 210, Ht: height}})
	f.SetMargins(pdfLeft, pdfTop, pdfRight)
	f.SetAutoPageBreak(true, pdfBottom)
	f.SetCatalogSort(true)
	f.SetCreationDate(pdfEpoch)
	f.SetModificationDate(pdfEpoch)
	f.SetTitle(plainScripts(d.Title), true)
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
	return f
}

// layout sets the title and the sections. Measuring, it records the
// height of each section title and block; otherwise it places each part
// and chain of blocks (see partsOf) from those heights.
func (p *pdfWriter) layout(d *document) error {
	f := p.f
	f.AddPage()
	p.font("B", 17)
	p.multiCell(17*ptMM*1.3, 17, d.Title)
	if d.Date != "" {
		p.font("", 10)
		f.MultiCell(0, 10*ptMM*1.4, d.Date, "", "L", false)
	}
	f.Ln(2)
	if p.measuring {
		p.heights = &pdfHeights{}
	}
	for i, s := range d.Sections {
		if i > 0 && s.Title != "" {
			f.Ln(5) // space between sections, which follow one another
		}
		var hs *sectionHeights
		if p.measuring {
			hs = &sectionHeights{blocks: make([]float64, len(s.Blocks)), figures: make([]float64, len(s.Blocks))}
		} else {
			hs = &p.heights.sections[i]
		}
		if !p.measuring {
			p.placeSection(hs, i == len(d.Sections)-1)
		}
		parts := partsOf(s.Blocks)
		if len(parts) == 0 {
			parts = []part{{nil}}
		}
		for c, pt := range parts {
			title := 0.0
			if c == 0 {
				title = hs.title
			}
			if !p.measuring {
				p.placePart(pt, hs, title)
			}
			for k, ch := range pt {
				if !p.measuring && p.partByChain {
					t := 0.0
					if k == 0 {
						t = title
					}
					p.placeChain(ch, hs, t)
				}
				if c == 0 && k == 0 {
					y0, pg := f.GetY(), f.PageNo()
					p.sectionTitle(s.Title)
					if p.measuring {
						hs.title = p.since(y0, pg)
					}
					p.running = s.Title
				}
				for _, bi := range ch {
					y0, pg := f.GetY(), f.PageNo()
					p.figureH = 0
					if err := p.block(s.Blocks[bi]); err != nil {
						return err
					}
					if p.measuring {
						hs.blocks[bi] = p.since(y0, pg)
						hs.figures[bi] = p.figureH
					}
				}
			}
			p.figScale = 1
		}
		p.running = ""
		if p.measuring {
			p.heights.sections = append(p.heights.sections, *hs)
		}
		if f.Err() {
			break
		}
	}
	return f.Error()
}

// placeSection starts a new page for the last section when it fits on
// one but not below the current line (its tail would take a page
// anyway): a game's analyses read best together. It does so only when
// that leaves this page at least a third full and drawing the section's
// figures smaller would not make it fit.
func (p *pdfWriter) placeSection(hs *sectionHeights, last bool) {
	need, figs := hs.title, 0.0
	for k, h := range hs.blocks {
		need += h
		figs += hs.figures[k]
	}
	over := p.f.GetY() + need - (297 - pdfBottom)
	if over <= 0 || p.atTop() || need > printPage || !p.thirdFull() || (figs > 0 && over <= (1-minFigureScale)*figs) {
		return
	}
	if last {
		p.f.AddPage()
	}
}

// placePart decides how a part goes on the page: whole where it is, whole
// on a new page when that leaves this one at least a third full, with
// its figures drawn smaller (down to minFigureScale) when that makes it fit, or
// else chain by chain (partByChain).
func (p *pdfWriter) placePart(pt part, hs *sectionHeights, title float64) {
	p.partByChain, p.figScale = false, 1
	need, figs := title, 0.0
	for _, ch := range pt {
		for _, bi := range ch {
			need += hs.blocks[bi]
			figs += hs.figures[bi]
		}
	}
	over := p.f.GetY() + need - (297 - pdfBottom)
	switch {
	case over <= 0 || p.atTop():
	case figs > 0 && over <= (1-minFigureScale)*figs:
		p.figScale = 1 - over/figs
	case need <= printPage && p.thirdFull():
		p.f.AddPage()
	default:
		p.partByChain = true
	}
}

// placeChain decides the same for a chain of a part placed chain by chain:
// where it is, smaller, or on a new page when it fits on one; a chain
// taller than a page starts where it is when its start fits.
func (p *pdfWriter) placeChain(ch []int, hs *sectionHeights, title float64) {
	p.figScale = 1
	need, figs, start := title, 0.0, title
	for k, bi := range ch {
		need += hs.blocks[bi]
		figs += hs.figures[bi]
		if k < 2 {
			start += hs.blocks[bi]
		}
	}
	over := p.f.GetY() + need - (297 - pdfBottom)
	switch {
	case over <= 0 || p.atTop():
	case figs > 0 && over <= (1-minFigureScale)*figs:
		p.figScale = 1 - over/figs
	case need <= printPage:
		p.f.AddPage()
	default:
		p.keep(start)
	}
}

// atTop reports whether nothing is on the page yet.
func (p *pdfWriter) atTop() bool { return p.f.GetY() <= pdfTop+1 }

// thirdFull reports whether the page is at least a third full.
func (p *pdfWriter) thirdFull() bool { return p.f.GetY()-pdfTop >= printPage/3 }

// pdfHeights are the heights in millimetres the measuring layout found:
// each section's title, and each of its blocks.
type pdfHeights struct {
	sections []sectionHeights
}

// sectionHeights are a section's: its title, each block, and the image of
// each figure among them.
type sectionHeights struct {
	title   float64
	blocks  []float64
	figures []float64
}

// since is the height taken since y0 on page pg.
func (p *pdfWriter) since(y0 float64, pg int) float64 {
	_, ph := p.f.GetPageSize()
	return p.f.GetY() - y0 + float64(p.f.PageNo()-pg)*(ph-pdfTop-pdfBottom)
}

// figureWorkers is how many figures a PDF draws at once: every core, up
// to four, so that the memory the canvases take stays bounded.
func figureWorkers() int { return min(runtime.GOMAXPROCS(0), 4) }

type pdfWriter struct {
	f    *fpdf.Fpdf
	o    Options
	tx   func(string, any) (string, error)
	figs int
	// zwsp says the text just written ended with a zero-width space: a
	// line may break before the next piece (see writeBreaking).
	zwsp bool
	// measuring is set in the first layout, which records the heights
	// the second one keeps chains by.
	measuring bool
	heights   *pdfHeights
	// partByChain places the current part chain by chain; figScale
	// draws its figures smaller to fit; figureH is the height of the
	// image of the figure just placed.
	partByChain bool
	figScale    float64
	figureH     float64
	// running is the title of the section being set, which heads the
	// pages it continues on.
	running string
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
	if p.measuring {
		return
	}
	_, ph := p.f.GetPageSize()
	if !p.room(h) && h <= ph-pdfTop-pdfBottom && p.f.GetY() > pdfTop+1 {
		p.f.AddPage()
	}
}

func (p *pdfWriter) sectionTitle(s string) {
	if s == "" {
		return // a notebook's text before its first heading
	}
	f := p.f
	f.Bookmark(plainScripts(s), 0, -1)
	p.font("B", 14)
	p.multiCell(14*ptMM*1.3, 14, s)
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
		if b.MDOnly {
			return nil
		}
		f.Ln(1.5)
		p.font("B", 11.5)
		p.multiCell(11.5*ptMM*1.35, 11.5, b.Text)
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
		if len(s.Heaps) > 0 {
			p.heaps(h, size, style, s.Heaps)
		} else if s.Link != "" {
			f.WriteLinkString(h, s.Text, s.Link)
		} else if s.Code || s.Literal {
			f.Write(h, s.Text)
		} else {
			p.writeScripted(h, size, s.Text)
		}
	}
	f.Ln(h)
}

// heaps writes a position of several heaps, a heap and its comma at a
// time: a line breaks between heaps, never inside a number; the heaps a
// move changed are in bold.
func (p *pdfWriter) heaps(h, size float64, style string, hs []posHeap) {
	f := p.f
	_, _, right, _ := f.GetMargins()
	pw, _ := f.GetPageSize()
	for i, hp := range hs {
		piece := hp.Text
		if i == 0 {
			piece = "(" + piece
		}
		tail := ","
		if i == len(hs)-1 {
			tail = ")"
		}
		st := style
		if hp.Changed {
			st = "B"
		}
		p.font(st, size)
		w := f.GetStringWidth(piece)
		p.font(style, size)
		// fpdf's Write keeps a cell margin on each side.
		if f.GetX()+w+f.GetStringWidth(tail) > pw-right-2*f.GetCellMargin() {
			f.Ln(h)
		}
		p.font(st, size)
		f.Write(h, piece)
		p.font(style, size)
		f.Write(h, tail)
	}
}

// bullet writes one list item with a hanging indent.
func (p *pdfWriter) bullet(body func()) {
	f := p.f
	l, _, _, _ := f.GetMargins()
	p.font("", pdfBase)
	// The bullet goes with its item's first two lines, never alone at a
	// page's foot.
	p.keep(2 * pdfBase * ptMM * 1.4)
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
	l, _, r, _ := f.GetMargins()
	pw, _ := f.GetPageSize()
	width := pw - l - r - 2 // MultiCell's cell margins
	for _, ln := range lines {
		for _, part := range wrapCode(ln, width, f.GetStringWidth) {
			f.MultiCell(0, h, part, "", "L", true)
		}
	}
	f.Ln(2)
}

// wrapCode cuts a line of code wider than width into lines that fit,
// after a comma or a space where it can: a number or a name is cut only
// when it alone is wider than the line.
func wrapCode(ln string, width float64, measure func(string) float64) []string {
	if measure(ln) <= width {
		return []string{ln}
	}
	var tokens []string
	start := 0
	for i := 0; i < len(ln); i++ {
		if ln[i] == ',' || ln[i] == ' ' {
			tokens = append(tokens, ln[start:i+1])
			start = i + 1
		}
	}
	if start < len(ln) {
		tokens = append(tokens, ln[start:])
	}
	var out []string
	cur := ""
	for _, t := range tokens {
		if cur != "" && measure(cur+t) > width {
			out = append(out, cur)
			cur = ""
		}
		for cur == "" && measure(t) > width {
			// A token wider than the line: cut it where it must be.
			k := len(t) - 1
			for k > 1 && measure(t[:k]) > width {
				k--
			}
			for k > 1 && !utf8.RuneStart(t[k]) {
				k--
			}
			out = append(out, t[:k])
			t = t[k:]
		}
		cur += t
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// table draws t with thin borders, the header row shaded, the first column
// left-aligned and numbers right-aligned, P-positions (Strong) in bold and
// underlined as in the HTML. The font shrinks (down to 5.5 pt) to fit the
// page width; a table still too wide is cut into groups of columns that
// repeat the label column.
func (p *pdfWriter) table(t table) {
	f := p.f
	cols := t.columns()
	if cols == 0 {
		return
	}
	get := at
	right := t.rightAligned(cols)
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
	// Columns of numbers alike (a table of values, the f_r table) are
	// as wide as the widest, when the page allows: a grid reads better.
	if cols > 2 && !slices.Contains(right[1:], false) {
		widest := slices.Max(w[1:])
		if w[0]+widest*float64(cols-1) <= pdfWidth {
			for j := 1; j < cols; j++ {
				w[j] = widest
			}
		}
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
				if c.Scripts && hasScripts(c.Text) {
					// The box first, then the text with its scripts
					// typeset, left in the box.
					x, y := f.GetXY()
					f.CellFormat(w[j], h, "", "1", 0, align, header, 0, "")
					f.SetXY(x+size*ptMM*0.45, y)
					p.writeScripted(h, size, c.Text)
					f.SetXY(x+w[j], y)
					continue
				}
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
	if p.figScale > 0 && p.figScale < 1 {
		wmm, hmm = wmm*p.figScale, hmm*p.figScale
	}
	p.figureH = hmm
	p.keep(hmm + 10)
	if p.measuring {
		f.SetY(f.GetY() + hmm)
	} else {
		name := fmt.Sprintf("fig%d", p.figs)
		opt := fpdf.ImageOptions{ImageType: "PNG"}
		f.RegisterImageOptionsReader(name, opt, img)
		x := pdfLeft + (pdfWidth-wmm)/2
		f.ImageOptions(name, x, f.GetY(), wmm, hmm, true, opt, 0, "")
	}
	p.font("", 9)
	f.MultiCell(0, 9*ptMM*1.4, plainScripts(fg.Caption), "", "C", false)
	if fg.Source != "" {
		p.font("", 8)
		f.SetTextColor(34, 34, 34)
		f.MultiCell(0, 8*ptMM*1.4, plainScripts(fg.Source), "", "C", false)
		f.SetTextColor(0, 0, 0)
	}
	f.Ln(2)
	return nil
}

// prose writes the job file's Markdown (proseBlocks): paragraphs,
// headings, lists, code, block quotes and GFM tables. Raw HTML is printed
// as the text it is, never interpreted, as in the HTML form.
func (p *pdfWriter) prose(src string) {
	p.mdBlocks(proseBlocks(src))
}

func (p *pdfWriter) mdBlocks(bs []mdBlock) {
	f := p.f
	for _, b := range bs {
		switch b.Kind {
		case mdPara:
			p.spansStyled(styledSpans(b.Inline, ""), pdfBase)
			f.Ln(pdfBase * ptMM * 0.6)
		case mdHeading:
			p.keep(20)
			p.spansStyled([]styledSpan{{span: span{Text: strings.TrimSpace(plainInline(b.Inline))}, style: "B"}}, 12)
			f.Ln(1)
		case mdList:
			for _, item := range b.Items {
				p.bullet(func() {
					l, _, _, _ := f.GetMargins()
					for _, ib := range item {
						if ib.Kind == mdPara {
							p.spansStyled(styledSpans(ib.Inline, ""), pdfBase)
						} else {
							p.mdBlocks([]mdBlock{ib})
						}
						f.SetX(l)
					}
				})
			}
			f.Ln(1.5)
		case mdCode:
			p.code(strings.TrimRight(b.Text, "\n"))
		case mdQuote:
			l, _, _, _ := f.GetMargins()
			f.SetLeftMargin(l + 6)
			f.SetX(l + 6)
			p.mdBlocks(b.Blocks)
			f.SetLeftMargin(l)
			f.SetX(l)
		case mdHTML:
			p.spans(text(strings.TrimSpace(b.Text)), pdfBase, "")
		case mdRule:
			y := f.GetY() + 2
			f.Line(pdfLeft, y, pdfLeft+pdfWidth, y)
			f.SetY(y + 3)
		case mdTable:
			p.table(b.Table)
		}
	}
}

type styledSpan struct {
	span
	style  string // "", "B" or "I"
	script int    // a superscript (1) or a subscript (-1), from the tags of scripts.go
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
		p.writePiece(h, size, piece{text: s.Text, script: s.script})
	}
	f.Ln(h)
}

// styledSpans flattens a paragraph's pieces into styled spans, its
// scripts (f_r, 2^7) raised or lowered. The tags of scripts (scripts.go)
// a notebook's Markdown may hold set what follows smaller; any other raw
// HTML prints as the text it is.
func styledSpans(in []mdInline, style string) []styledSpan {
	var out []styledSpan
	script := 0
	for _, x := range in {
		switch x.Kind {
		case inText:
			if x.Literal {
				out = append(out, styledSpan{span: span{Text: x.Text}, style: style})
				if x.Break {
					out = append(out, styledSpan{span: span{Text: " "}, style: style})
				}
				break
			}
			s := strings.ReplaceAll(x.Text, "\n", " ")
			if x.Break {
				s += " "
			}
			for _, pc := range splitScripts(s) {
				sc := pc.script
				if sc == 0 {
					sc = script
				}
				out = append(out, styledSpan{span: span{Text: pc.text}, style: style, script: sc})
			}
		case inCode:
			out = append(out, styledSpan{span: span{Text: x.Text, Code: true}, style: style})
		case inEmph:
			st := "I"
			if x.Level >= 2 {
				st = "B"
			}
			out = append(out, styledSpans(x.Items, st)...)
		case inAutoLink:
			out = append(out, styledSpan{span: span{Text: x.Text}, style: style})
		case inLink:
			out = append(out, styledSpans(x.Items, style)...)
		case inRaw:
			switch k := scriptTag(x.Text); {
			case k == 1 || k == -1:
				script = k
			case k != 0:
				script = 0
			default:
				out = append(out, styledSpan{span: span{Text: x.Text}, style: style})
			}
		}
	}
	return out
}
