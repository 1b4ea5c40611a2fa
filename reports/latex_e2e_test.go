package reports

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// texErrors are what a pdflatex log says when something went wrong.
var texErrors = regexp.MustCompile(`(?m)^!.*$|Undefined control sequence|Missing character|LaTeX Error`)

// Text from a job file, however hostile, compiles: titles, prose and
// sources made of LaTeX's specials, mathematics, Unicode and random
// characters. Skipped without pdflatex unless NIMBOOK_E2E=1.
func TestLaTeXHostileTextCompiles(t *testing.T) {
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatal("NIMBOOK_E2E=1 but pdflatex is not installed")
		}
		t.Skip("pdflatex is not installed")
	}
	texts := []string{
		`\input{/etc/passwd} \def\x{y} \end{document} }{ $ $$ % # & ~ ^ _ \\ \(`,
		"f_r(n) ⊕ 2^{k+1}, x^2^3, M₂₄ ≤ 10⁴, ⌊kφ⌋ and ⌊kφ²⌋ for k ≥ 0, (1 + √5)/2, h ⊕ 2 < h",
		"«\u202fjeu\u202f» ; l’œuf — “quotes” -- --- `x` ,, << >> ¡ ¿ ☃ 日本 \x00\x01 \u200b é ñ ß Ł ı",
		"`code` **bold** *em* [link](http://x.org/a%20b#c) <b>raw</b> https://oeis.org/A000001\n\n- item ⊗\n\n```\n\\verb|x| ⊕\n```\n\n| a | b |\n|---|---|\n| 1 & 2 | $ |",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alpha := []rune("ab1 _^{}()\\$%#&~⊕φ²₂,.;:«»\u202f<=-ᵣ⌊⌋`'\"|é☃\n*[]!")
	for range 8 {
		rs := make([]rune, 40)
		for j := range rs {
			rs[j] = alpha[rng.IntN(len(alpha))]
		}
		texts = append(texts, string(rs))
	}
	r := kaylesReport()
	r.Title = strings.Join(texts[:2], " ")
	for _, s := range texts {
		sr := *r.Sections[0]
		sr.Title, sr.Text, sr.Source = s, s, s
		r.Sections = append(r.Sections, &sr)
	}
	dir := t.TempDir()
	files := figureFiles{}
	var b bytes.Buffer
	if err := LaTeX(&b, r, files.options(Options{FigureStem: "paper"})); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "paper.tex"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "paper.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, out)
	}
	log, err := os.ReadFile(filepath.Join(dir, "paper.log"))
	if err != nil {
		t.Fatal(err)
	}
	if m := texErrors.FindAllString(string(log), 5); len(m) > 0 {
		t.Errorf("pdflatex log: %q", m)
	}
	if strings.Contains(string(log), "/etc/passwd") {
		t.Error("the text's \\input was read")
	}
}

// TestMathJaxTablesCompile: a notebook's text/latex, the result in the
// form MathJax draws (mathJaxResult), tables as arrays, compiles with pdflatex in the preamble nbconvert's LaTeX
// gives them (amsmath, amssymb), whatever the cells hold.
func TestMathJaxTablesCompile(t *testing.T) {
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatal("NIMBOOK_E2E=1 but pdflatex is not installed")
		}
		t.Skip("pdflatex is not installed")
	}
	texts := []string{
		`\input{/etc/passwd} \def\x{y} }{ $ $$ % # & ~ ^ _ \\ \(`,
		"f_r(n) ⊕ 2^{k+1}, M₂₄ ≤ 10⁴, ⌊kφ⌋ for k ≥ 0, √5, ✓ ✗, jusqu’à « jeu », 1\u202f274",
		"☃ 日本 \x00\x01 \u200b é ñ ß Ł ı | < > …",
	}
	tab := table{Header: []cell{{Text: "n"}, {Text: "+0"}}}
	for _, s := range texts {
		tab.Rows = append(tab.Rows, []cell{{Text: s}, {Text: s, Strong: true}})
	}
	tab.Rows = append(tab.Rows, []cell{{Text: "0..9"}, {Text: "0", Strong: true}})
	// The whole result too (issue 30): headings, words, lists and notes
	// around the table, as a notebook's text/latex holds them.
	blocks := []block{tab}
	for _, s := range texts {
		blocks = append(blocks, heading{Text: s}, para{Spans: text(s)}, list{Items: [][]span{text(s), literal(s)}}, para{Spans: []span{{Text: s, Code: true}}, Note: true})
	}
	doc := "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amsmath,amssymb}\n\\begin{document}\n" +
		mathJaxResult(blocks) + "\\end{document}\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "arrays.tex"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "arrays.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdflatex: %v\n%s\n%s", err, out, doc)
	}
	log, err := os.ReadFile(filepath.Join(dir, "arrays.log"))
	if err != nil {
		t.Fatal(err)
	}
	if m := texErrors.FindAllString(string(log), 5); len(m) > 0 {
		t.Errorf("pdflatex log: %q\n%s", m, doc)
	}
	if strings.Contains(string(log), "/etc/passwd") {
		t.Error("the text's \\input was read")
	}
}
