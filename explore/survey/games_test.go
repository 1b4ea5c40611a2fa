package survey

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
	_ "github.com/nimbook/nimbook/explore/stargame" // the starlark family
)

// TestGamesSurvey: examples/surveys/games.yaml ranges over the params of a
// Starlark game (Node Kayles on m × n, m ≤ 3, n ≤ 12): 36 variants, each a
// job section; the row m = 3 is OEIS A316632 (2, 1, 1, 0, 3, 3, …; Brown
// et al., J. Integer Seq. 23 (2020) 20.3.5), checked here to n = 6.
func TestGamesSurvey(t *testing.T) {
	s, err := ParseFile(filepath.Join("..", "..", "examples", "surveys", "games.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Variants) != 36 {
		t.Fatalf("%d variants, want 36", len(s.Variants))
	}
	if l := s.Label(s.Variants[24]); l != "starlark params.rows=3 params.cols=1" {
		t.Errorf("label %q", l)
	}
	want := []uint64{2, 1, 1, 0, 3, 3}
	for i, w := range want {
		v := s.Variants[24+i]
		rep, err := job.Run(context.Background(), &job.Job{File: s.File, Limits: s.Limits, Sections: []*job.Section{v.Section}}, job.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Sections[0].Results.Value; got == nil || *got != w {
			t.Errorf("3 × %d: value %v, want %d", i+1, got, w)
		}
	}
}

// TestChangedGameFile: a Starlark game's file belongs to a survey's
// identity as a rule file does (issue 29, class 5): after the file
// changes, a run into the old database is refused, saying why.
func TestChangedGameFile(t *testing.T) {
	dir := t.TempDir()
	star := filepath.Join(dir, "g.star")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(star, "def take(n, k):\n    return game(moves=lambda p: [p - i for i in range(1, min(k, p) + 1)], start=n)\n")
	file := filepath.Join(dir, "s.yaml")
	write(file, "survey:\n  starlark: {file: g.star, name: take, params: {n: 9, k: \"1..3\"}}\nshow: [value]\n")
	s1, err := ParseFile(file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s1.Rules, "g.star ") {
		t.Fatalf("Rules = %q, want g.star and its hash", s1.Rules)
	}
	db := filepath.Join(dir, "s.db")
	runAll(t, s1, db, Shard{I: 0, N: 1}, 1)
	write(star, "def take(n, k):\n    return game(moves=lambda p: [p - i for i in range(1, min(k + 1, p) + 1)], start=n)\n")
	s2, err := ParseFile(file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s2.Hash == s1.Hash {
		t.Fatalf("a changed game file keeps the survey's identity: %s", s2.Hash)
	}
	if _, err := Create(db, s2); err == nil || !strings.Contains(err.Error(), "another version of the rule file") {
		t.Fatalf("re-run after the game file changed: %v; want a refusal saying it changed", err)
	}
}

// TestGamesSurveyPlan: the plan of examples/surveys/games.yaml estimates
// each Starlark variant by sampling its game (game.EstimateWith through
// the family's cost model), where it counted 1 a variant: small grids are
// solved whole by the estimate's pilot, so 3 × 8 costs exactly the 272
// parts its solve keeps; the larger are predicted by seeded walks, so the
// whole plan's figures are pinned.
func TestGamesSurveyPlan(t *testing.T) {
	s, err := ParseFile(filepath.Join("..", "..", "examples", "surveys", "games.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Variants[24+7].Section.Estimate(context.Background(), s.Limits)
	if err != nil || c.Positions != 272 {
		t.Errorf("3 × 8: estimate %+v, %v; want 272 positions, measured", c, err)
	}
	p, err := NewPlan(context.Background(), s, s.Variants, 2)
	if err != nil {
		t.Fatal(err)
	}
	if p.Cost.Positions != 4475 || p.Cost.Steps != 165072 || p.Cost.Memory != 376896 {
		t.Errorf("plan %+v; want 4475 positions, 165072 steps, 376896 bytes", p.Cost)
	}
	// Over a limit, the plan refuses before any work, naming the first
	// variant over it: 3 × 11.
	s.Limits.Positions = 1000
	_, err = NewPlan(context.Background(), s, s.Variants, 2)
	if err == nil || !strings.Contains(err.Error(), "params.rows=3 params.cols=11") || !strings.Contains(err.Error(), "more than the limit of 1000") {
		t.Errorf("plan under 1000 positions: %v; want a refusal naming 3 × 11", err)
	}
}
