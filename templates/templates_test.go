package templates

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every message must exist in every language, or a French handout would
// fall back to an error in the middle of a page.
func TestSameKeysInEveryLanguage(t *testing.T) {
	en, err := New("en")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join(en.Keys(), "\n")
	if len(en.Keys()) < 50 {
		t.Fatalf("only %d messages in en", len(en.Keys()))
	}
	for _, lang := range Langs() {
		s, err := New(lang)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(s.Keys(), "\n"); got != want {
			t.Errorf("%s keys differ from en:\n%s\nwant\n%s", lang, got, want)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		name, lang, key string
		data            any
		want            string
	}{
		{"P in English", "en", "term.P", nil, "P-position (a win for the player who has just moved)"},
		// MATH.md: the French wording the seeds disagree on, made explicit.
		{"P in French", "fr", "term.P", nil, "position P (gagnante pour le joueur qui vient de jouer)"},
		{"N in French", "fr", "term.N", nil, "position N (gagnante pour le joueur qui doit jouer)"},
		{"period", "en", "period.proven", map[string]string{"Period": "12", "Preperiod": "71", "LastException": "70", "CheckedTo": "167", "Method": "Guy–Smith"},
			"Periodic with period 12 from n = 71 (last exception 70); proved by Guy–Smith using values up to 167."},
		{"period fr", "fr", "period.proven", map[string]string{"Period": "4", "Preperiod": "0", "LastException": "", "CheckedTo": "7", "Method": ""},
			"La suite g(n) est périodique de période 4 dès n = 0 (sans exception)\u202f; c’est démontré à partir des valeurs jusqu’à n = 7."},
		{"period fr, its method", "fr", "period.proven", map[string]string{"Period": "12", "Preperiod": "71", "LastException": "70", "CheckedTo": "167", "Method": "le théorème de Guy et Smith"},
			"La suite g(n) est périodique de période 12 à partir de n = 71 (dernière exception en n = 70)\u202f; preuve par le théorème de Guy et Smith, à partir des valeurs jusqu’à n = 167."},
		{"observed period", "en", "period.observed", map[string]string{"Period": "7", "Preperiod": "0", "LastException": "-1", "CheckedTo": "60"},
			"The values up to n = 60 repeat with period 7 from n = 0: observed, not proven, since a game given by its moves has no window argument (define it with subtraction() or octal() when its rule fits, for a proof)."},
		{"observed period fr", "fr", "period.observed", map[string]string{"Period": "12", "Preperiod": "71", "LastException": "70", "CheckedTo": "200"},
			"Les valeurs jusqu’à n = 200 se répètent avec la période 12 à partir de n = 71 (dernière exception en n = 70)\u202f; c’est constaté, non démontré, car un jeu donné par ses coups n’a pas d’argument de fenêtre (pour une preuve, définissez-le avec subtraction() ou octal() si sa règle s’y prête)."},
		{"outcome", "fr", "outcome", map[string]any{"Position": "(1,3,5,7)", "Outcome": "P", "Misere": false},
			"(1,3,5,7) est une position P (gagnante pour le joueur qui vient de jouer)."},
		// A. Flammenkamp's table of 0.051: seven sparse positions, the last 37.
		{"rare count", "en", "rare.count", map[string]string{"Count": "7", "Total": "201", "CheckedTo": "200", "Last": "37"},
			"7 of the 201 positions from 0 to 200 are rare; the last is n = 37."},
		{"rare count fr", "fr", "rare.count", map[string]string{"Count": "1", "Total": "5", "CheckedTo": "4", "Last": "0"},
			"1 position sur 5 (n = 0 à 4) est rare\u202f; la dernière est n = 0."},
		{"rare count fr, plural", "fr", "rare.count", map[string]string{"Count": "7", "Total": "201", "CheckedTo": "200", "Last": "37"},
			"7 positions sur 201 (n = 0 à 200) sont rares\u202f; la dernière est n = 37."},
		{"rare split", "en", "rare.split", map[string]any{"Mask": "110", "Domain": false, "T": ""},
			"Ignoring the bits of the mask 110 (binary), a value is rare when it has an even number of 1s outside the mask, common otherwise, and position n is rare when g(n) is: the range type. Rare ⊕ rare and common ⊕ common are rare, so a common value only arises as rare ⊕ common."},
		{"coins rule plural", "en", "coins.rule", map[string]string{"Rule": "at-most", "R": "1"}, "turn over at most 1 coin"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.lang)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Text(tc.key, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	if _, err := New("de"); err == nil || !strings.HasPrefix(err.Error(), "templates: ") {
		t.Errorf("New(de) = %v, want a templates: error", err)
	}
	s, _ := New("en")
	if _, err := s.Text("no.such.key", nil); err == nil {
		t.Error("missing key: no error")
	}
	if _, err := s.Text("period.proven", map[string]string{}); err == nil {
		t.Error("missing data: no error")
	}
	if _, err := Load(filepath.Join(t.TempDir(), "absent"), "en"); err == nil {
		t.Error("absent dir: no error")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "en.tmpl"), []byte(`{{define "term.P"}}broken{{end`), 0o644)
	if _, err := Load(dir, "en"); err == nil {
		t.Error("bad override: no error")
	}
}

func TestLoadOverrides(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fr.tmpl"), []byte(`{{define "term.P"}}position perdante{{end}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "handout.css"), []byte("body{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir, "fr")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Text("term.P", nil); got != "position perdante" {
		t.Errorf("override: got %q", got)
	}
	// Messages that use the overridden one see the new text.
	if got, _ := s.Text("outcome", map[string]any{"Position": "(1,1)", "Outcome": "P", "Misere": false}); got != "(1,1) est une position perdante." {
		t.Errorf("dependent message: got %q", got)
	}
	if got, _ := s.Text("term.N", nil); !strings.HasPrefix(got, "position N") {
		t.Errorf("kept message: got %q", got)
	}
	if s.CSS() != "body{}" {
		t.Errorf("css not overridden")
	}
	if !strings.Contains(s.Page(), "<!DOCTYPE html>") {
		t.Errorf("page lost")
	}
	en, _ := New("en")
	if got, _ := en.Text("term.P", nil); got == "position perdante" {
		t.Errorf("override leaked into another set")
	}
}

// Format runs a source that is not a message (a heap rule's Describe)
// with the functions every message may call.
func TestFormat(t *testing.T) {
	tests := []struct {
		name, lang, src string
		data            any
		want            string
	}{
		{"tuple", "en", "{{tuple .Heaps}}", map[string]any{"Heaps": []int{1, 3, 5, 7}}, "(1,3,5,7)"},
		{"empty tuple", "en", "{{tuple .Heaps}}", map[string]any{"Heaps": []int(nil)}, "()"},
		{"set", "en", "s ∈ {{set .Set}}", map[string]any{"Set": []int{1, 3, 4}}, "s ∈ {1, 3, 4}"},
		{"inc", "en", "N = {{inc .MaxTake}}", map[string]any{"MaxTake": 3}, "N = 4"},
		{"name", "en", "{{with name .Code}}({{.}}){{end}}", map[string]any{"Code": "0.07"}, "(Dawson's Kayles)"},
		{"name without 0", "fr", "{{name .Code}}", map[string]any{"Code": ".07"}, "Kayles de Dawson"},
		{"no name", "en", "[{{name .Code}}]", map[string]any{"Code": "0.4"}, "[]"},
		{"trimmed", "en", "  {{.X}}\n", map[string]any{"X": 1}, "1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.lang)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second time from the parsed cache
				got, err := s.Format(tc.src, tc.data)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("got %q, want %q", got, tc.want)
				}
			}
		})
	}
	s, _ := New("en")
	for _, src := range []string{"{{.Missing}}", "{{if}}", "{{nosuchfunc 1}}"} {
		if _, err := s.Format(src, map[string]any{}); err == nil || !strings.HasPrefix(err.Error(), "templates: ") {
			t.Errorf("Format(%q) = %v, want a templates: error", src, err)
		}
	}
	if got := s.Keys(); slices.Contains(got, "format") {
		t.Errorf("Format's sources leaked into the messages")
	}
}

// An override may call the same functions: a user rewording a heap rule's
// description (game.RULE) writes its parameters as the rule does.
func TestOverrideUsesFunctions(t *testing.T) {
	dir := t.TempDir()
	src := `{{define "game.mine"}}heaps {{tuple .Heaps}}, moves {{set .Set}}, {{name .Code}}{{end}}`
	if err := os.WriteFile(filepath.Join(dir, "en.tmpl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir, "en")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Text("game.mine", map[string]any{"Heaps": []int{2, 2}, "Set": []int{1}, "Code": ".77"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "heaps (2,2), moves {1}, Kayles"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
