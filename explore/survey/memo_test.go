package survey

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/cellgame"
	_ "github.com/nimbook/nimbook/explore/cram"       // cram: {board: …}
	_ "github.com/nimbook/nimbook/explore/nodekayles" // node-kayles: {graph: …}
)

// grids lists the graph.grid (or board) of each variant.
func grids(s *Survey, key string) []string {
	var out []string
	for _, v := range s.Variants {
		for _, p := range v.Params {
			if p.Key == key {
				out = append(out, compact(p.Value))
			}
		}
	}
	return out
}

// A list whose elements are ranges gives a variant per combination, as
// in a job file: grid: [3, "1..4"] is four grids, a list of such lists
// all of theirs, a board's [4, "4..6"] three boards; a Starlark game's
// plain list of values is still a list of variants. Past the limit of
// variants it is refused before any is made.
func TestRangedLists(t *testing.T) {
	for _, tt := range []struct {
		src, key string
		want     []string
	}{
		{`survey: {node-kayles: {graph: {grid: [3, "1..4"]}}}`, "graph.grid", []string{"[3,1]", "[3,2]", "[3,3]", "[3,4]"}},
		{`survey: {node-kayles: {graph: {grid: ["2..3", "1..2"]}}}`, "graph.grid", []string{"[2,1]", "[2,2]", "[3,1]", "[3,2]"}},
		{`survey: {node-kayles: {graph: {grid: [[3, "1..2"], [4, 5]]}}}`, "graph.grid", []string{"[3,1]", "[3,2]", "[4,5]"}},
		{`survey: {cram: {board: [4, "4..6"]}}`, "board", []string{"[4,4]", "[4,5]", "[4,6]"}},
		{`survey: {cram: {board: [[3, 4], [5, "5..6"]]}}`, "board", []string{"[3,4]", "[5,5]", "[5,6]"}},
		{`survey: {cram: {board: [4, 4]}}`, "board", []string{"[4,4]"}},
		{`survey: {starlark: {file: ../../examples/games.star, name: node_kayles, params: {rows: [1, 3], cols: 2}}}`, "params.rows", []string{"1", "3"}},
	} {
		t.Run(tt.src, func(t *testing.T) {
			s, err := Parse(filepath.Join(".", "s.yaml"), []byte(tt.src+"\nshow: [value]\n"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := grids(s, tt.key); !slices.Equal(got, tt.want) {
				t.Errorf("%s: %v, want %v", tt.key, got, tt.want)
			}
		})
	}
	_, err := Parse("s.yaml", []byte("survey: {node-kayles: {graph: {grid: [\"1..4\", \"1..4\"]}}}\nshow: [value]\n"), Options{MaxVariants: 10})
	if err == nil || !strings.Contains(err.Error(), "s.yaml:1: survey.node-kayles.graph.grid: the ranges of grid make more than 10 variants") {
		t.Errorf("16 grids under a limit of 10: %v", err)
	}
}

// A memo file (node-kayles: {…, memo: FILE}) is no input: the survey
// reads nothing of it and leaves it out of its identity, and its
// variants, run in two shards one after the other, share it: the second
// shard loads what the first solved, the values are A316632's (Brown et
// al., J. Integer Seq. 23 (2020) 20.3.5), and the file ends with every
// grid's memo.
func TestSharedMemoSurvey(t *testing.T) {
	dir := t.TempDir()
	src := "survey:\n  node-kayles: {graph: {grid: [3, \"1..10\"]}, memo: nk.memo}\nshow: [value]\n"
	file := filepath.Join(dir, "nk.yaml")
	s := parseMemoSurvey(t, file, src)
	other, err := Parse(file, []byte(strings.Replace(src, "nk.memo", "other.memo", 1)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	none, err := Parse(file, []byte(strings.Replace(src, ", memo: nk.memo", "", 1)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if other.Hash != s.Hash || none.Hash != s.Hash {
		t.Errorf("the memo file changes the survey's identity: %s, %s, %s", s.Hash, other.Hash, none.Hash)
	}
	runAll(t, s, filepath.Join(dir, "0.db"), Shard{I: 0, N: 2}, 1)
	runAll(t, s, filepath.Join(dir, "1.db"), Shard{I: 1, N: 2}, 1)
	memo := filepath.Join(dir, "nk.memo")
	var st cellgame.KeptStats
	for _, f := range cellgame.MemoFiles() {
		if f.File == memo {
			st = f
		}
	}
	// The same survey in one run, with a memo file of its own.
	one := filepath.Join(dir, "one")
	if err := os.Mkdir(one, 0o755); err != nil {
		t.Fatal(err)
	}
	s1, err := Parse(filepath.Join(one, "nk.yaml"), []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, s1, filepath.Join(one, "s.db"), Shard{}, 1)
	var whole int64
	for _, f := range cellgame.MemoFiles() {
		if f.File == filepath.Join(one, "nk.memo") {
			whole = f.Entries
		}
	}
	// Each entry solved once: the second shard loaded the first's.
	if whole == 0 || st.Entries != whole || st.Loaded == 0 || st.Solved != whole {
		t.Errorf("%s; want the %d entries of one run, each solved once, those of the first shard loaded by the second", st, whole)
	}
	want := []int{2, 1, 1, 0, 3, 3, 2, 2, 2, 3} // A316632
	for i, db := range []string{"0.db", "1.db"} {
		var r struct {
			Variants []struct{ Results struct{ Value *int } }
		}
		if err := json.Unmarshal(reportJSON(t, s, filepath.Join(dir, db)), &r); err != nil {
			t.Fatal(err)
		}
		for n := i; n < len(want); n += 2 {
			if v := r.Variants[n].Results.Value; v == nil || *v != want[n] {
				t.Errorf("3 × %d: %v, want %d", n+1, v, want[n])
			}
		}
	}
}

// A Cram survey keeps its memo file as Node Kayles's does: the file is no
// rule file, the variants share it, and a second run solves nothing.
func TestCramMemoSurvey(t *testing.T) {
	dir := t.TempDir()
	s := parseMemoSurvey(t, filepath.Join(dir, "cram.yaml"), "survey:\n  cram: {board: [4, \"4..7\"], memo: cram.memo}\nshow: [value]\n")
	stats := func() cellgame.KeptStats {
		for _, f := range cellgame.MemoFiles() {
			if f.File == filepath.Join(dir, "cram.memo") {
				return f
			}
		}
		return cellgame.KeptStats{}
	}
	runAll(t, s, filepath.Join(dir, "a.db"), Shard{}, 1)
	first := stats()
	runAll(t, s, filepath.Join(dir, "b.db"), Shard{}, 1)
	second := stats()
	if first.Solved == 0 || second.Solved != first.Solved || second.Loaded == 0 {
		t.Errorf("first run %s, then %s; want the second run to load the file and solve nothing more", first, second)
	}
	// P. Beling's table of Cram nimbers: 4 × 4 = 0, 4 × 5 = 2, 4 × 6 = 0,
	// 4 × 7 = 3.
	want := []int{0, 2, 0, 3}
	for _, db := range []string{"a.db", "b.db"} {
		var r struct {
			Variants []struct{ Results struct{ Value *int } }
		}
		if err := json.Unmarshal(reportJSON(t, s, filepath.Join(dir, db)), &r); err != nil {
			t.Fatal(err)
		}
		for n, w := range want {
			if v := r.Variants[n].Results.Value; v == nil || *v != w {
				t.Errorf("%s: 4 × %d: %v, want %d", db, n+4, v, w)
			}
		}
	}
}

// parseMemoSurvey writes src to file and parses it, checking that its
// memo file is not taken for a rule file.
func parseMemoSurvey(t *testing.T, file, src string) *Survey {
	t.Helper()
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ParseFile(file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Rules != "" {
		t.Errorf("the memo file read as a rule file: %q", s.Rules)
	}
	return s
}
