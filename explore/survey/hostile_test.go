//go:build unix

package survey

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The hostile cases of the survey's database and merge (issue 21); the
// command's own are in cmd/nimbook/internal/e2e/hostile.

const small = "title: Small\nsurvey:\n  octal: {digits: 1, upto: 50}\nshow: [period]\n"

// Two runs starting together on a new database: both find it whole and
// of their survey, 20 times in a row (it failed in 4 to 6 of 10 with "no
// such table: meta").
func TestCreateRace(t *testing.T) {
	s := mustParse(t, small)
	dir := t.TempDir()
	for round := range 20 {
		path := filepath.Join(dir, fmt.Sprintf("race%d.db", round))
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for g := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, err := Create(path, s)
				if err == nil {
					err = st.Put(Row{Index: g, Game: "{}", Params: "{}", Status: StatusDone, Results: "{}", Version: "t"})
					st.Close()
				}
				errs[g] = err
			}()
		}
		wg.Wait()
		for g, err := range errs {
			if err != nil {
				t.Fatalf("round %d, run %d: %v", round, g, err)
			}
		}
		st, err := OpenRead(path)
		if err != nil {
			t.Fatal(err)
		}
		have, _ := st.Statuses()
		st.Close()
		if len(have) != 2 {
			t.Fatalf("round %d: %d rows, want both runs' 2", round, len(have))
		}
	}
	if l := tempFiles(t, dir); l != nil {
		t.Errorf("left behind: %v", l)
	}
}

// The same with processes, as two `nimbook survey` started together.
func TestCreateRaceProcesses(t *testing.T) {
	if p := os.Getenv("NIMBOOK_CREATE_DB"); p != "" {
		st, err := Create(p, mustParse(t, small))
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		return
	}
	dir := t.TempDir()
	for round := range 20 {
		path := filepath.Join(dir, fmt.Sprintf("race%d.db", round))
		var cmds []*exec.Cmd
		for range 2 {
			c := exec.Command(os.Args[0], "-test.run=^TestCreateRaceProcesses$")
			c.Env = append(os.Environ(), "NIMBOOK_CREATE_DB="+path)
			cmds = append(cmds, c)
		}
		outs := make([][]byte, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, c := range cmds {
			wg.Add(1)
			go func() { defer wg.Done(); outs[i], errs[i] = c.CombinedOutput() }()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, process %d: %v\n%s", round, i, err, outs[i])
			}
		}
	}
	if l := tempFiles(t, dir); l != nil {
		t.Errorf("left behind: %v", l)
	}
}

func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// Paths a database cannot be, refused in words before SQLite sees them,
// and paths that must mean themselves (SQLite reads ?, # and % in a URI).
func TestDatabasePaths(t *testing.T) {
	s := mustParse(t, small)
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte("not a database at all, not even close, but long enough to be read as a header by SQLite……"), 0o644)
	foreign := filepath.Join(dir, "foreign.db")
	if db, err := sql.Open("sqlite", foreign); err == nil {
		db.Exec("CREATE TABLE t (x)")
		db.Close()
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	fifo := filepath.Join(dir, "fifo.db")
	syscall.Mkfifo(fifo, 0o644)
	tests := []struct {
		name, path string
		want       string // in the error; "" for none
	}{
		{"/dev/null", os.DevNull, "/dev/null is not a regular file (a device)"},
		{"a named pipe", fifo, "is not a regular file (a named pipe)"},
		{"a directory", dir, "is a directory, not a database"},
		{"a missing directory", filepath.Join(dir, "nodir", "s.db"), "the directory " + filepath.Join(dir, "nodir") + " does not exist"},
		{"a file as a directory", filepath.Join(garbage, "s.db"), "is not a directory"},
		{"not SQLite", garbage, "garbage.db: not an SQLite database"},
		{"another program's database", foreign, "not a nimbook survey database"},
		{"an empty file", empty, ""},
		{"a question mark", filepath.Join(dir, "a?mode=ro.db"), ""},
		{"a hash", filepath.Join(dir, "b#c.db"), ""},
		{"a percent", filepath.Join(dir, "c%20d.db"), ""},
		{"a blank and a quote", filepath.Join(dir, "it's here.db"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, journalBefore := os.Lstat(tt.path + "-journal")
			st, err := Create(tt.path, s)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				st.Close()
				if _, err := os.Stat(tt.path); err != nil {
					t.Errorf("the database is not at its path: %v", err)
				}
				ro, err := OpenRead(tt.path)
				if err != nil {
					t.Fatal(err)
				}
				ro.Close()
				return
			}
			if err == nil {
				st.Close()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if strings.Contains(err.Error(), ".tmp") {
				t.Errorf("%v names a temporary file", err)
			}
			if _, err := os.Lstat(tt.path + "-journal"); err == nil && journalBefore != nil {
				os.Remove(tt.path + "-journal")
				t.Errorf("left %s-journal", tt.path)
			}
			for _, suffix := range []string{"-wal", "-shm"} {
				if _, err := os.Lstat(tt.path + suffix); err == nil && tt.path != dir {
					t.Errorf("left %s%s", tt.path, suffix)
				}
			}
		})
	}
	// Reading refuses the same, and a missing database.
	for _, p := range []string{os.DevNull, dir, filepath.Join(dir, "missing.db")} {
		if _, err := OpenRead(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("OpenRead(%s): %v", p, err)
		}
	}
	if l := tempFiles(t, dir); l != nil {
		t.Errorf("left behind: %v", l)
	}
}

// A database that can be read but not written: a report over it is fine,
// computing into it is refused as read-only (it was told to "run the
// same command again"). Root writes anywhere: the check then runs as
// nobody in a process of its own.
func TestReadOnlyDatabase(t *testing.T) {
	if dir := os.Getenv("NIMBOOK_RO_DIR"); dir != "" {
		readOnlyCheck(t, dir)
		return
	}
	base := t.TempDir()
	dir := filepath.Join(base, "ro")
	os.Mkdir(dir, 0o755)
	s := mustParse(t, small)
	path := filepath.Join(dir, "s.db")
	runAll(t, s, path, Shard{I: 0, N: 2}, 1) // half of it
	if os.Geteuid() != 0 {
		os.Chmod(path, 0o444)
		os.Chmod(dir, 0o555)
		defer os.Chmod(dir, 0o755)
		readOnlyCheck(t, dir)
		return
	}
	// nobody must reach the directory and run the test binary.
	bin := filepath.Join(base, "survey.test")
	data, err := os.ReadFile(os.Args[0])
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
	c := exec.Command(bin, "-test.run=^TestReadOnlyDatabase$", "-test.v")
	c.Dir = dir
	c.Env = append(os.Environ(), "NIMBOOK_RO_DIR="+dir, "HOME="+dir, "GOCACHE=off")
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := c.CombinedOutput(); err != nil || !strings.Contains(string(out), "PASS") {
		t.Errorf("as nobody: %v\n%s", err, out)
	}
}

func readOnlyCheck(t *testing.T, dir string) {
	s := mustParse(t, small)
	path := filepath.Join(dir, "s.db")
	st, err := Create(path, s)
	if err != nil {
		t.Fatalf("a read-only database of the survey: %v", err)
	}
	defer st.Close()
	if !st.ReadOnly {
		t.Fatal("not seen as read-only")
	}
	have, err := st.Statuses()
	if err != nil || len(have) == 0 {
		t.Fatalf("reading it: %d rows, %v", len(have), err)
	}
	if err := st.Writable(0); err != nil {
		t.Errorf("nothing to compute: %v", err)
	}
	err = st.Writable(len(s.Variants) - len(have))
	if err == nil || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), fmt.Sprintf("holds %d of %d", len(have), len(s.Variants))) || strings.Contains(err.Error(), "again") {
		t.Errorf("computing into it: %v", err)
	}
	var se *StoreError
	if !errors.As(err, &se) {
		t.Errorf("%T is not a StoreError", err)
	}
	if l := tempFiles(t, dir); l != nil {
		t.Errorf("left behind: %v", l)
	}
}

// SQLite's bare errors come with the file and a cause in words.
func TestStoreErrorWords(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		code int
		want string
	}{
		{sqliteFull, "the disk is full"},
		{sqliteReadOnly, "read-only"},
		{sqliteBusy, "locked"},
		{sqliteCorrupt, "damaged"},
		{sqliteNotADB, "not an SQLite database"},
	}
	for _, tt := range tests {
		// Extended codes carry the primary one in their low byte.
		e := dbError(filepath.Join(dir, "s.db"), &fakeCode{tt.code | 3<<8})
		if !strings.HasPrefix(e.Error(), "survey: "+filepath.Join(dir, "s.db")+": ") || !strings.Contains(e.Error(), tt.want) {
			t.Errorf("code %d: %v", tt.code, e)
		}
	}
}

type fakeCode struct{ c int }

func (f *fakeCode) Error() string { return fmt.Sprintf("sqlite error (%d)", f.c) }
func (f *fakeCode) Code() int     { return f.c }

// Merging shards that disagree on a variant fails and names it, both
// databases and both results; nothing is written. Rows that agree, or a
// result over a failure, merge (issue 21: the last one won, silently).
func TestMergeDisagreement(t *testing.T) {
	s := mustParse(t, small)
	game := `{"octal":{"code":"0.1","upto":50}}`
	row := func(status, results string) Row {
		r := Row{Index: 0, Game: game, Params: `{"code":"0.1"}`, Status: status, Results: results, Seconds: 1, Version: "v"}
		if status != StatusDone {
			r.Error, r.Results = "failed", ""
		}
		return r
	}
	tests := []struct {
		name string
		a, b Row
		want string // in the error; "" merges
		kept string // the status merged
	}{
		{"identical", row(StatusDone, `{"period":1}`), row(StatusDone, `{"period":1}`), "", StatusDone},
		{"same results, other timing", row(StatusDone, `{"period":1}`), func() Row { r := row(StatusDone, `{"period":1}`); r.Seconds, r.Version = 9, "w"; return r }(), "", StatusDone},
		{"a result over an error", row(StatusError, ""), row(StatusDone, `{"period":1}`), "", StatusDone},
		{"an error after a result", row(StatusDone, `{"period":1}`), row(StatusError, ""), "", StatusDone},
		{"two refusals", row(StatusRefused, ""), row(StatusRefused, ""), "", StatusRefused},
		{"two results", row(StatusDone, `{"period":1}`), row(StatusDone, `{"period":2}`), `variant 0 (` + game + `) is done in both`, ""},
		{"two games", row(StatusDone, `{"period":1}`), func() Row { r := row(StatusDone, `{"period":1}`); r.Game = `{"octal":{"code":"0.2"}}`; return r }(), "variant 0 is the game", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			put := func(name string, r Row) string {
				p := filepath.Join(dir, name)
				st, err := Create(p, s)
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				if err := st.Put(r); err != nil {
					t.Fatal(err)
				}
				return p
			}
			a, b := put("a.db", tt.a), put("b.db", tt.b)
			out := filepath.Join(dir, "out.db")
			os.WriteFile(out+".keep", nil, 0o644)
			_, err := Merge(out, []string{a, b})
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) || !strings.Contains(err.Error(), "nothing was written") {
					t.Errorf("err = %v, want %q naming both databases", err, tt.want)
				}
				if _, err := os.Stat(out); err == nil {
					t.Error("the merge wrote its output")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st, err := OpenRead(out)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if have, _ := st.Statuses(); have[0] != tt.kept {
				t.Errorf("merged status %q, want %q", have[0], tt.kept)
			}
		})
	}
	// The output already merged disagrees with a shard: refused, and the
	// output is left as it was.
	dir := t.TempDir()
	out := filepath.Join(dir, "out.db")
	for i, res := range []string{`{"period":1}`, `{"period":2}`} {
		p := filepath.Join(dir, fmt.Sprintf("s%d.db", i))
		st, _ := Create(p, s)
		st.Put(row(StatusDone, res))
		st.Close()
		if _, err := Merge(out, []string{p}); (err != nil) != (i == 1) {
			t.Errorf("merge %d: %v", i, err)
		}
	}
	before, _ := os.ReadFile(out)
	if st, err := OpenRead(out); err == nil {
		rows, _ := st.Rows()
		st.Close()
		if len(rows) != 1 || rows[0].Results != `{"period":1}` {
			t.Errorf("out holds %+v", rows)
		}
	}
	if after, _ := os.ReadFile(out); string(after) != string(before) {
		t.Error("out changed")
	}
}

// A directory of shards is merged as its .db files (the Slurm merge job
// names the directory: a million shards do not fit on a command line).
func TestMergeDirectory(t *testing.T) {
	s := mustParse(t, twoDigits)
	dir := t.TempDir()
	single := filepath.Join(dir, "single.db")
	runAll(t, s, single, Shard{}, 2)
	shards := filepath.Join(dir, "out.db.shards")
	os.Mkdir(shards, 0o755)
	for i := range 11 {
		runAll(t, s, filepath.Join(shards, fmt.Sprintf("%d.db", i)), Shard{I: i, N: 11}, 1)
	}
	// Not databases of the merge: logs, and a temporary file.
	os.WriteFile(filepath.Join(shards, "3.log"), []byte("log"), 0o644)
	os.WriteFile(filepath.Join(shards, ".4.db.tmp123"), []byte("x"), 0o644)
	out := filepath.Join(dir, "out.db")
	if _, err := Merge(out, []string{shards}); err != nil {
		t.Fatal(err)
	}
	if got, want := reportJSON(t, s, out), reportJSON(t, s, single); string(got) != string(want) {
		t.Error("the merged directory differs from the single run")
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := Merge(out, []string{empty}); err == nil || !strings.Contains(err.Error(), "holds no database") {
		t.Errorf("an empty directory: %v", err)
	}
	if _, err := Merge(os.DevNull, []string{shards}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("merging into /dev/null: %v", err)
	}
	if _, err := Merge(out, []string{os.DevNull}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("merging /dev/null: %v", err)
	}
	names := []string{"10.db", "2.db", "b.db", "a.db", "1.db"}
	sort.Slice(names, func(i, j int) bool { return nameLess(names[i], names[j]) })
	if strings.Join(names, " ") != "1.db 2.db 10.db a.db b.db" {
		t.Errorf("order %v", names)
	}
}

// The merge keeps the mode (and, as root, the owner) of the database it
// replaces, as every rewrite does.
func TestMergeKeepsOwner(t *testing.T) {
	s := mustParse(t, small)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.db")
	shard := filepath.Join(dir, "s.db")
	runAll(t, s, shard, Shard{}, 1)
	if _, err := Merge(out, []string{shard}); err != nil {
		t.Fatal(err)
	}
	os.Chmod(out, 0o600)
	uid := os.Getuid()
	if uid == 0 {
		uid = 65534
		os.Chown(out, uid, 65534)
	}
	if _, err := Merge(out, []string{shard}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(out)
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != uid || fi.Mode().Perm() != 0o600 {
		t.Errorf("owner %d mode %o, want %d 600", st.Uid, fi.Mode().Perm(), uid)
	}
}

// The cluster's MaxArraySize, from its slurm.conf: what --shards is
// checked against.
func TestMaxArraySize(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, conf string
		want       int
	}{
		{"set", "ClusterName=x\nMaxArraySize=5000\n", 5000},
		{"with blanks and case", "  maxarraysize=20 SchedulerType=sched/backfill\n", 20},
		{"commented out", "#MaxArraySize=5000\nClusterName=x # MaxArraySize=7\n", DefaultMaxArraySize},
		{"not set", "ClusterName=x\n", DefaultMaxArraySize},
		{"over Slurm's own bound", "MaxArraySize=999999999\n", MaxShards},
		{"garbage", "MaxArraySize=lots\n", DefaultMaxArraySize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conf := filepath.Join(dir, "slurm.conf")
			os.WriteFile(conf, []byte(tt.conf), 0o644)
			t.Setenv("SLURM_CONF", conf)
			if n, from := MaxArraySize(); n != tt.want || from != conf {
				t.Errorf("%d from %s, want %d from %s", n, from, tt.want, conf)
			}
		})
	}
	t.Setenv("SLURM_CONF", filepath.Join(dir, "missing.conf"))
	if n, from := MaxArraySize(); n != DefaultMaxArraySize || !strings.Contains(from, "default") {
		t.Errorf("no slurm.conf: %d from %s", n, from)
	}
}

// A here-document's delimiter is never a line of its body: the body
// cannot end it early and run what follows as the outer script.
func TestHeredoc(t *testing.T) {
	body := "echo one\nNIMBOOK_ARRAY\ntouch PWNED\nNIMBOOK_ARRAY_1\n"
	h := heredoc("NIMBOOK_ARRAY", body)
	if !strings.HasPrefix(h, "<<'NIMBOOK_ARRAY_2'\n") || !strings.HasSuffix(h, "\nNIMBOOK_ARRAY_2\n") {
		t.Errorf("heredoc:\n%s", h)
	}
	out, err := exec.Command("sh", "-c", "cat "+h).Output()
	if err != nil || string(out) != body {
		t.Errorf("sh read %q (%v), want %q", out, err, body)
	}
}

// Check refuses what a job script cannot carry.
func TestSlurmCheck(t *testing.T) {
	ok := Slurm{Bin: "/opt/nimbook", File: "/data/s.yaml", DB: "/data/s t'u.db", Shards: 4}
	if err := ok.Check(1001, "test"); err != nil {
		t.Errorf("a blank and a quote: %v", err)
	}
	tests := []struct {
		name string
		edit func(c *Slurm)
		want string
	}{
		{"newline in the file", func(c *Slurm) { c.File = "/data/a\ntouch PWNED\n#.yaml" }, "the survey file"},
		{"newline in the database", func(c *Slurm) { c.DB = "/data/a\n.db" }, "the database"},
		{"DEL in the binary", func(c *Slurm) { c.Bin = "/opt/a\x7fb" }, "U+007F"},
		{"C1 control", func(c *Slurm) { c.File = "/data/a\u009bb.yaml" }, "U+009B"},
		{"newline in a flag", func(c *Slurm) { c.Flags = []string{"--max-memory", "1GiB\nx"} }, "option"},
		{"percent in the database", func(c *Slurm) { c.DB = "/data/100%.db" }, "%"},
		{"backslash in the database", func(c *Slurm) { c.DB = `/data/a\b.db` }, `\`},
		{"no shards", func(c *Slurm) { c.Shards = 0 }, "at least 1"},
		{"over MaxArraySize", func(c *Slurm) { c.Shards = 1002 }, "MaxArraySize = 1001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.edit(&c)
			if err := c.Check(1001, "test"); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
