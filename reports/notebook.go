package reports

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/nimbook/nimbook/explore/nbformat"
)

// An executed notebook as a report: prose cells as they are, code cells in
// code blocks, each followed by its outputs (Markdown, else text; figures
// inline in HTML). NotebookPDF, in notebookpdf.go, prints the same.

// NotebookTitle is the notebook's metadata title, else the text of its first
// level-1 heading, else the file's name.
func NotebookTitle(nb *nbformat.Notebook, file string) string {
	if t, ok := nb.Metadata["title"].(string); ok && strings.TrimSpace(t) != "" {
		return strings.TrimSpace(t)
	}
	if h, _, ok := firstHeading(nb); ok {
		return h
	}
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
}

// firstHeading finds a "# Title" line opening the first markdown cell; rest
// is that cell without it.
func firstHeading(nb *nbformat.Notebook) (title, rest string, ok bool) {
	for _, c := range nb.Cells {
		if c.Type == "code" && strings.TrimSpace(c.Source) != "" {
			return "", "", false
		}
		if c.Type != "markdown" {
			continue
		}
		src := strings.TrimLeft(c.Source, "\n")
		line, after, _ := strings.Cut(src, "\n")
		if t, ok := strings.CutPrefix(line, "# "); ok {
			// A title's $f_r(n)$ is read as prose's (mathDollars).
			return mathDollars(strings.TrimSpace(t)), strings.TrimLeft(after, "\n"), true
		}
		return "", "", false
	}
	return "", "", false
}

// outputMarkdown is what a Markdown report shows of one output.
func outputMarkdown(o nbformat.Output) string {
	switch o.Type {
	case "stream":
		return fenced("text", o.Text)
	case "error":
		return fenced("text", strings.Join(o.Traceback, "\n"))
	}
	if s, ok := o.Data["text/markdown"].(string); ok {
		return strings.TrimRight(s, "\n") + "\n\n"
	}
	text, _ := o.Data["text/plain"].(string)
	_, svg := o.Data["image/svg+xml"]
	_, png := o.Data["image/png"]
	if svg || png {
		// Markdown holds no inline figure: name it.
		return "*Figure: " + strings.TrimSpace(text) + " (in the HTML form).*\n\n"
	}
	if text == "" {
		return ""
	}
	return fenced("text", text)
}

func fenced(lang, text string) string {
	text = strings.TrimRight(dropControls(text, ""), "\n")
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + lang + "\n" + text + "\n" + fence + "\n\n"
}

// NotebookMarkdown writes the executed notebook as one Markdown document
// headed by title.
func NotebookMarkdown(w io.Writer, nb *nbformat.Notebook, title string) error {
	title = cleanTitle(title)
	var b bytes.Buffer
	h, rest, ok := firstHeading(nb)
	skipFirst := ok && h == title
	if !skipFirst {
		fmt.Fprintf(&b, "# %s\n\n", title)
	}
	for i, c := range nb.Cells {
		switch c.Type {
		case "markdown":
			src := c.Source
			if skipFirst && isFirstMarkdown(nb, i) {
				src = "# " + title + "\n\n" + rest
			}
			if s := strings.Trim(src, "\n"); s != "" {
				b.WriteString(s + "\n\n")
			}
		case "code":
			if strings.TrimSpace(c.Source) == "" {
				continue
			}
			b.WriteString(fenced("python", c.Source))
			for _, o := range c.Outputs {
				b.WriteString(outputMarkdown(o))
			}
		}
	}
	out := strings.TrimRight(b.String(), "\n") + "\n"
	_, err := io.WriteString(w, out)
	return err
}

func isFirstMarkdown(nb *nbformat.Notebook, i int) bool {
	for j, c := range nb.Cells {
		if c.Type == "markdown" {
			return j == i
		}
	}
	return false
}

// mdNotebook converts prose cells and Markdown outputs; raw HTML in prose is left
// out (goldmark's default), as in the reports, but for the <sub> and <sup>
// the reports' outputs write scripts with.
var mdNotebook = goldmark.New(goldmark.WithExtensions(extension.GFM), withScriptTags())

// notebookCSS styles what a notebook adds to the handout page.
const notebookCSS = `
pre.code { border-left: 3px solid #888; padding: 0.4em 0.8em; background: #f6f6f6; }
pre.stream, pre.plain { padding: 0.2em 0.8em; }
pre.error { padding: 0.2em 0.8em; border-left: 3px solid #000; font-weight: bold; }
div.output { margin: 0.3em 0 1.2em 0; }
div.output figure svg, div.output > svg { max-width: 100%; height: auto; }
/* On paper a long line wraps (after a comma, see preText) rather than
   being cut at the edge of a scroll box. */
@media print { pre.code, pre.stream, pre.plain, pre.error { white-space: pre-wrap; overflow: visible; } }
`

// preText escapes the text of a <pre> and lets a long line break after a
// comma (<wbr>), where a printed page wraps it: never inside a number.
func preText(s string) string {
	return strings.ReplaceAll(template.HTMLEscapeString(s), ",", ",<wbr>")
}

// outputHTML is what an HTML report shows of one output: the richest form
// the page can hold.
func outputHTML(o nbformat.Output) (string, error) {
	switch o.Type {
	case "stream":
		return "<pre class=\"stream\">" + preText(o.Text) + "</pre>\n", nil
	case "error":
		return "<pre class=\"error\">" + preText(strings.Join(o.Traceback, "\n")) + "</pre>\n", nil
	}
	if s, ok := o.Data["text/html"].(string); ok {
		return s, nil
	}
	if s, ok := o.Data["image/svg+xml"].(string); ok {
		if i := strings.Index(s, "<svg"); i >= 0 {
			s = s[i:]
		}
		return s + "\n", nil
	}
	if s, ok := o.Data["image/png"].(string); ok {
		alt, _ := o.Data["text/plain"].(string)
		s = strings.ReplaceAll(s, "\n", "")
		if _, err := base64.StdEncoding.DecodeString(s); err != nil {
			return "", fmt.Errorf("reports: an image/png output is not base64: %w", err)
		}
		return fmt.Sprintf("<img alt=\"%s\" src=\"data:image/png;base64,%s\">\n", template.HTMLEscapeString(alt), s), nil
	}
	if s, ok := o.Data["text/markdown"].(string); ok {
		var b bytes.Buffer
		if err := mdNotebook.Convert([]byte(s), &b); err != nil {
			return "", err
		}
		return b.String(), nil
	}
	if s, ok := o.Data["text/plain"].(string); ok {
		return "<pre class=\"plain\">" + preText(s) + "</pre>\n", nil
	}
	return "", nil
}

// NotebookHTML writes the executed notebook as one self-contained page, the
// handout page of the reports, headed by title (and opts.Date when set),
// in the language of opts.
func NotebookHTML(w io.Writer, nb *nbformat.Notebook, title string, opts Options) error {
	o, t, err := opts.withDefaults(nil)
	if err != nil {
		return err
	}
	title = cleanTitle(title)
	date := ""
	if o.Date != "" {
		if date, err = t.Text("date", args{"Date": o.Date}); err != nil {
			return fmt.Errorf("reports: %w", err)
		}
	}
	pg, err := newPage(w, t.Page(), t.Lang(), title, date, t.CSS()+notebookCSS)
	if err != nil {
		return err
	}
	h, rest, ok := firstHeading(nb)
	skipFirst := ok && h == title
	var body bytes.Buffer
	for i, c := range nb.Cells {
		body.Reset()
		switch c.Type {
		case "markdown":
			src := c.Source
			if skipFirst && isFirstMarkdown(nb, i) {
				src = rest // the page's header shows the title
			}
			// f_r(n), 2^7, $f_r(n)$: scripts as in the reports' prose.
			if err := mdNotebook.Convert([]byte(proseScripts(mathDollars(src), false)), &body); err != nil {
				return err
			}
		case "code":
			if strings.TrimSpace(c.Source) == "" {
				continue
			}
			fmt.Fprintf(&body, "<pre class=\"code\"><code class=\"language-python\">%s</code></pre>\n", preText(c.Source))
			if len(c.Outputs) == 0 {
				break
			}
			body.WriteString("<div class=\"output\">\n")
			for _, o := range c.Outputs {
				s, err := outputHTML(o)
				if err != nil {
					return err
				}
				body.WriteString(s)
			}
			body.WriteString("</div>\n")
		}
		if err := pg.write(body.Bytes()); err != nil {
			return err
		}
	}
	return pg.close()
}
