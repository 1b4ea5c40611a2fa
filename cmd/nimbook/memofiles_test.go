package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A survey and a run whose games keep a memo file say, on standard
// error, what the file holds and what this command did with it: the
// first run solves every entry, the next (a new database, the same file)
// loads them all and solves none; a command that keeps no memo file says
// nothing of the others'. The counts are those of 3 × 1..10 (folded).
func TestMemoFileLines(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "nk.yaml")
	if err := os.WriteFile(file, []byte("survey:\n  node-kayles: {graph: {grid: [3, \"1..10\"]}, memo: nk.memo}\nshow: [value]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	memo := filepath.Join(dir, "nk.memo")
	line := func(args ...string) string {
		t.Helper()
		_, errb, err := runArgs(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errb)
		}
		for _, l := range strings.Split(errb, "\n") {
			if strings.Contains(l, "memo file") {
				return l
			}
		}
		return ""
	}
	first := line("survey", file, "--db", filepath.Join(dir, "a.db"), "--jobs", "1")
	if want := "nimbook: memo file " + memo + ": 929 entries, 929 solved here, 0 taken from other processes at 10 saves"; first != want {
		t.Errorf("first run:\n%s\nwant\n%s", first, want)
	}
	again := line("survey", file, "--db", filepath.Join(dir, "b.db"), "--jobs", "1")
	if want := "nimbook: memo file " + memo + ": 929 entries, 929 loaded at the start, 0 solved here, 0 taken from other processes at 0 saves"; again != want {
		t.Errorf("second run:\n%s\nwant\n%s", again, want)
	}
	job := filepath.Join(dir, "j.yaml")
	if err := os.WriteFile(job, []byte("sections:\n  - game: {node-kayles: {graph: {grid: [3, 4]}}}\n    show: [value]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if l := line("run", job, "--format", "json"); l != "" {
		t.Errorf("a run without a memo file says %q", l)
	}
}
