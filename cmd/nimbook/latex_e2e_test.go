package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/reports"
)

// -o FILE.tex writes the document and its figures beside it; on standard
// output (--format tex) the document has none; a notebook's results
// carry their LaTeX tables.
func TestLaTeXOutputs(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		out  string   // the document, in dir
		figs []string // the figure files beside it
		want []string
	}{
		{"handout", []string{"run", "../../examples/handouts/nim-bouton.en.yaml", "-o", "paper.tex"}, "paper.tex",
			nil, []string{`\(h \oplus  s < h\)`, `\begin{thebibliography}`, `\cite{src1}`}},
		{"figures", []string{"run", "../../examples/handouts/wythoff.en.yaml", "-o", "w.tex"}, "w.tex",
			[]string{"w-fig1.pdf"}, []string{`\begin{figure}[H]`, "{w-fig1.pdf}"}},
		{"format alias", []string{"run", "../../examples/handouts/nim-product.fr.yaml", "--format", "latex", "-o", "np.out"}, "np.out",
			[]string{"np-fig1.pdf"}, []string{`\usepackage[french]{babel}`, `\(a \otimes  b\)`}},
		{"notebook", []string{"run", "../../examples/notebooks/sources.ipynb", "-o", "nb.tex"}, "nb.tex",
			nil, []string{`\begin{tabular}`, `\toprule`, `\texttt{`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{}, tc.args...)
			for i, a := range args {
				if i > 0 && args[i-1] == "-o" {
					args[i] = filepath.Join(dir, a)
				}
			}
			var errb bytes.Buffer
			if err := run(context.Background(), append(args, "--quiet"), nil, io.Discard, &errb); err != nil {
				t.Fatal(err, errb.String())
			}
			b, err := os.ReadFile(filepath.Join(dir, tc.out))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%q missing from\n%s", w, b)
				}
			}
			for _, f := range tc.figs {
				data, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil || !bytes.HasPrefix(data, []byte("%PDF-")) {
					t.Errorf("figure %s: %v %.8q", f, err, data)
				}
			}
		})
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"run", "../../examples/handouts/wythoff.en.yaml", "--format", "tex", "--quiet"}, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Contains(s, `\begin{figure}`) || !strings.Contains(s, "% A figure is left out here") || !strings.HasSuffix(s, "\\end{document}\n") {
		t.Errorf("standard output:\n%s", s)
	}
}

// needPdflatex skips the test when pdflatex is missing, unless
// NIMBOOK_E2E=1, which makes that a failure.
func needPdflatex(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("pdflatex")
	if err == nil {
		return p
	}
	msg := "pdflatex is not installed (apt-get install texlive-latex-base texlive-latex-recommended texlive-fonts-recommended texlive-lang-french lmodern)"
	if os.Getenv("NIMBOOK_E2E") == "1" {
		t.Fatal("NIMBOOK_E2E=1 but " + msg)
	}
	t.Skip(msg)
	return ""
}

// texErrors are the lines of a pdflatex log that say something went
// wrong: errors ("! …"), and warnings of text that will not print.
var texErrors = regexp.MustCompile(`(?m)^!.*$|Undefined control sequence|Missing character|There were undefined references|Citation .* undefined|LaTeX Error`)

// A handout and a survey report, written as LaTeX, compile with pdflatex
// (Debian's texlive) without an error or a missing character.
func TestLaTeXCompiles(t *testing.T) {
	pdflatex := needPdflatex(t)
	survey := writeSurvey(t, "title: Subtraction games {a, b}\nlang: fr\nsurvey:\n  subtraction: {within: 6, size: 2, upto: 60}\nshow: [period, values]\n")
	tests := []struct {
		name string
		args []string
	}{
		{"handout", []string{"run", "../../examples/handouts/nim-bouton.en.yaml"}},
		{"handout fr", []string{"run", "../../examples/handouts/wythoff.fr.yaml"}},
		{"survey", []string{"survey", survey}},
		{"notebook", []string{"run", "../../examples/notebooks/sources.ipynb"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tex := filepath.Join(dir, "paper.tex")
			var errb bytes.Buffer
			if err := run(context.Background(), append(tc.args, "-o", tex, "--quiet"), nil, io.Discard, &errb); err != nil {
				t.Fatal(err, errb.String())
			}
			// Twice, as a paper is: the second run resolves the citations.
			for range 2 {
				cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "paper.tex")
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("pdflatex: %v\n%s", err, out)
				}
			}
			if fi, err := os.Stat(filepath.Join(dir, "paper.pdf")); err != nil || fi.Size() == 0 {
				t.Fatalf("no PDF: %v", err)
			}
			log, err := os.ReadFile(filepath.Join(dir, "paper.log"))
			if err != nil {
				t.Fatal(err)
			}
			if m := texErrors.FindAllString(string(log), 5); len(m) > 0 {
				t.Errorf("pdflatex log: %q", m)
			}
		})
	}
}

// A LaTeX report that fails takes back the figures it made, and leaves
// those that were there before.
func TestLaTeXFiguresUndone(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "paper.tex")
	old := filepath.Join(dir, "paper-fig2.pdf")
	if err := os.WriteFile(old, []byte("%PDF-old"), 0o644); err != nil {
		t.Fatal(err)
	}
	failing := errors.New("the report failed")
	render := withTeXFigures(context.Background(), reports.Options{}, out, nil, func(w io.Writer, o reports.Options) error {
		for _, name := range []string{"paper-fig1.pdf", "paper-fig2.pdf"} {
			if err := o.Figures(name, func(w io.Writer) error { _, err := io.WriteString(w, "%PDF-new"); return err }); err != nil {
				return err
			}
		}
		return failing
	})
	if err := render(io.Discard); !errors.Is(err, failing) {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "paper-fig1.pdf")); err == nil {
		t.Error("paper-fig1.pdf, made by the failed report, is left")
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("paper-fig2.pdf, there before, is gone: %v", err)
	}
}
