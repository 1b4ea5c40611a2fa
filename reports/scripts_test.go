package reports

import (
	"bytes"
	"strings"
	"testing"
)

// The notation of subscripts and superscripts: what is one, what is left
// as typed, and how each form writes it.
func TestScripts(t *testing.T) {
	tests := []struct {
		in     string
		plain  string // Unicode, or as typed
		md     string // Markdown for HTML and notebooks
		mdOnly string // Markdown read as it is
	}{
		{"the table of f_r(n)", "the table of fᵣ(n)", "the table of f<sub>r</sub>(n)", "the table of fᵣ(n)"},
		{"all 2^7 rows", "all 2⁷ rows", "all 2<sup>7</sup> rows", "all 2⁷ rows"},
		{"2^24 = 16 777 216", "2²⁴ = 16 777 216", "2<sup>24</sup>\u00a0=\u00a016 777 216", "2²⁴ = 16 777 216"},
		{"below 2^K", "below 2^K", "below 2<sup>K</sup>", "below 2<sup>K</sup>"},
		{"2^{k+1} and x_{max}", "2ᵏ⁺¹ and xₘₐₓ", "2<sup>k+1</sup> and x<sub>max</sub>", "2ᵏ⁺¹ and xₘₐₓ"},
		{"x_{q}", "x_q", "x<sub>q</sub>", "x<sub>q</sub>"},
		{"the group M_24", "the group M₂₄", "the group M<sub>24</sub>", "the group M₂₄"},
		{"n_1 ⊕ n_2", "n₁ ⊕ n₂", "n<sub>1</sub>\u00a0⊕\u00a0n<sub>2</sub>", "n₁ ⊕ n₂"},
		{"f_r(n)^2", "fᵣ(n)²", "f<sub>r</sub>(n)<sup>2</sup>", "fᵣ(n)²"},
		// Not scripts.
		{"max_take", "max_take", "max_take", "max_take"},
		{"split_or_take", "split_or_take", "split_or_take", "split_or_take"},
		{"a ^ b", "a ^ b", "a ^ b", "a ^ b"},
		{"_a_", "_a_", `\_a\_`, `\_a\_`},
		{"x_ab", "x_ab", "x_ab", "x_ab"},
		{"2^x1", "2^x1", "2^x1", "2^x1"},
		{"a_é", "a_é", `a\_é`, `a\_é`},
		{"x^{}", "x^{}", "x^{}", "x^{}"},
		{"x^{ a}", "x^{ a}", "x^{ a}", "x^{ a}"},
		{"x^{" + strings.Repeat("1", 41) + "}", "x^{" + strings.Repeat("1", 41) + "}", "x^{" + strings.Repeat("1", 41) + "}", "x^{" + strings.Repeat("1", 41) + "}"},
		{"end^", "end^", "end^", "end^"},
		{"a__b", "a__b", `a\_\_b`, `a\_\_b`},
		{"(1,3)_2", "(1,3)₂", "(1,3)<sub>2</sub>", "(1,3)₂"},
		{"x^<b>", "x^<b>", `x^\<b>`, `x^\<b>`},
		{"x^{<b>}", "x^{<b>}", `x<sup>\<b></sup>`, `x<sup>\<b></sup>`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := plainScripts(tc.in); got != tc.plain {
				t.Errorf("plain: %q, want %q", got, tc.plain)
			}
			if got := mdText(tc.in, false); got != tc.md {
				t.Errorf("Markdown: %q, want %q", got, tc.md)
			}
			if got := mdText(tc.in, true); got != tc.mdOnly {
				t.Errorf("Markdown read as it is: %q, want %q", got, tc.mdOnly)
			}
		})
	}
}

// The tags HTML gets are <sub> and <sup> only: any other raw HTML is left
// out, as goldmark does by default.
func TestScriptTagsHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{mdText("all 2^7 rows of f_r(n)", false), "<p>all 2<sup>7</sup> rows of f<sub>r</sub>(n)</p>\n"},
		{"a <sup>1</sup> <b>bold</b> <sup onclick=\"x\">2</sup> <script>", "<p>a <sup>1</sup> <!-- raw HTML omitted -->bold<!-- raw HTML omitted --> <!-- raw HTML omitted -->2</sup> <!-- raw HTML omitted --></p>\n"},
		{mdText("x^{<script>}", false), "<p>x<sup>&lt;script&gt;</sup></p>\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		if err := md.Convert([]byte(tc.in), &b); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%q → %q, want %q", tc.in, b.String(), tc.want)
		}
	}
}

// In prose the notation is read in the text only: code, links' targets and
// escaped signs keep it as typed.
func TestProseScripts(t *testing.T) {
	src := "The values f_r(n) of 2^7 rows.\n\n" +
		"`f_r(n)` and f\\_r(n) stay, [f_r](https://example.org/a_b) links.\n\n" +
		"```\nx^2\n```\n\n" +
		"- *f_r(n)* in a list, x_{max}\n"
	want := "The values f<sub>r</sub>(n) of 2<sup>7</sup> rows.\n\n" +
		"`f_r(n)` and f\\_r(n) stay, [f<sub>r</sub>](https://example.org/a_b) links.\n\n" +
		"```\nx^2\n```\n\n" +
		"- *f<sub>r</sub>(n)* in a list, x<sub>max</sub>\n"
	if got := proseScripts(src, false); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	wantMD := strings.NewReplacer("f<sub>r</sub>", "fᵣ", "2<sup>7</sup>", "2⁷", "x<sub>max</sub>", "xₘₐₓ").Replace(want)
	if got := proseScripts(src, true); got != wantMD {
		t.Errorf("read as it is: got\n%s\nwant\n%s", got, wantMD)
	}
}

// scriptless is s with its scripts' signs left out: the text a PDF holds.
func scriptless(s string) string {
	var b strings.Builder
	for _, p := range splitScripts(s) {
		b.WriteString(p.text)
	}
	return b.String()
}

// The PDF typesets scripts: its text holds the base and the script, no
// sign; its outline and metadata hold the title in Unicode.
func TestScriptsPDF(t *testing.T) {
	r := runJob(t, "title: The f_r(n) table\nsections:\n  - title: Below 2^{k+1}\n    text: \"Prose: x_{max} and `f_r` in code.\"\n"+
		"    game: {coins: {rule: at-most, r: 2, n: 7}}\n    show: [p-positions]\n")
	var b bytes.Buffer
	if err := PDF(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	info := readPDF(t, b.Bytes())
	text := squash(strings.Join(info.Text, ""))
	for _, want := range []string{"Thefr(n)table", "Below2k+1", "Prose:xmaxand", "f_rincode", "overall27rowsof7coins"} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF text: no %q in %q", want, text)
		}
	}
	for _, not := range []string{"f_r(n)", "2^", "x_{", "^{"} {
		if strings.Contains(text, not) {
			t.Errorf("PDF text: %q printed as typed in %q", not, text)
		}
	}
	if info.Title != "The fᵣ(n) table" {
		t.Errorf("PDF title %q, want the scripts in Unicode", info.Title)
	}
}
