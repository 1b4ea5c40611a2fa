package survey

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
)

const twoDigits = `title: Octal games with two digits
survey:
  octal: {digits: 2, upto: 300}
show: [period, values]
`

// runAll computes every variant of s (of the shard) into a new database.
func runAll(t *testing.T, s *Survey, path string, sh Shard, jobs int) Summary {
	t.Helper()
	st, err := Create(path, s)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	have, err := st.Statuses()
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(context.Background(), s, Missing(s.Select(sh), have, false, false), jobs)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), s, st, p, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func reportJSON(t *testing.T, s *Survey, path string) []byte {
	t.Helper()
	st, err := OpenRead(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.Rows()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := NewReport(s, rows, "").JSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestStoreRoundTrip(t *testing.T) {
	s := mustParse(t, twoDigits)
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := Create(path, s)
	if err != nil {
		t.Fatal(err)
	}
	in := []Row{
		{Index: 3, Game: `{"octal":{"code":"0.4","upto":300}}`, Params: `{"code":"0.4","upto":300}`, Status: StatusDone, Results: `{"period":{"period":34}}`, Seconds: 0.25, Version: "v1"},
		{Index: 1, Game: `{"octal":{"code":"0.2","upto":300}}`, Params: `{"code":"0.2","upto":300}`, Status: StatusRefused, Error: "too many steps", Seconds: 1, Version: "v1"},
	}
	for _, r := range in {
		if err := st.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	st, err = Create(path, s) // reopening the same survey keeps its rows
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Rows()
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0] != in[1] || rows[1] != in[0] {
		t.Errorf("rows %+v, want %+v", rows, in)
	}
	ro, err := OpenRead(path)
	if err != nil {
		t.Fatal(err)
	}
	if ro.Meta.Hash != s.Hash || ro.Meta.Count != 63 || ro.Meta.Family != "octal" || ro.Meta.Schema != SchemaVersion {
		t.Errorf("meta %+v", ro.Meta)
	}
	ro.Close()

	other := mustParse(t, "title: Other\nsurvey: {octal: {digits: 1, upto: 300}}\nshow: [period]")
	if _, err := Create(path, other); err == nil || !strings.Contains(err.Error(), "another survey") || !strings.Contains(err.Error(), "give another --db") {
		t.Errorf("a database of another survey: %v", err)
	}
}

// TestShardCoverage checks that the shards of a survey are disjoint and
// cover it.
func TestShardCoverage(t *testing.T) {
	s := mustParse(t, twoDigits)
	for _, n := range []int{1, 2, 4, 7, 63, 100} {
		seen := map[int]int{}
		for i := 0; i < n; i++ {
			for _, v := range s.Select(Shard{I: i, N: n}) {
				seen[v.Index]++
				if v.Index%n != i {
					t.Errorf("shard %d/%d has variant %d", i, n, v.Index)
				}
			}
		}
		if len(seen) != len(s.Variants) {
			t.Errorf("%d shards cover %d of %d variants", n, len(seen), len(s.Variants))
		}
		for i, c := range seen {
			if c != 1 {
				t.Errorf("%d shards: variant %d in %d shards", n, i, c)
			}
		}
	}
}

// TestMergeEqualsSingle checks that shards run apart and merged give the
// single machine's JSON byte for byte, and that merging again keeps it.
func TestMergeEqualsSingle(t *testing.T) {
	s := mustParse(t, twoDigits)
	dir := t.TempDir()
	single := filepath.Join(dir, "single.db")
	runAll(t, s, single, Shard{}, 2)
	want := reportJSON(t, s, single)

	var shards []string
	for i := 0; i < 3; i++ {
		p := filepath.Join(dir, "shard", "..", "s"+string(rune('0'+i))+".db")
		runAll(t, s, p, Shard{I: i, N: 3}, 1)
		shards = append(shards, p)
	}
	merged := filepath.Join(dir, "merged.db")
	// Two shards first: the third is pending.
	if _, err := Merge(merged, shards[:2]); err != nil {
		t.Fatal(err)
	}
	var part struct{ Count, Done int }
	if err := json.Unmarshal(reportJSON(t, s, merged), &part); err != nil {
		t.Fatal(err)
	}
	if part.Count != 63 || part.Done != 42 {
		t.Errorf("after two shards of three: %+v", part)
	}
	m, err := Merge(merged, shards[2:])
	if err != nil {
		t.Fatal(err)
	}
	if m.Hash != s.Hash {
		t.Errorf("merged meta %+v", m)
	}
	if got := reportJSON(t, s, merged); !bytes.Equal(got, want) {
		t.Errorf("merged JSON differs from the single run:\n%s\nwant\n%s", got[:min(len(got), 400)], want[:400])
	}

	other := filepath.Join(dir, "other.db")
	runAll(t, mustParse(t, "survey: {octal: {digits: 1, upto: 30}}\nshow: [period]"), other, Shard{}, 1)
	if _, err := Merge(merged, []string{other}); err == nil || !strings.Contains(err.Error(), "another survey") {
		t.Errorf("merging another survey: %v", err)
	}
}

// TestRefusedRecorded checks that a variant refused by a limit is recorded
// with its reason and does not stop the others.
func TestRefusedRecorded(t *testing.T) {
	// 0.07 splits heaps: about 1000²/4 steps, more than 10 × 2000.
	src := "limits: {positions: 2000}\nsurvey:\n  octal: {codes: [\"0.1\", \"0.07\", \"0.3\"], upto: 1000}\nshow: [period]\n"
	s := mustParse(t, src)
	path := filepath.Join(t.TempDir(), "s.db")
	sum := runAll(t, s, path, Shard{}, 2)
	if sum.Done != 2 || sum.Refused != 1 || sum.Errors != 0 {
		t.Errorf("summary %+v", sum)
	}
	st, _ := OpenRead(path)
	rows, _ := st.Rows()
	st.Close()
	if len(rows) != 3 || rows[1].Status != StatusRefused || !strings.Contains(rows[1].Error, "limit") || rows[1].Results != "" {
		t.Errorf("rows %+v", rows)
	}
	// Running again computes nothing; --retry the refused one.
	have := map[int]string{}
	for _, r := range rows {
		have[r.Index] = r.Status
	}
	if m := Missing(s.Variants, have, false, false); len(m) != 0 {
		t.Errorf("missing %d", len(m))
	}
	if m := Missing(s.Variants, have, false, true); len(m) != 1 || m[0].Index != 1 {
		t.Errorf("retry %v", m)
	}
	if m := Missing(s.Variants, have, true, false); len(m) != 3 {
		t.Errorf("redo %d", len(m))
	}
}

// TestPlanRefuses checks the refusal of a survey over the limits before
// any work, and the lowering of --jobs to fit the memory limit.
func TestPlanRefuses(t *testing.T) {
	s := mustParse(t, "limits: {positions: 1000}\nsurvey: {octal: {codes: [\"0.07\"], upto: [10, 5000]}}\nshow: [period]")
	_, err := NewPlan(context.Background(), s, s.Variants, 2)
	if err == nil || !strings.Contains(err.Error(), "variant 1") || !strings.Contains(err.Error(), "--max-positions") {
		t.Errorf("positions: %v", err)
	}
	s = mustParse(t, "limits: {memory: 100KiB}\nsurvey: {octal: {codes: [\"0.07\"], upto: 100000}}\nshow: [period]")
	if _, err := NewPlan(context.Background(), s, s.Variants, 2); err == nil || !strings.Contains(err.Error(), "--max-memory") {
		t.Errorf("memory: %v", err)
	}
	// The job's estimate of each (heap.Estimate: 0.07 to 50000 by the
	// sparse-space sweep) is about 632 KiB: three do not fit 1 MiB.
	s = mustParse(t, "limits: {memory: 1MiB}\nsurvey: {octal: {codes: [\"0.07\", \"0.7\", \"0.17\"], upto: 50000}}\nshow: [period]")
	p, err := NewPlan(context.Background(), s, s.Variants, 3)
	if err != nil {
		t.Fatal(err)
	}
	if p.Jobs != 1 || !p.Lowered || !strings.Contains(p.String(), "lowered") {
		t.Errorf("jobs %d lowered %v: %s", p.Jobs, p.Lowered, p)
	}
}

// TestInterrupt checks that a cancelled run stops recording at once: after
// the cancel, only the variants a worker had already finished are told
// finished (one a worker, at most; those in flight are dropped, and the
// run's own grace bounds its wait for them), it keeps the finished
// variants, and running again computes only the rest.
func TestInterrupt(t *testing.T) {
	s := mustParse(t, "survey:\n  octal: {digits: 3, upto: 3000}\nshow: [period]\n")
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := Create(path, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p, _ := NewPlan(context.Background(), s, s.Variants, 2)
	n, after := 0, 0
	sum, err := Run(ctx, s, st, p, RunOptions{Progress: budget.NewProgress(), Finished: func(*Variant, Row) {
		if ctx.Err() != nil {
			after++
		}
		if n++; n == 20 {
			cancel()
		}
	}})
	if after > p.Jobs {
		t.Errorf("%d variants finished after the interrupt, with %d workers", after, p.Jobs)
	}
	if err == nil || !sum.Interrupted {
		t.Fatalf("run: %v %+v", err, sum)
	}
	have, _ := st.Statuses()
	st.Close()
	if len(have) < 20 || len(have) != sum.Done {
		t.Errorf("%d rows kept, %d done", len(have), sum.Done)
	}
	again := runAll(t, s, path, Shard{}, 2)
	if again.Done != len(s.Variants)-len(have) {
		t.Errorf("second run computed %d, want %d", again.Done, len(s.Variants)-len(have))
	}
}

func TestReportForms(t *testing.T) {
	s := mustParse(t, "title: Coins\nsurvey: {coins: {rule: [at-most, exactly], r: \"1..2\", n: 8}}\nshow: [p-positions, steiner]\n")
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := Create(path, s)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := NewPlan(context.Background(), s, s.Variants[:3], 1) // the last one stays pending
	if _, err := Run(context.Background(), s, st, p, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, _ := st.Rows()
	st.Close()
	rep := NewReport(s, rows, "fr")
	if rep.Lang != "fr" || rep.Count != 4 || rep.Done != 3 || rep.Variants[3].Status != StatusPending {
		t.Errorf("report %+v", rep)
	}
	res, err := rep.Variants[0].Decode()
	if err != nil || res.PPositions == nil || res.PPositions.Count != 128 || res.Steiner == nil {
		t.Errorf("decoded %+v %v", res, err)
	}
	var b bytes.Buffer
	if err := rep.JSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Title    string
		Count    int
		Done     int
		Variants []map[string]json.RawMessage
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Coins" || doc.Count != 4 || doc.Done != 3 || len(doc.Variants) != 4 {
		t.Errorf("json %+v", doc)
	}
	if string(doc.Variants[0]["game"]) == "" || string(doc.Variants[3]["status"]) != `"pending"` || doc.Variants[3]["results"] != nil {
		t.Errorf("variants %s", b.String())
	}
	if !strings.HasPrefix(b.String(), "{\n  \"title\": \"Coins\",\n  \"count\": 4,\n  \"done\": 3,\n  \"variants\": [\n    {\n      \"game\": {\n        \"coins\": {\n          \"n\": 8,\n          \"r\": 1,\n          \"rule\": \"at-most\"") {
		t.Errorf("json starts %q", b.String()[:200])
	}
	b.Reset()
	if err := reportCSV(rep, &b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "index,rule,r,n,status,error,p_positions.count,") || !strings.HasPrefix(lines[1], "0,at-most,1,8,done,,128,") || lines[4] != "3,exactly,2,8,pending,"+strings.Repeat(",", strings.Count(lines[0], ",")-5) {
		t.Errorf("csv:\n%s", b.String())
	}
}
