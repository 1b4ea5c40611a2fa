package reports

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

func runYAML(t *testing.T, src string) *job.Report {
	t.Helper()
	j, err := job.Parse("across_test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The f_r(n) table for r = 1…9, as the source document prints it: one
// table, a row per r, under one title, the game said once with r named;
// the JSON form keeps a section per r.
func TestAcrossTable(t *testing.T) {
	rep := runYAML(t, `title: f_r
sections:
  - title: "At most r coins, r = 1 to 9"
    source: "D. Madore (2017), table of f_r(n)"
    game: {coins: {rule: at-most, r: "1..9", n: 10}}
    show: [values]
  - title: After
    game: {coins: {rule: at-most, r: 3, n: 4}}
    show: [values]
`)
	var md, html, js bytes.Buffer
	if err := Markdown(&md, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	m := md.String()
	for _, want := range []string{
		"## At most r coins, r = 1 to 9\n",
		"Game: turn over at most r coins on 10 coins, numbered 1 to 10;",
		"| r \\ n |   1 |   2 |   3 |   4 |   5 |   6 |   7 |   8 |   9 |  10 |",
		"| 1     |   1 |   1 |   1 |   1 |   1 |   1 |   1 |   1 |   1 |   1 |",
		"| 4     |   1 |   2 |   4 |   8 |  15 |  16 |  32 |  51 |  64 |  85 |",
		"| 9     |   1 |   2 |   4 |   8 |  16 |  32 |  64 | 128 | 256 | 511 |",
		"*Source: D. Madore (2017), table of f",
		"- r = 3 — Matches OEIS A000069",
		"## After\n",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("Markdown: no %q in\n%s", want, m)
		}
	}
	if n := strings.Count(m, "\n## "); n != 2 {
		t.Errorf("Markdown: %d sections, want 2", n)
	}
	if n := strings.Count(m, "\n| r \\ n"); n != 1 {
		t.Errorf("Markdown: %d tables, want one", n)
	}
	if n := strings.Count(html.String(), "<table>"); n != 2 {
		t.Errorf("HTML: %d tables, want the f_r table and the last section's", n)
	}
	if n := len(regexp.MustCompile(`"title": "At most r coins, r = 1 to 9 \(r = \d\)"`).FindAllString(js.String(), -1)); n != 9 {
		t.Errorf("JSON: %d sections of the table, want 9", n)
	}
}

// Rows of different lengths and longer than a row of the table: tables of
// Options.Wrap columns, empty cells where a row has no value.
func TestAcrossWrap(t *testing.T) {
	rep := runYAML(t, `sections:
  - title: Sets
    game: {subtraction: {set: [[1, 2], [1, 3]], upto: 12}}
    show: [values]
  - title: Coins
    game: {coins: {rule: at-most, r: 2, n: [3, 5]}}
    show: [values]
`)
	var md bytes.Buffer
	if err := Markdown(&md, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	m := md.String()
	for _, want := range []string{
		"| set \\ n |     0 |   1 |     2 |     3 |",
		"| set \\ n |    10 |  11 |    12 |",
		"| 1, 3    | **0** |   1 | **0** |",
		"Game: turn over at most 2 coins on n coins, numbered 1 to n;",
		"| 3     |   1 |   2 |   3 |     |     |",
		"| 5     |   1 |   2 |   3 |   4 |   5 |",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("no %q in\n%s", want, m)
		}
	}
}

// Figures name their game and cite their source (issue 22: a figure alone
// on a page headed "Figures" said neither); the HTML and PDF forms leave
// the "Figures" heading to Markdown.
func TestHandoutFiguresNameTheirGame(t *testing.T) {
	files, err := filepath.Glob("../examples/handouts/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	figures := 0
	for _, file := range files {
		rep := runFile(t, file)
		d, _, _, err := build(rep, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range d.Sections {
			for _, b := range s.Blocks {
				switch b := b.(type) {
				case figure:
					figures++
					if !strings.HasPrefix(b.Caption, s.Title) || !strings.Contains(b.Source, "Source") {
						t.Errorf("%s: figure %q (%q) in section %q", filepath.Base(file), b.Caption, b.Source, s.Title)
					}
				case heading:
					if (b.Text == "Figures" || b.Text == "Figures ") != b.MDOnly {
						t.Errorf("%s: heading %+v", filepath.Base(file), b)
					}
				}
			}
		}
	}
	if figures < 16 {
		t.Errorf("%d figures in the handouts", figures)
	}
}

// partsOf: an analysis is a part; a heading, the sentence before a
// table, and the notes under it are glued; the section's title, prose
// and game go with its first analysis; a heading left out of print ends
// a part all the same.
func TestPartsOf(t *testing.T) {
	blocks := []block{
		prose{MD: "intro"},                    // 0
		para{Spans: text("Game: …")},          // 1
		heading{Text: "Grundy values"},        // 2
		para{Spans: text("Value g(n) …")},     // 3
		table{},                               // 4
		para{Spans: text("bold"), Note: true}, // 5
		para{Spans: text("OEIS")},             // 6
		heading{Text: "Period"},               // 7
		para{Spans: text("Periodic …")},       // 8
		para{Spans: text("One period …")},     // 9
		heading{Text: "Figures", MDOnly: true},
		para{Spans: text("md"), MDOnly: true},
		figure{Kind: "values"}, // 12
	}
	got := partsOf(blocks)
	want := []part{
		{{0, 1, 2, 3, 4, 5}, {6}},
		{{7, 8}, {9}},
		{{12}},
	}
	if len(got) != len(want) {
		t.Fatalf("parts %v, want %v", got, want)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("parts %v, want %v", got, want)
		}
		for k := range want[i] {
			if !slicesEqual(got[i][k], want[i][k]) {
				t.Fatalf("parts %v, want %v", got, want)
			}
		}
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// --export numbers its files by the sections the report prints: a section
// across a parameter is one, its files told apart by the value.
func TestAcrossExportNames(t *testing.T) {
	rep := runYAML(t, `title: f_r
sections:
  - title: "At most r coins, r = 1 to 3"
    game: {coins: {rule: at-most, r: "1..3", n: 10}}
    show: [values]
  - title: After
    game: {coins: {rule: at-most, r: 3, n: 4}}
    show: [values]
`)
	files, err := Exports(context.Background(), rep)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	want := "s01-r1-values.csv s01-r1-values.b.txt s01-r2-values.csv s01-r2-values.b.txt s01-r3-values.csv s01-r3-values.b.txt s02-values.csv s02-values.b.txt"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("files %s, want %s", got, want)
	}
}

// A report with two periods proven by the same argument states its
// formula once: the second section names the argument only (the
// subtraction handout said the window argument's formula in each section).
func TestPeriodMethodStatedOnce(t *testing.T) {
	rep := runYAML(t, `title: periods
sections:
  - title: S = {1, 2, 3}
    game: {subtraction: {set: [1, 2, 3], upto: 30}}
    show: [period]
  - title: S = {2, 5}
    game: {subtraction: {set: [2, 5], upto: 30}}
    show: [period]
  - title: Kayles
    game: {octal: {code: "0.77", upto: 200}}
    show: [period]
`)
	for _, tc := range []struct {
		lang, formula, again string
	}{
		{"en", "n₀ ≤ n < n₀ + max S suffices", "the window argument for subtraction games (as above)"},
		{"fr", "il suffit que g(n + p) = g(n) pour n₀ ≤ n < n₀ + max S", "l’argument de fenêtre des jeux de soustraction (comme plus haut)"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			var md bytes.Buffer
			if err := Markdown(&md, rep, Options{Lang: tc.lang}); err != nil {
				t.Fatal(err)
			}
			out := md.String()
			if n := strings.Count(out, tc.formula); n != 1 {
				t.Errorf("the window argument's formula is stated %d times, want once:\n%s", n, out)
			}
			if n := strings.Count(out, tc.again); n != 1 {
				t.Errorf("%q appears %d times, want once (the second section):\n%s", tc.again, n, out)
			}
			// Another argument (Guy–Smith, for Kayles) has its own first
			// statement, formula and all.
			if !strings.Contains(out, "2n₀′ + p + t") {
				t.Errorf("Kayles's proof lost its formula:\n%s", out)
			}
		})
	}
}
