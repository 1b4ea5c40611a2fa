package reports

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/plots"
)

// Bundle renders one analysis, a *job.SectionResult as a notebook cell
// computes it, as a Jupyter MIME bundle with the report renderers' default
// options. It is Bundler{}.Bundle; see Bundler.
func Bundle(v any) (*kernel.Display, error) { return Bundler{}.Bundle(v) }

// Bundler renders the results of notebook cells with the report renderers,
// so that a cell shows what a report's section shows. It implements
// explore/notebook's Renderer. The zero value renders in English with the
// default limits.
type Bundler struct {
	Options Options
	// Print makes bundles for a printed report of the notebook
	// (NotebookPDF): the figure also as image/png, and text/markdown
	// without what the figure shows (the DOT text of a drawn graph, the
	// note that Markdown has no figures), as the HTML form does.
	Print bool
}

// Bundle turns v, a *job.SectionResult holding one analysis (its Spec.Show
// names it), into a MIME bundle:
//
//   - text/plain and text/markdown: the section's Markdown, without the
//     section heading (P-positions in bold);
//   - text/html: an HTML fragment of the same blocks, tables with the
//     P-positions in <strong>, figures as inline SVG;
//   - image/svg+xml: the figure, when the analysis draws one (show holds
//     "plot", or a small game graph);
//   - application/json: the results under SPEC.md's keys.
//
// A *survey.Report (the notebook's survey()) displays as its report
// does, without the title. Any other value gives (nil, nil): the notebook
// falls back to plain text.
// A plot's bundle holds the figure and its caption but not the table the
// figure is drawn from, and no text/markdown, which cannot hold it.
func (bd Bundler) Bundle(v any) (*kernel.Display, error) {
	if r, ok := v.(*survey.Report); ok {
		return bd.surveyBundle(r)
	}
	sr, ok := v.(*job.SectionResult)
	if !ok || sr == nil {
		return nil, nil
	}
	doc, o, t, err := build(&job.Report{Lang: bd.Options.Lang, Sections: []*job.SectionResult{sr}}, bd.Options)
	if err != nil {
		return nil, err
	}
	if len(doc.Sections) == 0 {
		return nil, nil
	}
	blocks := doc.Sections[0].Blocks
	isPlot := sr.Spec != nil && slices.Contains(sr.Spec.Show, "plot")
	var figs []figure
	for _, b := range blocks {
		if f, ok := b.(figure); ok {
			figs = append(figs, f)
		}
	}
	if isPlot && len(figs) > 0 {
		// The table a plot is drawn from is the plot's data, not its
		// display: keep the game line and the figures.
		var kept []block
		for i, b := range blocks {
			if _, ok := b.(figure); ok || (i == 0 && isGameLine(b)) {
				kept = append(kept, b)
			}
		}
		blocks = kept
	}

	d := &kernel.Display{Data: map[string]any{}, Metadata: map[string]any{}}
	var mdText bytes.Buffer
	for _, b := range blocks {
		writeBundleBlockMarkdown(&mdText, b, !bd.Print)
	}
	plain := strings.TrimRight(mdText.String(), "\n")
	if isPlot && len(figs) > 0 {
		var caps []string
		for _, f := range figs {
			caps = append(caps, f.Caption)
		}
		plain = strings.Join(caps, "\n")
	} else {
		d.Data["text/markdown"] = plain + "\n"
	}
	d.Data["text/plain"] = plain

	// A small game graph is a figure of the graph analysis, like a plot:
	// the HTML shows the picture in place of the DOT text (see
	// builder.graph).
	html, err := bundleHTML(blocks, o, t.Text)
	if err != nil {
		return nil, err
	}
	if len(figs) > 0 && !o.NoFigures {
		// image/svg+xml holds one image: the first figure that draws.
		for _, f := range figs {
			p, w, h, err := drawFigure(f)
			if err != nil {
				continue
			}
			var svg bytes.Buffer
			if err := plots.SVG(&svg, p, w, h); err != nil {
				return nil, fmt.Errorf("reports: %w", err)
			}
			d.Data["image/svg+xml"] = svg.String()
			if bd.Print {
				var img bytes.Buffer
				if err := plots.PNG(&img, p, w, h, pictureDPI); err != nil {
					return nil, fmt.Errorf("reports: %w", err)
				}
				d.Data["image/png"] = base64.StdEncoding.EncodeToString(img.Bytes())
			}
			break
		}
	}
	d.Data["text/html"] = "<div class=\"nimbook-result\">\n" + html + "</div>\n"
	if j, ok := resultsJSON(&sr.Results); ok {
		d.Data["application/json"] = j
	}
	return d, nil
}

// isGameLine reports whether b is the paragraph naming the game, which
// every section opens with.
func isGameLine(b block) bool {
	p, ok := b.(para)
	return ok && !p.Note && !p.MDOnly
}

// writeBundleBlockMarkdown writes a block of a cell's result: headings are
// bold lines, not Markdown headings, so that a notebook's outline lists the
// notebook's own headings only.
func writeBundleBlockMarkdown(w *bytes.Buffer, b block, mdOnly bool) {
	if h, ok := b.(heading); ok {
		fmt.Fprintf(w, "**%s**\n\n", escape(h.Text))
		return
	}
	if f, ok := b.(figure); ok && mdOnly {
		fmt.Fprintf(w, "*%s*\n\n", escape(f.Caption))
		return
	}
	writeBlockMarkdown(w, b, mdOnly)
}

// bundleHTML renders blocks as an HTML fragment, the way HTML renders a
// section: Markdown through goldmark, figures inline.
func bundleHTML(blocks []block, o Options, tx func(string, any) (string, error)) (string, error) {
	var body, run bytes.Buffer
	flush := func() error {
		if run.Len() == 0 {
			return nil
		}
		err := md.Convert(run.Bytes(), &body)
		run.Reset()
		return err
	}
	for _, b := range blocks {
		f, ok := b.(figure)
		if !ok {
			writeBundleBlockMarkdown(&run, b, false)
			continue
		}
		if err := flush(); err != nil {
			return "", fmt.Errorf("reports: %w", err)
		}
		if o.NoFigures {
			continue
		}
		if err := writeFigureHTML(&body, f, o, tx); err != nil {
			return "", err
		}
	}
	if err := flush(); err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	return body.String(), nil
}

// resultsJSON is the JSON object of the results under SPEC.md's keys, as
// a decoded value (numbers kept exact).
func resultsJSON(r *job.Results) (any, bool) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, false
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil || len(m) == 0 {
		return nil, false
	}
	return m, true
}
