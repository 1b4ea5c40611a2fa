//go:build unix

package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/nimbook/nimbook/explore/survey"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// Hostile cases of issue 21 that the table in internal/e2e/hostile cannot
// state: files outside the case's directory, owners, processes racing,
// databases made to disagree, another user.

// A database that is a device is refused before SQLite writes its journal
// beside it (/dev/null-journal was left).
func TestSurveyDevNullLeavesNoJournal(t *testing.T) {
	file := writeSurvey(t, "survey:\n  subtraction: {within: 3, upto: 20}\nshow: [period]\n")
	for _, j := range []string{"-journal", "-wal", "-shm"} {
		if _, err := os.Lstat(os.DevNull + j); err == nil {
			t.Skipf("%s%s exists already", os.DevNull, j)
		}
	}
	for _, args := range [][]string{
		{"survey", file, "--db", os.DevNull, "--quiet"},
		{"survey", file, "--known", os.DevNull, "--quiet"},
		{"survey", "merge", os.DevNull, file},
	} {
		_, _, err := runArgs(t, args...)
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%v: %v", args, err)
		}
		for _, j := range []string{"-journal", "-wal", "-shm"} {
			if _, err := os.Lstat(os.DevNull + j); err == nil {
				os.Remove(os.DevNull + j)
				t.Errorf("%v left %s%s", args, os.DevNull, j)
			}
		}
	}
}

// --in-place as root keeps a notebook its owner's and private (it became
// root's and unreadable to its owner).
func TestInPlaceKeepsOwnerAndMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	src, err := os.ReadFile(filepath.Join("testdata", "..", "..", "..", "examples", "notebooks", "new-variant.ipynb"))
	if err != nil {
		t.Skip(err)
	}
	nb := filepath.Join(t.TempDir(), "nb.ipynb")
	os.WriteFile(nb, src, 0o600)
	os.Chown(nb, 65534, 65534)
	if _, errb, err := runArgs(t, "run", nb, "--in-place", "--quiet"); err != nil {
		t.Fatalf("%v\n%s", err, errb)
	}
	fi, err := os.Stat(nb)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 || fi.Mode().Perm() != 0o600 {
		t.Errorf("owner %d:%d mode %o, want 65534:65534 600", st.Uid, st.Gid, fi.Mode().Perm())
	}
}

// Two `nimbook survey` started together on a new database both succeed,
// 20 times in a row (one failed in 4 to 6 of 10 with "no such table:
// meta").
func TestSurveyRaceProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := e2e.Binary(t)
	file := writeSurvey(t, "survey:\n  subtraction: {within: 3, upto: 20}\nshow: [period]\n")
	dir := filepath.Dir(file)
	for round := range 20 {
		db := filepath.Join(dir, fmt.Sprintf("race%d.db", round))
		var wg sync.WaitGroup
		outs := make([][]byte, 2)
		errs := make([]error, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], errs[i] = exec.Command(bin, "survey", file, "--db", db, "--quiet", "--jobs", "1").CombinedOutput()
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, run %d: %v\n%s", round, i, err, outs[i])
			}
		}
		if n := storedRows(t, db); n != 7 {
			t.Fatalf("round %d: %d variants stored, want 7", round, n)
		}
	}
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// Shards that disagree on a variant: survey merge fails, names the
// variant and both databases, and writes nothing (the last one won).
func TestSurveyMergeDisagreement(t *testing.T) {
	file := writeSurvey(t, "survey:\n  subtraction: {within: 3, upto: 20}\nshow: [period]\n")
	dir := filepath.Dir(file)
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	for _, db := range []string{a, b} {
		if _, errb, err := runArgs(t, "survey", file, "--db", db, "--quiet", "--jobs", "1"); err != nil {
			t.Fatalf("%v %s", err, errb)
		}
	}
	// The same variant, another result.
	db, err := sql.Open("sqlite", b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE variants SET results = '{"period":{"proven":false}}' WHERE idx = 3`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out := filepath.Join(dir, "out.db")
	_, _, err = runArgs(t, "survey", "merge", out, a, b)
	if err == nil || !strings.Contains(err.Error(), "variant 3 (") || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("merge: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the merge wrote its output")
	}
	// Identical shards merge.
	if _, _, err := runArgs(t, "survey", "merge", out, a, a); err != nil {
		t.Errorf("identical: %v", err)
	}
}

// The report goes in place only once the exports are written: exports
// that fail leave no report (nor a report on standard output), and an
// export directory this run made is removed; a report that fails leaves
// no exports.
func TestWriteWithExports(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name        string
		out         bool // -o, else standard output
		renderErr   error
		exportErr   error
		existingDir bool
		wantReport  bool
		wantDir     bool
	}{
		{"both written", true, nil, nil, false, true, true},
		{"both on standard output", false, nil, nil, false, true, true},
		{"exports fail", true, nil, boom, false, false, false},
		{"exports fail, standard output", false, nil, boom, false, false, false},
		{"exports fail in an existing directory", true, nil, boom, true, false, true},
		{"report fails", true, boom, nil, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := ""
			if tt.out {
				out = filepath.Join(dir, "r.md")
			}
			ex := filepath.Join(dir, "ex", "sub")
			if tt.existingDir {
				os.MkdirAll(ex, 0o755)
			}
			exported := false
			var stdout bytes.Buffer
			err := writeWithExports(context.Background(), &stdout, out, nil, func(w io.Writer) error {
				io.WriteString(w, "report")
				return tt.renderErr
			}, func() error {
				exported = true
				os.MkdirAll(ex, 0o755)
				os.WriteFile(filepath.Join(ex, "s01-values.csv"), []byte("1"), 0o644)
				return tt.exportErr
			}, ex)
			if (err != nil) != (tt.renderErr != nil || tt.exportErr != nil) {
				t.Errorf("err = %v", err)
			}
			report := stdout.String() == "report"
			if tt.out {
				b, _ := os.ReadFile(out)
				report = string(b) == "report"
			}
			if report != tt.wantReport {
				t.Errorf("report written: %v, want %v", report, tt.wantReport)
			}
			if tt.renderErr != nil && exported {
				t.Error("exports written after the report failed")
			}
			if _, err := os.Stat(ex); (err == nil) != tt.wantDir {
				t.Errorf("export directory there: %v, want %v", err == nil, tt.wantDir)
			}
			if !tt.wantDir && !tt.existingDir {
				if _, err := os.Stat(filepath.Join(dir, "ex")); err == nil {
					t.Error("the export directory's parent, made by the run, was left")
				}
			}
			es, _ := os.ReadDir(dir)
			for _, e := range es {
				if strings.HasPrefix(e.Name(), ".") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// A partial database this user can read but not write: computing into it
// is refused as read-only (it was told to "run the same command again"),
// a report over what it holds is written. Root writes anywhere: the
// command runs as nobody.
func TestSurveyReadOnlyDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if os.Geteuid() != 0 {
		t.Skip("runs the command as nobody")
	}
	base := t.TempDir()
	dir := filepath.Join(base, "ro")
	os.Mkdir(dir, 0o755)
	bin := filepath.Join(base, "nimbook")
	data, err := os.ReadFile(e2e.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bin, data, 0o755)
	for p := base; p != "/"; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o001 == 0 {
			os.Chmod(p, fi.Mode().Perm()|0o001)
			defer os.Chmod(p, fi.Mode().Perm())
		}
	}
	file := filepath.Join(dir, "s.yaml")
	os.WriteFile(file, []byte("survey:\n  subtraction: {within: 3, upto: 20}\nshow: [period]\n"), 0o644)
	if _, errb, err := runArgs(t, "survey", file, "--shard", "0/2", "--quiet"); err != nil {
		t.Fatalf("%v %s", err, errb)
	}
	nobody := func(args ...string) (string, error) {
		c := exec.Command(bin, args...)
		c.Dir = dir
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := c.CombinedOutput()
		return string(out), err
	}
	out, err := nobody("survey", file, "--quiet")
	if err == nil || !strings.Contains(out, "s.db: the database is read-only") || !strings.Contains(out, "holds 4 of 7 variants") || strings.Contains(out, "run the same command again") {
		t.Errorf("computing into it: %v\n%s", err, out)
	}
	out, err = nobody("survey", file, "--shard", "0/2", "--quiet", "--format", "csv")
	if err != nil || strings.Count(out, "\n") != 8 {
		t.Errorf("a report over it: %v\n%s", err, out)
	}
	if n := storedRows(t, filepath.Join(dir, "s.db")); n != 4 {
		t.Errorf("%d rows, want 4", n)
	}
	es, _ := os.ReadDir(dir)
	if len(es) != 2 {
		t.Errorf("files: %v", es)
	}
}

// Errors of the database name it and say why in words (bare SQLite errors
// said "unable to open database file (14)").
func TestSurveyDatabaseErrorsInWords(t *testing.T) {
	file := writeSurvey(t, "survey:\n  subtraction: {within: 3, upto: 20}\nshow: [period]\n")
	dir := filepath.Dir(file)
	tests := []struct {
		name string
		db   string
		want string
	}{
		{"missing directory", filepath.Join(dir, "nodir", "s.db"), filepath.Join(dir, "nodir", "s.db") + ": the directory " + filepath.Join(dir, "nodir") + " does not exist"},
		{"a file as directory", filepath.Join(file, "s.db"), "is not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runArgs(t, "survey", file, "--db", tt.db, "--quiet")
			var se *survey.StoreError
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &se) || strings.Contains(err.Error(), "(14)") && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
