package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

// exampleFiles lists the job files shipped in examples/ and
// examples/handouts/.
func exampleFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../examples/*.yaml", "../examples/handouts/*.yaml"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			// examples/games.yaml solves Node Kayles on 3 × 12 in
			// Starlark: ten seconds of CPU, for the full suite only.
			if testing.Short() && filepath.Base(f) == "games.yaml" {
				continue
			}
			files = append(files, f)
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d example files", len(files))
	}
	return files
}

func runFile(t *testing.T, file string) *job.Report {
	t.Helper()
	j, err := job.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

var (
	reSection = regexp.MustCompile(`<section class="section" id="s\d+">`)
	reFetch   = regexp.MustCompile(`(?i)(src|href)\s*=\s*"(https?:)?//|<link\b|@import|url\(\s*["']?https?:`)
	// reOEIS is the one link a report makes, to the OEIS entry its values
	// are: followed by a reader, never fetched.
	reOEIS = regexp.MustCompile(`<a href="https://oeis\.org/(A[0-9]{6})">(A[0-9]{6})</a>`)
)

// TestExamples renders every example to Markdown, HTML and PDF and checks
// the structure of each (and that its exports stream the bytes they made
// in memory): a title, a heading per section, tables where the
// results have them, inline SVG where a plot is asked for, nothing fetched
// by the HTML, and a PDF that an independent reader opens, its fonts
// embedded and its title in the text (the pages each handout takes are
// TestHandoutLayout's).
func TestExamples(t *testing.T) {
	for _, file := range exampleFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			rep := runFile(t, file)
			checkStreamedExports(t, rep)
			d, _, _, err := build(rep, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tables, figures := 0, 0
			for _, s := range d.Sections {
				for _, b := range s.Blocks {
					switch b.(type) {
					case table:
						tables++
					case figure:
						figures++
					}
				}
			}
			var md, html, pdfb bytes.Buffer
			if err := Markdown(&md, rep, Options{}); err != nil {
				t.Fatal(err)
			}
			if err := HTML(&html, rep, Options{}); err != nil {
				t.Fatal(err)
			}
			if err := PDF(&pdfb, rep, Options{}); err != nil {
				t.Fatal(err)
			}

			m := md.String()
			if !strings.HasPrefix(m, "# ") {
				t.Error("Markdown: no title")
			}
			// Sections across a parameter (r: "1..9") print as one.
			sections := sectionCount(rep)
			if n := strings.Count(m, "\n## "); n != sections {
				t.Errorf("Markdown: %d section headings, want %d", n, sections)
			}
			if tables > 0 && !strings.Contains(m, "\n| ") {
				t.Error("Markdown: no table")
			}

			h := html.String()
			if n := len(reSection.FindAllString(h, -1)); n != sections {
				t.Errorf("HTML: %d sections, want %d", n, sections)
			}
			if strings.Count(h, "<h1>") != 1 || strings.Count(h, "<h2>") != sections {
				t.Errorf("HTML: %d h1, %d h2", strings.Count(h, "<h1>"), strings.Count(h, "<h2>"))
			}
			if got := strings.Count(h, "<table>"); got < tables {
				t.Errorf("HTML: %d tables, want %d", got, tables)
			}
			if got := strings.Count(h, "<svg "); got != figures {
				t.Errorf("HTML: %d inline SVG figures, want %d", got, figures)
			}
			for _, m := range reOEIS.FindAllStringSubmatch(h, -1) {
				if m[1] != m[2] {
					t.Errorf("HTML: %s links to %s", m[2], m[1])
				}
			}
			if loc := reFetch.FindString(reOEIS.ReplaceAllString(h, "")); loc != "" {
				t.Errorf("HTML fetches something: %q", loc)
			}
			for _, s := range rep.Sections {
				if s.Source == "" {
					t.Errorf("section %q cites no source", s.Title)
				}
			}

			info := readPDF(t, pdfb.Bytes())
			if info.Pages < 1 {
				t.Errorf("PDF: %d pages", info.Pages)
			}
			if info.Embedded != len(info.Fonts) || len(info.Fonts) == 0 {
				t.Errorf("PDF: fonts %v, %d embedded", info.Fonts, info.Embedded)
			}
			if !strings.Contains(squash(strings.Join(info.Text, "")), squash(scriptless(rep.Title))) {
				t.Errorf("PDF: title %q not in the text", rep.Title)
			}
		})
	}
}

// numbers is what a document says in numbers: the numeric cells of its
// tables and the data of its figures, in order.
func numbers(t *testing.T, r *job.Report) (cells []string, figs []string) {
	t.Helper()
	d, _, _, err := build(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			switch b := b.(type) {
			case table:
				for _, row := range append([][]cell{b.Header}, b.Rows...) {
					for _, c := range row {
						if c.Text != "" && numeric(c.Text) {
							cells = append(cells, c.Text)
						}
					}
				}
			case figure:
				j, _ := json.Marshal([]any{b.Kind, b.Values, b.First, b.Table, b.RowLo, b.ColLo, b.Mark})
				figs = append(figs, string(j))
			}
		}
	}
	return cells, figs
}

// English and French handouts differ in their words only: the same
// results, the same numbers in the tables, the same figures.
func TestHandoutsSameNumbersInBothLanguages(t *testing.T) {
	en, err := filepath.Glob("../examples/handouts/*.en.yaml")
	if err != nil || len(en) < 6 {
		t.Fatalf("%d English handouts (%v)", len(en), err)
	}
	for _, fen := range en {
		ffr := strings.TrimSuffix(fen, ".en.yaml") + ".fr.yaml"
		t.Run(filepath.Base(fen), func(t *testing.T) {
			re, rf := runFile(t, fen), runFile(t, ffr)
			if re.Lang != "en" || rf.Lang != "fr" {
				t.Fatalf("languages %q and %q", re.Lang, rf.Lang)
			}
			if len(re.Sections) != len(rf.Sections) {
				t.Fatalf("%d sections in English, %d in French", len(re.Sections), len(rf.Sections))
			}
			for i := range re.Sections {
				a, _ := json.Marshal(re.Sections[i].Results)
				b, _ := json.Marshal(rf.Sections[i].Results)
				if !bytes.Equal(a, b) {
					t.Errorf("section %d: results differ", i+1)
				}
				if !slices.Equal(re.Sections[i].Spec.Show, rf.Sections[i].Spec.Show) {
					t.Errorf("section %d: show %v and %v", i+1, re.Sections[i].Spec.Show, rf.Sections[i].Spec.Show)
				}
			}
			ce, fe := numbers(t, re)
			cf, ff := numbers(t, rf)
			if !reflect.DeepEqual(ce, cf) {
				t.Errorf("table numbers differ:\nen %v\nfr %v", ce, cf)
			}
			if !reflect.DeepEqual(fe, ff) {
				t.Error("figures differ")
			}
			if re.Title == rf.Title {
				t.Errorf("the same title %q in both languages", re.Title)
			}
		})
	}
}

// TestGraphFigure: seed 003's picture of Nim (1,2,3), its kernel of four
// positions filled, drawn in HTML and PDF; the DOT text stays in Markdown
// (for Graphviz) and leaves the handout.
func TestGraphFigure(t *testing.T) {
	rep := runFile(t, "../examples/graphs.yaml")
	g := rep.Sections[0].Results.Graph
	if g == nil || !slices.Equal(g.Kernel, []string{"(1,2,3)", "(1,1)", "(2,2)", "()"}) {
		t.Fatalf("kernel of Nim (1,2,3): %+v", g)
	}
	for _, lang := range []string{"en", "fr"} {
		var html, md bytes.Buffer
		if err := HTML(&html, rep, Options{Lang: lang}); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&md, rep, Options{Lang: lang}); err != nil {
			t.Fatal(err)
		}
		caption := map[string]string{"en": "Game graph: each arrow is a move", "fr": "Graphe du jeu\u00a0: chaque flèche est un coup"}[lang]
		h := html.String()
		if got := strings.Count(h, "<figcaption>"+caption); got != 2 {
			t.Errorf("%s: %d graph figures in the HTML, want 2 (one per section)", lang, got)
		}
		if strings.Contains(h, "strict digraph") {
			t.Errorf("%s: the HTML handout carries the DOT text beside the picture", lang)
		}
		if !strings.Contains(md.String(), "```dot\nstrict digraph") {
			t.Errorf("%s: the Markdown lost the DOT text", lang)
		}
	}
	var noFig bytes.Buffer
	if err := HTML(&noFig, rep, Options{NoFigures: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(noFig.String(), "strict digraph") {
		t.Error("without figures, the HTML must keep the DOT text")
	}
}
