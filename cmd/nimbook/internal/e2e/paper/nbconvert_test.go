package paper

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// TestNbconvertPDF executes an example notebook with figures through the
// nimbook kernel, then exports it as a reader would share it, with
// `jupyter nbconvert --to latex` and `--to pdf` and Debian's packages
// alone (xelatex, pandoc; no inkscape): the figures go as the PDF files
// the results carry, the results' tables and words as they read.
// Skipped without Jupyter, nbconvert and xelatex, unless NIMBOOK_E2E=1.
func TestNbconvertPDF(t *testing.T) {
	e2e.NeedJupyter(t, true)
	need(t, "xelatex", "texlive-xetex")
	need(t, "pandoc", "pandoc")
	need(t, "pdftotext", "poppler-utils")
	env := e2e.JupyterHome(t)
	dir := t.TempDir()
	src, err := os.ReadFile("../../../../../examples/notebooks/sources.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sources.ipynb"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	nbconvert := func(args ...string) {
		t.Helper()
		cmd := exec.Command("jupyter", append([]string{"nbconvert"}, args...)...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("jupyter nbconvert %s: %v\n%s", strings.Join(args, " "), err, tail(out))
		}
	}
	nbconvert("--to", "notebook", "--execute", "sources.ipynb", "--output", "executed.ipynb")
	nbconvert("--to", "latex", "executed.ipynb")
	tex, err := os.ReadFile(filepath.Join(dir, "executed.tex"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tex), ".pdf}") || strings.Contains(string(tex), ".svg") {
		t.Errorf("the LaTeX does not include the figures as PDF files")
	}
	nbconvert("--to", "pdf", "executed.ipynb")
	text := strings.Join(pdfText(t, filepath.Join(dir, "executed.pdf")), "\n")
	for _, want := range []string{"48 P-positions among 384", "759", "2576", "244823040"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q is not in the PDF", want)
		}
	}
	// Issue 30: nbconvert takes a result's text/latex ahead of its
	// Markdown; it holds the whole result, not its tables alone: the
	// headings, the words before the table, the notes under it.
	flat := strings.Join(strings.Fields(strings.Map(plainLetter, text)), " ")
	for _, want := range []string{
		"Grundy values", "Value f(n) of a single head on coin n", "Coins numbered from 1.", // coins(r=3).values(30)
		"Weight distribution", "Number of P-positions by their number of heads", "Method: examination of every position.", // mogul.weights()
		"Values 0 (P-positions) are in bold.", // wythoff(12, 12).table()
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("%q is not in the PDF:\n%s", want, around(flat, "Grundy values"))
		}
	}
	if strings.Contains(text, "P − positions") || strings.Contains(text, "P−positions") {
		t.Error(`a table writes "P-positions" with a minus sign`)
	}
	// xelatex's Latin Modern has no glyph for ₀, ′ or ≤ in text: Kayles's
	// proof, "for n₀′ ≤ n < 2n₀′ + p + t, with n₀′ = max(n₀, 1)", lost
	// them; its formulas are mathematics now, subscripts included. And
	// the Markdown cells' $f_r(n)$ prints as a subscript, not "f_r(n)".
	if strings.ContainsRune(text, '\uFFFD') {
		t.Errorf("a character with no glyph in the PDF:\n%s", around(text, "\uFFFD"))
	}
	if !regexp.MustCompile(`max\(\S{0,2}0\s*, 1\)`).MatchString(text) || !strings.Contains(text, "≤") {
		t.Errorf("the subscripts of Kayles's proof are not in the PDF:\n%s", around(text, "Guy"))
	}
	if strings.Contains(text, "f_r") || !strings.Contains(text, "⌊") {
		t.Errorf("a Markdown cell's formula prints as typed:\n%s", around(text, "table of"))
	}
}

// around is the text about the first s in text.
func around(text, s string) string {
	i := strings.Index(text, s)
	if i < 0 {
		return "(" + s + " is not in the text)"
	}
	return text[max(0, i-200):min(len(text), i+300)]
}

// plainLetter reads a mathematical italic letter (𝑛, as pdftotext gives a
// formula's n) as the letter.
func plainLetter(r rune) rune {
	switch {
	case r == 'ℎ':
		return 'h'
	case r >= 0x1D44E && r <= 0x1D467:
		return 'a' + r - 0x1D44E
	case r >= 0x1D434 && r <= 0x1D44D:
		return 'A' + r - 0x1D434
	}
	return r
}
