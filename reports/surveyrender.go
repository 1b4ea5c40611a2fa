package reports

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/plots"
)

// SurveyMarkdown writes the report of a survey as Markdown: an overview
// (its variants, their status, the notable ones: longest period and
// preperiod, periods not proven, variants with equal values) and the
// table of the variants, one row each. Figures are left to the HTML and
// PDF forms.
func SurveyMarkdown(w io.Writer, r *survey.Report, opts Options) error {
	d, _, _, err := buildSurvey(r, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	writeMarkdownHead(bw, d)
	for _, s := range d.Sections {
		writeSectionMarkdown(bw, s, true)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// surveyCSS lets the long table of variants flow from page to page in
// print (the handout keeps other tables whole), in a smaller type.
const surveyCSS = `
#variants table { font-size: 0.85em; }
#variants td { white-space: nowrap; }
@media print {
  #variants table { break-inside: auto; }
  #variants tr { break-inside: avoid; }
}
`

// SurveyHTML writes the report of a survey as one self-contained HTML
// page with the handout stylesheet: the Markdown form's sections, and the
// figures across the variants (a histogram of their periods, preperiod
// against period, every variant's values or weights as one image) inline
// as SVG. The table of variants flows over as many A4 pages as it needs
// when printed.
func SurveyHTML(w io.Writer, r *survey.Report, opts Options) error {
	d, o, b, err := buildSurvey(r, opts)
	if err != nil {
		return err
	}
	page, err := template.New("page").Parse(b.t.Page())
	if err != nil {
		return fmt.Errorf("reports: page template: %w", err)
	}
	var body bytes.Buffer
	for _, s := range d.Sections {
		fmt.Fprintf(&body, "<section class=\"section\" id=\"%s\">\n", s.ID)
		var run bytes.Buffer
		fmt.Fprintf(&run, "## %s\n\n", mdText(s.Title, false))
		if err := b.blocksHTML(&body, &run, s.Blocks, o, false); err != nil {
			return err
		}
		body.WriteString("</section>\n")
	}
	if b.err != nil {
		return b.err
	}
	data := struct {
		Lang, Title, Date string
		Heading           template.HTML // the title, its scripts as <sub> and <sup>
		CSS               template.CSS
		Body              template.HTML
	}{d.Lang, plainScripts(d.Title), d.Date, template.HTML(htmlText(d.Title, template.HTMLEscapeString)), template.CSS(b.t.CSS() + surveyCSS), template.HTML(body.String())}
	var out bytes.Buffer
	if err := page.Execute(&out, data); err != nil {
		return fmt.Errorf("reports: page template: %w", err)
	}
	if _, err := w.Write(out.Bytes()); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// blocksHTML writes blocks to body: Markdown (started in run) through
// goldmark, figures as inline SVG, or with img set as <img> elements
// holding the SVG as a data URI, which a notebook shows even when it is
// not trusted (Jupyter strips inline SVG from untrusted HTML).
func (b *surveyBuilder) blocksHTML(body, run *bytes.Buffer, blocks []block, o Options, img bool) error {
	flush := func() error {
		if run.Len() == 0 {
			return nil
		}
		err := md.Convert(run.Bytes(), body)
		run.Reset()
		if err != nil {
			return fmt.Errorf("reports: %w", err)
		}
		return nil
	}
	for _, bl := range blocks {
		f, ok := bl.(surveyFigure)
		if !ok {
			writeBlockMarkdown(run, bl, false)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		if o.NoFigures {
			continue
		}
		p, err := f.draw()
		if err != nil {
			fmt.Fprintf(body, "<p class=\"note\">%s</p>\n", template.HTMLEscapeString(b.tooLarge(err)))
			continue
		}
		var svg bytes.Buffer
		if err := plots.SVG(&svg, p, plots.Width, f.Height); err != nil {
			return fmt.Errorf("reports: %w", err)
		}
		pic := inlineSVG(svg.String(), f.Caption)
		if img {
			pic = fmt.Sprintf("<img alt=\"%s\" src=\"data:image/svg+xml;base64,%s\">\n", template.HTMLEscapeString(f.Caption), base64.StdEncoding.EncodeToString(svg.Bytes()))
		}
		fmt.Fprintf(body, "<figure>\n%s<figcaption>%s</figcaption>\n</figure>\n", pic, template.HTMLEscapeString(f.Caption))
	}
	return flush()
}

// SurveyPDF writes the report of a survey as an A4 PDF with the PDF
// renderer of job reports: the HTML form's sections and figures, the
// table of variants over as many pages as it needs, its header row
// repeated on each.
func SurveyPDF(w io.Writer, r *survey.Report, opts Options) error {
	d, o, b, err := buildSurvey(r, opts)
	if err != nil {
		return err
	}
	for _, s := range d.Sections {
		var kept []block
		for _, bl := range s.Blocks {
			f, ok := bl.(surveyFigure)
			switch {
			case !ok:
				kept = append(kept, bl)
				continue
			case o.NoFigures:
				continue
			}
			p, err := f.draw()
			if err != nil {
				kept = append(kept, para{Spans: text(b.tooLarge(err)), Note: true})
				continue
			}
			var img bytes.Buffer
			if err := plots.PNG(&img, p, plots.Width, f.Height, pictureDPI); err != nil {
				return fmt.Errorf("reports: %w", err)
			}
			kept = append(kept, picture{PNG: img.Bytes(), Alt: f.Caption})
		}
		s.Blocks = kept
	}
	if b.err != nil {
		return b.err
	}
	return writePDF(w, d, o, b.t)
}

// tooLarge is the note that replaces a figure that cannot be drawn.
func (b *surveyBuilder) tooLarge(err error) string {
	return b.tx("plot.toolarge", args{"Why": strings.TrimPrefix(err.Error(), "plots: ")})
}
