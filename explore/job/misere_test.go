package job

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/misere"
)

func runJob(t *testing.T, text string) (*Report, error) {
	t.Helper()
	j, err := Parse("misere.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), j, Options{Jobs: 1})
}

// TestGenusJSON: show: [genus] in either play gives SPEC's
// "genus": [[g, γ0, γ1, …], …], here Kayles (Winning Ways, ch. 13:
// 0^{120}, 1^{031}, 2^{20}, 3^{31}, 1^{031}, 4^{146}).
func TestGenusJSON(t *testing.T) {
	for _, play := range []string{"normal", "misere"} {
		t.Run(play, func(t *testing.T) {
			rep, err := runJob(t, `
sections:
  - game: {octal: {code: "0.77", upto: 5, play: `+play+`}}
    show: [genus]
`)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(rep.Sections[0].Results)
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"genus":[[0,1,2,0],[1,0,3,1],[2,2,0],[3,3,1],[1,0,3,1],[4,1,4,6]]}`; string(b) != want {
				t.Errorf("JSON %s, want %s", b, want)
			}
			var back Results
			if err := json.Unmarshal(b, &back); err != nil || len(back.Genus) != 6 || !back.Genus[5].Equal(misere.Genus{Normal: 4, Misere: []int{1, 4, 6}}) {
				t.Errorf("read back %v, %v", back.Genus, err)
			}
		})
	}
}

// TestMisereAnalysesRegistered: every heap rule has genus and quotient;
// the other families do not.
func TestMisereAnalysesRegistered(t *testing.T) {
	for _, name := range heap.RuleNames() {
		for _, a := range []string{"genus", "quotient"} {
			if !slices.Contains(Analyses(name), a) {
				t.Errorf("%s lacks %s", name, a)
			}
		}
	}
	for _, fam := range []string{"wythoff", "coins", "product", "nimbers"} {
		if slices.Contains(Analyses(fam), "genus") {
			t.Errorf("%s has genus", fam)
		}
	}
}

// TestGenusRefused: genera past the limits are refused before the work,
// the limit named; the estimate is the section's, one cost model.
func TestGenusRefused(t *testing.T) {
	j, err := Parse("misere.yaml", []byte(`
limits: {positions: 100000}
sections:
  - game: {octal: {code: "0.77", upto: 80}}
    show: [genus]
`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := j.Sections[0].Estimate(context.Background(), j.Limits)
	if err != nil {
		t.Fatal(err)
	}
	if c.Positions <= j.Limits.Positions {
		t.Errorf("estimate %+v within the limit of positions %d", c, j.Limits.Positions)
	}
	_, err = Run(context.Background(), j, Options{})
	if err == nil || !strings.Contains(err.Error(), "--max-positions") {
		t.Fatalf("got %v, want a refusal naming the limit", err)
	}
}

// TestMisereMethod: a misère outcome says how it was found; without a
// quotient the generic solver answers, and both agree on what they answer.
func TestMisereMethod(t *testing.T) {
	rep, err := runJob(t, `
sections:
  - game: {octal: {code: "0.75", play: misere}}
    position: [3, 5, 6]
    show: [outcome, moves]
`)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Sections[0].Results
	if r.MisereMethod != MethodQuotient && r.MisereMethod != MethodGeneric {
		t.Fatalf("method %q", r.MisereMethod)
	}
	g, _ := heap.Lookup("octal")
	gm, err := g.NewGame(heap.Params{"code": "0.75"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := heap.WinningMoves(gm, []int{3, 5, 6}, game.Misere, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r.Moves)
	w, _ := json.Marshal(want)
	if string(got) != string(w) {
		t.Errorf("moves by %s %s, generic %s", r.MisereMethod, got, w)
	}
	// Every position of three heaps up to 6, for codes tame and wild: the
	// quotient's outcome and moves are the generic solver's.
	for _, code := range []string{"0.75", "0.77", "0.07", "4.7"} {
		gm, err := g.NewGame(heap.Params{"code": code})
		if err != nil {
			t.Fatal(err)
		}
		for a := 0; a <= 6; a++ {
			for b := a; b <= 6; b++ {
				for c := b; c <= 6; c++ {
					pos := []int{a, b, c}
					rep, err := runJob(t, fmt.Sprintf("sections:\n  - game: {octal: {code: %q, play: misere}}\n    position: %v\n    show: [outcome, moves]\n", code, strings.ReplaceAll(fmt.Sprint(pos), " ", ", ")))
					if err != nil {
						t.Fatal(err)
					}
					r := rep.Sections[0].Results
					o, err := heap.Outcome(gm, pos, game.Misere, heap.Limits{})
					if err != nil {
						t.Fatal(err)
					}
					want, err := heap.WinningMoves(gm, pos, game.Misere, heap.Limits{})
					if err != nil {
						t.Fatal(err)
					}
					got, _ := json.Marshal(r.Moves)
					w, _ := json.Marshal(want)
					if r.Outcome != o.String() || string(got) != string(w) {
						t.Errorf("%s %v by %s: %s %s, generic %v %s", code, pos, r.MisereMethod, r.Outcome, got, o, w)
					}
				}
			}
		}
	}
}

// TestQuotientJSON: show: [quotient] gives SPEC's keys, or the quotient
// engine's error when it cannot.
func TestQuotientJSON(t *testing.T) {
	j, err := Parse("misere.yaml", []byte(`
sections:
  - game: {nim: {heaps: [3], upto: 4, play: misere}}
    show: [quotient]
`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), j, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rep.Sections[0].Results)
	var m map[string]map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	q := m["quotient"]
	for _, k := range []string{"heaps", "order", "p_portion", "tame", "tame_name", "generators", "relations", "elements", "p", "pretending", "period", "table"} {
		if _, ok := q[k]; !ok {
			t.Errorf("no key %q in %s", k, b)
		}
	}
	// Misère Nim over heaps ≤ 4 is T_3, of order 10 (Plambeck and Siegel,
	// "Misère quotients for impartial games", 2008).
	if q["order"] != 10.0 || q["tame_name"] != "T_3" {
		t.Errorf("quotient %s, want T_3 of order 10", b)
	}
}
