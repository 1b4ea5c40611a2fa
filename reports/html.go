package reports

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/plots"
)

// md converts Markdown to HTML: GFM tables, and raw HTML left out (goldmark
// is safe by default), so that prose from a job file cannot inject markup.
var md = goldmark.New(goldmark.WithExtensions(extension.Table))

// HTML writes r as one self-contained HTML page, a printable handout: the
// stylesheet and the figures (inline SVG, or PNG with Options.PNG) are in
// the page, nothing is fetched. Each section is a <section> that starts a
// new A4 page in print; tables and figures are kept whole where they fit.
func HTML(w io.Writer, r *job.Report, opts Options) error {
	d, o, t, err := build(r, opts)
	if err != nil {
		return err
	}
	page, err := template.New("page").Parse(t.Page())
	if err != nil {
		return fmt.Errorf("reports: page template: %w", err)
	}
	var body bytes.Buffer
	for i, s := range d.Sections {
		fmt.Fprintf(&body, "<section class=\"section\" id=\"s%d\">\n", i+1)
		var run bytes.Buffer
		flush := func() error {
			if run.Len() == 0 {
				return nil
			}
			err := md.Convert(run.Bytes(), &body)
			run.Reset()
			return err
		}
		fmt.Fprintf(&run, "## %s\n\n", escape(s.Title))
		for _, b := range s.Blocks {
			f, ok := b.(figure)
			if !ok {
				writeBlockMarkdown(&run, b, false)
				continue
			}
			if err := flush(); err != nil {
				return fmt.Errorf("reports: %w", err)
			}
			if o.NoFigures {
				continue
			}
			if err := writeFigureHTML(&body, f, o, t.Text); err != nil {
				return err
			}
		}
		if err := flush(); err != nil {
			return fmt.Errorf("reports: %w", err)
		}
		body.WriteString("</section>\n")
	}
	data := struct {
		Lang, Title, Date string
		CSS               template.CSS
		Body              template.HTML
	}{d.Lang, d.Title, d.Date, template.CSS(t.CSS()), template.HTML(body.String())}
	var out bytes.Buffer
	if err := page.Execute(&out, data); err != nil {
		return fmt.Errorf("reports: page template: %w", err)
	}
	if _, err := w.Write(out.Bytes()); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// drawFigure builds the plot a figure block asks for, with its size.
func drawFigure(f figure) (*plot.Plot, vg.Length, vg.Length, error) {
	l := plots.Labels{Title: f.Title, X: f.X, Y: f.Y}
	switch f.Kind {
	case "values":
		p, err := plots.Values(f.Values, f.First, f.Period, l)
		return p, plots.Width, plots.Height, err
	case "rare":
		p, err := plots.RareCommon(f.Values, f.First, f.Rare.IsRare, l)
		return p, plots.Width, plots.Height, err
	case "table":
		p, err := plots.Heatmap(f.Table, f.RowLo, f.ColLo, f.Mark, l)
		return p, plots.SquareHeight, plots.SquareHeight, err
	case "weights":
		p, err := plots.Bars(f.Values, l)
		return p, plots.Width, plots.Height, err
	case "graph":
		p, err := plots.Graph(f.Graph, l)
		return p, plots.SquareHeight, plots.SquareHeight, err
	}
	return nil, 0, 0, fmt.Errorf("reports: unknown figure %q", f.Kind)
}

func writeFigureHTML(w *bytes.Buffer, f figure, o Options, tx func(string, any) (string, error)) error {
	p, width, height, err := drawFigure(f)
	if err != nil {
		// A figure too large to draw is a note, not a failure.
		msg, terr := tx("plot.toolarge", args{"Why": strings.TrimPrefix(err.Error(), "plots: ")})
		if terr != nil {
			return fmt.Errorf("reports: %w", terr)
		}
		fmt.Fprintf(w, "<p class=\"note\">%s</p>\n", template.HTMLEscapeString(msg))
		return nil
	}
	w.WriteString("<figure>\n")
	if o.PNG {
		var img bytes.Buffer
		if err := plots.PNG(&img, p, width, height, 150); err != nil {
			return fmt.Errorf("reports: %w", err)
		}
		fmt.Fprintf(w, "<img alt=\"%s\" src=\"data:image/png;base64,%s\">\n", template.HTMLEscapeString(f.Caption), base64.StdEncoding.EncodeToString(img.Bytes()))
	} else {
		var svg bytes.Buffer
		if err := plots.SVG(&svg, p, width, height); err != nil {
			return fmt.Errorf("reports: %w", err)
		}
		w.WriteString(inlineSVG(svg.String(), f.Caption))
	}
	fmt.Fprintf(w, "<figcaption>%s</figcaption>\n</figure>\n", template.HTMLEscapeString(f.Caption))
	return nil
}

// inlineSVG makes an SVG document fit inside HTML: no XML prologue, and a
// label for screen readers.
func inlineSVG(svg, label string) string {
	if i := strings.Index(svg, "<svg"); i >= 0 {
		svg = svg[i:]
	}
	return strings.Replace(svg, "<svg ", fmt.Sprintf("<svg role=\"img\" aria-label=\"%s\" ", template.HTMLEscapeString(label)), 1)
}
