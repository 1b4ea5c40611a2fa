package job

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// A parameter given as a range makes a section per value, run and written
// in the JSON form as if the job file listed them, sharing one Across.
func TestAcrossRange(t *testing.T) {
	src := `title: f_r
sections:
  - title: "At most r coins"
    source: "D. Madore (2017), table of f_r(n)"
    game: {coins: {rule: at-most, r: "1..9", n: 10}}
    show: [values]
  - game: {coins: {rule: at-most, r: 3, n: 4}}
    show: [values]
`
	j, err := Parse("across.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Sections) != 10 {
		t.Fatalf("%d sections, want 9 + 1", len(j.Sections))
	}
	ac := j.Sections[0].Across
	if ac == nil || ac.Key != "r" || ac.Title != "At most r coins" || !slices.Equal(ac.Labels, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}) {
		t.Fatalf("across: %+v", ac)
	}
	for i, s := range j.Sections[:9] {
		if s.Across != ac {
			t.Errorf("section %d: not in the table", i)
		}
		if c := s.Coins(); c == nil || c.R != i+1 || c.N != 10 {
			t.Errorf("section %d: game %+v", i, s.Game)
		}
		if want := "At most r coins (r = " + ac.Labels[i] + ")"; s.Title != want || s.Source == "" {
			t.Errorf("section %d: title %q, want %q (source %q)", i, s.Title, want, s.Source)
		}
	}
	if j.Sections[9].Across != nil {
		t.Error("a section with one game is in a table")
	}
	// The source document's table, row by row (seed 000).
	want := map[int][]uint64{
		1: {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
		3: {1, 2, 4, 7, 8, 11, 13, 14, 16, 19},
		4: {1, 2, 4, 8, 15, 16, 32, 51, 64, 85},
		9: {1, 2, 4, 8, 16, 32, 64, 128, 256, 511},
	}
	rep, err := Run(context.Background(), j, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for r, vals := range want {
		if got := rep.Sections[r-1].Results.Values; !slices.Equal(got, vals) {
			t.Errorf("f_%d: %v, want %v", r, got, vals)
		}
	}
	// SPEC's keys keep their meaning: r is a number in each section's game.
	b, err := json.Marshal(j.Sections[2].GameJSON())
	if err != nil || string(b) != `{"coins":{"first":1,"n":10,"r":3,"rule":"at-most"}}` {
		t.Errorf("game %s (%v)", b, err)
	}
}

// A list varies a single value (r: [2, 7]) or, of lists, a list parameter
// (a subtraction set).
func TestAcrossLists(t *testing.T) {
	src := `sections:
  - title: Codes
    game: {coins: {rule: at-most, r: [2, 7], n: 8}}
    show: [values]
  - title: Sets
    game: {subtraction: {set: [[1, 2], [1, 3, 4]], upto: 20}}
    show: [values]
`
	j, err := Parse("lists.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Sections) != 4 {
		t.Fatalf("%d sections, want 2 + 2", len(j.Sections))
	}
	if ac := j.Sections[0].Across; ac == nil || !slices.Equal(ac.Labels, []string{"2", "7"}) || j.Sections[1].Coins().R != 7 {
		t.Errorf("coins: %+v", ac)
	}
	ac := j.Sections[2].Across
	if ac == nil || ac.Key != "set" || !slices.Equal(ac.Labels, []string{"1, 2", "1, 3, 4"}) || j.Sections[3].Across != ac {
		t.Fatalf("sets: %+v", ac)
	}
	if got := j.Sections[3].Heap().Params.Ints("set"); !slices.Equal(got, []int{1, 3, 4}) {
		t.Errorf("second set %v", got)
	}
	if j.Sections[2].Across == j.Sections[0].Across {
		t.Error("two job file sections share one table")
	}
}

func TestAcrossErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`sections: [{game: {coins: {rule: at-most, r: "1..9", n: "8..10"}}, show: [values]}]`,
			"r and n both take several values; one parameter may vary in a section"},
		{`sections: [{game: {coins: {rule: at-most, r: "1..9", n: 10}}, show: [values, weights]}]`,
			"r takes several values, so the section shows values only"},
		{`sections: [{game: {coins: {rule: at-most, r: "9..1", n: 10}}, show: [values]}]`,
			"want a range A..B with A ≤ B"},
		{`sections: [{game: {coins: {rule: at-most, r: "1..100", n: 10}}, show: [values]}]`,
			"more than the 64 rows of one table"},
		{`sections: [{game: {coins: {rule: at-most, r: "1..3", n: 10}}, show: [values], position: [1]}]`,
			"a position or a record belongs to a section with one game"},
		// Each value is checked as a single one would be, with its line.
		{`sections: [{game: {coins: {rule: at-most, r: [2, 0], n: 10}}, show: [values]}]`,
			"sections[0].game.coins.r"},
	}
	for _, tc := range tests {
		_, err := Parse("bad.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\n  error %v, want %q", tc.src, err, tc.want)
		}
	}
}
