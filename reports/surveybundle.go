package reports

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/plots"
)

// surveyBundle displays a survey in a notebook as its report does: the
// overview with the notable variants, the figures (in text/html, as
// <img> elements, with Bundler.HTML; else shown on their own, see
// Figures), and the table of variants; section titles become bold lines, so that the
// notebook's outline lists its own headings only. A bundle for print
// (Bundler.Print) leaves the figures out: a PDF bundle holds one image.
// text/latex holds the same as a piece of a LaTeX document, without the
// figures.
// The notebook adds the JSON form.
func (bd Bundler) surveyBundle(r *survey.Report) (*nbformat.Display, error) {
	d, o, b, err := buildSurvey(r, bd.Options)
	if err != nil {
		return nil, err
	}
	var blocks, textBlocks []block
	var mdText, plainText bytes.Buffer
	for i, s := range d.Sections {
		var head []block
		if i > 0 {
			head = []block{heading{Text: s.Title}}
		}
		blocks = append(append(blocks, head...), s.Blocks...)
		// text/latex: the section without its figures, none when
		// they are all it has.
		var words []block
		for _, bl := range s.Blocks {
			if p, ok := bl.(para); ok && p.MDOnly {
				continue
			}
			if _, ok := bl.(surveyFigure); !ok {
				words = append(words, bl)
			}
		}
		if len(words) > 0 {
			textBlocks = append(append(textBlocks, head...), words...)
		}
		if slices.ContainsFunc(s.Blocks, func(bl block) bool { _, ok := bl.(surveyFigure); return ok }) {
			continue // text has no figures
		}
		for _, bl := range append(head, s.Blocks...) {
			writeBundleBlockMarkdown(&mdText, bl, !bd.Print)
			writeBundleBlockText(&plainText, bl)
		}
	}
	markdown := strings.TrimRight(mdText.String(), "\n")
	plain := strings.TrimRight(plainText.String(), "\n")
	if bd.Print {
		o.NoFigures = true
	}
	var html, run bytes.Buffer
	for _, bl := range blocks {
		if h, ok := bl.(heading); ok {
			// A bold line, as in text/markdown.
			writeBundleBlockMarkdown(&run, h, false)
			continue
		}
		if err := b.blocksHTML(&html, &run, []block{bl}, o, true); err != nil {
			return nil, err
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	tex, err := latexFragment(blocks, o, b.t, false)
	if err != nil {
		return nil, err
	}
	out := &nbformat.Display{Data: map[string]any{
		"text/plain":    plain,
		"text/markdown": markdown + "\n",
		"text/html":     "<div class=\"nimbook-result nimbook-survey\">\n" + html.String() + "</div>\n",
		"text/latex":    tex,
	}, Metadata: map[string]any{}}
	if !bd.Print && !bd.HTML {
		// As a job result's (Bundle): Markdown for nbconvert, the
		// figures shown on their own (Figures).
		delete(out.Data, "text/html")
		out.Data["text/markdown"] = markdownMaths(markdown) + "\n"
		// The survey as MathJax and nbconvert's LaTeX read it
		// (mathjax.go), without its figures, which show on their
		// own.
		delete(out.Data, "text/latex")
		if tex := mathJaxResult(textBlocks); tex != "" {
			out.Data["text/latex"] = tex
		}
	}
	return out, nil
}

// Figures draws the figures of a survey as displays of their own, for a
// notebook's bundle, which has no HTML to hold them: each an image (SVG
// and PNG, which a notebook opened untrusted shows) with its caption as
// text/plain, so that nbconvert writes them to files. Other values, and
// bundles for print or for nimbook's own HTML (Print, HTML), have none.
func (bd Bundler) Figures(v any) ([]*nbformat.Display, error) {
	r, ok := v.(*survey.Report)
	if !ok || bd.Print || bd.HTML {
		return nil, nil
	}
	d, _, b, err := buildSurvey(r, bd.Options)
	if err != nil {
		return nil, err
	}
	var out []*nbformat.Display
	for _, s := range d.Sections {
		for _, bl := range s.Blocks {
			f, ok := bl.(surveyFigure)
			if !ok {
				continue
			}
			p, err := f.draw()
			if err != nil {
				out = append(out, &nbformat.Display{Data: map[string]any{"text/plain": b.tooLarge(err)}, Metadata: map[string]any{}})
				continue
			}
			var svg, png bytes.Buffer
			if err := plots.SVG(&svg, p, plots.Width, f.Height); err != nil {
				return nil, fmt.Errorf("reports: %w", err)
			}
			if err := plots.PNG(&png, p, plots.Width, f.Height, pictureDPI); err != nil {
				return nil, fmt.Errorf("reports: %w", err)
			}
			var pdf bytes.Buffer
			if err := plots.PDF(&pdf, p, plots.Width, f.Height); err != nil {
				return nil, fmt.Errorf("reports: %w", err)
			}
			out = append(out, &nbformat.Display{Data: map[string]any{
				"image/svg+xml":   svg.String(),
				"image/png":       base64.StdEncoding.EncodeToString(png.Bytes()),
				"application/pdf": base64.StdEncoding.EncodeToString(pdf.Bytes()),
				"text/plain":      plainScripts(f.Caption),
			}, Metadata: map[string]any{}})
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	return out, nil
}
