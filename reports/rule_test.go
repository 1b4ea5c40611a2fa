package reports

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/templates"
)

// Heap rules known only to this test: reports must describe them, and
// render their results, with no edit to its production code.
func init() {
	heap.Register(&heap.Rule{
		Name:  "test-takeaway",
		Order: 1000,
		Text: map[string]string{
			"en": "a take-away game: take 1 to max-take tokens from one heap",
			"fr": "un jeu de retrait : prendre de 1 à max-take jetons dans un tas",
		},
		Describe: map[string]string{
			"en": `take-away game: take 1 to {{.MaxTake}} tokens ({{inc .MaxTake}} is too many){{with .Heaps}} from the heaps {{tuple .}}{{end}}{{with .Barred}}, never {{set .}}{{end}}`,
			"fr": `jeu de retrait : prendre de 1 à {{.MaxTake}} jetons ({{inc .MaxTake}} c’est trop){{with .Heaps}} dans les tas {{tuple .}}{{end}}{{with .Barred}}, jamais {{set .}}{{end}}`,
		},
		Params: []heap.Param{
			{Key: "max-take", Kind: heap.Int, Min: 1, Max: 100, What: "the most one may take", Default: 3, Example: "3"},
			{Key: "heaps", Kind: heap.Ints, Min: 0, Max: 1000, What: "a heap size", Example: "[1, 2]"},
			{Key: "barred", Kind: heap.Ints, Min: 1, Max: 100, What: "an amount one may not take", Example: "[2]"},
			heap.UptoParam(20),
		},
		New: func(p heap.Params) (heap.Game, error) {
			return takeAway{max: p.Int("max-take"), barred: p.Ints("barred")}, nil
		},
	})
	// A rule with no Describe: reports fall back to its Text.
	heap.Register(&heap.Rule{
		Name:   "test-plain",
		Order:  1001,
		Text:   map[string]string{"en": "a plain test rule: take one token", "fr": "une règle d’essai : prendre un jeton"},
		Params: []heap.Param{heap.UptoParam(10)},
		New:    func(heap.Params) (heap.Game, error) { return takeAway{max: 1}, nil },
	})
}

// takeAway is the subtraction game {1, …, max} minus barred, written here
// from the definition.
type takeAway struct {
	max    int
	barred []int
}

func (g takeAway) Options(n int) [][]int {
	var out [][]int
	for k := 1; k <= min(n, g.max); k++ {
		if slices.Contains(g.barred, k) {
			continue
		}
		if n-k == 0 {
			out = append(out, []int{})
		} else {
			out = append(out, []int{n - k})
		}
	}
	return out
}

func (g takeAway) Values(upto int, _ heap.Limits) ([]uint64, error) {
	vs := make([]uint64, upto+1)
	for n := range vs {
		seen := map[uint64]bool{}
		for _, o := range g.Options(n) {
			var v uint64
			for _, h := range o {
				v ^= vs[h]
			}
			seen[v] = true
		}
		vs[n] = mex(seen)
	}
	return vs, nil
}

func (g takeAway) String() string { return fmt.Sprintf("take-away %d", g.max) }

// spaced writes French typography's no-break spaces as plain ones.
func spaced(s string) string { return strings.NewReplacer("\u202f", " ", "\u00a0", " ").Replace(s) }

func ruleReport(lang string, sp *job.Section, res job.Results) *job.Report {
	return &job.Report{Title: "Rules", Lang: lang, Sections: []*job.SectionResult{{Title: "A rule", Spec: sp, Results: res}}}
}

func TestRegisteredRuleRenders(t *testing.T) {
	sp := &job.Section{Family: "test-takeaway", Play: "normal", Show: []string{"values", "p-positions", "period"},
		Game: heapGame("test-takeaway", heap.Params{"max-take": 3, "heaps": []int{2, 5}, "barred": []int{2}, "upto": 8})}
	g, err := sp.Heap().NewGame()
	if err != nil {
		t.Fatal(err)
	}
	vals, _ := g.Values(8, heap.Limits{})
	res := job.Results{Values: vals, PPositions: &job.PPositions{Count: 5, List: []int{0, 2, 4, 6, 8}},
		Period: &job.Period{Proven: true, Period: 2, CheckedTo: 8, Method: "a test window"}}
	tests := []struct {
		lang, form string
		want       []string
	}{
		{"en", "md", []string{
			"Game: take-away game: take 1 to 3 tokens (4 is too many) from the heaps (2,5), never {2}; normal play (whoever cannot move loses).",
			"Counted over the single heaps 0 to 8.",
			"Periodic with period 2 from n = 0 (no exception); proved by a test window using values up to 8.",
			"0, 2, 4, 6, 8.",
		}},
		{"fr", "md", []string{
			"Jeu : jeu de retrait : prendre de 1 à 3 jetons (4 c’est trop) dans les tas (2,5), jamais {2}",
			"Comptées parmi les positions à un seul tas, de 0 à 8 objets.",
		}},
		{"en", "html", []string{"take-away game: take 1 to 3 tokens (4 is too many) from the heaps (2,5), never {2}"}},
		{"fr", "html", []string{"jeu de retrait : prendre de 1 à 3 jetons (4 c’est trop) dans les tas (2,5), jamais {2}"}},
		{"en", "json", []string{`"test-takeaway": {`, `"max-take": 3,`, `"barred": [`, `"values": [`, `"period": {`}},
	}
	for _, tc := range tests {
		t.Run(tc.lang+"/"+tc.form, func(t *testing.T) {
			var b bytes.Buffer
			r := ruleReport(tc.lang, sp, res)
			switch tc.form {
			case "md":
				err = Markdown(&b, r, Options{})
			case "html":
				err = HTML(&b, r, Options{NoFigures: true})
			case "json":
				err = JSON(&b, r)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(spaced(b.String()), w) {
					t.Errorf("no %q in\n%s", w, b.String())
				}
			}
		})
	}
}

// A job file naming the test rule runs and renders like any family.
func TestRegisteredRuleFromJobFile(t *testing.T) {
	j, err := job.Parse("rule.yaml", []byte("title: T\nsections:\n  - title: S\n    game: {test-takeaway: {max-take: 2, upto: 6}}\n    show: [values, p-positions]\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := Markdown(&md, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Game: take-away game: take 1 to 2 tokens (3 is too many); normal play", "Counted over the single heaps 0 to 6.", "0, 3, 6."} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("no %q in\n%s", w, md.String())
		}
	}
}

func TestRuleWithoutDescribe(t *testing.T) {
	sp := &job.Section{Family: "test-plain", Play: "misere", Show: []string{"values"}, Game: heapGame("test-plain", heap.Params{})}
	for lang, want := range map[string]string{
		"en": "Game: a plain test rule: take one token; misère play",
		"fr": "Jeu : une règle d’essai : prendre un jeton ; convention misère",
	} {
		t.Run(lang, func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, ruleReport(lang, sp, job.Results{Values: []uint64{0, 1, 0}}), Options{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(spaced(b.String()), want) {
				t.Errorf("no %q in\n%s", want, b.String())
			}
		})
	}
}

// A user's templates define game.RULE, which wins over the rule's
// Describe, with the same parameters and functions.
func TestRuleDescriptionOverride(t *testing.T) {
	dir := t.TempDir()
	over := `{{define "game.test-takeaway"}}my take-away, at most {{.MaxTake}}{{with .Heaps}} on {{set .}}{{end}}{{end}}` +
		`{{define "game.octal"}}the code {{.Code}}{{with name .Code}}, called {{.}}{{end}}{{end}}`
	if err := os.WriteFile(filepath.Join(dir, "en.tmpl"), []byte(over), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := templates.Load(dir, "en")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		sp   *job.Section
		want string
	}{
		{"test rule", &job.Section{Family: "test-takeaway", Game: heapGame("test-takeaway", heap.Params{"heaps": []int{4, 1}})},
			"Game: my take-away, at most 3 on {4, 1}; normal play"},
		{"octal", &job.Section{Family: "octal", Game: heapGame("octal", heap.Params{"code": ".77"})},
			"Game: the code .77, called Kayles; normal play"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, ruleReport("en", tc.sp, job.Results{}), Options{Templates: set}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("no %q in\n%s", tc.want, b.String())
			}
		})
	}
}

// The descriptions of the rules of package heap, now their Describe,
// read word for word as the messages game.nim, game.subtraction,
// game.octal and game.hex that the templates held before, with the
// arguments reports gave them (game.subtraction reworded since, with its
// rule in brackets: "Game: subtraction game: take" read badly).
func TestHeapRuleDescriptionsAsBefore(t *testing.T) {
	before := map[string]string{
		"en": `{{define "game.nim"}}Nim{{if .Heaps}} from heaps {{.Heaps}}{{end}}{{if .MaxTake}}, taking at most {{.MaxTake}} per move (N = {{.N}}){{else}}, taking any number from one heap{{end}}{{end}}
{{define "game.subtraction"}}subtraction game (take {{if .AllBut}}any number except {{.Set}}{{else}}s ∈ {{.Set}}{{end}} from one heap){{end}}
{{define "game.octal"}}octal game {{.Code}}{{with .Name}} ({{.}}){{end}}{{end}}
{{define "game.hex"}}hexadecimal game {{.Code}}{{end}}`,
		"fr": `{{define "game.nim"}}jeu de nim{{if .Heaps}} à partir des tas {{.Heaps}}{{end}}{{if .MaxTake}}, en retirant au plus {{.MaxTake}} objets par coup (N = {{.N}}){{else}}, en retirant autant d’objets qu’on veut d’un seul tas{{end}}{{end}}
{{define "game.subtraction"}}jeu de soustraction (retirer {{if .AllBut}}n’importe quel nombre sauf {{.Set}}{{else}}s ∈ {{.Set}}{{end}} objets d’un tas){{end}}
{{define "game.octal"}}jeu octal {{.Code}}{{with .Name}} ({{.}}){{end}}{{end}}
{{define "game.hex"}}jeu hexadécimal {{.Code}}{{end}}`,
	}
	names := map[string]map[string]string{
		"en": {"0.77": "Kayles", "0.07": "Dawson's Kayles", "0.137": "Dawson's chess"},
		"fr": {"0.77": "Kayles", "0.07": "Kayles de Dawson", "0.137": "échecs de Dawson"},
	}
	// old is what reports wrote before the rules carried their description.
	old := func(lang, rule string, p heap.Params) string {
		tm := template.Must(template.New(lang).Option("missingkey=error").Parse(before[lang]))
		var key string
		var data map[string]any
		switch rule {
		case "nim":
			heaps, max := "", ""
			if hs := p.Ints("heaps"); len(hs) > 0 {
				heaps = templates.Tuple(hs)
			}
			if p.Int("max-take") > 0 {
				max = itoa(p.Int("max-take"))
			}
			key, data = "game.nim", map[string]any{"Heaps": heaps, "MaxTake": max, "N": itoa(p.Int("max-take") + 1)}
		case "subtraction":
			set, allBut := p.Ints("set"), p.Has("all-but")
			if allBut {
				set = p.Ints("all-but")
			}
			key, data = "game.subtraction", map[string]any{"Set": "{" + joinInts(set) + "}", "AllBut": allBut}
		case "octal":
			key, data = "game.octal", map[string]any{"Code": p.String("code"), "Name": names[lang][canonical(p.String("code"))]}
		case "hex":
			key, data = "game.hex", map[string]any{"Code": p.String("code")}
		}
		var b bytes.Buffer
		if err := tm.ExecuteTemplate(&b, key, data); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	tests := []struct {
		rule string
		p    heap.Params
	}{
		{"nim", heap.Params{"heaps": []int{1, 3, 5, 7}}},
		{"nim", heap.Params{"heaps": []int{1, 3, 5, 7}, "max-take": 3}},
		{"nim", heap.Params{"max-take": 1}},
		{"nim", heap.Params{}},
		{"subtraction", heap.Params{"set": []int{1, 3, 4}}},
		{"subtraction", heap.Params{"set": []int{2}}},
		{"subtraction", heap.Params{"all-but": []int{2, 5}}},
		{"octal", heap.Params{"code": "0.77"}},
		{"octal", heap.Params{"code": ".07"}},
		{"octal", heap.Params{"code": "0.137"}},
		{"octal", heap.Params{"code": "4.07"}},
		{"hex", heap.Params{"code": "0.f"}},
	}
	for _, lang := range templates.Langs() {
		set, err := templates.New(lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/%s/%v", lang, tc.rule, tc.p), func(t *testing.T) {
				h := heapGame(tc.rule, tc.p.Clone())
				b := &builder{o: Options{Lang: lang}, t: set}
				got := b.heapGame(h)
				if b.err != nil {
					t.Fatal(b.err)
				}
				if want := old(lang, tc.rule, tc.p); got != want {
					t.Errorf("got  %q\nwant %q", got, want)
				}
			})
		}
	}
}

func canonical(code string) string {
	if strings.HasPrefix(code, ".") {
		return "0" + code
	}
	return code
}

// The templates' tuple and set write lists as reports always have.
func TestTemplateListFunctions(t *testing.T) {
	set, err := templates.New("en")
	if err != nil {
		t.Fatal(err)
	}
	for _, xs := range [][]int{nil, {}, {7}, {1, 3, 5, 7}, {0, 12, 100000}} {
		for src, want := range map[string]string{
			"{{tuple .}}": "(" + strings.ReplaceAll(joinInts(xs), ", ", ",") + ")",
			"{{set .}}":   "{" + joinInts(xs) + "}",
		} {
			got, err := set.Format(src, xs)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s of %v = %q, want %q", src, xs, got, want)
			}
		}
	}
}

func TestDescribeArgs(t *testing.T) {
	h := heapGame("test-takeaway", heap.Params{"heaps": []int{1, 2}})
	got := describeArgs(h)
	want := map[string]any{"MaxTake": 3, "Heaps": []int{1, 2}, "Barred": []int(nil), "Upto": 20}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("describeArgs = %v, want %v", got, want)
	}
	for key, want := range map[string]string{"max-take": "MaxTake", "all-but": "AllBut", "upto": "Upto", "checked_to": "CheckedTo", "k": "K"} {
		if got := camelCase(key); got != want {
			t.Errorf("camelCase(%q) = %q, want %q", key, got, want)
		}
	}
}

// A Describe that names no parameter of its rule is an error, not a
// silent blank.
func TestBrokenDescribe(t *testing.T) {
	r := &heap.Rule{Name: "test-broken", Describe: map[string]string{"en": "{{.NoSuchKey}}"},
		Params: []heap.Param{heap.UptoParam(10)}, New: func(heap.Params) (heap.Game, error) { return takeAway{max: 1}, nil }}
	sp := &job.Section{Family: r.Name, Game: &job.HeapSpec{Rule: r, Params: heap.Params{"upto": 10}}}
	err := Markdown(&bytes.Buffer{}, ruleReport("en", sp, job.Results{}), Options{})
	if err == nil || !strings.Contains(err.Error(), "test-broken") {
		t.Errorf("err = %v, want one naming the rule", err)
	}
}

// A heap rule's period that is not proven says why, in the engine's words
// for a reason reports do not know, and an observed period says it is a
// rule's.
func TestRulePeriodNotProven(t *testing.T) {
	sp := &job.Section{Family: "test-takeaway", Show: []string{"period"}, Game: heapGame("test-takeaway", heap.Params{})}
	tests := []struct {
		name string
		p    job.Period
		want string
	}{
		{"reason", job.Period{CheckedTo: 500, Method: "no theorem is known for this test rule"},
			"No period proven up to n = 500. No theorem is known for this test rule."},
		{"none", job.Period{CheckedTo: 500, Method: heap.MethodNone}, "No period proven up to n = 500.\n"},
		{"observed", job.Period{CheckedTo: 40, Preperiod: 3, Period: 4, Method: job.MethodObserved},
			"The values up to n = 40 repeat with period 4 from n = 3 (last exception 2): observed, not proven, since no periodicity theorem is known for this rule."},
		{"nothing observed", job.Period{CheckedTo: 40, Method: job.MethodObserved}, "No period proven up to n = 40.\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, ruleReport("en", sp, job.Results{Period: &tc.p}), Options{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("no %q in\n%s", tc.want, b.String())
			}
		})
	}
}

// What a heap game's P-positions were counted over follows the job: every
// position under the rule's position parameter when its game counts them
// (heap.PPositioner, Nim), else the single heaps.
func TestPPositionsOver(t *testing.T) {
	tests := []struct {
		name string
		h    *job.HeapSpec
		want string
	}{
		{"nim with heaps", heapGame("nim", heap.Params{"heaps": []int{1, 3, 5, 7}}), "Counted over every position whose heaps are at most the corresponding heaps of (1,3,5,7), as ordered tuples."},
		{"nim without heaps", heapGame("nim", heap.Params{"upto": 12}), "Counted over the single heaps 0 to 12."},
		{"test rule with heaps", heapGame("test-takeaway", heap.Params{"heaps": []int{1, 3}}), "Counted over the single heaps 0 to 20."},
	}
	set, err := templates.New("en")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &builder{o: Options{Lang: "en"}, t: set}
			if got := b.heapsOver(tc.h); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
