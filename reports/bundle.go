package reports

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/plots"
)

// Bundle renders one analysis, a *job.SectionResult as a notebook cell
// computes it, as a Jupyter MIME bundle with the report renderers' default
// options. It is Bundler{}.Bundle; see Bundler.
func Bundle(v any) (*nbformat.Display, error) { return Bundler{}.Bundle(v) }

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
	// HTML keeps text/html in the bundles, for nimbook's own HTML page of
	// a notebook (NotebookHTML), which shows it; Jupyter's bundles have
	// none (see Bundle).
	HTML bool
}

// Bundle turns v, a *job.SectionResult holding one analysis (its Spec.Show
// names it), into a MIME bundle:
//
//   - text/plain: the section as plain text (PlainText's form), without
//     the section heading;
//   - text/markdown: the section's Markdown (P-positions in bold);
//   - text/html, with Print or HTML only: an HTML fragment of the same
//     blocks, tables with the P-positions in <strong>, figures as <img>
//     with an SVG data URI (a PNG one with Options.PNG). A notebook's
//     bundle has none, so that nbconvert exports its Markdown and its
//     figure files rather than raw HTML;
//   - image/svg+xml: the figure, when the analysis draws one (show holds
//     "plot", or a small game graph);
//   - image/png: the same figure, with Options.PNG or Print, and in a
//     notebook's bundle (an untrusted notebook shows PNG, not SVG);
//   - text/latex: with Print or HTML, the blocks as a piece of a LaTeX
//     document (tables as tabular with booktabs rules), but for a plot,
//     which is an image; in a notebook's bundle, the whole result in a
//     form MathJax draws and LaTeX compiles alike, tables as arrays
//     (mathJaxResult), and none for a figure;
//   - application/json: the results under SPEC.md's keys.
//
// A *survey.Report (the notebook's survey()) displays as its report
// does, without the title. Any other value gives (nil, nil): the notebook
// falls back to plain text.
// A plot's bundle holds the figure and its caption but not the table the
// figure is drawn from, and no text/markdown, which cannot hold it; nor
// does a notebook's bundle of a drawn game graph.
func (bd Bundler) Bundle(v any) (*nbformat.Display, error) {
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
	if err := o.checkMemory(formHTML, "this result", doc.Sections[0]); err != nil {
		return nil, err
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

	d := &nbformat.Display{Data: map[string]any{}, Metadata: map[string]any{}}
	var mdText, plainText bytes.Buffer
	for _, b := range blocks {
		writeBundleBlockMarkdown(&mdText, b, !bd.Print)
		writeBundleBlockText(&plainText, b)
	}
	plain := strings.TrimRight(plainText.String(), "\n")
	if isPlot && len(figs) > 0 {
		var caps []string
		for _, f := range figs {
			caps = append(caps, plainScripts(f.Caption))
		}
		plain = strings.Join(caps, "\n")
	} else {
		d.Data["text/markdown"] = strings.TrimRight(mdText.String(), "\n") + "\n"
	}
	d.Data["text/plain"] = plain

	// A small game graph is a figure of the graph analysis, like a plot:
	// the HTML shows the picture in place of the DOT text (see
	// builder.graph). The figures are <img> elements: a notebook opened
	// untrusted (executed elsewhere, or sent by a colleague) strips an
	// inline <svg> from its HTML but shows images.
	jupyter := !bd.Print && !bd.HTML
	html, fig, err := bundleHTML(blocks, o, t.Text, bd.Print || jupyter)
	if err != nil {
		return nil, err
	}
	if fig.svg != "" {
		d.Data["image/svg+xml"] = fig.svg
	}
	if fig.png != nil {
		d.Data["image/png"] = base64.StdEncoding.EncodeToString(fig.png)
	}
	if fig.svg != "" || fig.png != nil {
		// The same figure as vector PDF: nbconvert's LaTeX and PDF take
		// it, where an SVG alone sends them to inkscape.
		pdf, err := bundlePDF(blocks)
		if err != nil {
			return nil, err
		}
		if pdf != nil {
			d.Data["application/pdf"] = base64.StdEncoding.EncodeToString(pdf)
		}
	}
	d.Data["text/html"] = "<div class=\"nimbook-result\">\n" + html + "</div>\n"
	if !isPlot || len(figs) == 0 {
		// A plot is an image: nbconvert's LaTeX takes its image/png.
		tex, err := latexFragment(blocks, o, t, false)
		if err != nil {
			return nil, err
		}
		d.Data["text/latex"] = tex
	}
	if j, ok := resultsJSON(&sr.Results); ok {
		d.Data["application/json"] = j
	}
	if jupyter {
		// nbconvert's Markdown exporter prefers text/html to
		// everything: without it, it keeps the Markdown, tables
		// included, and writes the figure to a file of its own. A notebook opened untrusted shows neither Markdown
		// nor SVG: it shows the plain text and the PNG.
		delete(d.Data, "text/html")
		// Formulas in dollars: Jupyter draws them, and nbconvert's
		// LaTeX sets them, where the Unicode of n₀′ ≤ n has no glyph.
		if m, ok := d.Data["text/markdown"].(string); ok {
			d.Data["text/markdown"] = markdownMaths(m)
		}
		// The whole result as both MathJax and nbconvert's LaTeX read
		// it (mathjax.go); none for a figure, which nbconvert takes as
		// its PDF.
		delete(d.Data, "text/latex")
		if tex := mathJaxResult(blocks); tex != "" {
			d.Data["text/latex"] = tex
		}
		if fig.svg != "" {
			// A front end shows Markdown before a figure: a drawn game
			// graph is its figure, its DOT text stays in text/plain.
			delete(d.Data, "text/markdown")
		}
	}
	return d, nil
}

// bundlePDF draws the first figure among blocks that draws as a PDF file
// (nil when none does).
func bundlePDF(blocks []block) ([]byte, error) {
	for _, b := range blocks {
		f, ok := b.(figure)
		if !ok {
			continue
		}
		p, w, h, err := drawFigure(f)
		if err != nil {
			continue
		}
		var buf bytes.Buffer
		if err := plots.PDF(&buf, p, w, h); err != nil {
			return nil, fmt.Errorf("reports: %w", err)
		}
		return buf.Bytes(), nil
	}
	return nil, nil
}

// writeBundleBlockText writes a block of a cell's result as plain text:
// figures by their caption.
func writeBundleBlockText(w *bytes.Buffer, b block) {
	if f, ok := b.(figure); ok {
		fmt.Fprintf(w, "%s\n\n", plainScripts(f.Caption))
		return
	}
	writeBlockText(w, b)
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
		fmt.Fprintf(w, "**%s**\n\n", mdText(h.Text, mdOnly))
		return
	}
	if f, ok := b.(figure); ok && mdOnly {
		fmt.Fprintf(w, "*%s*\n\n", mdText(f.Caption, mdOnly))
		return
	}
	writeBlockMarkdown(w, b, mdOnly)
}

// bundleHTML renders blocks as an HTML fragment, the way HTML renders a
// section: Markdown through goldmark, figures as images. It returns the
// first figure that draws (with its PNG when withPNG or Options.PNG is
// set): image/svg+xml and image/png hold one image.
func bundleHTML(blocks []block, o Options, tx func(string, any) (string, error), withPNG bool) (string, drawn, error) {
	var body, run bytes.Buffer
	var first drawn
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
			return "", first, fmt.Errorf("reports: %w", err)
		}
		if o.NoFigures {
			continue
		}
		fig, err := writeFigureHTML(&body, f, o, tx, embedImage, withPNG && first.svg == "")
		if err != nil {
			return "", first, err
		}
		if first.svg == "" {
			first = fig
		}
	}
	if err := flush(); err != nil {
		return "", first, fmt.Errorf("reports: %w", err)
	}
	return body.String(), first, nil
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

// LaTeX is the LaTeX a notebook result gives for a paper (its .latex()):
// its tables as tabular environments with booktabs rules (\usepackage{booktabs};
// a table of more than 40 rows is a longtable, \usepackage{longtable}),
// or, for a result without a table (a period, a Steiner system), its
// text. v is what Bundle takes; any other value is an error.
func (bd Bundler) LaTeX(v any) (string, error) {
	sr, ok := v.(*job.SectionResult)
	if !ok || sr == nil {
		return "", fmt.Errorf("reports: no LaTeX form for %T", v)
	}
	doc, o, t, err := build(&job.Report{Lang: bd.Options.Lang, Sections: []*job.SectionResult{sr}}, bd.Options)
	if err != nil {
		return "", err
	}
	if len(doc.Sections) == 0 {
		return "", nil
	}
	if sr.Spec != nil && slices.Contains(sr.Spec.Show, "plot") {
		return "", fmt.Errorf("reports: a plot is a figure, not a table: write the report with -o FILE.tex, which writes its figures as PDF files")
	}
	if err := o.checkMemory(formLaTeX, "this result", doc.Sections[0]); err != nil {
		return "", err
	}
	var blocks []block
	for _, b := range doc.Sections[0].Blocks {
		if p, ok := b.(para); ok && isGameLine(p) && len(blocks) == 0 {
			continue // the game, which the paper's text names
		}
		blocks = append(blocks, b)
	}
	return latexFragment(blocks, o, t, true)
}
