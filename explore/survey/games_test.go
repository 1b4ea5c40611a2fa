package survey

import (
	"context"
	"path/filepath"
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
