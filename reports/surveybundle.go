package reports

import (
	"bytes"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/survey"
)

// surveyBundle displays a survey in a notebook as its report does: the
// overview with the notable variants, the figures (in text/html, as
// <img> elements), and
// the table of variants; section titles become bold lines, so that the
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
	var blocks []block
	var mdText bytes.Buffer
	for i, s := range d.Sections {
		var head []block
		if i > 0 {
			head = []block{heading{Text: s.Title}}
		}
		blocks = append(append(blocks, head...), s.Blocks...)
		if slices.ContainsFunc(s.Blocks, func(bl block) bool { _, ok := bl.(surveyFigure); return ok }) {
			continue // text has no figures
		}
		for _, bl := range append(head, s.Blocks...) {
			writeBundleBlockMarkdown(&mdText, bl, !bd.Print)
		}
	}
	plain := strings.TrimRight(mdText.String(), "\n")
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
		"text/markdown": plain + "\n",
		"text/html":     "<div class=\"nimbook-result nimbook-survey\">\n" + html.String() + "</div>\n",
		"text/latex":    tex,
	}, Metadata: map[string]any{}}
	return out, nil
}
