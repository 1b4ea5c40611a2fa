package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/plots"
)

// Notebook writes r as an executed Jupyter notebook (nbformat 4.5): a
// Markdown cell with the title, then per section a Markdown cell with its
// heading, prose and game, and per analysis a code cell whose outputs are
// already there, as a display_data bundle of text/markdown, text/html and
// text/plain, plus image/svg+xml when the analysis draws a figure. The code
// cells hold comments naming the section and the analysis: the numbers
// come from the job file, not from code a kernel could re-run, so running
// the notebook again changes nothing. Cell ids and execution counts are
// numbered in order and JSON keys are sorted, so the bytes depend on the
// report alone.
func Notebook(w io.Writer, r *job.Report, opts Options) error {
	d, o, t, err := build(r, opts)
	if err != nil {
		return err
	}
	var cells []map[string]any
	var title bytes.Buffer
	fmt.Fprintf(&title, "# %s\n", escape(d.Title))
	if d.Date != "" {
		fmt.Fprintf(&title, "\n%s\n", escape(d.Date))
	}
	cells = append(cells, mdCell("title", title.String()))
	count := 0
	for i, s := range d.Sections {
		// Split the section into its opening (prose, game) and one run of
		// blocks per analysis, each starting at its heading.
		var head []block
		var runs [][]block
		for _, b := range s.Blocks {
			if _, ok := b.(heading); ok {
				runs = append(runs, []block{b})
				continue
			}
			if len(runs) == 0 {
				head = append(head, b)
			} else {
				runs[len(runs)-1] = append(runs[len(runs)-1], b)
			}
		}
		var md bytes.Buffer
		fmt.Fprintf(&md, "## %s\n\n", escape(s.Title))
		for _, b := range head {
			writeBlockMarkdown(&md, b, false)
		}
		cells = append(cells, mdCell(fmt.Sprintf("s%d", i+1), md.String()))
		for k, run := range runs {
			count++
			name := run[0].(heading).Text
			src := fmt.Sprintf("# %s · %s\n# %s", s.Title, name, gameLine(head))
			out, err := notebookOutput(run[1:], o, t.Text)
			if err != nil {
				return err
			}
			cells = append(cells, map[string]any{
				"cell_type":       "code",
				"id":              fmt.Sprintf("s%d-a%d", i+1, k+1),
				"metadata":        map[string]any{},
				"source":          lines(strings.TrimRight(src, "\n# ")),
				"execution_count": count,
				"outputs":         []any{out},
			})
		}
	}
	doc := map[string]any{
		"cells": cells,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"display_name": "nimbook", "language": "starlark", "name": "nimbook"},
			"language_info": map[string]any{"name": "starlark", "file_extension": ".star", "mimetype": "text/x-starlark"},
			"title":         d.Title,
		},
		"nbformat":       4,
		"nbformat_minor": 5,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// gameLine is the section's sentence naming the game, for the comment of
// its code cells.
func gameLine(head []block) string {
	for _, b := range head {
		if p, ok := b.(para); ok && !p.Note && !p.MDOnly {
			return spanText(p.Spans)
		}
	}
	return ""
}

func mdCell(id, src string) map[string]any {
	return map[string]any{
		"cell_type": "markdown",
		"id":        id,
		"metadata":  map[string]any{},
		"source":    lines(strings.TrimRight(src, "\n")),
	}
}

// notebookOutput renders one analysis as a display_data output.
func notebookOutput(blocks []block, o Options, tx func(string, any) (string, error)) (map[string]any, error) {
	var md, run, html bytes.Buffer
	svg := ""
	flush := func() error {
		if run.Len() == 0 {
			return nil
		}
		err := md2html(run.Bytes(), &html)
		run.Reset()
		return err
	}
	for _, b := range blocks {
		if f, ok := b.(figure); ok {
			if err := flush(); err != nil {
				return nil, err
			}
			fmt.Fprintf(&md, "*%s*\n\n", escape(f.Caption))
			if o.NoFigures {
				continue
			}
			if err := writeFigureHTML(&html, f, o, tx); err != nil {
				return nil, err
			}
			if svg == "" {
				if s, ok := figureSVG(f); ok {
					svg = s
				}
			}
			continue
		}
		writeBlockMarkdown(&md, b, false)
		writeBlockMarkdown(&run, b, false)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	text := strings.TrimRight(md.String(), "\n") + "\n"
	data := map[string]any{
		"text/markdown": lines(text),
		"text/plain":    lines(text),
		"text/html":     lines(html.String()),
	}
	if svg != "" {
		data["image/svg+xml"] = lines(svg)
	}
	return map[string]any{"output_type": "display_data", "data": data, "metadata": map[string]any{}}, nil
}

func md2html(src []byte, w *bytes.Buffer) error {
	if err := md.Convert(src, w); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// figureSVG draws a figure as a standalone SVG document.
func figureSVG(f figure) (string, bool) {
	p, w, h, err := drawFigure(f)
	if err != nil {
		return "", false
	}
	var b bytes.Buffer
	if err := plots.SVG(&b, p, w, h); err != nil {
		return "", false
	}
	return b.String(), true
}

// lines splits s as nbformat stores multi-line strings: a list of lines,
// each with its newline but the last.
func lines(s string) []string {
	if s == "" {
		return []string{}
	}
	out := strings.SplitAfter(s, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
