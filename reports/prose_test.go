package reports

import (
	"bytes"
	"strings"
	"testing"
)

// TestProseBlocks: users' Markdown is read once (proseBlocks), and the
// PDF and LaTeX set the same reading: scripts, escapes, lists in lists,
// code in a list, links, tables.
func TestProseBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		tex       []string // in the LaTeX
		pdf       string   // the PDF's spans of the first paragraph: text|script…
		notTeX    []string
	}{
		{"script", "The table of f_r(n).", []string{`\(f_{r}(n)\)`}, "The table of f|0 r|-1 (n).|0", nil},
		{"escaped sign", `Write f\_r and \*x\*.`, []string{`Write f\_r and *x*.`}, "Write f|0 _|0 r and |0 *|0 x|0 *|0 .|0", []string{`\textbackslash`}},
		{"hard break", "one  \ntwo", []string{"one\\\\\ntwo"}, "one |0 two|0", nil},
		{"emphasis and link", "*see* [the list](https://oeis.org/A000069)", []string{`\emph{see}`, `\href{https://oeis.org/A000069}{the list}`}, "see|0  |0 the list|0", nil},
		{"nested list", "- x1\n  - x2\n", []string{"\\begin{itemize}\n\\item x1\n\n\\begin{itemize}\n\\item x2\n\n\\end{itemize}"}, "", nil},
		{"code in a list", "- a\n\n  ```\n  x = 1\n  ```\n", []string{`x\ =\ 1`}, "", nil},
		{"table", "| n | f_r |\n| - | --- |\n| 1 | 2 |\n", []string{`\(f_{r}\)`, `\toprule`}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			tw := newTeXWriter(&buf, Options{}, nil)
			tw.prose(tc.src)
			if err := tw.flush(); err != nil {
				t.Fatal(err)
			}
			got := buf.String()
			for _, w := range tc.tex {
				if !strings.Contains(got, w) {
					t.Errorf("LaTeX: %q is not in\n%s", w, got)
				}
			}
			for _, w := range tc.notTeX {
				if strings.Contains(got, w) {
					t.Errorf("LaTeX: %q is in\n%s", w, got)
				}
			}
			if tc.pdf == "" {
				return
			}
			bs := proseBlocks(tc.src)
			var parts []string
			for _, s := range styledSpans(bs[0].Inline, "") {
				parts = append(parts, s.Text+"|"+itoa(s.script))
			}
			if p := strings.Join(parts, " "); p != tc.pdf {
				t.Errorf("PDF spans %q, want %q", p, tc.pdf)
			}
		})
	}
}
