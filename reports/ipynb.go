package reports

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/nbformat"
)

// Notebook writes r as an executed Jupyter notebook (nbformat 4.5): a
// Markdown cell with the title, then per section a Markdown cell with its
// heading, prose and game, and per analysis a code cell whose outputs are
// already there, as a display_data bundle of text/markdown, text/html and
// text/plain (plain text, PlainText's form), plus image/svg+xml when the analysis draws a figure. The
// HTML holds figures as <img> elements with data URIs, which a notebook
// front end shows even when the notebook is untrusted (it strips inline
// <svg>). The code cells hold comments naming the section and the
// analysis: the numbers come from the job file, not from code a kernel
// could re-run, so running the notebook again changes nothing. Cell ids and
// execution counts are numbered in order.
//
// The nbformat JSON is written by package explore/notebook, the one writer
// of notebooks: a report notebook and an executed one have the same form.
func Notebook(w io.Writer, r *job.Report, opts Options) error {
	d, b, err := prepare(r, opts)
	if err != nil {
		return err
	}
	o, t := b.o, b.t
	nb := &nbformat.Notebook{Metadata: map[string]any{"title": plainScripts(d.Title)}}
	emit := func(c *nbformat.Cell) error {
		nb.Cells = append(nb.Cells, c)
		return nil
	}
	var title bytes.Buffer
	fmt.Fprintf(&title, "# %s\n", mdText(d.Title, false))
	if d.Date != "" {
		fmt.Fprintf(&title, "\n%s\n", escape(d.Date))
	}
	if err := emit(mdCell("title", title.String())); err != nil {
		return err
	}
	count, i := 0, 0
	err = b.each(r, formNotebook, func(s *section) error {
		i++
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
		fmt.Fprintf(&md, "## %s\n\n", mdText(s.Title, false))
		for _, b := range head {
			writeBlockMarkdown(&md, b, false)
		}
		if err := emit(mdCell(fmt.Sprintf("s%d", i), md.String())); err != nil {
			return err
		}
		for k, run := range runs {
			count++
			name := run[0].(heading).Text
			src := fmt.Sprintf("# %s · %s\n# %s", plainScripts(s.Title), plainScripts(name), gameLine(head))
			out, err := notebookOutput(run[1:], o, t.Text)
			if err != nil {
				return err
			}
			n := count
			c := &nbformat.Cell{ID: fmt.Sprintf("s%d-a%d", i, k+1), Type: "code",
				Source: strings.TrimRight(src, "\n# "), ExecutionCount: &n, Outputs: []nbformat.Output{out}}
			if err := emit(c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := nb.WriteIPYNB(w); err != nil {
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

func mdCell(id, src string) *nbformat.Cell {
	return &nbformat.Cell{ID: id, Type: "markdown", Source: strings.TrimRight(src, "\n")}
}

// notebookOutput renders one analysis as a display_data output.
func notebookOutput(blocks []block, o Options, tx func(string, any) (string, error)) (nbformat.Output, error) {
	var md, run, html, plain bytes.Buffer
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
		writeBundleBlockText(&plain, b)
		if f, ok := b.(figure); ok {
			if err := flush(); err != nil {
				return nbformat.Output{}, err
			}
			fmt.Fprintf(&md, "*%s*\n\n", mdText(f.Caption, false))
			if o.NoFigures {
				continue
			}
			fig, err := writeFigureHTML(&html, f, o, tx, embedImage, false)
			if err != nil {
				return nbformat.Output{}, err
			}
			if svg == "" {
				svg = fig.svg
			}
			continue
		}
		writeBlockMarkdown(&md, b, false)
		writeBlockMarkdown(&run, b, false)
	}
	if err := flush(); err != nil {
		return nbformat.Output{}, err
	}
	text := strings.TrimRight(md.String(), "\n") + "\n"
	data := map[string]any{
		"text/markdown": text,
		"text/plain":    strings.TrimRight(plain.String(), "\n") + "\n",
		"text/html":     html.String(),
	}
	if svg != "" {
		data["image/svg+xml"] = svg
	}
	return nbformat.Output{Type: "display_data", Data: data, Metadata: map[string]any{}}, nil
}

func md2html(src []byte, w *bytes.Buffer) error {
	if err := md.Convert(src, w); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}
