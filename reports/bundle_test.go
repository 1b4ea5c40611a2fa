package reports

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

// section runs a one-section job, as a notebook cell does.
func bundleSection(t *testing.T, yaml string) *job.SectionResult {
	t.Helper()
	j, err := job.Parse("bundle_test.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Sections[0]
}

func TestBundle(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		// substrings of each MIME type's text ("" key: absent type)
		want    map[string][]string
		absent  []string
		present []string // types that must be there, whatever their text
		notIn   []string // substrings text/plain must not hold
		jsonKey string
	}{
		{
			name: "kayles values",
			// Seed 002 (Kayles, octal 0.77): g(0..11) = 0 1 2 3 1 4 3 2 1 4 2 6.
			yaml: "sections:\n- game: {octal: {code: \"0.77\", upto: 11}}\n  show: [values]\n",
			want: map[string][]string{
				"text/markdown": {"**0**", "| 0..9 ", "4", "6", "*Values 0 (P-positions) are in bold.*"},
				// Plain text, no Markdown: no pipes, no bold, and no note
				// on a bold that is not there.
				"text/plain": {"Grundy values\n\n", "0..9     0   1   2   3   1   4   3   2   1   4\n"},
				// An array MathJax draws: an untrusted Notebook 6 shows
				// text/latex before plain text, and MathJax draws no tabular.
				"text/latex": {"\\[\\begin{array}{l|rrrrrrrrrr}", "\\hline", "0..9 & \\mathbf{0} & 1 & 2 & 3 & 1 & 4 & 3 & 2 & 1 & 4 \\\\",
					// Issue 30: the whole result, as nbconvert's LaTeX
					// pastes it: the game, the heading, the words and the
					// note under the table, formulas as formulas.
					"Game: octal game 0.77 (Kayles)", "\\(\\textbf{Grundy values}\\)\n\nGrundy value \\(g(n)\\) of a single heap of \\(n\\)",
					"\\end{array}\\]\n\nValues 0 (P-positions) are in bold."},
			},
			absent:  []string{"image/svg+xml", "text/html"},
			notIn:   []string{"**", "|", "*Values", "bold"},
			jsonKey: "values",
		},
		{
			name: "wythoff table marks P-positions",
			yaml: "sections:\n- game: {wythoff: {size: [4, 4]}}\n  show: [table]\n",
			want: map[string][]string{
				// g(0,0) = 0 and g(1,2) = 0: Wythoff's first P-positions.
				"text/markdown": {"**0**"},
			},
			absent:  []string{"image/svg+xml", "text/html"},
			notIn:   []string{"**"},
			jsonKey: "table",
		},
		{
			name: "period",
			// Seed 002: Kayles has preperiod 71 and period 12.
			yaml: "sections:\n- game: {octal: {code: \"0.77\", upto: 300}}\n  show: [period]\n",
			want: map[string][]string{
				"text/markdown": {"71", "12"},
				"text/plain":    {"71", "12"},
			},
			jsonKey: "period",
		},
		{
			name: "plot",
			yaml: "sections:\n- game: {octal: {code: \"0.77\", upto: 40}}\n  show: [values, plot]\n",
			want: map[string][]string{
				// The figure alone: nbconvert's Markdown exporter writes
				// it to a file and links it.
				"image/svg+xml": {"<svg"},
				"text/plain":    {"Grundy values"},
			},
			absent: []string{"text/markdown", "text/html", "text/latex"},
			// The PNG too: an untrusted notebook shows it, not the SVG.
			present: []string{"image/png"},
			jsonKey: "values",
		},
		{
			name: "graph draws small games",
			yaml: "sections:\n- game: {nim: {heaps: [1, 2]}}\n  show: [graph]\n",
			want: map[string][]string{
				// The figure, and its DOT text in plain text only: a
				// front end shows Markdown rather than a figure.
				"image/svg+xml": {"<svg"},
				"text/plain":    {"digraph"},
			},
			absent:  []string{"text/markdown", "text/html"},
			jsonKey: "graph",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Bundle(bundleSection(t, tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if d == nil {
				t.Fatal("no bundle")
			}
			for mime, subs := range tt.want {
				s, ok := d.Data[mime].(string)
				if !ok {
					t.Errorf("%s missing (have %v)", mime, mimeKeys(d.Data))
					continue
				}
				for _, sub := range subs {
					if !strings.Contains(s, sub) {
						t.Errorf("%s lacks %q:\n%s", mime, sub, clipText(s))
					}
				}
			}
			for _, mime := range tt.present {
				if _, ok := d.Data[mime]; !ok {
					t.Errorf("%s missing (have %v)", mime, mimeKeys(d.Data))
				}
			}
			for _, mime := range tt.absent {
				if _, ok := d.Data[mime]; ok {
					t.Errorf("%s present", mime)
				}
			}
			plain, ok := d.Data["text/plain"].(string)
			if !ok {
				t.Error("no text/plain")
			}
			for _, sub := range tt.notIn {
				if strings.Contains(plain, sub) {
					t.Errorf("text/plain holds %q:\n%s", sub, clipText(plain))
				}
			}
			j, ok := d.Data["application/json"].(map[string]any)
			if !ok || j[tt.jsonKey] == nil {
				t.Errorf("application/json = %v, want key %s", d.Data["application/json"], tt.jsonKey)
			}
			// The bundle must go through the wire as JSON.
			if _, err := json.Marshal(d); err != nil {
				t.Error(err)
			}
		})
	}
}

// A bundle for print (NotebookPDF) keeps its HTML fragment, tables with
// the P-positions in <strong>.
func TestBundlePrint(t *testing.T) {
	d, err := Bundler{Print: true}.Bundle(bundleSection(t, "sections:\n- game: {octal: {code: \"0.77\", upto: 11}}\n  show: [values]\n"))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := d.Data["text/html"].(string)
	for _, sub := range []string{"<table>", "<strong>0</strong>", "nimbook-result"} {
		if !strings.Contains(h, sub) {
			t.Errorf("text/html lacks %q:\n%s", sub, clipText(h))
		}
	}
	if strings.Contains(h, "<h2") || strings.Contains(h, "<html") {
		t.Errorf("text/html is not a fragment:\n%s", clipText(h))
	}
}

func TestBundleOther(t *testing.T) {
	for _, v := range []any{nil, 3, "x", (*job.SectionResult)(nil)} {
		d, err := Bundle(v)
		if d != nil || err != nil {
			t.Errorf("Bundle(%v) = %v, %v; want nil, nil", v, d, err)
		}
	}
}

func TestBundleFrench(t *testing.T) {
	sr := bundleSection(t, "sections:\n- game: {octal: {code: \"0.77\", upto: 11}}\n  show: [values]\n")
	en, err := Bundle(sr)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := Bundler{Options: Options{Lang: "fr"}}.Bundle(sr)
	if err != nil {
		t.Fatal(err)
	}
	if en.Data["text/markdown"] == fr.Data["text/markdown"] {
		t.Error("the French bundle is the English one")
	}
}

func mimeKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func clipText(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

func BenchmarkBundle(b *testing.B) {
	j, _ := job.Parse("b.yaml", []byte("sections:\n- game: {octal: {code: \"0.77\", upto: 100}}\n  show: [values]\n"))
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("values", func(b *testing.B) {
		for b.Loop() {
			if _, err := Bundle(rep.Sections[0]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A notebook opened untrusted (executed elsewhere, or sent by someone)
// has the inline <svg> of its text/html stripped by the front end's
// sanitizer (JUPYTER.md, "Real front ends"), while <img> with a data URI
// survives: figures are images, and the image decodes to the figure that
// image/svg+xml (or image/png with Options.PNG) carries.
func TestBundleFiguresSurviveUntrusted(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		opts Options
		mime string
	}{
		{"plot", "sections:\n- game: {octal: {code: \"0.77\", upto: 40}}\n  show: [values, plot]\n", Options{}, "image/svg+xml"},
		{"graph", "sections:\n- game: {nim: {heaps: [1, 2]}}\n  show: [graph]\n", Options{}, "image/svg+xml"},
		{"png", "sections:\n- game: {octal: {code: \"0.77\", upto: 40}}\n  show: [values, plot]\n", Options{PNG: true}, "image/png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Bundler{Options: tt.opts, Print: true}.Bundle(bundleSection(t, tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			html, _ := d.Data["text/html"].(string)
			if strings.Contains(html, "<svg") {
				t.Errorf("text/html holds an inline <svg>, which an untrusted notebook loses:\n%s", clipText(html))
			}
			img, ok := d.Data[tt.mime].(string)
			if !ok {
				t.Fatalf("no %s (have %v)", tt.mime, mimeKeys(d.Data))
			}
			uri := "data:" + tt.mime + ";base64,"
			_, after, ok := strings.Cut(html, `src="`+uri)
			if !ok {
				t.Fatalf("text/html has no <img src=%q…>:\n%s", uri, clipText(html))
			}
			b64, _, _ := strings.Cut(after, `"`)
			data, err := base64.StdEncoding.DecodeString(b64)
			if err != nil {
				t.Fatal(err)
			}
			if tt.mime == "image/png" {
				data = []byte(base64.StdEncoding.EncodeToString(data))
			}
			if string(data) != img {
				t.Errorf("the <img> is not the %s of the bundle", tt.mime)
			}
		})
	}
}

// A result's .latex(): its tables alone, for a paper; a result without a
// table, its text; a plot, an error.
func TestBundlerLaTeX(t *testing.T) {
	tests := []struct {
		name, yaml string
		want, not  []string
		err        string
	}{
		{"values", "sections:\n- game: {octal: {code: \"0.77\", upto: 11}}\n  show: [values]\n",
			[]string{"\\begin{tabular}", "\\bottomrule\n\\end{tabular}"}, []string{"Game", "\\begin{center}", "longtable"}, ""},
		{"period", "sections:\n- game: {octal: {code: \"0.77\", upto: 300}}\n  show: [period]\n",
			[]string{"period 12 from \\(n = 71\\)"}, []string{"tabular"}, ""},
		{"plot", "sections:\n- game: {octal: {code: \"0.77\", upto: 40}}\n  show: [values, plot]\n",
			nil, nil, "a plot is a figure"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Bundler{}.LaTeX(bundleSection(t, tc.yaml))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q missing from\n%s", w, got)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("%q in\n%s", w, got)
				}
			}
			if err := texBalanced(got); err != nil {
				t.Error(err)
			}
		})
	}
}
