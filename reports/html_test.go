package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

func TestHTMLGolden(t *testing.T) {
	fx := fixtures()
	for _, name := range fixtureNames() {
		t.Run(name, func(t *testing.T) {
			var a, b bytes.Buffer
			if err := HTML(&a, fx[name], Options{}); err != nil {
				t.Fatal(err)
			}
			if err := HTML(&b, fixtures()[name], Options{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("two renderings differ")
			}
			golden(t, name+".html", a.Bytes())
		})
	}
}

func TestHTMLStructure(t *testing.T) {
	tests := []struct {
		name string
		r    *job.Report
		opts Options
		want []string
		not  []string
	}{
		{"kayles", kaylesReport(), Options{}, []string{
			"<!DOCTYPE html>", `<html lang="en">`, "<h1>Subtraction and octal games</h1>",
			`<section class="section" id="s1">`, "<h2>Kayles (0.77)</h2>", "<h3>Grundy values</h3>",
			"<table>", `<td style="text-align:right"><strong>0</strong></td>`, "<figure>", `<svg role="img" aria-label="Kayles (0.77) — Grundy values (shaded: the proven period)"`,
			"size: A4;", ".keep, table, figure, pre { break-inside: avoid; }", `<div class="keep">`,
			`<a href="https://oeis.org/A002186">A002186</a>`,
		}, []string{"<?xml", "Figures are drawn in the HTML", "<h3>Figures</h3>", "break-before: page", "<script", `src="http`, "<link", "url(http"}},
		{"scripts", &job.Report{Title: "The f_r(n) below 2^7", Sections: []*job.SectionResult{{Title: "x_{max} of M_24",
			Text: "Prose: f_r(n), 2^{k+1}, `f_r(n)` and f\\_r."}}},
			Options{}, []string{"<title>The fᵣ(n) below 2⁷</title>", "<h1>The f<sub>r</sub>(n) below 2<sup>7</sup></h1>",
				"<h2>x<sub>max</sub> of M<sub>24</sub></h2>", "Prose: f<sub>r</sub>(n), 2<sup>k+1</sup>, <code>f_r(n)</code> and f_r."},
			[]string{"raw HTML omitted"}},
		{"golay fr", golayReport("fr"), Options{}, []string{
			`<html lang="fr">`, "<h3>Distribution des poids</h3>", `<td style="text-align:right">2576</td>`, "position N (gagnante pour le joueur qui doit jouer)",
			"<code>●●●○○○○○○○○○○○○○○○○○○○○○</code>",
		}, nil},
		{"rare", rareReport(), Options{}, []string{
			"<h3>Rare and common values</h3>",
			`<svg role="img" aria-label="Octal game 0.051 — Rare positions (the sparse set, black) and the others (grey)"`,
			`<svg role="img" aria-label="Octal game 0.16 — Rare values (black) and common values (grey)"`,
			// A figure names its game and cites its source.
			`<figcaption>Octal game 0.16 — Rare values (black) and common values (grey)<br><span class="source">Source: Winning Ways, ch. 4</span></figcaption>`,
		}, nil},
		{"png", wythoffReport(), Options{PNG: true}, []string{`<img alt="Wythoff&#39;s game — Table, P-positions marked ×" src="data:image/png;base64,`}, []string{"<svg"}},
		{"no figures", wythoffReport(), Options{NoFigures: true}, nil, []string{"<figure>", "<svg"}},
		{"date on request", nimReport(), Options{Date: "2025-01-31"}, []string{`<p class="date">Date: 2025-01-31</p>`}, nil},
		{"no date by default", nimReport(), Options{}, nil, []string{`class="date"`}},
		{"unsafe prose", &job.Report{Title: "<b>t</b>", Sections: []*job.SectionResult{{Title: "s <i>x</i>",
			Text: "Hello <script>alert(1)</script> and <img src=x onerror=alert(1)>\n\n<div>block</div>\n\n[link](javascript:alert(1))"}}},
			Options{}, []string{"<title>&lt;b&gt;t&lt;/b&gt;</title>", "<h2>s &lt;i&gt;x&lt;/i&gt;</h2>",
				"Hello &lt;script&gt;alert(1)&lt;/script&gt;", "&lt;div&gt;block&lt;/div&gt;"},
			[]string{"<script", "<img", "<div>", "javascript:", "<i>"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := HTML(&b, tc.r, tc.opts); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q", w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q", w)
				}
			}
		})
	}
}

func TestHTMLFigureTooLarge(t *testing.T) {
	big := make([][]uint64, 100)
	for i := range big {
		big[i] = make([]uint64, 100)
	}
	sp := &job.Section{Title: "big", Family: "wythoff", Play: "normal", Game: &job.WythoffSpec{Size: [2]int{100, 100}}, Show: []string{"table", "plot"}}
	r := &job.Report{Title: "t", Sections: []*job.SectionResult{{Title: "big", Spec: sp, Results: job.Results{Table: big}}}}
	var b bytes.Buffer
	if err := HTML(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"No figure: a table of 10000 cells, more than the 4096 a figure draws.", "The table has 100 × 100 entries; only the corner 32 × 32 is shown."} {
		// A formula's spaces are no-break spaces in HTML (keepFormulas).
		if !strings.Contains(strings.ReplaceAll(b.String(), "\u00a0", " "), w) {
			t.Errorf("missing %q", w)
		}
	}
	// In French, in French: the reason is a template too.
	b.Reset()
	if err := HTML(&b, r, Options{Lang: "fr"}); err != nil {
		t.Fatal(err)
	}
	if w := "Pas de figure\u00a0: un tableau de 10000 cases, au-delà des 4096 qu’une figure trace."; !strings.Contains(b.String(), w) {
		t.Errorf("missing %q", w)
	}
}
