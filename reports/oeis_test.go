package reports

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/templates"
)

func runJob(t *testing.T, yaml string) *job.Report {
	t.Helper()
	j, err := job.Parse("oeis_test.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Every entry of the table is checked against the engine computing the
// game the entry describes (or the entry's definition), over more terms
// than are stored, so that the periodic extensions are checked too.
func TestOEISTableAgainstEngine(t *testing.T) {
	tests := []struct {
		id, game string
		shift    int // the engine's g(n) is a(n + shift)
	}{
		{"A000012", "{coins: {rule: at-most, r: 1, n: 60}}", 0},
		{"A000027", "{coins: {rule: at-most, r: 2, n: 60}}", 0},
		{"A001477", "{nim: {heaps: [1], upto: 60}}", 0},
		// seed 000 (Madore 2017): f_3 = 1 2 4 7 8 11 13 14 16 19, Mock Turtles.
		{"A000069", "{coins: {rule: at-most, r: 3, n: 60}}", 0},
		{"A006519", "{coins: {rule: ruler, n: 64}}", 0},
		{"A010872", "{subtraction: {set: [1, 2], upto: 60}}", 0},
		// seed 002 (Badin de Montjoye): take 1, 2 or 3, g(n) = n mod 4.
		{"A010873", "{subtraction: {set: [1, 2, 3], upto: 60}}", 0},
		{"A002186", `{octal: {code: "0.77", upto: 300}}`, 0},
		{"A002187", `{octal: {code: "0.137", upto: 300}}`, 0},
		// OEIS A002187: "Octal game .07 (Dawson's Kayles) has values a(n-1)".
		{"A002187", `{octal: {code: "0.07", upto: 300}}`, -1},
	}
	for _, tc := range tests {
		t.Run(tc.id+" "+tc.game, func(t *testing.T) {
			rep := runJob(t, "sections:\n  - game: "+tc.game+"\n    show: [values]\n")
			sr := rep.Sections[0]
			vals, first := sr.Results.Values, firstOf(sr, 0)
			var e *OEISEntry
			for k := range OEIS {
				if OEIS[k].ID == tc.id {
					e = &OEIS[k]
				}
			}
			if e == nil {
				t.Fatalf("%s not in the table", tc.id)
			}
			checked := 0
			for i, v := range vals {
				n := first + i
				if n+tc.shift < e.Offset {
					continue
				}
				a, ok := e.Term(n + tc.shift)
				if !ok {
					t.Fatalf("a(%d) unknown", n+tc.shift)
				}
				if a != v {
					t.Fatalf("engine g(%d) = %d, %s a(%d) = %d", n, v, tc.id, n+tc.shift, a)
				}
				checked++
			}
			if checked < 50 {
				t.Errorf("only %d terms checked", checked)
			}
			found := false
			for _, r := range lookupOEIS(vals, first) {
				found = found || (r.Match && r.Entry.ID == tc.id && r.Shift == tc.shift)
			}
			if !found {
				t.Errorf("lookupOEIS does not find %s: %+v", tc.id, lookupOEIS(vals, first))
			}
		})
	}
}

func TestOEISInReport(t *testing.T) {
	tests := []struct {
		name, yaml, lang string
		want             []string
	}{
		{"kayles", "sections:\n  - game: {octal: {code: \"0.77\", upto: 100}}\n    show: [values]\n", "en",
			[]string{"Matches OEIS A002186 (Sprague-Grundy values of Kayles) for n = 0 to 100."}},
		{"dawson's kayles", "sections:\n  - game: {octal: {code: \"0.07\", upto: 100}}\n    show: [values]\n", "en",
			[]string{"Matches OEIS A002187", "shifted by one, g(n) = a(n − 1), for n = 1 to 100."}},
		// Coins numbered from 1, as in seed 000: f_3(1) = 1 = A000069(1).
		{"odious fr", "lang: fr\nsections:\n  - game: {coins: {rule: at-most, r: 3, n: 20}}\n    show: [values]\n", "fr",
			[]string{"Coïncide avec la suite A000069 de l’OEIS (nombres odieux) pour n = 1 à 20."}},
		// Numbered from 0, "at most 3" is not the odious numbers at the same n.
		{"no match", "sections:\n  - game: {coins: {rule: at-most, r: 5, n: 12}}\n    show: [values]\n", "en", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, runJob(t, tc.yaml), Options{Lang: tc.lang}); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			if tc.want == nil && strings.Contains(got, "OEIS") {
				t.Errorf("unexpected OEIS line in\n%s", got)
			}
		})
	}
}

// A sequence that follows Kayles for a while and then parts from it is
// reported with the place where it differs.
func TestOEISDiffers(t *testing.T) {
	vals := make([]uint64, 30)
	for n := range vals {
		vals[n], _ = OEIS[7].Term(n)
	}
	if OEIS[7].ID != "A002186" {
		t.Fatal("table order changed")
	}
	vals[20]++ // g(20) = 1 in Kayles
	rs := lookupOEIS(vals, 0)
	if len(rs) != 1 || rs[0].Match || rs[0].Entry.ID != "A002186" || rs[0].At != 20 || rs[0].Want != 1 || rs[0].Got != 2 {
		t.Fatalf("got %+v", rs)
	}
	b := &builder{o: Options{Lang: "en"}}
	var err error
	if b.t, err = templatesFor("en"); err != nil {
		t.Fatal(err)
	}
	got := spanText(b.oeis(vals, 0)[0].(para).Spans)
	want := "Differs from OEIS A002186 (Sprague-Grundy values of Kayles) at n = 20: a(20) = 1, here 2 (equal for n = 0 to 19 before that)."
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func templatesFor(lang string) (*templates.Set, error) { return templates.New(lang) }

// A coin game given by a bound on its values (below:) states the row the
// values took, not the unset number of coins, in both languages.
func TestCoinsBelowGameLine(t *testing.T) {
	rep := runJob(t, "sections:\n  - game: {coins: {rule: at-most, r: 4, below: 2^10}}\n    show: [values]\n")
	n := len(rep.Sections[0].Results.Values)
	for lang, want := range map[string]string{
		"en": fmt.Sprintf("turn over at most 4 coins, every single head of value below 2¹⁰: %d coins, numbered 1 to %d;", n, n),
		"fr": fmt.Sprintf("retourner au plus 4 pièces, toutes les pièces noires seules de valeur inférieure à 2¹⁰\u00a0: %d pièces numérotées de 1 à %d\u202f;", n, n),
	} {
		var b bytes.Buffer
		if err := Markdown(&b, rep, Options{Lang: lang}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.ToLower(b.String()), strings.ToLower(want)) {
			t.Errorf("%s: no %q in\n%s", lang, want, b.String())
		}
	}
}

// One entry per sequence: g(n) = n for n = 1..10 (at most 2 coins, numbered
// from 1) is A000027, the positive integers, whose offset is 1, not also
// A001477; from n = 0 (Nim) it is A001477. The HTML links the entry.
func TestOEISOneEntry(t *testing.T) {
	tests := []struct{ game, id, not string }{
		{"{coins: {rule: at-most, r: 2, n: 10}}", "A000027", "A001477"},
		{"{nim: {heaps: [1], upto: 10}}", "A001477", "A000027"},
		{"{coins: {rule: at-most, r: 1, n: 10}}", "A000012", ""},
		{`{octal: {code: "0.07", upto: 60}}`, "A002187", ""},
	}
	for _, tc := range tests {
		t.Run(tc.game, func(t *testing.T) {
			rep := runJob(t, "sections:\n  - game: "+tc.game+"\n    show: [values]\n")
			sr := rep.Sections[0]
			rs := lookupOEIS(sr.Results.Values, firstOf(sr, 0))
			if len(rs) != 1 || rs[0].Entry.ID != tc.id || !rs[0].Match {
				t.Fatalf("got %+v, want %s alone", rs, tc.id)
			}
			var b bytes.Buffer
			if err := HTML(&b, rep, Options{}); err != nil {
				t.Fatal(err)
			}
			if want := `<a href="https://oeis.org/` + tc.id + `">` + tc.id + `</a>`; strings.Count(b.String(), "oeis.org/") != 1 || !strings.Contains(b.String(), want) {
				t.Errorf("the HTML does not link %s once", tc.id)
			}
			if tc.not != "" && strings.Contains(b.String(), tc.not) {
				t.Errorf("the HTML cites %s too", tc.not)
			}
		})
	}
}
