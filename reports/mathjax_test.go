package reports

import (
	"strings"
	"testing"
)

// outsideFormulas is what MathJax shows as typed in a text/latex: the text
// outside \( … \) and \[ … \]; "" and false when a formula is not closed.
func outsideFormulas(s string) (string, bool) {
	var b strings.Builder
	for {
		i := strings.IndexAny(s, `\`)
		if i < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		b.WriteString(s[:i])
		rest := s[i:]
		var end string
		switch {
		case strings.HasPrefix(rest, `\(`):
			end = `\)`
		case strings.HasPrefix(rest, `\[`):
			end = `\]`
		default:
			b.WriteString(rest[:1])
			s = rest[1:]
			continue
		}
		j := strings.Index(rest[2:], end)
		if j < 0 {
			return "", false
		}
		s = rest[2+j+2:]
	}
}

// TestMathJaxResult: a notebook's text/latex holds the whole result
// (issue 30), and nothing outside its formulas that LaTeX reads as a
// command or MathJax as a delimiter, so that both set the same words.
func TestMathJaxResult(t *testing.T) {
	hostile := []string{
		`\input{/etc/passwd} \def\x{y} }{ $ $$ % # & ~ ^ _ \\ \( --`,
		"f_r(n) ⊕ 2^{k+1}, M₂₄ ≤ 10⁴, ⌊kφ⌋ for k ≥ 0, √5, jusqu’à « jeu », 1\u202f274\u00a0:",
		"☃ 日本 \x00\x01 \u200b é ñ ß Ł ı | < > …",
	}
	for _, s := range hostile {
		blocks := []block{heading{Text: s}, para{Spans: text(s)}, list{Items: [][]span{text(s), literal(s)}},
			para{Spans: []span{{Text: s, Code: true}}, Note: true}, prose{MD: "## " + s + "\n\n" + s + "\n\n- " + s + "\n"}}
		tex := mathJaxResult(blocks)
		words, ok := outsideFormulas(tex)
		if !ok {
			t.Errorf("%q: a formula is not closed:\n%s", s, tex)
			continue
		}
		if i := strings.IndexAny(words, `\{}$&#%_^~`); i >= 0 {
			t.Errorf("%q: %q outside a formula:\n%s", s, words[i:i+1], tex)
		}
	}

	// A result: its game, heading, words, table and note, in order.
	d, err := Bundle(bundleSection(t, "sections:\n- game: {wythoff: {size: [4, 4]}}\n  show: [table]\n"))
	if err != nil {
		t.Fatal(err)
	}
	tex, _ := d.Data["text/latex"].(string)
	want := []string{"Game: Wythoff", `\(\textbf{Table}\)`, `Grundy value \(g(a, b)\) of the position with heaps \(a\) (row) and \(b\) (column).`,
		`\[\begin{array}`, `\end{array}\]`, "Values 0 (P-positions) are in bold."}
	at := 0
	for _, w := range want {
		i := strings.Index(tex[at:], w)
		if i < 0 {
			t.Fatalf("text/latex lacks %q after byte %d:\n%s", w, at, tex)
		}
		at += i + len(w)
	}

	// A figure has no such form: nbconvert takes its PDF instead.
	if got := mathJaxResult([]block{para{Spans: text("x")}, figure{Kind: "values"}}); got != "" {
		t.Errorf("a result with a figure: %q, want none", got)
	}

	// A survey: its words and tables, not its figures, which show on
	// their own.
	d, err = Bundler{Options: Options{Lang: "fr"}}.Bundle(surveyReport(t, "octal"))
	if err != nil {
		t.Fatal(err)
	}
	tex, _ = d.Data["text/latex"].(string)
	if !strings.Contains(tex, `\(\textbf{Variantes remarquables}\)`) || !strings.Contains(tex, `\[\begin{array}`) || strings.Contains(tex, "Figures") {
		t.Errorf("a survey's text/latex:\n%s", tex)
	}
}
