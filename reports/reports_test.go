package reports

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it); got:\n%s", name, got)
	}
}

// The fixtures must hold the seeds' numbers before they pin any output.
func TestFixtures(t *testing.T) {
	// seed 001 (R. Degraeve): 384 positions below (1,3,5,7), 48 P-positions.
	list, of := nimPPositions([]int{1, 3, 5, 7})
	if len(list) != 48 || of != 384 {
		t.Errorf("nim (1,3,5,7): %d of %d, want 48 of 384", len(list), of)
	}
	// seed 000 (Madore 2017), slide "f_r(n)" table, r = 7, n = 1..10.
	if got := atMost(7, 10); !reflect.DeepEqual(got, []uint64{1, 2, 4, 8, 16, 32, 64, 127, 128, 256}) {
		t.Errorf("f_7(1..10) = %v", got)
	}
	// seed 000, same table, r = 4.
	if got := atMost(4, 10); !reflect.DeepEqual(got, []uint64{1, 2, 4, 8, 15, 16, 32, 51, 64, 85}) {
		t.Errorf("f_4(1..10) = %v", got)
	}
	// MATH.md: Kayles is periodic with period 12 from 71.
	k := kayles(100)
	for n := 71; n+12 <= 100; n++ {
		if k[n] != k[n+12] {
			t.Fatalf("kayles: g(%d) ≠ g(%d)", n, n+12)
		}
	}
	if k[70] == k[82] {
		t.Errorf("kayles: 70 should be the last exception")
	}
	// seed 000, nim-product table 0..7: row 2 and row 4.
	p := nimProductTable(16)
	if !reflect.DeepEqual(p[2][:8], []uint64{0, 2, 3, 1, 8, 10, 11, 9}) || !reflect.DeepEqual(p[4][:8], []uint64{0, 4, 8, 12, 6, 2, 14, 10}) {
		t.Errorf("nim-product rows 2, 4: %v %v", p[2][:8], p[4][:8])
	}
	// MATH.md: Wythoff P-positions with heaps ≤ 5: (0,0), (1,2), (2,1), (3,5), (5,3).
	w := wythoffTable(6, 6)
	var ps []string
	for a := range w {
		for b := range w[a] {
			if w[a][b] == 0 {
				ps = append(ps, templates.Tuple([]int{a, b}))
			}
		}
	}
	if got := strings.Join(ps, " "); got != "(0,0) (1,2) (2,1) (3,5) (5,3)" {
		t.Errorf("wythoff P-positions: %s", got)
	}
	// A. Flammenkamp's table of 0.051: G(0..47), and the sparse positions
	// of the domain type with t = 2, mask 0.
	v051 := octalValues([]int{0, 5, 1}, 200)
	if !reflect.DeepEqual(v051[:48], []uint64{0, 0, 1, 1, 1, 0, 2, 2, 1, 3, 4, 0, 1, 1, 1, 3, 2, 2, 2, 3, 4, 0, 1, 5, 4, 3, 2, 2, 2, 3, 1, 0, 1, 0, 4, 3, 2, 2, 2, 0, 1, 0, 1, 0, 4, 3, 2, 5}) {
		t.Errorf("0.051: %v", v051[:48])
	}
	if got := rareBy(v051, 0, true, 2); !reflect.DeepEqual(got, []int{0, 3, 7, 13, 17, 27, 37}) {
		t.Errorf("0.051 sparse positions %v", got)
	}
	// Kayles from the generic octal helper agrees with kayles().
	if !reflect.DeepEqual(octalValues([]int{7, 7}, 100), kayles(100)) {
		t.Error("octalValues(0.77) ≠ kayles")
	}
	// seeds 001 and 003: the kernel of (1,2,3) drawn unordered.
	if g := nimGraph([]int{1, 2, 3}); strings.Join(g.Kernel, " ") != "() (1,1) (1,2,3) (2,2)" {
		t.Errorf("kernel of (1,2,3): %v", g.Kernel)
	}
}

func fixtures() map[string]*job.Report {
	return map[string]*job.Report{
		"nim":       nimReport(),
		"kayles":    kaylesReport(),
		"golay":     golayReport("en"),
		"golay-fr":  golayReport("fr"),
		"wythoff":   wythoffReport(),
		"nimbers":   nimbersReport("en"),
		"rare":      rareReport(),
		"misere":    misereReport("en"),
		"misere-fr": misereReport("fr"),
	}
}

func fixtureNames() []string {
	return []string{"golay", "golay-fr", "kayles", "misere", "misere-fr", "nim", "nimbers", "rare", "wythoff"}
}

func TestMarkdownGolden(t *testing.T) {
	fx := fixtures()
	for _, name := range fixtureNames() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, fx[name], Options{}); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".md", b.Bytes())
		})
	}
}

func TestMarkdownContent(t *testing.T) {
	tests := []struct {
		name   string
		report *job.Report
		opts   Options
		want   []string
		not    []string
	}{
		{"nim counts", nimReport(), Options{}, []string{
			"# Nim and Bouton's strategy\n",
			"## The standard start (1, 3, 5, 7)\n",
			"48 P-positions among 384 positions (12.5%).",
			"(1,3,5,7) is a P-position (a win for the player who has just moved).",
			"From (1,3,5,7) there is no winning move",
			"the winning move goes to:\n\n- → (1,**1**,5,5)\n",
			"✗ mistake; winning moves missed: (1,1,5,5)",
			"Kernel (the P-positions): (), (1,1), (1,2,3), (2,2).",
			"```dot\ndigraph nim {",
		}, []string{"\x00"}},
		{"kayles period", kaylesReport(), Options{}, []string{
			"Periodic with period 12 from n = 71 (last exception 70); proved by the Guy–Smith theorem (g(n + p) = g(n) for n₀′ ≤ n < 2n₀′ + p + t, with n₀′ = max(n₀, 1)) using values up to 167.",
			"| 70..79 |",
			"| n      |    +0 |",
			"Game: octal game 0.77 (Kayles); normal play",
			"Figures are drawn in the HTML and PDF forms.",
		}, nil},
		{"kayles rows of 20", kaylesReport(), Options{Wrap: 20}, []string{"| 80..99 |", "+19 |"}, []string{"70..79"}},
		{"kayles truncated", kaylesReport(), Options{MaxValues: 30}, []string{"Only n = 0 to 29 are shown here, of 101 values"}, []string{"30..39"}},
		{"golay", golayReport("en"), Options{}, []string{
			"| n      |   +0 |",
			"| heads       |   0 |   8 |   12 |  16 |  24 |",
			"| P-positions |   1 | 759 | 2576 | 759 |   1 |",
			"binary linear code [24, 12, 8]",
			"Method: examination of every position.",
			"Steiner system S(5,8,24)",
			"The 759 words of minimum weight 8",
			"order 244\u202f823\u202f040: the Mathieu group M₂₄.",
			"`●●●○○○○○○○○○○○○○○○○○○○○○` (heads on coins 1, 2, 3) is an N-position",
			"- → `○○○○○○○○○○○○○○○○○○○○○○○○` (no heads)",
			"4096 P-positions among 16\u202f777\u202f216 positions (0.02%).",
			"Coins numbered from 1.",
		}, nil},
		{"golay plain digits", golayReport("en"), Options{PlainDigits: true}, []string{"order 244823040"}, []string{"\u202f"}},
		{"golay fr", golayReport("fr"), Options{}, []string{
			"position N (gagnante pour le joueur qui doit jouer)",
			"système de Steiner S(5,8,24)",
			"le groupe de Mathieu M₂₄",
			"Pièces numérotées à partir de 1.",
			"(0,02\u202f%)",
		}, []string{"P-position"}},
		{"lang option wins", golayReport("en"), Options{Lang: "fr"}, []string{"Distribution des poids"}, nil},
		{"wythoff", wythoffReport(), Options{}, []string{
			"| a \\ b |",
			"| 0     | **0** |",
			"(0,0), (1,2), (2,1), (3,5), (4,7), (5,3), (7,4)",
			"observed, not proven",
			"the winning move goes to:",
		}, nil},
		{"wythoff small side", wythoffReport(), Options{MaxSide: 4}, []string{"The table has 10 × 10 entries; only the corner 4 × 4 is shown."}, nil},
		// A. Flammenkamp's table of 0.051: the sparse positions of the domain type.
		{"rare", rareReport(), Options{}, []string{
			"### Rare and common values\n",
			"Counting every bit (mask 0), position n is rare (in the sparse set) when the number of 1s in g(n) has the parity of n − 2",
			"7 of the 101 positions from 0 to 100 are rare; the last is n = 37.",
			"The rare positions:\n\n0, 3, 7, 13, 17, 27, 37.\n",
			"Ignoring the bits of the mask 1 (binary), a value is rare when it has an even number of 1s outside the mask",
		}, nil},
		{"rare list cut", rareReport(), Options{MaxList: 5}, []string{
			"The first 5 rare positions (of 7):\n\n0, 3, 7, 13, 17.\n\n*… and 2 more.*",
		}, nil},
		{"rare fr", rareReport(), Options{Lang: "fr"}, []string{
			"### Valeurs rares et valeurs communes\n",
			"7 positions sur 101 (n = 0 à 100) sont rares\u202f; la dernière est n = 37.",
			"c’est le type domaine («\u202fdomain\u202f»), d₂ étant le seul chiffre du code qui coupe un tas.",
		}, nil},
		{"nimbers", nimbersReport("en"), Options{}, []string{"| ⊗   |", "Nim-product table a ⊗ b for 0 ≤ a, b < 16."}, []string{"**0**"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, tc.report, tc.opts); err != nil {
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
			if t.Failed() {
				t.Logf("output:\n%s", got)
			}
		})
	}
}

// French and English differ only in the words, never in the numbers.
func TestLanguagesSameNumbers(t *testing.T) {
	digits := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			if r >= '0' && r <= '9' {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	for _, name := range fixtureNames() {
		r := fixtures()[name]
		var en, fr bytes.Buffer
		if err := Markdown(&en, r, Options{Lang: "en"}); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&fr, r, Options{Lang: "fr"}); err != nil {
			t.Fatal(err)
		}
		// Percentages differ in their decimal mark only; digits agree.
		if digits(en.String()) != digits(fr.String()) {
			t.Errorf("%s: the numbers differ between en and fr", name)
		}
	}
}

func TestMarkdownEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		r    *job.Report
		want string
	}{
		{"untitled", &job.Report{Sections: []*job.SectionResult{{}}}, "# nimbook report\n\n## Section 1\n\n"},
		{"no spec, values", &job.Report{Title: "x", Sections: []*job.SectionResult{{Title: "s", Results: job.Results{Values: []uint64{0, 1, 2}, Game: "a game"}}}},
			"## s\n\na game\n\n### Grundy values\n\nGrundy value g(n) of a single heap of n, for n = 0 to 2.\n\n| n    |     0 |   1 |   2 |\n| :--- | ----: | --: | --: |\n| g(n) | **0** |   1 |   2 |\n\n*Values 0 (P-positions) are in bold.*\n\n"},
		{"markdown in title escaped", &job.Report{Title: "a *b* <c>", Sections: nil}, "# a \\*b\\* \\<c>\n\n"},
		{"not proven", &job.Report{Title: "t", Sections: []*job.SectionResult{{Title: "s", Results: job.Results{Period: &job.Period{CheckedTo: 200}}}}},
			"## s\n\n### Period\n\nNo period proven up to n = 200.\n\n"},
		{"steiner design", &job.Report{Title: "t", Sections: []*job.SectionResult{{Title: "s", Results: job.Results{Steiner: &job.Steiner{Holds: true, T: 3, K: 4, V: 8, Lambda: 1}}}}},
			"## s\n\n### Steiner system\n\nThe words of minimum weight 4 form a Steiner system S(3,4,8): any 3 of the 8 coins lie in exactly one of them.\n\n"},
		{"steiner lambda", &job.Report{Title: "t", Sections: []*job.SectionResult{{Title: "s", Results: job.Results{Steiner: &job.Steiner{Holds: true, T: 2, K: 3, V: 7, Lambda: 2}}}}},
			"## s\n\n### Steiner system\n\nThe words of minimum weight 3 form a 2-(7,3,2) design: any 2 of the 7 coins lie in exactly 2 of them.\n\n"},
		{"no steiner", &job.Report{Title: "t", Sections: []*job.SectionResult{{Title: "s", Results: job.Results{Steiner: &job.Steiner{}}}}},
			"## s\n\n### Steiner system\n\nThe words of minimum weight form no t-design (for any t ≥ 1).\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, tc.r, Options{}); err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(b.String(), tc.want) {
				t.Errorf("got\n%q\nwant suffix\n%q", b.String(), tc.want)
			}
		})
	}
	if err := Markdown(&bytes.Buffer{}, nil, Options{}); err == nil {
		t.Error("nil report: no error")
	}
	if err := Markdown(&bytes.Buffer{}, nimReport(), Options{Lang: "de"}); err == nil || !strings.HasPrefix(err.Error(), "reports: ") {
		t.Errorf("unknown language: %v", err)
	}
}

// Past job.MaxListed the result lists no positions; the report finds the
// first ones again from the values, and says nothing when it has neither.
func TestRareUnlisted(t *testing.T) {
	r := rareReport()
	rr := r.Sections[1].Results.Rare
	rr.Positions = nil
	var b bytes.Buffer
	if err := Markdown(&b, r, Options{MaxList: 4}); err != nil {
		t.Fatal(err)
	}
	if want := "The first 4 rare positions (of 23):\n\n0, 1, 2, 3.\n"; !strings.Contains(b.String(), want) {
		t.Errorf("missing %q in\n%s", want, b.String())
	}
	rr.Values = nil
	b.Reset()
	if err := Markdown(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "They are too many to list here (the list is given up to 1000)."; !strings.Contains(b.String(), want) {
		t.Errorf("missing %q in\n%s", want, b.String())
	}
}
