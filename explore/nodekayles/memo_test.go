package nodekayles_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/nodekayles"
)

// TestMemoFile: node-kayles: {…, memo: FILE} keeps the grids' memo between
// runs. A first run of 3 × 1..12 saves it; a second run (a new process:
// the shared solvers forgotten) of the same range loads it and solves no
// component, and one of 3 × 1..14 solves only the parts the two new terms
// add. The values are A316632's (Brown et al., J. Integer Seq. 23 (2020)
// 20.3.5): 2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4. A memo file of
// another game (Cram's) is refused, naming the file; a graph that is not a
// grid keeps no memo file.
func TestMemoFile(t *testing.T) {
	dir := t.TempDir()
	memo := filepath.Join(dir, "nk3.memo")
	limit := job.DefaultLimits.Memory
	run := func(n string) (string, nodekayles.Stats) {
		t.Helper()
		nodekayles.ForgetSolvers()
		// A run releases the shared solvers when it ends; the hold keeps
		// them until their counters are read.
		defer job.Hold()()
		out, err := runJob(t, dir, "sections:\n  - title: x\n    game: {node-kayles: {graph: {grid: [3, \"1.."+n+"\"]}, memo: nk3.memo}}\n    show: [value]\n")
		if err != nil {
			t.Fatal(err)
		}
		st, ok := nodekayles.MemoStats(limit, memo)
		if !ok {
			t.Fatal("no solver of the memo file")
		}
		return strings.ReplaceAll(out, "\n", ""), st
	}
	want12 := `{"value":2}{"value":1}{"value":1}{"value":0}{"value":3}{"value":3}{"value":2}{"value":2}{"value":2}{"value":3}{"value":3}{"value":5}`
	out, first := run("12")
	if out != want12 {
		t.Fatalf("3 × 1..12: %s", out)
	}
	if _, err := os.Stat(memo); err != nil {
		t.Fatalf("no memo file after the first run: %v", err)
	}
	out, again := run("12")
	if out != want12 || again.Solved != 0 || again.Entries != first.Entries {
		t.Errorf("second run of 3 × 1..12: %s, %+v; want the same values, 0 solved, %d entries", out, again, first.Entries)
	}
	out, more := run("14")
	// The entries are pinned; two workers may solve a part at once, so
	// the parts solved are the entries added and a few more (1.4 % more
	// seen on two idle cores: 10 % allowed, far below the 10 155 parts a
	// run without the memo file solves).
	if first.Entries != 3055 || more.Entries != 10155 {
		t.Errorf("memo entries %d after 3 × 1..12, %d after 1..14; want 3055 and 10155", first.Entries, more.Entries)
	}
	if out != want12+`{"value":2}{"value":4}` || more.Solved < more.Entries-first.Entries || more.Solved > (more.Entries-first.Entries)*11/10 {
		t.Errorf("3 × 1..14 after 1..12: %s, %+v (first run %+v)", out, more, first)
	}

	// Cram's memo is not Node Kayles': refused, the file named.
	cram := filepath.Join(dir, "cram.memo")
	nodekayles.ForgetSolvers()
	if _, err := runJob(t, dir, "sections:\n  - game: {cram: {board: [3, 4], memo: cram.memo}}\n    show: [value]\n"); err != nil {
		t.Fatal(err)
	}
	nodekayles.ForgetSolvers()
	_, err := runJob(t, dir, "sections:\n  - game: {node-kayles: {graph: {grid: [3, 4]}, memo: cram.memo}}\n    show: [value]\n")
	if err == nil || !strings.Contains(err.Error(), "memo file "+cram) || !strings.Contains(err.Error(), "rule=") {
		t.Errorf("node-kayles with Cram's memo file: %v; want a refusal naming %s", err, cram)
	}
	// Only grids keep their memo.
	if _, err := runJob(t, dir, "sections:\n  - game: {node-kayles: {graph: {cycle: 9}, memo: p.memo}}\n    show: [value]\n"); err == nil || !strings.Contains(err.Error(), "only the memo of grids") {
		t.Errorf("a cycle with a memo file: %v", err)
	}
}
