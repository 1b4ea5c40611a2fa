package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	gtext "github.com/yuin/goldmark/text"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/templates"
)

func TestCleanTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Nim", "Nim"},
		{"red \x1b[31mtitle\x1b[0m", "red [31mtitle[0m"},
		{"two\nlines\tand tab", "two lines and tab"},
		{"bell\a, C1 \u009b2J, DEL\x7f", "bell, C1 2J, DEL"},
		{"bad \xff byte, é ⊕ ●", "bad  byte, é ⊕ ●"},
	}
	for _, tc := range tests {
		if got := cleanTitle(tc.in); got != tc.want {
			t.Errorf("cleanTitle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := cleanProse("a\x1b]0;pwned\a\n\tb\r\n"); got != "a]0;pwned\n\tb\n" {
		t.Errorf("cleanProse kept controls: %q", got)
	}
}

// rawHTML counts the raw HTML nodes goldmark finds in src.
func rawHTML(src string) int {
	n := 0
	doc := md.Parser().Parse(gtext.NewReader([]byte(src)))
	_ = ast.Walk(doc, func(nd ast.Node, entering bool) (ast.WalkStatus, error) {
		switch nd.(type) {
		case *ast.RawHTML, *ast.HTMLBlock:
			if entering {
				n++
			}
		}
		return ast.WalkContinue, nil
	})
	return n
}

// Raw HTML in prose reads as text in every form, even through a renderer
// that would pass HTML on (a notebook's Markdown cell); the rest of the
// Markdown is untouched.
func TestEscapeRawHTML(t *testing.T) {
	unsafe := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	tests := []struct {
		in, want string // want: what the rendered HTML must hold
	}{
		{"a <b>bold</b> word", "a &lt;b&gt;bold&lt;/b&gt; word"},
		{"<div>\n<script>alert(1)</script>\n</div>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"<!-- hidden -->", "&lt;!-- hidden --&gt;"},
		{"text\n\n<img src=x onerror=alert(1)>\n\nmore", "&lt;img src=x onerror=alert(1)&gt;"},
		{"> quote <span>x</span>", "&lt;span&gt;x&lt;/span&gt;"},
		{"- item <em>x</em>", "&lt;em&gt;x&lt;/em&gt;"},
		{"0 ≤ a < b, `<code>`, <https://oeis.org>", `a &lt; b, <code>&lt;code&gt;</code>, <a href="https://oeis.org">`},
		{"**bold** and f_r", "<strong>bold</strong> and f_r"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got := escapeRawHTML(tc.in)
			if n := rawHTML(got); n != 0 {
				t.Errorf("escapeRawHTML(%q) = %q still holds %d raw HTML nodes", tc.in, got, n)
			}
			var b bytes.Buffer
			if err := unsafe.Convert([]byte(got), &b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("%q renders as %q, want it to hold %q", got, b.String(), tc.want)
			}
		})
	}
}

func FuzzEscapeRawHTML(f *testing.F) {
	for _, s := range []string{"<b>x</b>", "<div>\n<p>a</p>\n</div>", "a < b", "<!-- c -->", "<?php ?>", "`<b>`", "<pre>\n<b>\n</pre>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := escapeRawHTML(s); rawHTML(got) != 0 {
			t.Errorf("escapeRawHTML(%q) = %q holds raw HTML", s, got)
		}
	})
}

// The text: of a section is Markdown in a notebook's Markdown cell, where
// Jupyter would render its raw HTML: it arrives escaped, as the HTML report
// shows it; a title's escape sequences reach no output.
func TestNotebookProseAndTitles(t *testing.T) {
	r := &job.Report{Title: "T\x1b[2J", Sections: []*job.SectionResult{{Title: "S\x1b]0;x\a", Text: "Hello <img src=x onerror=alert(1)> *there*\n",
		Results: job.Results{Outcome: "P"}}}}
	var nb, mdb, htm bytes.Buffer
	if err := Notebook(&nb, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&mdb, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&htm, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Type   string   `json:"cell_type"`
			Source []string `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(nb.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var prose string
	for _, c := range doc.Cells {
		if src := strings.Join(c.Source, ""); c.Type == "markdown" && strings.Contains(src, "Hello") {
			prose = src
		}
	}
	if !strings.Contains(prose, `Hello \<img src=x onerror=alert(1)> *there*`) || rawHTML(prose) != 0 {
		t.Errorf("notebook prose cell:\n%s", prose)
	}
	if !strings.Contains(htm.String(), "Hello &lt;img src=x onerror=alert(1)&gt; <em>there</em>") {
		t.Errorf("HTML does not show the tag as text:\n%s", htm.String())
	}
	for name, out := range map[string]string{"ipynb": nb.String(), "md": mdb.String(), "html": htm.String()} {
		if strings.ContainsAny(out, "\x1b\a") || strings.Contains(out, `\u001b`) {
			t.Errorf("%s output holds a control character", name)
		}
	}
}

// Every fixed text is in the report's language, the engine's account of a
// proof included: a French handout names the argument in French.
func TestPeriodMethodInLanguage(t *testing.T) {
	for method, name := range periodMethods {
		for _, lang := range []string{"en", "fr"} {
			sp := &job.Section{Title: "S", Family: "subtraction", Play: "normal",
				Game: heapGame("subtraction", heap.Params{"set": []int{1, 3, 4}, "upto": 50}), Show: []string{"period"}}
			per := &job.Period{Proven: true, Period: 7, CheckedTo: 11, Method: method}
			key := "period.method." + name
			switch name {
			case "none", "nim", "all-but":
				per = &job.Period{CheckedTo: 50, Method: method}
				key = "period.why." + name
			}
			var b bytes.Buffer
			r := &job.Report{Title: "t", Lang: lang, Sections: []*job.SectionResult{{Title: "S", Spec: sp, Results: job.Results{Period: per}}}}
			if err := Markdown(&b, r, Options{}); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), method) {
				t.Errorf("%s: the engine's English %q is printed:\n%s", lang, method, b.String())
			}
			set, err := templates.New(lang)
			if err != nil {
				t.Fatal(err)
			}
			if name != "none" && !set.Has(key) {
				t.Errorf("%s: no template %s", lang, key)
			}
			if lang == "fr" && name == "subtraction" && !strings.Contains(b.String(), "preuve par l’argument de fenêtre des jeux de soustraction") {
				t.Errorf("fr:\n%s", b.String())
			}
		}
	}
}
