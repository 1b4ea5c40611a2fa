package reports

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// figureFiles collects the figure files of a LaTeX rendering.
type figureFiles map[string][]byte

func (f figureFiles) options(o Options) Options {
	o.Figures = func(name string, write func(io.Writer) error) error {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return err
		}
		f[name] = b.Bytes()
		return nil
	}
	return o
}

func (f figureFiles) names() string {
	var ns []string
	for n := range f {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return strings.Join(ns, " ")
}

func TestLaTeXGolden(t *testing.T) {
	fx := fixtures()
	for _, name := range fixtureNames() {
		t.Run(name, func(t *testing.T) {
			files := figureFiles{}
			var b bytes.Buffer
			if err := LaTeX(&b, fx[name], files.options(Options{FigureStem: name})); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".tex", b.Bytes())
			checkTeXDocument(t, b.String())
			for n, data := range files {
				if !strings.HasPrefix(n, name+"-fig") || !bytes.HasPrefix(data, []byte("%PDF-")) {
					t.Errorf("figure file %s: %.10q", n, data)
				}
				if !strings.Contains(b.String(), `\includegraphics[width=`) || !strings.Contains(b.String(), "{"+n+"}") {
					t.Errorf("%s is not included", n)
				}
			}
		})
	}
}

// The figures are PDF files beside the document, named from its stem,
// the same bytes every time.
func TestLaTeXFigures(t *testing.T) {
	tests := []struct {
		name, stem, want string
	}{
		{"kayles", "paper", "paper-fig1.pdf"},
		{"wythoff", "my report.v2", "my-report-v2-fig1.pdf"},
		{"kayles", "", "report-fig1.pdf"},
	}
	for _, tc := range tests {
		t.Run(tc.name+"/"+tc.stem, func(t *testing.T) {
			first, second := figureFiles{}, figureFiles{}
			for _, f := range []figureFiles{first, second} {
				if err := LaTeX(io.Discard, fixtures()[tc.name], f.options(Options{FigureStem: tc.stem})); err != nil {
					t.Fatal(err)
				}
			}
			if !strings.HasPrefix(first.names(), tc.want) {
				t.Errorf("figures %q, want %s first", first.names(), tc.want)
			}
			for n := range first {
				if !bytes.Equal(first[n], second[n]) {
					t.Errorf("%s differs from one rendering to the next", n)
				}
			}
		})
	}
	// Without a place for them (standard output), no figure and a comment.
	var b bytes.Buffer
	if err := LaTeX(&b, kaylesReport(), Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `\begin{figure}`) || !strings.Contains(b.String(), "% A figure is left out here") {
		t.Errorf("figures without Options.Figures:\n%s", b.String())
	}
}

func TestLaTeXContent(t *testing.T) {
	tests := []struct {
		name string
		tex  func() (string, error)
		want []string
	}{
		{"french", func() (string, error) {
			var b bytes.Buffer
			err := LaTeX(&b, golayReport("fr"), Options{})
			return b.String(), err
		}, []string{`\usepackage[french]{babel}`, `\usepackage[T1]{fontenc}`, `\usepackage[utf8]{inputenc}`, `\usepackage{lmodern}`}},
		{"english, booktabs, P-positions in bold", func() (string, error) {
			var b bytes.Buffer
			err := LaTeX(&b, kaylesReport(), Options{})
			return b.String(), err
		}, []string{`\usepackage[english]{babel}`, "\\toprule\n", "\\midrule\n", "\\bottomrule\n", `\textbf{0}`}},
		{"a survey's long table of variants", func() (string, error) {
			var b bytes.Buffer
			err := SurveyLaTeX(&b, surveyReport(t, "long"), Options{})
			return b.String(), err
		}, []string{`\begin{longtable}`, `\endhead`}},
		{"sources as a bibliography", func() (string, error) {
			r := kaylesReport()
			r.Sections[0].Source = "R. K. Guy, C. A. B. Smith (1956), https://example.org/kayles#p3."
			var b bytes.Buffer
			err := LaTeX(&b, r, Options{})
			return b.String(), err
		}, []string{`Source: \cite{src1}`, "\\begin{thebibliography}{99}\n\\bibitem{src1} R. K. Guy, C. A. B. Smith (1956), \\url{https://example.org/kayles\\#p3}."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.tex()
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			checkTeXDocument(t, got)
		})
	}
}

func TestSurveyLaTeXGolden(t *testing.T) {
	tests := []struct{ fixture, lang string }{{"octal", "en"}, {"coins", "fr"}}
	for _, tc := range tests {
		t.Run(tc.fixture+"-"+tc.lang, func(t *testing.T) {
			files := figureFiles{}
			var b bytes.Buffer
			if err := SurveyLaTeX(&b, surveyReport(t, tc.fixture), files.options(Options{Lang: tc.lang, FigureStem: "survey"})); err != nil {
				t.Fatal(err)
			}
			golden(t, "survey-"+tc.fixture+"."+tc.lang+".tex", b.Bytes())
			checkTeXDocument(t, b.String())
			if len(files) == 0 {
				t.Error("no figure written")
			}
		})
	}
}

// Mathematics goes into math mode; the rest is text, escaped.
func TestTeXText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"f_r(n) for r = 7", `\(f_{r}(n)\) for \(r = 7\)`},
		{"2^7 = 128", `\(2^{7} = 128\)`},
		{"h ⊕ 2 < h", `\(h \oplus  2 < h\)`},
		{"(⌊kφ⌋, ⌊kφ²⌋) for k ≥ 0", `\((\lfloor k\varphi \rfloor , \lfloor k\varphi ^{2}\rfloor )\) for \(k \geq  0\)`},
		{"a ⊗ b pour 0 ≤ a, b < 16", `\(a \otimes  b\) pour \(0 \leq  a, b < 16\)`},
		// Issue 30: a variable alone is italic mathematics, "a" only
		// where no word follows it.
		{"heaps a (row) and b (column)", `heaps \(a\) (row) and \(b\) (column)`},
		{"Row a, column b.", `Row \(a\), column \(b\).`},
		{"(n mod 4) for every a.", `(\(n\) mod 4) for every \(a\).`},
		{"a heap, il y a 2 tas, S. Brown, the set S", `a heap, il y a 2 tas, S. Brown, the set \(S\)`},
		{"(a win for the player)", `(a win for the player)`},
		{"a Steiner system S(5,8,24): any 5", `a Steiner system \(S(5,8,24)\): any 5`},
		{"il a 3 pièces", "il a 3 pièces"},
		{"φ = (1 + √5)/2 is", `\(\varphi  = (1 + \surd 5)/2\) is`},
		{"So (1, 3, 5, 5) → (1, 1, 5, 5).", `So (1, 3, 5, 5) \(\to \) (1, 1, 5, 5).`},
		{"M₂₄ and x^2^3", `\(M_{24}\) and \(x^{2}{}^{3}\)`},
		{"50% & $5 #1 {x} ~ \\ ^", `50\% \& \$5 \#1 \{x\} \textasciitilde{} \textbackslash{} \textasciicircum{}`},
		{"--", `-{}-`},
		{"«\u202fjeu\u202f»", `\guillemotleft{}\nobreak\hspace{0.16667em}jeu\nobreak\hspace{0.16667em}\guillemotright{}`},
		{"☃", `\textsc{u+2603}`},
		// The subtraction handout: "max S" was upright, outside the formula.
		// Wythoff: "g(a, b)" was upright beside an italic "g(a, b + p)".
		{"Grundy value g(a, b) of the position", `Grundy value \(g(a, b)\) of the position`},
		{"pour n₀ ≤ n < n₀ + max S, où", `pour \(n_{0} \leq  n < n_{0} + \max  S\), où`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got := texText(tc.in)
			if got != tc.want {
				t.Errorf("texText(%q) = %s, want %s", tc.in, got, tc.want)
			}
			checkTeX(t, got)
		})
	}
}

// checkTeXDocument checks a whole document: its text outside the
// preamble, environments and commands we write holds no stray special.
func checkTeXDocument(t *testing.T, doc string) {
	t.Helper()
	if !strings.HasPrefix(doc, "% Written by nimbook") || !strings.HasSuffix(doc, "\\end{document}\n") {
		t.Errorf("not a whole document:\n%s", doc)
	}
	if strings.Count(doc, `\begin{`) != strings.Count(doc, `\end{`) {
		t.Errorf("\\begin and \\end do not pair")
	}
	if err := texBalanced(doc); err != nil {
		t.Error(err)
	}
}

// checkTeX asserts that escaped text holds no unescaped special: only
// ASCII and Latin letters; a backslash opens a command or escapes a
// special; braces balance; math mode \( \) pairs and is where ^ and _
// are; #, %, &, ~ and $ appear escaped only.
func checkTeX(t *testing.T, s string) {
	t.Helper()
	if err := texClean(s); err != nil {
		t.Errorf("%v in %q", err, s)
	}
}

func texClean(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("not UTF-8")
	}
	math := false
	depth := 0
	var ensure []int // the brace depths of \ensuremath's arguments
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(s[i:])
			if !texLetter(r) {
				return fmt.Errorf("character %U at %d", r, i)
			}
			i += n - 1
		case c == '\\':
			if i+1 >= len(s) {
				return fmt.Errorf("a backslash ends the text")
			}
			n := s[i+1]
			switch {
			case n == '(' || n == ')':
				if math == (n == '(') {
					return fmt.Errorf("math mode opened or closed twice at %d", i)
				}
				math = n == '('
				i++
			case isLetter(n):
				start := i + 1
				for i+1 < len(s) && isLetter(s[i+1]) {
					i++
				}
				if s[start:i+1] == "ensuremath" && i+1 < len(s) && s[i+1] == '{' {
					ensure = append(ensure, depth+1)
				}
			case strings.IndexByte("#$%&_{} ,-\\", n) >= 0:
				i++
			default:
				return fmt.Errorf("backslash before %q at %d", n, i)
			}
		case c == '{':
			depth++
		case c == '}':
			if len(ensure) > 0 && ensure[len(ensure)-1] == depth {
				ensure = ensure[:len(ensure)-1]
			}
			depth--
		case c == '^' || c == '_':
			if !math && len(ensure) == 0 {
				return fmt.Errorf("%c outside math mode at %d", c, i)
			}
		case strings.IndexByte("#%&~$", c) >= 0:
			return fmt.Errorf("unescaped %c at %d", c, i)
		case c < ' ' && c != '\n':
			return fmt.Errorf("control character %#x at %d", c, i)
		}
	}
	if math {
		return fmt.Errorf("math mode left open")
	}
	return texBalanced(s)
}

// texBalanced checks that the braces that group (not \{ and \}) pair.
func texBalanced(s string) error {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // an escaped character or a command's first letter
		case '%':
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j // a comment
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return fmt.Errorf("a brace closes nothing at %d", i)
			}
		}
	}
	if depth != 0 {
		return fmt.Errorf("%d braces left open", depth)
	}
	return nil
}

func FuzzTeXText(f *testing.F) {
	for _, s := range []string{"f_r(n) ⊕ 2^{k+1}", "⌊kφ⌋, ⌊kφ²⌋", "\\input{/etc/passwd}", "}{$%#&~^_", "a_{b c}", "«\u202fx\u202f»", "x^{}", "\x00\xff", "M₂₄ ≤ 10⁴", "(1 + √5)/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := texClean(texText(s)); err != nil {
			t.Errorf("texText(%q) = %q: %v", s, texText(s), err)
		}
		if err := texClean(texEscape(s)); err != nil {
			t.Errorf("texEscape(%q) = %q: %v", s, texEscape(s), err)
		}
	})
}

// TestLaTeXTableNotes: a table and the notes under it are one box, which
// a page never parts (issue 30: coins-table's "Coins numbered from 1."
// opened the next page, its table left on this one); and a source the
// figure just below the table cites is cited once, under the figure.
func TestLaTeXTableNotes(t *testing.T) {
	r := nimbersReport("en")
	r.Sections[0].Source = "D. Madore (2017)"
	var b bytes.Buffer
	if err := LaTeX(&b, r, figureFiles{}.options(Options{})); err != nil {
		t.Fatal(err)
	}
	tex := b.String()
	if n := strings.Count(tex, `Source: \cite{src1}`); n != 1 || !strings.Contains(tex, "{\\small\\centering Source: \\cite{src1}\\par}\n\\end{figure}") {
		t.Errorf("the source is cited %d times, want once, under the figure:\n%s", n, tex)
	}

	b.Reset()
	if err := LaTeX(&b, kaylesReport(), Options{}); err != nil {
		t.Fatal(err)
	}
	tex = b.String()
	i := strings.Index(tex, "\\par\\vbox{%\n\\begin{center}")
	j := strings.Index(tex, "{\\small Values 0 (P-positions) are in bold.\\par}\n\n}\n")
	if i < 0 || j < i || strings.Contains(tex[i:j], "\\end{tabular}}\n\\end{center}\n\n\\setbox0") {
		t.Errorf("the table and its note are not one box:\n%s", tex)
	}
}
