package templates

import (
	"regexp"
	"strings"
	"testing"
)

// frenchFaults finds what French typography corrects in a text: a plain
// space before ; : ! ? or », or after «, where a no-break space goes
// (U+202F before ; ! ? and inside « », U+00A0 before :), and the
// typewriter apostrophe for ’.
var frenchFaults = regexp.MustCompile(`[ ][;:!?»]|«[ ]|[^ \x{00a0}\x{202f}]»|«[^ \x{00a0}\x{202f}]|[^\x{00a0} ]:[ ]|[^\x{202f} ][;!?][ ]|'`)

// faultsIn lists the typographic faults of a French text (see
// frenchFaults), with some context.
func faultsIn(s string) []string {
	var out []string
	for _, loc := range frenchFaults.FindAllStringIndex(s, -1) {
		lo, hi := max(0, loc[0]-20), min(len(s), loc[1]+20)
		for lo > 0 && !utf8Start(s[lo]) {
			lo--
		}
		for hi < len(s) && !utf8Start(s[hi]) {
			hi++
		}
		out = append(out, s[lo:hi])
	}
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// Every French message is set as French typography wants: no-break spaces
// before ; : ! ? and inside « », and ’ for the apostrophe.
func TestFrenchTypography(t *testing.T) {
	src, err := embedded.ReadFile("fr.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	actions := regexp.MustCompile(`\{\{.*?\}\}`)
	// Notations that are no French prose: a heads:count cell, an option.
	allowed := strings.NewReplacer("(noires:nombre)", "", "(-o survey.json)", "")
	for n, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(line, "{{define") {
			continue
		}
		// An action between two texts stands for a word.
		text := allowed.Replace(actions.ReplaceAllString(line, "x"))
		for _, f := range faultsIn(text) {
			t.Errorf("fr.tmpl:%d: %q", n+1, f)
		}
	}
}

func TestFrenchFaults(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"Jeu : nim ; fin.", 2},
		{"Jeu\u00a0: nim\u202f; fin.", 0},
		{"« titre »", 2},
		{"«\u202ftitre\u202f»", 0},
		{"d'une", 1},
		{"d’une", 0},
		{"Jeu: nim", 1},
		{"a;b", 0},
		{"n = 1..10, f(n)", 0},
	} {
		if got := faultsIn(tc.in); len(got) != tc.want {
			t.Errorf("%q: %q, want %d faults", tc.in, got, tc.want)
		}
	}
}
