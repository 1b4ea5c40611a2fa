package reports

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
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
// is safe by default), so that prose from a job file cannot inject markup,
// but for the <sub> and <sup> of scripts (see scripts.go).
var md = goldmark.New(goldmark.WithExtensions(extension.Table), withScriptTags())

// HTML writes r as one self-contained HTML page, a printable handout: the
// stylesheet and the figures (inline SVG, or PNG with Options.PNG) are in
// the page, nothing is fetched. Each section is a <section>; in print the
// sections follow one another, and what a reader needs together (a
// heading and what it heads, a sentence and its table, a table or figure
// and its notes) is kept on one A4 page where it fits.
func HTML(w io.Writer, r *job.Report, opts Options) error {
	d, b, err := prepare(r, opts)
	if err != nil {
		return err
	}
	o, t := b.o, b.t
	pg, err := newPage(w, t.Page(), d.Lang, d.Title, d.Date, t.CSS())
	if err != nil {
		return err
	}
	i, n := 0, sectionCount(r)
	err = b.each(r, formHTML, func(s *section) error {
		i++
		last := i == n
		var body bytes.Buffer
		fmt.Fprintf(&body, "<section class=\"section\" id=\"s%d\">\n", i)
		var run bytes.Buffer
		flush := func() error {
			if run.Len() == 0 {
				return nil
			}
			err := md.Convert(run.Bytes(), &body)
			run.Reset()
			return err
		}
		// Each chain (see partsOf) is a <div class="keep">, which the
		// print stylesheet keeps on one page, and so is a part short
		// enough (two thirds of a page) that moving it whole to the next
		// page leaves this one at least a third full; the section's title
		// goes with its first chain.
		parts := partsOf(s.Blocks)
		if len(parts) == 0 {
			parts = []part{{nil}}
		}
		// So is a whole section that short, or the last section when it
		// fits on a page (its tail would take a page anyway): a game's
		// analyses together.
		ests := make([]float64, len(parts))
		total := 0.0
		for c, pt := range parts {
			if c == 0 {
				ests[c] = 14 // the title
			}
			for _, ch := range pt {
				for _, bi := range ch {
					ests[c] += htmlEstimate(s.Blocks[bi])
				}
			}
			total += ests[c]
		}
		sectionKept := len(parts) > 1 && (total <= printPage*2/3 || (last && total <= printPage*0.9))
		if sectionKept {
			body.WriteString("<div class=\"keep\">\n")
		}
		for c, pt := range parts {
			whole := len(pt) > 1 && ests[c] <= printPage*2/3 && !sectionKept
			if whole {
				body.WriteString("<div class=\"keep\">\n")
			}
			for k, ch := range pt {
				body.WriteString("<div class=\"keep\">\n")
				if c == 0 && k == 0 {
					fmt.Fprintf(&run, "## %s\n\n", mdText(s.Title, false))
				}
				for _, bi := range ch {
					f, ok := s.Blocks[bi].(figure)
					if !ok {
						writeBlockMarkdown(&run, s.Blocks[bi], false)
						continue
					}
					if err := flush(); err != nil {
						return fmt.Errorf("reports: %w", err)
					}
					if o.NoFigures {
						continue
					}
					if _, err := writeFigureHTML(&body, f, o, t.Text, embedInline, false); err != nil {
						return err
					}
				}
				if err := flush(); err != nil {
					return fmt.Errorf("reports: %w", err)
				}
				body.WriteString("</div>\n")
			}
			if whole {
				body.WriteString("</div>\n")
			}
		}
		if sectionKept {
			body.WriteString("</div>\n")
		}
		body.WriteString("</section>\n")
		return pg.write(body.Bytes())
	})
	if err != nil {
		return err
	}
	return pg.close()
}

// page writes the HTML page skeleton around a body written piece by piece:
// the page template is executed once with a marker for its body, and the
// body's pieces go where the marker was.
type page struct {
	w    *bufio.Writer
	tail []byte
}

// bodyMarker stands for the body in the executed page template; it
// cannot come from a title, which the template escapes.
const bodyMarker = "<!--nimbook:body\x00-->"

func newPage(w io.Writer, skeleton, lang, title, date, css string) (*page, error) {
	tmpl, err := template.New("page").Parse(skeleton)
	if err != nil {
		return nil, fmt.Errorf("reports: page template: %w", err)
	}
	// Title is plain text (the window's title), its scripts in Unicode;
	// Heading the same title for the page, its scripts as <sub> and <sup>.
	data := struct {
		Lang, Title, Date string
		Heading           template.HTML
		CSS               template.CSS
		Body              template.HTML
	}{lang, plainScripts(title), date, template.HTML(htmlText(title, template.HTMLEscapeString)), template.CSS(css), template.HTML(bodyMarker)}
	var out bytes.Buffer
	if err := tmpl.Execute(&out, data); err != nil {
		return nil, fmt.Errorf("reports: page template: %w", err)
	}
	head, tail, ok := bytes.Cut(out.Bytes(), []byte(bodyMarker))
	if !ok {
		// A page template without {{.Body}}: nothing of the body shows.
		head, tail = out.Bytes(), nil
	}
	p := &page{w: bufio.NewWriterSize(w, 64<<10), tail: tail}
	if !ok {
		p.w = bufio.NewWriterSize(io.Discard, 16)
		if _, err := w.Write(head); err != nil {
			return nil, fmt.Errorf("reports: %w", err)
		}
		return p, nil
	}
	return p, p.write(head)
}

func (p *page) write(b []byte) error {
	if _, err := p.w.Write(b); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

func (p *page) close() error {
	if err := p.write(p.tail); err != nil {
		return err
	}
	if err := p.w.Flush(); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// drawFigure builds the plot a figure block asks for, with its size.
// The figure carries no title: its caption, beside it in every form,
// says what it shows, and a title would say it twice.
func drawFigure(f figure) (*plot.Plot, vg.Length, vg.Length, error) {
	l := plots.Labels{X: f.X, Y: f.Y}
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

// figureEmbed says how an HTML fragment holds a figure's SVG: inline in
// a page of ours, or as an <img> with a data URI in a notebook, whose
// front ends strip inline <svg> from the HTML of an untrusted notebook (any
// notebook executed elsewhere) but keep images.
type figureEmbed int

const (
	embedInline figureEmbed = iota
	embedImage
)

// drawn is a figure drawn for a rendering: its SVG document, and its PNG
// when asked for.
type drawn struct {
	svg string
	png []byte
}

// writeFigureHTML writes a figure as <figure> with its caption (as PNG
// with Options.PNG), or the note saying why it is not drawn; it returns
// what it drew, PNG included when withPNG is set, for the bundles that
// carry the figure apart.
func writeFigureHTML(w *bytes.Buffer, f figure, o Options, tx func(string, any) (string, error), embed figureEmbed, withPNG bool) (drawn, error) {
	var d drawn
	p, width, height, err := drawFigure(f)
	if err != nil {
		// A figure too large to draw is a note, not a failure.
		msg, terr := figureNote(err, tx)
		if terr != nil {
			return d, terr
		}
		fmt.Fprintf(w, "<p class=\"note\">%s</p>\n", template.HTMLEscapeString(msg))
		return d, nil
	}
	if o.PNG || withPNG {
		var img bytes.Buffer
		if err := plots.PNG(&img, p, width, height, pictureDPI); err != nil {
			return d, fmt.Errorf("reports: %w", err)
		}
		d.png = img.Bytes()
	}
	if !o.PNG || embed == embedImage {
		var svg bytes.Buffer
		if err := plots.SVG(&svg, p, width, height); err != nil {
			return d, fmt.Errorf("reports: %w", err)
		}
		d.svg = svg.String()
	}
	alt := template.HTMLEscapeString(plainScripts(f.Caption))
	w.WriteString("<figure>\n")
	switch {
	case o.PNG:
		fmt.Fprintf(w, "<img alt=\"%s\" src=\"data:image/png;base64,%s\">\n", alt, base64.StdEncoding.EncodeToString(d.png))
	case embed == embedImage:
		fmt.Fprintf(w, "<img alt=\"%s\" src=\"data:image/svg+xml;base64,%s\">\n", alt, base64.StdEncoding.EncodeToString([]byte(d.svg)))
	default:
		w.WriteString(inlineSVG(d.svg, plainScripts(f.Caption)))
	}
	fmt.Fprintf(w, "<figcaption>%s", htmlText(f.Caption, template.HTMLEscapeString))
	if f.Source != "" {
		fmt.Fprintf(w, "<br><span class=\"source\">%s</span>", htmlText(f.Source, template.HTMLEscapeString))
	}
	w.WriteString("</figcaption>\n</figure>\n")
	return d, nil
}

// figureNote says, in the document's language, why a figure is not
// drawn.
func figureNote(err error, tx func(string, any) (string, error)) (string, error) {
	var big *plots.TooLargeError
	var msg string
	var terr error
	if errors.As(err, &big) {
		msg, terr = tx("plot.toolarge."+big.Kind, args{"N": itoa(big.N), "Limit": itoa(big.Limit)})
	} else {
		msg, terr = tx("plot.toolarge", args{"Why": strings.TrimPrefix(err.Error(), "plots: ")})
	}
	if terr != nil {
		return "", fmt.Errorf("reports: %w", terr)
	}
	return msg, nil
}

// inlineSVG makes an SVG document fit inside HTML: no XML prologue, and a
// label for screen readers.
func inlineSVG(svg, label string) string {
	if i := strings.Index(svg, "<svg"); i >= 0 {
		svg = svg[i:]
	}
	return strings.Replace(svg, "<svg ", fmt.Sprintf("<svg role=\"img\" aria-label=\"%s\" ", template.HTMLEscapeString(label)), 1)
}
