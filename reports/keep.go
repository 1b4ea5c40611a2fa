package reports

import (
	"unicode/utf8"

	"gonum.org/v1/plot/vg"

	"github.com/nimbook/nimbook/plots"
)

// What a reader needs on one page. A section's blocks are cut into parts,
// each an analysis (its heading and what follows it, the first with the
// section's title, prose and game before it), and each part into chains,
// the runs that must not be parted: a heading with what it heads, a
// sentence with the table, list, figure or code it introduces, a remark
// or the source with what it explains. The printed forms (PDF, and HTML
// through its print stylesheet) keep a part on one page when that leaves
// the page it would leave at least a third full, else each chain.

// part is a run of chains, each a run of block indices.
type part [][]int

// partsOf cuts a section's blocks into parts and chains. Blocks left out
// of the printed forms (Markdown only) belong to none, but a heading left
// out still ends a part: the figures' heading, whose captions name the
// game.
func partsOf(blocks []block) []part {
	var parts []part
	var prev block
	headed := false // a part begun by a heading
	for i, b := range blocks {
		_, isHeading := b.(heading)
		// The section's title, prose and game go with its first
		// analysis: its words up to its first heading are one chain.
		intro := !headed && words(prev) && (words(b) || isHeading)
		if isHeading && headed {
			parts = append(parts, nil) // a new analysis
			prev = nil
		}
		if isHeading {
			headed = true
		}
		if printSkips(b) {
			prev = nil // nothing glues across it
			continue
		}
		if len(parts) == 0 {
			parts = append(parts, nil)
		}
		pt := &parts[len(parts)-1]
		if prev != nil && (intro || glued(prev, b)) {
			(*pt)[len(*pt)-1] = append((*pt)[len(*pt)-1], i)
		} else {
			*pt = append(*pt, []int{i})
		}
		prev = b
	}
	out := parts[:0]
	for _, p := range parts {
		if len(p) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// words reports whether a block is text: prose or a paragraph.
func words(b block) bool {
	switch b.(type) {
	case prose, para:
		return true
	}
	return false
}

// printSkips reports whether a block is left out of the HTML and PDF forms.
func printSkips(b block) bool {
	switch b := b.(type) {
	case para:
		return b.MDOnly
	case codeBlock:
		return b.MDOnly
	case heading:
		return b.MDOnly
	}
	return false
}

// glued reports whether b must stay on a's page.
func glued(a, b block) bool {
	if _, ok := a.(heading); ok {
		return true
	}
	if q, ok := b.(para); ok && q.Note {
		return true // a remark or the source, under what it explains
	}
	if q, ok := a.(para); ok && !q.Note {
		switch b.(type) {
		case table, list, figure, codeBlock, picture:
			return true // the sentence that introduces it
		}
	}
	return false
}

// printPage is the height in millimetres an A4 page holds between the
// margins of both printed forms.
const printPage = 297 - pdfTop - pdfBottom

// htmlEstimate is roughly the height in millimetres a block takes printed
// from the HTML form (10 pt text, 178 mm wide, the print stylesheet's
// spacing), enough to tell a short part from a long one.
func htmlEstimate(b block) float64 {
	const line = 10 * ptMM * 1.35
	lines := func(n int) float64 { return float64(max(1, (n+94)/95)) }
	switch b := b.(type) {
	case heading:
		return 8
	case para:
		return lines(utf8.RuneCountInString(spanText(b.Spans)))*line + 2.5
	case prose:
		return lines(utf8.RuneCountInString(b.MD))*line + 2.5
	case table:
		return float64(len(b.Rows)+1)*4.7 + 3
	case list:
		return float64(len(b.Items))*line + 2.5
	case codeBlock:
		n := 1
		for _, c := range b.Text {
			if c == '\n' {
				n++
			}
		}
		return float64(n)*4.2 + 5
	case figure:
		w, h := figureSize(b.Kind)
		return h.Points()*ptMM*min(1, pdfWidth/(w.Points()*ptMM)) + 12
	}
	return 10
}

// figureSize is the size drawFigure gives a figure of a kind.
func figureSize(kind string) (w, h vg.Length) {
	switch kind {
	case "table", "graph":
		return plots.SquareHeight, plots.SquareHeight
	}
	return plots.Width, plots.Height
}
