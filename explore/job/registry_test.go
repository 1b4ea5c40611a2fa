package job

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
)

// A family defined in this file alone, as a new family of job files is
// (issue 27): two heaps from each of which a move takes 1 to k tokens.
// Nothing outside this file names it; the job layer reads its game, its
// position and its analyses through the registry, and reports word it
// through the hooks its spec implements.

var twoHeapsFamily = &family.Family{
	Key:   "test-two-heaps",
	Order: 95,
	Text:  family.Texts("two heaps, take 1 to k from one of them", "deux tas, retirer 1 à k de l’un d’eux"),
	Params: []family.Param{
		{Key: "size", Kind: family.Ints, Min: 1, Max: 64, What: "a table side", Example: "[8, 8]"},
		{Key: "k", Kind: family.Int, Min: 1, Max: 16, What: "the most one may take", Example: "2"},
	},
	Analyses:  []string{"table", "outcome"},
	Signature: "test-two-heaps: {size: [8, 8], k: 2}",
	Job: &jobFamily{
		parse:    parseTwoHeaps,
		position: twoHeapsPosition,
		example:  []any{3, 5},
		what:     "two heaps",
		spec:     (*twoHeapsSpec)(nil),
	},
}

func init() { family.Register(twoHeapsFamily) }

type twoHeapsSpec struct {
	Size [2]int
	K    int
}

func (s *twoHeapsSpec) params(p map[string]any) { p["size"], p["k"] = []int{s.Size[0], s.Size[1]}, s.K }
func (s *twoHeapsSpec) clone() GameSpec         { c := *s; return &c }
func (s *twoHeapsSpec) memory(r *runner) int64  { return sectionOverhead + int64(s.Size[0]*s.Size[1])*8 }
func (s *twoHeapsSpec) cost() Cost {
	n := int64(s.Size[0] * s.Size[1])
	return Cost{Positions: n, Steps: float64(n * int64(s.K) * 2), Memory: 8 * n}
}

func (s *twoHeapsSpec) Describe(tx Tx, _ string, _ *Results) (string, bool) {
	return fmt.Sprintf("two heaps, take 1 to %d", s.K), true
}

// Moves lists the positions one move from p.
func (s *twoHeapsSpec) Moves(p [2]int) ([][2]int, error) {
	var out [][2]int
	for h := range 2 {
		for t := 1; t <= s.K && t <= p[h]; t++ {
			q := p
			q[h] -= t
			out = append(out, q)
		}
	}
	return out, nil
}

// run solves every cell with the generic solver.
func (s *twoHeapsSpec) run(r *runner) error {
	sol, err := game.NewSolver[[2]int](s, game.Options{Play: r.play(), Context: r.ctx})
	if err != nil {
		return err
	}
	r.res.Game = fmt.Sprintf("two heaps, take 1 to %d", s.K)
	if r.wants("table") {
		t := make([][]uint64, s.Size[0])
		for a := range t {
			t[a] = make([]uint64, s.Size[1])
			for b := range t[a] {
				if t[a][b], err = sol.Grundy([2]int{a, b}); err != nil {
					return err
				}
			}
		}
		r.res.Table = t
	}
	if pos, ok := r.s.Position.([]int); ok && r.wants("outcome") {
		o, err := sol.Outcome([2]int{pos[0], pos[1]})
		if err != nil {
			return err
		}
		r.res.Outcome = o.String()
	}
	return nil
}

func parseTwoHeaps(p *parser, fm *yamlfile.Mapping, fp string) (GameSpec, error) {
	s := &twoHeapsSpec{Size: [2]int{8, 8}, K: 2}
	if n, ok := fm.Nodes["size"]; ok {
		sz, err := p.IntList(n, yamlfile.Join(fp, "size"), 1, 64, "a table side")
		if err != nil {
			return nil, err
		}
		if len(sz) != 2 {
			return nil, p.Errf(n, yamlfile.Join(fp, "size"), "want two sides")
		}
		s.Size = [2]int{sz[0], sz[1]}
	}
	var err error
	if s.K, err = fm.Integer("k", 2, 1, 16, "the most one may take"); err != nil {
		return nil, err
	}
	return s, nil
}

func twoHeapsPosition(p *parser, _ *Section, n *yaml.Node, path string) (any, error) {
	hs, err := p.IntList(n, path, 0, 1000, "a heap")
	if err != nil {
		return nil, err
	}
	if len(hs) != 2 {
		return nil, p.Errf(n, path, "two heaps; write e.g. [3, 5]")
	}
	return hs, nil
}

// TestRegisteredFamilyEndToEnd runs the family of this file through a job
// file: the family list, its game, position and analyses, its JSON game
// and the wording reports take from it. The values are those of a sum of
// two subtraction games S = {1..k}: (a mod (k+1)) xor (b mod (k+1))
// (Berlekamp, Conway and Guy, Winning Ways, 2nd ed., vol. 1, ch. 4: the
// values of S(1, 2, …, k) are n mod (k+1), and a sum's the nim-sum).
func TestRegisteredFamilyEndToEnd(t *testing.T) {
	if !slices.Contains(Families(), "test-two-heaps") {
		t.Fatalf("Families() = %v, without the family registered here", Families())
	}
	if got := Analyses("test-two-heaps"); !slices.Equal(got, []string{"table", "outcome"}) {
		t.Errorf("Analyses = %v", got)
	}
	rep, err := runFamilyJob(t, t.TempDir(), `
sections:
  - title: Two heaps
    game: {test-two-heaps: {size: [6, 7], k: 3, position: [5, 1]}}
    show: [table, outcome]
`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sr := rep.Sections[0]
	tab, ok := sr.Results.Table.([][]uint64)
	if !ok || len(tab) != 6 || len(tab[0]) != 7 {
		t.Fatalf("table = %#v", sr.Results.Table)
	}
	for a := range 6 {
		for b := range 7 {
			if want := uint64(a%4 ^ b%4); tab[a][b] != want {
				t.Errorf("g(%d, %d) = %d, want %d", a, b, tab[a][b], want)
			}
		}
	}
	// 5 mod 4 = 1 = 1 mod 4: a P-position.
	if sr.Results.Outcome != "P" {
		t.Errorf("outcome of (5, 1) = %q, want P", sr.Results.Outcome)
	}
	js, err := json.Marshal(sr.Spec.GameJSON())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"test-two-heaps":{"k":3,"position":[5,1],"size":[6,7]}}`; string(js) != want {
		t.Errorf("GameJSON = %s, want %s", js, want)
	}
	tx := func(key string, _ map[string]any) string { return key }
	if d, ok := sr.Spec.Game.(Describer); !ok {
		t.Error("the spec is no Describer")
	} else if words, played := d.Describe(tx, "en", &sr.Results); words != "two heaps, take 1 to 3" || !played {
		t.Errorf("Describe = %q, %v", words, played)
	}

	// Errors name the family's own analyses and position.
	for _, c := range []struct{ name, text, want string }{
		{"analysis", `{test-two-heaps: {k: 2}}
    show: [values]`, "does not apply to test-two-heaps; those that do: table, outcome"},
		{"position", `{test-two-heaps: {k: 2, position: [1, 2, 3]}}
    show: [outcome]`, "two heaps; write e.g. [3, 5]"},
		{"key", `{test-two-heaps: {k: 2, n: 3}}
    show: [table]`, "allowed here: size, k, play, position"},
		{"no position", `{test-two-heaps: {k: 2}}
    show: [outcome]`, "two heaps, e.g. position: [3, 5]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runFamilyJob(t, t.TempDir(), "sections:\n  - game: "+c.text+"\n", Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

// TestRegisteredFamilyAcross: a family's ranged key (a row per value)
// comes from its registration, as coins' does.
func TestRegisteredFamilyAcross(t *testing.T) {
	jf := jobFamilyOf("coins")
	if jf == nil || !slices.Equal(jf.across, []string{"rule", "r", "n", "below", "first"}) {
		t.Fatalf("coins' ranged keys: %+v", jf)
	}
	j, err := Parse("across.yaml", []byte(`
sections:
  - title: At most r
    game: {coins: {rule: at-most, r: "1..3", n: 8}}
    show: [values]
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Sections) != 3 || j.Sections[0].Across == nil || j.Sections[2].Coins().R != 3 {
		t.Fatalf("sections: %d, want 3 across r", len(j.Sections))
	}
	if _, err := Run(context.Background(), j, Options{}); err != nil {
		t.Fatal(err)
	}
}
