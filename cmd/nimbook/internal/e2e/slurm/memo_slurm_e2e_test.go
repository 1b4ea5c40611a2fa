package slurm

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// a316632 is Node Kayles on 3 × n for n = 1..16, the published terms of
// OEIS A316632 (Brown et al., "Nimber sequences of Node-Kayles games",
// J. Integer Seq. 23 (2020) 20.3.5).
var a316632 = []int{2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3}

// sharedMemoSurvey is Node Kayles on 3 × 1..16 and 4 × 1..9, one memo
// file for all. Its 25 variants split over two shards by index parity:
// shard 1 has 3 × 16 and shard 0 has 4 × 9, so that neither shard's own
// memo holds the other's: the file holds the union only if each save
// merges what the other task wrote.
const sharedMemoSurvey = `title: Node Kayles on 3 × n and 4 × n, one memo
survey:
  node-kayles: {graph: {grid: [[3, "1..16"], [4, "1..9"]]}, memo: nk.memo}
show: [value]
`

// memoLine reads the memo file's line of a survey's standard error or
// log: the entries in the file, those loaded at the start, solved by the
// process itself, and taken from other processes at its saves.
var memoLine = regexp.MustCompile(`memo file .*nk\.memo: (\d+) entries(?:, (\d+) loaded at the start)?, (\d+) solved here, (\d+) taken from other processes`)

type memoCounts struct{ entries, loaded, solved, taken int }

func readMemoLine(t *testing.T, what, text string) memoCounts {
	t.Helper()
	m := memoLine.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s says nothing of the memo file:\n%s", what, text)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return memoCounts{n(m[1]), n(m[2]), n(m[3]), n(m[4])}
}

// TestSurveySlurmSharedMemo runs a survey of Node Kayles grids whose
// variants share one memo file as a 2-task job array on a real Slurm
// cluster: the values are A316632's and the single machine's, the memo
// file ends with the union of both tasks' entries (as many as one
// process solving everything makes, each task having solved part of
// them), and a later run solves nothing.
func TestSurveySlurmSharedMemo(t *testing.T) {
	needSlurm(t)
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	bin := e2e.Binary(t)
	c := startCluster(t)
	nb := func(dir string, args ...string) (string, string) {
		t.Helper()
		cmd := c.command(bin, args...)
		cmd.Dir = dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("nimbook %v: %v\n%s%s", args, err, out.String(), errb.String())
		}
		t.Logf("nimbook %s\n%s", strings.Join(args, " "), errb.String())
		return out.String(), errb.String()
	}
	// One machine, one process, a memo file of its own.
	single := filepath.Join(t.TempDir(), "single")
	shared := filepath.Join(t.TempDir(), "shared")
	for _, d := range []string{single, shared} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "nk.yaml"), []byte(sharedMemoSurvey), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, errs := nb(single, "survey", "nk.yaml", "--db", "single.db", "--jobs", "1")
	union := readMemoLine(t, "the single run", errs).entries
	want, _ := nb(single, "survey", "nk.yaml", "--db", "single.db", "--format", "json", "--quiet")
	if union == 0 {
		t.Fatal("the single run's memo file is empty")
	}
	var res struct {
		Variants []struct {
			Results struct{ Value *int }
		}
	}
	if err := json.Unmarshal([]byte(want), &res); err != nil || len(res.Variants) != 25 {
		t.Fatalf("the single run's JSON: %v, %d variants", err, len(res.Variants))
	}
	for n, v := range a316632 {
		if got := res.Variants[n].Results.Value; got == nil || *got != v {
			t.Errorf("3 × %d: %v, want %d (A316632)", n+1, got, v)
		}
	}

	// The job array: two tasks, one memo file.
	db := filepath.Join(shared, "nk.db")
	out, _ := nb(shared, "survey", "slurm", "nk.yaml", "--shards", "2", "--db", db, "--jobs", "1", "--submit", "--wait", "--", "--time=10")
	if !strings.Contains(out, "25 of 25 variants") {
		t.Errorf("--wait printed %q", out)
	}
	merged, _ := nb(shared, "survey", "nk.yaml", "--db", db, "--format", "json", "--quiet")
	if merged != want {
		t.Errorf("the merged JSON differs from the single machine's:\n%s\nwant:\n%s", merged, want)
	}
	var tasks []memoCounts
	for i := range 2 {
		log, err := os.ReadFile(filepath.Join(db+".shards", strconv.Itoa(i)+".log"))
		if err != nil {
			t.Fatal(err)
		}
		mc := readMemoLine(t, "shard "+strconv.Itoa(i)+"'s log", string(log))
		t.Logf("shard %d: %s", i, memoLine.FindString(string(log)))
		tasks = append(tasks, mc)
		if mc.solved == 0 || mc.solved >= union {
			t.Errorf("shard %d solved %d entries of the %d; want some, not all", i, mc.solved, union)
		}
	}
	if tasks[0].solved+tasks[1].solved < union {
		t.Errorf("the shards solved %d + %d entries, fewer than the %d of the union", tasks[0].solved, tasks[1].solved, union)
	}

	// The file holds the union: a run after the array loads it all and
	// solves nothing.
	_, errs = nb(shared, "survey", "nk.yaml", "--db", filepath.Join(shared, "again.db"), "--jobs", "1")
	again := readMemoLine(t, "the run after the array", errs)
	if again.entries != union || again.loaded != union || again.solved != 0 {
		t.Errorf("after the array the memo file holds %d entries (%d loaded, %d solved again); want the %d of the single run, none solved", again.entries, again.loaded, again.solved, union)
	}
	if _, err := os.Stat(filepath.Join(shared, "nk.memo.lock")); err != nil {
		t.Errorf("no lock file beside the memo: %v", err)
	}
}
