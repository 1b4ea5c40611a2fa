package reports

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/nimbook/nimbook/explore/chomp" // the board families of the examples
	_ "github.com/nimbook/nimbook/explore/cram"
	_ "github.com/nimbook/nimbook/explore/nodekayles"
	_ "github.com/nimbook/nimbook/explore/stargame" // the starlark family
)

// TestOEISGames: the offline table's entries for games written in
// Starlark are checked against the values examples/games.star computes,
// and found by the report: A316632 (Node Kayles on 3 × n, Brown et al.,
// J. Integer Seq. 23 (2020) 20.3.5) to n = 9, A000035 (the ladder 2 × n
// alternates 1, 0, as A316632's entry says) to n = 12; a 2-D range prints
// a table, a 1-D one a row with its figure.
func TestOEISGames(t *testing.T) {
	file, err := filepath.Abs("../examples/games.star")
	if err != nil {
		t.Fatal(err)
	}
	rep := runJob(t, `sections:
  - title: three rows
    game: {starlark: {file: `+file+`, name: node_kayles, params: {rows: 3, cols: "1..9"}}}
    show: [value, plot]
  - title: ladder
    game: {starlark: {file: `+file+`, name: node_kayles, params: {rows: 2, cols: "1..12"}}}
    show: [value]
  - title: grids
    game: {starlark: {file: `+file+`, name: node_kayles, params: {rows: "1..2", cols: "1..3"}}}
    show: [value]
`)
	entry := func(id string) *OEISEntry {
		for k := range OEIS {
			if OEIS[k].ID == id {
				return &OEIS[k]
			}
		}
		t.Fatalf("%s not in the table", id)
		return nil
	}
	for _, c := range []struct {
		id         string
		start, end int
	}{{"A316632", 0, 9}, {"A000035", 9, 21}} {
		e := entry(c.id)
		for i, sr := range rep.Sections[c.start:c.end] {
			a, ok := e.Term(i + 1)
			if !ok || sr.Results.Value == nil || a != *sr.Results.Value {
				t.Errorf("%s: a(%d) = %d, %v; the game's value %v", c.id, i+1, a, ok, sr.Results.Value)
			}
		}
	}
	var md, html bytes.Buffer
	if err := Markdown(&md, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	m := md.String()
	for _, want := range []string{"Matches OEIS A316632", "for n = 1 to 9", "Matches OEIS A000035", "| rows \\ cols |", "| cols |"} {
		if !strings.Contains(m, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, m)
		}
	}
	if n := strings.Count(html.String(), "<svg "); n != 1 {
		t.Errorf("HTML: %d figures, want 1 (the values of 3 × n)", n)
	}
}
