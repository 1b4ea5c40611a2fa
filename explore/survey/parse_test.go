package survey

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

func mustParse(t *testing.T, src string) *Survey {
	t.Helper()
	s, err := Parse("s.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

func codes(s *Survey) []string {
	var out []string
	for _, v := range s.Variants {
		out = append(out, v.Section.Heap().Params.String("code"))
	}
	return out
}

// TestCounts checks the number of variants each generator makes against
// its count by hand: codes 0.d1…dj with dj ≠ 0 number (b−1)·b^(j−1) for j
// digits in base b; the subsets of {1..K} of size k number C(K, k).
func TestCounts(t *testing.T) {
	tests := []struct {
		name, src string
		want      int
	}{
		{"octal two digits", "survey: {octal: {digits: 2, upto: 20}}\nshow: [period]", 7 + 7*8},
		{"octal three digits", "survey: {octal: {digits: 3, upto: 20}}\nshow: [period]", 7 + 7*8 + 7*64},
		{"octal exactly two digits", "survey: {octal: {digits: \"2..2\", upto: 20}}\nshow: [period]", 7 * 8},
		{"hex one digit", "survey: {hex: {digits: 1, upto: 20}}\nshow: [values]", 15},
		{"hex two digits", "survey: {hex: {digits: 2, upto: 20}}\nshow: [values]", 15 + 15*16},
		{"octal codes", "survey: {octal: {codes: [\"0.77\", \"0.07\", \"4.07\"], upto: 20}}\nshow: [values]", 3},
		{"octal codes × upto", "survey: {octal: {codes: [\"0.77\", \"0.07\"], upto: [10, 20, 30]}}\nshow: [values]", 6},
		{"subsets of 1..8", "survey: {subtraction: {within: 8, upto: 50}}\nshow: [period]", 1<<8 - 1},
		{"subsets of 1..8 of size 2..3", "survey: {subtraction: {within: 8, size: \"2..3\", upto: 50}}\nshow: [period]", 28 + 56},
		{"subsets of 1..5 of size 5", "survey: {subtraction: {within: 5, size: 5}}\nshow: [period]", 1},
		{"subtraction sets", "survey: {subtraction: {sets: [[1, 2], [1, 3, 4]], upto: 50}}\nshow: [period]", 2},
		{"subtraction set list of lists", "survey: {subtraction: {set: [[1, 2], [2, 3]], upto: [10, 20]}}\nshow: [period]", 4},
		{"subtraction single set", "survey: {subtraction: {set: [1, 2, 3], upto: \"10..12\"}}\nshow: [period]", 3},
		{"coins rule × r × n", "survey: {coins: {rule: [at-most, exactly], r: \"1..9\", n: \"8..24\"}}\nshow: [weights]", 2 * 9 * 17},
		{"nim max-take", "survey: {nim: {max-take: \"1..20\", upto: 100}}\nshow: [period]", 20},
		{"nim heaps", "survey: {nim: {heaps: [[1, 3, 5, 7], [2, 2]]}}\nshow: [outcome]", 2},
		{"wythoff sizes", "survey: {wythoff: {size: [[5, 5], [10, 10]]}}\nshow: [p-positions]", 2},
		{"nimbers", "survey: {nimbers: {op: [sum, product], size: \"2..5\"}}\nshow: [table]", 8},
		{"play as a list", "survey: {subtraction: {set: [1, 2], play: [normal, misere], position: [[3], [4, 5]]}}\nshow: [outcome]", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.src)
			if len(s.Variants) != tt.want {
				t.Errorf("%d variants, want %d", len(s.Variants), tt.want)
			}
			for i, v := range s.Variants {
				if v.Index != i || v.Section == nil {
					t.Fatalf("variant %d: index %d, section %v", i, v.Index, v.Section)
				}
			}
		})
	}
}

// TestOrder checks survey order: codes by number of digits, then
// increasing; sets by size, then lexicographic; the first parameter
// varies slowest.
func TestOrder(t *testing.T) {
	s := mustParse(t, "survey: {octal: {digits: 2, upto: 20}}\nshow: [period]")
	got := codes(s)
	if got[0] != "0.1" || got[6] != "0.7" || got[7] != "0.01" || got[8] != "0.02" || got[14] != "0.11" || got[62] != "0.77" {
		t.Errorf("codes %v", got)
	}
	for _, c := range got {
		if strings.HasSuffix(c, "0") {
			t.Errorf("code %s ends in 0", c)
		}
	}
	s = mustParse(t, "survey: {hex: {digits: 2, upto: 20}}\nshow: [values]")
	if got := codes(s); got[14] != "0.f" || got[15] != "0.01" || got[len(got)-1] != "0.ff" {
		t.Errorf("hex codes %v ... %v", got[:16], got[len(got)-1])
	}
	s = mustParse(t, "survey: {subtraction: {within: 4, upto: 20}}\nshow: [period]")
	var sets []string
	for _, v := range s.Variants {
		sets = append(sets, fmt.Sprint(v.Section.Heap().Params.Ints("set")))
	}
	want := "[[1] [2] [3] [4] [1 2] [1 3] [1 4] [2 3] [2 4] [3 4] [1 2 3] [1 2 4] [1 3 4] [2 3 4] [1 2 3 4]]"
	if fmt.Sprint(sets) != want {
		t.Errorf("sets %v, want %s", sets, want)
	}
	s = mustParse(t, "survey: {coins: {rule: [at-most, exactly], r: \"1..2\", n: [8, 9]}}\nshow: [weights]")
	var got2 []string
	for _, v := range s.Variants {
		c := v.Section.Coins()
		got2 = append(got2, fmt.Sprintf("%s/%d/%d", c.Rule, c.R, c.N))
	}
	want2 := "[at-most/1/8 at-most/1/9 at-most/2/8 at-most/2/9 exactly/1/8 exactly/1/9 exactly/2/8 exactly/2/9]"
	if fmt.Sprint(got2) != want2 {
		t.Errorf("coins %v, want %s", got2, want2)
	}
	if fmt.Sprint(s.Params) != "[rule r n]" || fmt.Sprint(s.Varying) != "[rule r n]" {
		t.Errorf("params %v varying %v", s.Params, s.Varying)
	}
}

// TestErrors checks that a mistake is reported, before any work, with the
// file, the line, the key and what to write instead, as in job files.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      []string // substrings of the message
	}{
		{"empty", "", 0, []string{"s.yaml: the file is empty"}},
		{"no survey", "title: x\nshow: [values]\n", 1, []string{"survey: missing"}},
		{"no show", "survey: {octal: {digits: 2}}\n", 1, []string{"show: missing"}},
		{"sections", "title: x\nsections: []\n", 2, []string{"in place of `sections:`"}},
		{"unknown top key", "survey: {octal: {digits: 2}}\nshow: [values]\nshwo: 1\n", 3, []string{"shwo: unknown key"}},
		{"unknown family", "title: t\nsurvey:\n  octl: {digits: 2}\nshow: [values]\n", 3, []string{"survey.octl", "known families"}},
		{"two families", "survey:\n  octal: {digits: 2}\n  hex: {digits: 1}\nshow: [values]\n", 1, []string{"exactly one family"}},
		{"bad range", "survey:\n  coins: {r: \"9..1\", n: 8}\nshow: [weights]\n", 2, []string{"survey.coins.r", "empty", "\"1..9\""}},
		{"range value out of bounds", "survey:\n  coins:\n    r: \"0..3\"\n    n: 8\nshow: [weights]\n", 3, []string{"survey.coins.r", "0 is out of range", "from 1 to 64"}},
		{"bad list element", "survey:\n  coins:\n    rule: at-most\n    r: 2\n    n:\n      - 8\n      - nine\nshow: [weights]\n", 7, []string{"survey.coins.n", "want a whole number", "\"nine\""}},
		{"bad rule in list", "survey:\n  coins:\n    rule: [at-most, exactley]\n    r: 2\n    n: 8\nshow: [weights]\n", 3, []string{"survey.coins.rule", "unknown rule \"exactley\"", "write at-most, exactly or ruler"}},
		{"bad code in list", "survey:\n  octal:\n    codes:\n      - \"0.07\"\n      - \"0.9\"\nshow: [values]\n", 5, []string{"survey.octal.code", "0.9"}},
		{"digits and code", "survey:\n  octal: {digits: 2, code: \"0.07\"}\nshow: [values]\n", 2, []string{"either code or digits"}},
		{"digits too many", "survey:\n  octal: {digits: 9}\nshow: [values]\n", 2, []string{"survey.octal.digits", "from 1 to 6"}},
		{"size without within", "survey:\n  subtraction: {set: [1, 2], size: \"1..2\"}\nshow: [period]\n", 2, []string{"survey.subtraction.size", "add within: K"}},
		{"size past within", "survey:\n  subtraction:\n    within: 4\n    size: \"1..5\"\nshow: [period]\n", 4, []string{"survey.subtraction.size", "from 1 to 4"}},
		{"show unknown", "survey:\n  octal: {digits: 1}\nshow: [period, weights]\n", 3, []string{"survey.show[1]", "does not apply to octal", "period"}},
		{"unknown family key", "survey:\n  octal:\n    digits: 1\n    uptoo: 5\nshow: [values]\n", 4, []string{"survey.octal.uptoo", "did you mean \"upto\""}},
		{"misère values", "survey:\n  nim:\n    max-take: \"1..3\"\n    play: [normal, misere]\nshow: [values]\n", 5, []string{"normal-play Grundy values"}},
		{"too many variants", "limits: {variants: 10}\nsurvey:\n  coins: {r: \"1..4\", n: \"8..10\"}\nshow: [weights]\n", 3, []string{"4 r × 3 n", "more than 10 variants", "--max-variants"}},
		{"too many codes", "survey:\n  hex: {digits: 6}\nshow: [values]\n", 2, []string{"survey.hex.digits", "codes of up to 6 digits make 16777215 variants", "--max-variants"}},
		{"too many sets", "survey:\n  subtraction:\n    within: 24\nshow: [period]\n", 3, []string{"survey.subtraction.within", "16777215 variants"}},
		{"too long a range", "survey:\n  nim:\n    max-take: \"1..1000000\"\nshow: [period]\n", 3, []string{"survey.nim.max-take", "1000000 variants"}},
		{"bad limits", "limits: {memory: lots}\nsurvey: {octal: {digits: 1}}\nshow: [values]\n", 1, []string{"limits.memory", "512MiB"}},
		{"bad time", "limits: {time: 14}\nsurvey: {octal: {digits: 1}}\nshow: [values]\n", 1, []string{"limits.time", "20m"}},
		{"zero time", "limits: {time: 0s}\nsurvey: {octal: {digits: 1}}\nshow: [values]\n", 1, []string{"limits.time", "positive"}},
		{"position outside n", "survey:\n  coins: {r: 2, n: \"3..5\"}\nshow: [outcome]\nposition: [1, 4]\n", 4, []string{"position", "from 1 to 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("s.yaml", []byte(tt.src), Options{})
			if err == nil {
				t.Fatal("no error")
			}
			var je *job.Error
			if !errors.As(err, &je) {
				t.Fatalf("%v is not a located error", err)
			}
			if je.Line != tt.line {
				t.Errorf("line %d, want %d: %v", je.Line, tt.line, err)
			}
			if !strings.HasPrefix(err.Error(), "s.yaml") {
				t.Errorf("%q does not name the file", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
		})
	}
}

// TestHash checks that the survey's identity depends on its variants and
// analyses, not on how they are written.
func TestHash(t *testing.T) {
	a := mustParse(t, "title: A\nsurvey: {coins: {r: \"1..3\", n: 8}}\nshow: [weights]")
	b := mustParse(t, "title: B\nsurvey: {coins: {r: [1, 2, 3], n: 8}}\nshow: [weights]")
	c := mustParse(t, "survey: {coins: {r: \"1..3\", n: 9}}\nshow: [weights]")
	d := mustParse(t, "survey: {coins: {r: \"1..3\", n: 8}}\nshow: [weights, steiner]")
	if a.Hash != b.Hash {
		t.Error("the same variants written two ways have different identities")
	}
	if a.Hash == c.Hash || a.Hash == d.Hash {
		t.Error("different surveys share an identity")
	}
}

func TestGame(t *testing.T) {
	s := mustParse(t, "survey: {octal: {digits: 2, upto: 2000}}\nshow: [period]")
	g, err := Canonical(s.Variants[7].Game())
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != `{"octal":{"code":"0.01","upto":2000}}` {
		t.Errorf("game %s", g)
	}
	if l := s.Label(s.Variants[7]); l != "octal code=0.01" {
		t.Errorf("label %q", l)
	}
}

// TestExamples checks the survey files of examples/surveys: they parse,
// and make the variants their comments announce.
func TestExamples(t *testing.T) {
	want := map[string]int{
		"octal-two-digits.yaml":     63,
		"misere-two-digits.yaml":    63,
		"octal-three-digits.yaml":   511,
		"octal-long-proofs.yaml":    5,
		"octal-unsolved.yaml":       69,
		"subtraction-within-8.yaml": 1<<8 - 1,
		"coins-codes.yaml":          2 * 9 * 17,
		"node-kayles-slurm.yaml":    24 + 14 + 10,
	}
	for name, n := range want {
		s, err := ParseFile(filepath.Join("..", "..", "examples", "surveys", name), Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(s.Variants) != n {
			t.Errorf("%s: %d variants, want %d", name, len(s.Variants), n)
		}
		if strings.HasPrefix(name, "octal-long") || strings.HasPrefix(name, "octal-three") || strings.HasPrefix(name, "octal-unsolved") {
			// The census: planning it sweeps thousands of values of each
			// code to choose its algorithm, minutes on a busy machine.
			continue
		}
		if _, err := NewPlan(context.Background(), s, s.Variants, 2); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
