package reports_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"rsc.io/pdf"

	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/notebook"
	"github.com/nimbook/nimbook/reports"
)

const printNotebook = "# Pictures of games\n\nAn introduction.\n\n" +
	"## The graph of (1, 2, 3)\n\nSeed 003's picture.\n\n```nimbook\nnim(1, 2, 3).graph()\n```\n\n" +
	"## Kayles\n\n```nimbook\nprint(\"values of Kayles\")\noctal(\"0.77\").values(30)\n```\n\n" +
	"```nimbook\nsubtraction([1, 2, 3]).plot(20)\n```\n"

// runPrint executes the notebook with bundles made for print, as
// `nimbook run notebook.md -o out.pdf` does.
func runPrint(t *testing.T, src string) *nbformat.Notebook {
	t.Helper()
	nb, err := nbformat.ParseMarkdown([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := notebook.New(notebook.Options{Renderer: reports.Bundler{Print: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), nb, notebook.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return nb
}

// TestNotebookPDF: an executed notebook printed through the report's PDF
// renderer: the intro shares the title page, each level-2 heading starts
// a page, the graph and the plot are images, tables and printed text are
// in the text layer, and the DOT text a picture replaces is left out.
func TestNotebookPDF(t *testing.T) {
	nb := runPrint(t, printNotebook)
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if md, ok := o.Data["text/markdown"].(string); ok && strings.Contains(md, "digraph") {
				t.Errorf("a print bundle keeps the DOT text of a drawn graph")
			}
		}
	}
	var out bytes.Buffer
	if err := reports.NotebookPDF(&out, nb, "Pictures of games", reports.Options{}); err != nil {
		t.Fatal(err)
	}
	b := out.Bytes()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("rsc.io/pdf cannot read the file: %v", err)
	}
	if r.NumPage() != 2 {
		t.Errorf("%d pages, want 2 (title and graph section, then Kayles)", r.NumPage())
	}
	// fpdf shares one resource dictionary among the pages: count names.
	images := map[string]bool{}
	for i := 1; i <= r.NumPage(); i++ {
		xo := r.Page(i).Resources().Key("XObject")
		for _, k := range xo.Keys() {
			if xo.Key(k).Key("Subtype").Name() == "Image" {
				images[k] = true
			}
		}
	}
	if len(images) != 2 {
		t.Errorf("%d images, want 2 (the graph and the plot)", len(images))
	}
	if r.Trailer().Key("Info").Key("Title").Text() != "Pictures of games" {
		t.Errorf("title %q", r.Trailer().Key("Info").Key("Title").Text())
	}
	var again bytes.Buffer
	if err := reports.NotebookPDF(&again, runPrint(t, printNotebook), "Pictures of games", reports.Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, again.Bytes()) {
		t.Error("the same notebook printed twice gives different bytes")
	}
}

func TestNotebookPDFNil(t *testing.T) {
	if err := reports.NotebookPDF(&bytes.Buffer{}, nil, "", reports.Options{}); err == nil {
		t.Fatal("nil notebook: no error")
	}
}

// The same executed notebook as HTML and Markdown: the title once, code
// and outputs in order, the graph inline in HTML, the date only when asked.
func TestNotebookHTMLAndMarkdown(t *testing.T) {
	nb, err := nbformat.ParseMarkdown([]byte(printNotebook))
	if err != nil {
		t.Fatal(err)
	}
	s, err := notebook.New(notebook.Options{Renderer: reports.Bundler{HTML: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), nb, notebook.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	title := reports.NotebookTitle(nb, "pictures.md")
	if title != "Pictures of games" {
		t.Fatalf("title %q", title)
	}
	var html, dated, md bytes.Buffer
	if err := reports.NotebookHTML(&html, nb, title, reports.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := reports.NotebookHTML(&dated, nb, title, reports.Options{Lang: "fr", Date: "22 novembre 2026"}); err != nil {
		t.Fatal(err)
	}
	if err := reports.NotebookMarkdown(&md, nb, title); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	if strings.Count(h, "Pictures of games</h1>") != 1 || !strings.Contains(h, "data:image/svg+xml;base64,") || !strings.Contains(h, "values of Kayles") {
		t.Errorf("HTML: one title, a figure and the printed text expected:\n%.600s", h)
	}
	if strings.Contains(h, "2026") || !strings.Contains(dated.String(), "22 novembre 2026") || !strings.Contains(dated.String(), `lang="fr"`) {
		t.Errorf("the date is printed when asked only, in the page's language")
	}
	m := md.String()
	if !strings.HasPrefix(m, "# Pictures of games\n") || strings.Count(m, "# Pictures of games") != 1 || !strings.Contains(m, "```python\nnim(1, 2, 3).graph()") {
		t.Errorf("Markdown:\n%.400s", m)
	}
}
