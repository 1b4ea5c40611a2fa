package paper

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// maxOverfull is the most a line may stick out into the margin, in
// points: less is invisible in print.
const maxOverfull = 5.0

// minFill is the least part of a page its content reaches, but the last.
const minFill = 1.0 / 3

// onePage are the documents whose content fits on one page, and must
// take no more: the nim-product handout (a 16 × 16 table and its colour
// map) took two, 58 % and 53 % full.
var onePage = map[string]bool{"handout-nim-product-en": true, "handout-nim-product-fr": true}

// TestLaTeXPapers writes every example, handout and shipped notebook and
// a survey report as LaTeX, compiles each with pdflatex (twice, as a
// paper is) and reads it as a referee would: no error in the log, no line
// more than 5 pt into the margin, no page but the last under a third
// full, and a last page that holds more than the references. Skipped
// without pdflatex and poppler-utils, unless NIMBOOK_E2E=1.
func TestLaTeXPapers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test")
	}
	need(t, "pdflatex", "texlive-latex-base texlive-latex-recommended texlive-fonts-recommended texlive-lang-french lmodern")
	need(t, "pdftoppm", "poppler-utils")
	need(t, "pdftotext", "poppler-utils")
	var inputs []string
	for _, g := range []string{"../../../../../examples/*.yaml", "../../../../../examples/handouts/*.yaml", "../../../../../examples/notebooks/*.ipynb"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, m...)
	}
	if len(inputs) < 30 {
		t.Fatalf("%d inputs, want the examples, the 12 handouts and the notebooks", len(inputs))
	}
	// A survey, copied: its database is written beside it.
	survey := filepath.Join(t.TempDir(), "octal-two-digits.yaml")
	src, err := os.ReadFile("../../../../../examples/surveys/octal-two-digits.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(survey, src, 0o644); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, survey)
	var mu sync.Mutex
	var summary strings.Builder
	t.Cleanup(func() { t.Logf("pages, and how far down each one's content reaches:%s", summary.String()) })
	for _, in := range inputs {
		name := strings.NewReplacer(".", "-").Replace(strings.TrimSuffix(filepath.Base(in), filepath.Ext(in)))
		if strings.HasPrefix(in, "../../../../../examples/handouts/") {
			name = "handout-" + name
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := []string{"run", in}
			if in == survey {
				args = []string{"survey", in}
			}
			if _, _, err := e2e.Run(t, append(args, "-o", filepath.Join(dir, name+".tex"), "--quiet")...); err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(in, ".ipynb") {
				// A notebook's figures are vector PDF, as a job report's.
				if png, _ := filepath.Glob(filepath.Join(dir, "*-fig*.png")); len(png) > 0 {
					t.Errorf("figures as bitmaps: %v", png)
				}
			}
			log := pdflatex(t, dir, name)
			if m := texErrors.FindAllString(log, 5); len(m) > 0 {
				t.Errorf("pdflatex log: %q", m)
			}
			for _, m := range overfull.FindAllStringSubmatch(log, -1) {
				if pt, _ := strconv.ParseFloat(m[1], 64); pt > maxOverfull {
					t.Errorf("a line %.1f pt into the margin: %s", pt, m[0])
				}
			}
			pdf := filepath.Join(dir, name+".pdf")
			fills := pageFills(t, pdf)
			line := fmt.Sprintf("\n%-24s %2d pages:", name, len(fills))
			for i, f := range fills {
				line += fmt.Sprintf(" %3.0f%%", 100*f)
				if i < len(fills)-1 && f < minFill {
					t.Errorf("page %d of %d is %.0f %% full, under a third", i+1, len(fills), 100*f)
				}
			}
			if onePage[name] && len(fills) > 1 {
				t.Errorf("%d pages, want one: it fits on one", len(fills))
			}
			mu.Lock()
			summary.WriteString(line)
			mu.Unlock()
			pages := pdfText(t, pdf)
			if len(pages) != len(fills) {
				t.Fatalf("%d pages of text, %d rendered", len(pages), len(fills))
			}
			last := strings.TrimSpace(pages[len(pages)-1])
			if strings.HasPrefix(last, "References") || strings.HasPrefix(last, "Références") {
				t.Errorf("the last page holds the references alone:\n%s", last)
			}
		})
	}
}
