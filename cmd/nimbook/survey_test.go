package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/survey"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// surveyBinary builds the command for the tests that run it as a process
// (kill -9, Slurm).
func surveyBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	return e2e.Binary(t)
}

func writeSurvey(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSurveyCommand(t *testing.T) {
	file := writeSurvey(t, "title: Subtraction\nsurvey:\n  subtraction: {within: 4, upto: 60}\nshow: [period]\n")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"survey", file, "--jobs", "2", "-o", filepath.Join(filepath.Dir(file), "r.json")}, nil, &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	if !strings.Contains(errb.String(), "15 variants") || !strings.Contains(errb.String(), "computed 15 variants (15 done") {
		t.Errorf("stderr %q", errb.String())
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Count, Done int }
	if err := json.Unmarshal(data, &doc); err != nil || doc.Count != 15 || doc.Done != 15 {
		t.Errorf("report %s: %v", data, err)
	}
	if _, err := os.Stat(strings.TrimSuffix(file, ".yaml") + ".db"); err != nil {
		t.Errorf("default database: %v", err)
	}
	// Again: nothing to compute; the CSV form on standard output.
	out.Reset()
	errb.Reset()
	if err := run(context.Background(), []string{"survey", file, "--format", "csv"}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errb.String(), "15 already in") || !strings.Contains(errb.String(), "computed 0 variants") {
		t.Errorf("second run: %q", errb.String())
	}
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 16 || !strings.HasPrefix(lines[0], "index,set,upto,status,error,") {
		t.Errorf("csv %q", out.String())
	}
	// --check states the plan and computes nothing.
	out.Reset()
	if err := run(context.Background(), []string{"survey", "--check", file}, nil, &out, io.Discard); err != nil || !strings.Contains(out.String(), "15 variants of subtraction (varying set)") {
		t.Errorf("--check: %v %q", err, out.String())
	}
}

func TestSurveyUsageAndInput(t *testing.T) {
	file := writeSurvey(t, "survey:\n  coins: {r: \"1..3\", n: [8, x]}\nshow: [weights]\n")
	good := writeSurvey(t, "survey:\n  coins: {r: \"1..3\", n: 8}\nshow: [weights]\n")
	other := writeSurvey(t, "survey:\n  coins: {r: \"1..2\", n: 8}\nshow: [weights]\n")
	tests := []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"no file", []string{"survey"}, true, "one survey file"},
		{"bad shard", []string{"survey", good, "--shard", "4/4"}, true, "0 ≤ I < N"},
		{"auto shard without index", []string{"survey", good, "--shard", "auto/4"}, true, "SLURM_ARRAY_TASK_ID"},
		{"bad format", []string{"survey", good, "--format", "xml"}, true, "json or csv"},
		{"bad file", []string{"survey", file}, false, "s.yaml:2: survey.coins.n"},
		{"other survey's db", []string{"survey", other, "--db", strings.TrimSuffix(good, ".yaml") + ".db"}, false, "another survey"},
		{"merge alone", []string{"survey", "merge", "out.db"}, true, "at least one"},
		{"slurm without shards", []string{"survey", "slurm", good}, true, "--shards N"},
		{"wait without submit", []string{"survey", "slurm", good, "--shards", "2", "--wait"}, true, "--wait goes with --submit"},
	}
	// The database of good exists before "other survey's db".
	if err := run(context.Background(), []string{"survey", good, "--quiet"}, nil, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SLURM_ARRAY_TASK_ID", "")
			t.Setenv("JOB_COMPLETION_INDEX", "")
			err := run(context.Background(), tt.args, nil, io.Discard, io.Discard)
			if err == nil {
				t.Fatal("no error")
			}
			var u *usageError
			if errors.As(err, &u) != tt.usage {
				t.Errorf("usage error %v, want %v: %v", errors.As(err, &u), tt.usage, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%q does not say %q", err, tt.want)
			}
		})
	}
}

func TestShardAuto(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "3")
	sh, err := parseShard("auto/4")
	if err != nil || sh != (survey.Shard{I: 3, N: 4}) {
		t.Errorf("%+v %v", sh, err)
	}
}

// TestSlurmScript checks the printed script: deterministic, an array of N
// shard tasks and a merge that depends on them, sbatch options passed on.
func TestSlurmScript(t *testing.T) {
	file := writeSurvey(t, "survey:\n  coins: {r: \"1..3\", n: 8}\nshow: [weights]\n")
	args := []string{"survey", "slurm", file, "--shards", "3", "--binary", "/opt/nimbook", "--db", "/data/x y.db", "--", "--partition=short", "--time=5"}
	var a, b bytes.Buffer
	if err := run(context.Background(), args, nil, &a, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), args, nil, &b, io.Discard); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("the script differs between two runs")
	}
	for _, want := range []string{
		"#SBATCH --array=0-2",
		"exec /opt/nimbook survey " + file + " --shard \"$SLURM_ARRAY_TASK_ID/3\"",
		"--known '/data/x y.db'",
		"sbatch --parsable '--output=/data/x y.db.shards/%a.log' --partition=short --time=5 <<'NIMBOOK_ARRAY'",
		"sbatch --parsable --dependency=afterok:\"$array\" '--output=/data/x y.db.shards/merge.log' --partition=short --time=5 <<'NIMBOOK_MERGE'",
		// The shards' directory, not one argument per shard.
		"exec /opt/nimbook survey merge '/data/x y.db' '/data/x y.db.shards'\n",
	} {
		if !strings.Contains(a.String(), want) {
			t.Errorf("script lacks %q:\n%s", want, a.String())
		}
	}
	if out, err := exec.Command("sh", "-n", "-c", a.String()).CombinedOutput(); err != nil {
		t.Errorf("sh -n: %v %s", err, out)
	}
}

// TestSurveyKill9 kills a running survey with SIGKILL and runs it again:
// every variant committed before the kill is kept, and only the others
// are computed.
// TestSurveyKill9: kill -9 of a survey whose work is surely running (the
// process is killed by the signal, not ended: a survey that ended before
// the kill tested nothing) leaves a consistent database, whose variants
// stored are kept by the next run, which computes the others only.
// Each variant of the rule spins 2000 steps a heap for 200 heaps: about half
// a second of work in all, far more than the 20 ms between two looks.
func TestSurveyKill9(t *testing.T) {
	bin := surveyBinary(t)
	file := writeSurvey(t, "title: Spinning rule\nsurvey:\n  rule: {file: spin.star, name: take, params: {k: \"1..40\"}, upto: 200}\nshow: [values]\n")
	dir := filepath.Dir(file)
	spin := "def take(n, k):\n    x = 0\n    for i in range(2000):\n        x += i\n    return [[n - j] for j in range(1, min(n, k) + 1)]\n"
	if err := os.WriteFile(filepath.Join(dir, "spin.star"), []byte(spin), 0o644); err != nil {
		t.Fatal(err)
	}
	const variants = 40
	db := strings.TrimSuffix(file, ".yaml") + ".db"
	cmd := exec.Command(bin, "survey", file, "--jobs", "1", "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill once some variants are stored, the others still to do.
	deadline := time.Now().Add(e2e.HangGuard)
	for {
		if n := storedRows(t, db); n >= 5 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no variant stored after %v", e2e.HangGuard)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the survey was not killed by the signal (%v): it ended before; the test must kill running work", cmd.ProcessState)
	}
	// The database the kill left is whole: its integrity checked, every
	// variant stored done with its results.
	checkSurveyDB(t, db)
	kept := storedRows(t, db)
	if kept >= variants {
		t.Fatalf("%d variants stored of %d, yet the survey was killed", kept, variants)
	}
	out, err := exec.Command(bin, "survey", file, "--jobs", "2").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("after kill -9 with %d variants stored:\n%s", kept, out)
	m := regexp.MustCompile(`computed (\d+) variants \((\d+) done`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no summary in %s", out)
	}
	if n, _ := strconv.Atoi(string(m[1])); n != variants-kept {
		t.Errorf("computed %d, want %d (%d − %d kept)", n, variants-kept, variants, kept)
	}
	if !strings.Contains(string(out), strconv.Itoa(kept)+" already in") {
		t.Errorf("the plan does not state the %d kept: %s", kept, out)
	}
	checkSurveyDB(t, db)
	if n := storedRows(t, db); n != variants {
		t.Errorf("%d variants stored after the second run, want %d", n, variants)
	}
}

// checkSurveyDB checks a survey database: SQLite's integrity check, and
// every variant stored done, with results that are JSON.
func checkSurveyDB(t *testing.T, db string) {
	t.Helper()
	st, err := survey.OpenRead(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.Rows()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Status != survey.StatusDone || !json.Valid([]byte(r.Results)) {
			t.Errorf("variant %d stored %s with results %.60q", r.Index, r.Status, r.Results)
		}
	}
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var ok string
	if err := conn.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Errorf("integrity check of %s: %q, %v", db, ok, err)
	}
}

func storedRows(t *testing.T, db string) int {
	t.Helper()
	if _, err := os.Stat(db); err != nil {
		return 0
	}
	st, err := survey.OpenRead(db)
	if err != nil {
		return 0 // not created yet
	}
	defer st.Close()
	have, err := st.Statuses()
	if err != nil {
		return 0
	}
	return len(have)
}
