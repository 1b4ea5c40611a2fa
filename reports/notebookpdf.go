package reports

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"strings"

	"codeberg.org/go-pdf/fpdf"

	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/templates"
)

// picture is an image a notebook output carries (image/png), placed in the
// PDF at its own resolution, with its caption when it has one.
type picture struct {
	PNG []byte
	Alt string
}

func (picture) isBlock() {}

// pictureDPI is the resolution the notebook's PNG outputs are drawn at
// (Bundler with Options.PNG): it sets their printed size.
const pictureDPI = 150

// NotebookPDF writes an executed notebook as an A4 PDF handout, with the
// PDF renderer of job reports: Markdown cells as prose, each level-2
// heading starting a section as a report's sections do; code cells in
// the mono font; outputs as their Markdown (tables with the P-positions
// in bold), their PNG figure, or their plain text. Figures need PNG
// outputs: run the notebook with a Bundler whose Options.PNG is set. A
// leading "# title" line equal to title is left out: the title heads the
// first page.
func NotebookPDF(w io.Writer, nb *nbformat.Notebook, title string, opts Options) error {
	d, o, t, err := notebookDocument(nb, title, opts, outputBlocks)
	if err != nil {
		return err
	}
	if err := o.checkMemory(formPDF, "this notebook", d.Sections...); err != nil {
		return err
	}
	return writePDF(w, d, o, t)
}

// notebookDocument is the document of an executed notebook, its outputs
// made into blocks by outputs.
func notebookDocument(nb *nbformat.Notebook, title string, opts Options, outputs func(nbformat.Output) ([]block, error)) (*document, Options, *templates.Set, error) {
	if nb == nil {
		return nil, opts, nil, fmt.Errorf("reports: nil notebook")
	}
	o, t, err := opts.withDefaults(nil)
	if err != nil {
		return nil, o, nil, err
	}
	title = cleanTitle(title)
	d := &document{Lang: o.Lang, Title: title}
	if o.Date != "" {
		d.Date, err = t.Text("date", args{"Date": o.Date})
		if err != nil {
			return nil, o, nil, fmt.Errorf("reports: %w", err)
		}
	}
	cur := &section{}
	d.Sections = append(d.Sections, cur)
	h, rest, ok := firstHeading(nb)
	skipFirst := ok && h == title
	for i, c := range nb.Cells {
		switch c.Type {
		case "markdown":
			src := c.Source
			if skipFirst && isFirstMarkdown(nb, i) {
				src = rest // the title heads the first page
			}
			// $f_r(n)$, as Jupyter writes a formula, reads as f_r(n).
			for i, part := range splitSections(mathDollars(src)) {
				if i > 0 || part.title != "" {
					cur = &section{Title: part.title}
					d.Sections = append(d.Sections, cur)
				}
				if strings.TrimSpace(part.md) != "" {
					cur.Blocks = append(cur.Blocks, prose{MD: part.md})
				}
			}
		case "code":
			if strings.TrimSpace(c.Source) == "" {
				continue
			}
			cur.Blocks = append(cur.Blocks, codeBlock{Lang: "python", Text: strings.TrimRight(c.Source, "\n")})
			for _, out := range c.Outputs {
				b, err := outputs(out)
				if err != nil {
					return nil, o, nil, err
				}
				cur.Blocks = append(cur.Blocks, b...)
			}
		}
	}
	if len(d.Sections[0].Blocks) == 0 && len(d.Sections) > 1 {
		d.Sections = d.Sections[1:]
	}
	return d, o, t, nil
}

type mdPart struct{ title, md string }

// splitSections cuts Markdown at its level-2 headings (outside fenced
// code): the text before the first one, then one part per heading.
func splitSections(src string) []mdPart {
	parts := []mdPart{{}}
	var sb strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(src, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case strings.HasPrefix(line, "## "):
			parts[len(parts)-1].md = sb.String()
			sb.Reset()
			parts = append(parts, mdPart{title: strings.TrimSpace(strings.TrimPrefix(line, "## "))})
			continue
		}
		sb.WriteString(line)
	}
	parts[len(parts)-1].md = sb.String()
	return parts
}

// outputBlocks is what a cell's output shows on paper.
func outputBlocks(o nbformat.Output) ([]block, error) {
	switch o.Type {
	case "stream":
		if strings.TrimSpace(o.Text) == "" {
			return nil, nil
		}
		return []block{codeBlock{Text: strings.TrimRight(o.Text, "\n")}}, nil
	case "error":
		return []block{codeBlock{Text: strings.TrimSpace(o.EName + ": " + o.EValue)}}, nil
	}
	var out []block
	plain, _ := o.Data["text/plain"].(string)
	if s, ok := o.Data["text/markdown"].(string); ok && strings.TrimSpace(s) != "" {
		out = append(out, prose{MD: s})
	}
	if s, ok := o.Data["image/png"].(string); ok {
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("reports: an image/png output is not base64: %w", err)
		}
		pc := picture{PNG: b}
		if len(out) == 0 {
			pc.Alt = plain // a plot's caption
		}
		out = append(out, pc)
	}
	if len(out) == 0 && strings.TrimSpace(plain) != "" {
		out = append(out, codeBlock{Text: strings.TrimRight(plain, "\n")})
	}
	return out, nil
}

// picture places a PNG output, centred, at pictureDPI.
func (p *pdfWriter) picture(pc picture) error {
	img, err := png.Decode(bytes.NewReader(pc.PNG))
	if err != nil {
		return fmt.Errorf("reports: an image/png output: %w", err)
	}
	// fpdf orders images of equal pixel width by map order: widening the
	// k-th image by k white pixels keeps the bytes reproducible, as for
	// figures.
	p.figs++
	r := img.Bounds()
	wide := image.NewRGBA(image.Rect(0, 0, r.Dx()+p.figs, r.Dy()))
	draw.Draw(wide, wide.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(wide, r.Sub(r.Min), img, r.Min, draw.Src)
	var buf bytes.Buffer
	if err := png.Encode(&buf, wide); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	wmm := float64(wide.Bounds().Dx()) / pictureDPI * 25.4
	hmm := float64(r.Dy()) / pictureDPI * 25.4
	if wmm > pdfWidth {
		hmm *= pdfWidth / wmm
		wmm = pdfWidth
	}
	if p.figScale > 0 && p.figScale < 1 {
		wmm, hmm = wmm*p.figScale, hmm*p.figScale
	}
	p.figureH = hmm
	p.keep(hmm + 4)
	if p.measuring {
		p.f.SetY(p.f.GetY() + hmm)
	} else {
		name := fmt.Sprintf("pic%d", p.figs)
		opt := fpdf.ImageOptions{ImageType: "PNG"}
		p.f.RegisterImageOptionsReader(name, opt, &buf)
		p.f.ImageOptions(name, pdfLeft+(pdfWidth-wmm)/2, p.f.GetY(), wmm, hmm, true, opt, 0, "")
	}
	if pc.Alt != "" {
		p.font("", 9)
		p.f.MultiCell(0, 9*ptMM*1.4, pc.Alt, "", "C", false)
	}
	p.f.Ln(3)
	return nil
}
