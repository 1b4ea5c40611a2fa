package reports

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/budget"
)

// What rendering costs, measured on sections of 700 000 table cells (peak
// bytes in use per cell, rounded up): the document model, goldmark's tree
// of a section, the page or notebook text, the PDF's pages. A figure is
// bounded by package plots' limits; drawing one costs a canvas.
const (
	costCellMarkdown = 128
	costCellHTML     = 1 << 10
	costCellPDF      = 2 << 10
	costTextByte     = 64       // prose and paragraphs, parsed as Markdown
	costFigure       = 6 << 20  // one figure being drawn (PNG canvas, SVG text)
	costFigureKept   = 1 << 20  // a PDF figure kept until the PDF is written
	costPDFBase      = 16 << 20 // fonts and the PDF writer
	costExport       = 1 << 20  // an export file streamed: its buffer and a row, whatever its length
)

// form is a rendering: its name for messages and its cost per table cell.
type form struct {
	name    string
	perCell int64
}

var (
	formMarkdown = form{"Markdown", costCellMarkdown}
	formHTML     = form{"HTML", costCellHTML}
	formNotebook = form{"notebook", costCellHTML}
	formPDF      = form{"PDF", costCellPDF}
)

// size counts what a section holds: table cells, bytes of text, figures.
func (s *section) size() (cells, text, figures int64) {
	text = int64(len(s.Title))
	for _, b := range s.Blocks {
		switch b := b.(type) {
		case table:
			cells += int64(len(b.Header))
			for _, r := range b.Rows {
				cells += int64(len(r))
			}
		case para:
			for _, sp := range b.Spans {
				text += int64(len(sp.Text))
			}
		case prose:
			text += int64(len(b.MD))
		case codeBlock:
			text += int64(len(b.Text))
		case list:
			for _, it := range b.Items {
				for _, sp := range it {
					text += int64(len(sp.Text))
				}
			}
		case figure, picture:
			figures++
		}
	}
	return cells, text, figures
}

// estimate is the memory rendering sections costs in form f; a streamed
// form holds one section at a time, the PDF all of them.
func estimate(f form, sections ...*section) int64 {
	var need int64
	for _, s := range sections {
		cells, text, figs := s.size()
		need += cells*f.perCell + text*costTextByte
		if f == formPDF {
			need += figs * costFigureKept
		} else if figs > 0 {
			need += costFigure
		}
	}
	if f == formPDF {
		need += costPDFBase + int64(figureWorkers())*costFigure
	}
	return need
}

// checkMemory refuses to render what is estimated to need more than
// Options.MaxMemory, naming the limit and how to raise it.
func (o Options) checkMemory(f form, what string, sections ...*section) error {
	if o.MaxMemory <= 0 {
		return nil
	}
	err := budget.Exceeds(fmt.Sprintf("the %s form of %s", f.name, what), estimate(f, sections...), o.MaxMemory)
	if err != nil {
		return fmt.Errorf("reports: %w; raise it with --max-memory (or limits: memory in the job file), or write another format", err)
	}
	return nil
}
