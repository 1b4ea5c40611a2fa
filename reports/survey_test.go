package reports

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/survey"
)

// Survey fixtures, small enough to run in a test. The octal games hold
// the literature's anchors (MATH.md): Kayles (0.77) has period 12 from
// 71, Dawson's Kayles (0.07) period 34 from 53; 0.33, 0.333 and 0.3333
// take one to k without splitting, g(n) = n mod (k + 1), equal on their
// first three values; the period of 0.6 is an open problem.
var surveyFixtures = map[string]string{
	"octal": `title: Octal games
text: |
  A few **octal games**, with their periods.
survey:
  octal: {codes: ["0.07", "0.77", "0.33", "0.333", "0.3333", "0.6"], upto: 300}
show: [period, values]
`,
	// 0.33, 0.333 and 0.3333 agree on g(0..2) = 0 1 2; 0.6 (take one,
	// leaving one or two heaps) and 0.01 (take two, emptying the heap)
	// on g(0..2) = 0 0 1.
	"same": `title: Take one to k
survey:
  octal: {codes: ["0.33", "0.333", "0.3333", "0.6", "0.01"], upto: 2}
show: [values]
`,
	"coins": `title: Coins
survey:
  coins: {rule: [at-most, exactly], r: "1..2", n: [6, 8]}
show: [weights, steiner, p-positions]
`,
	// The 28 sets {a, b} within {1..8}: a map of their periods, those
	// longer than 20 values allow not proven.
	"pairs": `title: Subtraction games {a, b}
survey:
  subtraction: {within: 8, size: 2, upto: 20}
show: [period]
`,
	// 127 variants: a table longer than a page.
	"long": `title: Subtraction games within 7
survey:
  subtraction: {within: 7, size: "1..7", upto: 40}
show: [period, p-positions]
`,
}

// surveyReport runs a fixture into a fresh database and reads it back.
func surveyReport(t *testing.T, name string) *survey.Report {
	t.Helper()
	s, err := survey.Parse(name+".yaml", []byte(surveyFixtures[name]), survey.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := survey.Create(filepath.Join(t.TempDir(), name+".db"), s)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := survey.NewPlan(context.Background(), s, s.Variants, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := survey.Run(context.Background(), s, st, p, survey.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, err := st.Rows()
	if err != nil {
		t.Fatal(err)
	}
	return survey.NewReport(s, rows, "")
}

func TestSurveyMarkdownGolden(t *testing.T) {
	tests := []struct{ fixture, lang string }{
		{"octal", "en"}, {"octal", "fr"}, {"same", "en"}, {"coins", "en"}, {"coins", "fr"},
	}
	for _, tc := range tests {
		t.Run(tc.fixture+"-"+tc.lang, func(t *testing.T) {
			var b bytes.Buffer
			if err := SurveyMarkdown(&b, surveyReport(t, tc.fixture), Options{Lang: tc.lang}); err != nil {
				t.Fatal(err)
			}
			golden(t, "survey-"+tc.fixture+"."+tc.lang+".md", b.Bytes())
		})
	}
}

// The report says what the literature says of the fixtures.
func TestSurveyNotable(t *testing.T) {
	var b bytes.Buffer
	if err := SurveyMarkdown(&b, surveyReport(t, "octal"), Options{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"6 variants of octal games, one for each code; all with upto = 300.",
		"Period proven for 5 of 6 variants.",
		"Longest period: 34, of 0.07.",
		"Longest preperiod: 71, of 0.77.",
		"No period proven within the values computed (1): 0.6.",
		"No two variants have the same first 301 values.",
		"A few **octal games**",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("%q missing from:\n%s", want, md)
		}
	}
	for _, row := range []string{`\| 0 +\| 0\.07 +\| +53 \| +34 \| ✓`, `\| 1 +\| 0\.77 +\| +71 \| +12 \| ✓`, `\| 5 +\| 0\.6 +\| +\| +\| ✗ +\| +300 \|`} {
		if !regexp.MustCompile(row).MatchString(md) {
			t.Errorf("no row matching %s in:\n%s", row, md)
		}
	}
	b.Reset()
	if err := SurveyMarkdown(&b, surveyReport(t, "same"), Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "Same first 3 values (2 groups): 0.33 = 0.333 = 0.3333; 0.6 = 0.01."; !strings.Contains(b.String(), want) {
		t.Errorf("%q missing from:\n%s", want, b.String())
	}
	b.Reset()
	if err := SurveyMarkdown(&b, surveyReport(t, "same"), Options{Lang: "fr"}); err != nil {
		t.Fatal(err)
	}
	if want := "Mêmes 3 premières valeurs (2 groupes)\u00a0: 0.33 = 0.333 = 0.3333\u202f; 0.6 = 0.01."; !strings.Contains(b.String(), want) {
		t.Errorf("%q missing from:\n%s", want, b.String())
	}
}

// A database with refused, failed and pending variants: the table gets a
// status column, and the reasons are listed.
func TestSurveyStatus(t *testing.T) {
	r := surveyReport(t, "octal")
	r.Variants[1].Status, r.Variants[1].Error, r.Variants[1].Results = survey.StatusRefused, "the values need more steps than the limit", nil
	r.Variants[2].Status, r.Variants[2].Results = survey.StatusPending, nil
	r.Variants[3].Status, r.Variants[3].Error, r.Variants[3].Results = survey.StatusError, "internal error, please report it", nil
	r.Done = 3
	r.Show = append(r.Show, "table", "plot") // no column, no data
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"3 of 6 variants computed; 1 refused (past a limit); 1 failed; 1 not computed yet", "| status ", "refused", "pending",
			"#1 (0.77): the values need more steps than the limit", "#3 (0.333): internal error, please report it", "Not in the table (table): see the JSON form"}},
		{"fr", []string{"3 variantes calculées sur 6\u202f; 1 refusée (limite dépassée)\u202f; 1 en échec\u202f; 1 pas encore calculée", "| état", "refusée", "en attente", "n° 1 (0.77)\u00a0: the values need more steps"}},
	} {
		var b bytes.Buffer
		if err := SurveyMarkdown(&b, r, Options{Lang: tc.lang}); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", tc.lang, w, b.String())
			}
		}
	}
}

func TestSurveyHTML(t *testing.T) {
	tests := []struct {
		fixture string
		figures int
		want    []string
	}{
		{"octal", 4, []string{`id="overview"`, `id="census"`, `id="figures"`, `id="variants"`, "Variants by period", "Preperiod against period", "Values of the variants", "<strong>octal games</strong>"}},
		{"coins", 1, []string{"P-positions by number of heads, a row per variant", "2-(6,2,1)"}},
		{"pairs", 3, []string{"Period of each set S = {a, b} (?: not proven"}},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			r := surveyReport(t, tc.fixture)
			var a, b bytes.Buffer
			if err := SurveyHTML(&a, r, Options{}); err != nil {
				t.Fatal(err)
			}
			if err := SurveyHTML(&b, r, Options{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("two renderings differ")
			}
			h := a.String()
			if n := strings.Count(h, "<figure>"); n != tc.figures {
				t.Errorf("%d figures, want %d", n, tc.figures)
			}
			for _, w := range append(tc.want, "<svg", "size: A4;", "#variants table { break-inside: auto; }") {
				if !strings.Contains(h, w) {
					t.Errorf("%q missing", w)
				}
			}
			// Self-contained: nothing fetched.
			if m := regexp.MustCompile(`(src|href)="(https?:)?//`).FindString(h); m != "" {
				t.Errorf("fetches %s", m)
			}
			golden(t, "survey-"+tc.fixture+".html", a.Bytes())
		})
	}
}

func TestSurveyPDF(t *testing.T) {
	r := surveyReport(t, "long")
	var a, b bytes.Buffer
	if err := SurveyPDF(&a, r, Options{Lang: "fr"}); err != nil {
		t.Fatal(err)
	}
	if err := SurveyPDF(&b, r, Options{Lang: "fr"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two renderings of the same survey differ")
	}
	info := readPDF(t, a.Bytes())
	if info.Title != "Subtraction games within 7" {
		t.Errorf("title %q", info.Title)
	}
	// The table of 127 rows runs over several pages, its header on each.
	headed := 0
	for _, pg := range info.Text {
		if strings.Contains(squash(pg), squash("# set prépériode période démontrée")) {
			headed++
		}
	}
	if headed < 2 {
		t.Errorf("the table's header is on %d pages, want 2 or more (of %d)", headed, info.Pages)
	}
	all := squash(strings.Join(info.Text, ""))
	for _, w := range []string{"Vue d’ensemble", "127 variantes de jeux de soustraction", "[1,2,3,4,5,6,7]", "Variantes selon leur période", "✓"} {
		if !strings.Contains(all, squash(w)) {
			t.Errorf("%q not in the text layer:\n%s", w, clipText(all))
		}
	}
}

func TestSurveyNoFigures(t *testing.T) {
	r := surveyReport(t, "same")
	var h, p bytes.Buffer
	if err := SurveyHTML(&h, r, Options{NoFigures: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h.String(), "<figure>") {
		t.Error("NoFigures: the HTML has figures")
	}
	if err := SurveyPDF(&p, r, Options{NoFigures: true}); err != nil {
		t.Fatal(err)
	}
	readPDF(t, p.Bytes())
}

func TestSurveyNil(t *testing.T) {
	for name, f := range map[string]func() error{
		"md":   func() error { return SurveyMarkdown(&bytes.Buffer{}, nil, Options{}) },
		"html": func() error { return SurveyHTML(&bytes.Buffer{}, nil, Options{}) },
		"pdf":  func() error { return SurveyPDF(&bytes.Buffer{}, nil, Options{}) },
	} {
		if err := f(); err == nil {
			t.Errorf("%s: nil survey, no error", name)
		}
	}
}

// In a notebook a survey displays as its report: the table, the notable
// variants, and the figures: in text/html for nimbook's own pages (HTML),
// as displays of their own in Jupyter (Figures), none for print.
func TestSurveyBundle(t *testing.T) {
	r := surveyReport(t, "octal")
	tests := []struct {
		name       string
		bd         Bundler
		html, figs int // figures in text/html, and on their own
	}{
		{"jupyter", Bundler{Options: Options{Lang: "fr"}}, 0, 4}, // the census draws the values of 0.6 too
		{"html", Bundler{Options: Options{Lang: "fr"}, HTML: true}, 4, 0},
		{"print", Bundler{Options: Options{Lang: "fr"}, Print: true}, 0, 0},
	}
	for _, tt := range tests {
		name := tt.name
		bd := tt.bd
		d, err := bd.Bundle(r)
		if err != nil {
			t.Fatal(err)
		}
		md, _ := d.Data["text/markdown"].(string)
		html, _ := d.Data["text/html"].(string)
		if !strings.Contains(md, "**Variantes remarquables**") || !strings.Contains(md, "| 0.77 ") || strings.Contains(md, "## ") {
			t.Errorf("%s: text/markdown:\n%s", name, md)
		}
		if strings.Contains(md, "Figures") {
			t.Errorf("%s: text/markdown mentions figures", name)
		}
		if got := strings.Count(html, `<img alt="`); got != tt.html {
			t.Errorf("%s: %d figures in text/html, want %d", name, got, tt.html)
		}
		if _, ok := d.Data["text/html"]; ok != (tt.name != "jupyter") {
			t.Errorf("%s: text/html present: %v", name, ok)
		}
		figs, err := bd.Figures(r)
		if err != nil {
			t.Fatal(err)
		}
		if len(figs) != tt.figs {
			t.Errorf("%s: %d figures on their own, want %d", name, len(figs), tt.figs)
		}
		for _, f := range figs {
			svg, _ := f.Data["image/svg+xml"].(string)
			png, _ := f.Data["image/png"].(string)
			if !strings.Contains(svg, "<svg") || png == "" || f.Data["text/plain"] == "" {
				t.Errorf("%s: figure %v", name, mimeKeys(f.Data))
			}
		}
		plain, _ := d.Data["text/plain"].(string)
		// The user's prose stays as written; the rest is plain.
		if !strings.Contains(plain, "Variantes remarquables\n") || strings.Contains(plain, "**Variantes") || strings.Contains(plain, "| 0.77") {
			t.Errorf("%s: text/plain is not plain text:\n%s", name, plain)
		}
		tex, _ := d.Data["text/latex"].(string)
		// A notebook's tables as arrays MathJax draws; booktabs in print.
		wantTeX := []string{`\paragraph{Variantes remarquables}`, "\\toprule"}
		if tt.name == "jupyter" {
			wantTeX = []string{`\[\begin{array}{l|rrrrrr}`, `\text{vérifiée jusqu}'\text{à}`, `\checkmark`}
		}
		if !containsAll(tex, wantTeX) || strings.Contains(tex, "includegraphics") {
			t.Errorf("%s: text/latex:\n%s", name, tex)
		}
		if err := texBalanced(tex); err != nil {
			t.Errorf("%s: text/latex: %v", name, err)
		}
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
