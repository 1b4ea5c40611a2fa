//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeSbatch puts on PATH an sbatch that keeps each script it is given
// (dir/script.N) and its arguments (dir/args.N, one a line), and prints
// the job id 100+N.
func fakeSbatch(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sb := `#!/bin/sh
n=$(ls "$SBATCH_DIR" | grep -c '^script\.' || true)
cat > "$SBATCH_DIR/script.$n"
for a in "$@"; do printf '%s\n' "$a"; done > "$SBATCH_DIR/args.$n"
echo "10$n;cluster"
`
	if err := os.WriteFile(filepath.Join(dir, "sbatch"), []byte(sb), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("SBATCH_DIR", dir)
	return dir
}

// fakeNimbook writes a program that records its arguments, one a line, in
// the file $ARGV_FILE: what a job script runs.
func fakeNimbook(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	prog := "#!/bin/sh\nfor a in \"$0\" \"$@\"; do printf '%s\\n' \"$a\"; done > \"$ARGV_FILE\"\n"
	if err := os.WriteFile(path, []byte(prog), 0o755); err != nil {
		t.Fatal(err)
	}
}

func lines(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestSlurmScriptQuoting runs the printed script with sh against a fake
// sbatch, then the job scripts it submitted, with paths a shell would
// otherwise split, expand or execute: every program must get each path as
// one argument, unchanged, and nothing in a path may run (issue 21).
func TestSlurmScriptQuoting(t *testing.T) {
	names := []string{
		"x y",
		"it's",
		`$(touch PWNED)`,
		"`touch PWNED`",
		"a;touch PWNED",
		"*",
		`back\slash`,
		"NIMBOOK_ARRAY",
		"-dash",
		"é ü",
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			sbDir := fakeSbatch(t)
			work := filepath.Join(t.TempDir(), name)
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(work, name+".yaml")
			if err := os.WriteFile(file, []byte("survey:\n  coins: {r: \"1..3\", n: 8}\nshow: [weights]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(work, name+" out.db")
			if strings.Contains(name, `\`) {
				db = filepath.Join(filepath.Dir(work), "plain", "out.db") // a log name cannot hold \
			}
			bin := filepath.Join(work, "bin "+name, "nimbook")
			fakeNimbook(t, bin)
			var script bytes.Buffer
			err := run(context.Background(), []string{"survey", "slurm", file, "--shards", "3", "--db", db, "--binary", bin, "--max-memory", "1GiB", "--", "--comment=" + name}, nil, &script, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			cwd := t.TempDir()
			sh := exec.Command("sh", "-c", script.String())
			sh.Dir = cwd
			if out, err := sh.CombinedOutput(); err != nil {
				t.Fatalf("sh: %v\n%s\n%s", err, out, script.String())
			}
			dir := db + ".shards"
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				t.Errorf("the shards' directory %q was not made: %v", dir, err)
			}
			if got, want := lines(t, filepath.Join(sbDir, "args.0")), []string{"--parsable", "--output=" + dir + "/%a.log", "--comment=" + name}; !slices.Equal(got, want) {
				t.Errorf("sbatch of the array got %q, want %q", got, want)
			}
			if got, want := lines(t, filepath.Join(sbDir, "args.1")), []string{"--parsable", "--dependency=afterok:100", "--output=" + dir + "/merge.log", "--comment=" + name}; !slices.Equal(got, want) {
				t.Errorf("sbatch of the merge got %q, want %q", got, want)
			}
			// The job scripts, as Slurm runs them.
			argv := filepath.Join(t.TempDir(), "argv")
			job := exec.Command("sh", filepath.Join(sbDir, "script.0"))
			job.Dir = cwd
			job.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=2", "ARGV_FILE="+argv)
			if out, err := job.CombinedOutput(); err != nil {
				t.Fatalf("array script: %v\n%s", err, out)
			}
			want := []string{bin, "survey", file, "--shard", "2/3", "--db", dir + "/2.db", "--known", db, "--jobs", "1", "--max-memory", "1GiB"}
			if got := lines(t, argv); !slices.Equal(got, want) {
				t.Errorf("the shard task ran %q, want %q", got, want)
			}
			job = exec.Command("sh", filepath.Join(sbDir, "script.1"))
			job.Dir = cwd
			job.Env = append(os.Environ(), "ARGV_FILE="+argv)
			if out, err := job.CombinedOutput(); err != nil {
				t.Fatalf("merge script: %v\n%s", err, out)
			}
			if got, want := lines(t, argv), []string{bin, "survey", "merge", db, dir}; !slices.Equal(got, want) {
				t.Errorf("the merge ran %q, want %q", got, want)
			}
			// Nothing ran that a path spelled.
			for _, d := range []string{cwd, work, sbDir} {
				filepath.Walk(d, func(p string, fi os.FileInfo, err error) error {
					if err == nil && fi.Name() == "PWNED" {
						t.Errorf("a path ran a command: %s", p)
					}
					return nil
				})
			}
		})
	}
}

// TestSlurmSubmitQuoting does the same through --submit: the scripts and
// options handed to sbatch carry the paths unchanged.
func TestSlurmSubmitQuoting(t *testing.T) {
	sbDir := fakeSbatch(t)
	work := filepath.Join(t.TempDir(), "a b'c")
	bin := filepath.Join(work, "nimbook")
	fakeNimbook(t, bin)
	file := filepath.Join(work, "s $HOME.yaml")
	os.WriteFile(file, []byte("survey:\n  coins: {r: \"1..3\", n: 8}\nshow: [weights]\n"), 0o644)
	db := filepath.Join(work, "o`x`.db")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"survey", "slurm", file, "--shards", "2", "--db", db, "--binary", bin, "--submit"}, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "array job 100 (2 shards), merge job 101") {
		t.Errorf("printed %q", out.String())
	}
	if got := lines(t, filepath.Join(sbDir, "args.0")); !slices.Contains(got, "--output="+db+".shards/%a.log") {
		t.Errorf("sbatch got %q", got)
	}
	argv := filepath.Join(t.TempDir(), "argv")
	job := exec.Command("sh", filepath.Join(sbDir, "script.0"))
	job.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=1", "ARGV_FILE="+argv)
	if o, err := job.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, o)
	}
	if got := lines(t, argv); len(got) < 9 || got[2] != file || got[6] != db+".shards/1.db" || got[8] != db {
		t.Errorf("the task ran %q", got)
	}
}

// TestSlurmRefusals: what a job script cannot carry, and more tasks than
// the cluster or the survey takes, are refused at once with what to
// change.
func TestSlurmRefusals(t *testing.T) {
	work := t.TempDir()
	good := filepath.Join(work, "s.yaml")
	src := []byte("survey:\n  coins: {r: \"1..3\", n: 8}\nshow: [weights]\n") // 3 variants
	os.WriteFile(good, src, 0o644)
	nl := filepath.Join(work, "a\ntouch PWNED\n#.yaml")
	os.WriteFile(nl, src, 0o644)
	conf := filepath.Join(work, "slurm.conf")
	os.WriteFile(conf, []byte("ClusterName=x\nMaxArraySize=2 # small\n"), 0o644)
	tests := []struct {
		name string
		args []string
		conf string
		want string
	}{
		{"newline in the survey path", []string{nl}, "", "holds a control character (U+000A)"},
		{"newline in --db", []string{good, "--db", filepath.Join(work, "x\ntouch PWNED\n#.db")}, "", "the database (--db)"},
		{"carriage return in --db", []string{good, "--db", filepath.Join(work, "x\r.db")}, "", "U+000D"},
		{"tab in --binary", []string{good, "--binary", "/opt/nim\tbook"}, "", "the nimbook binary"},
		{"escape in --db", []string{good, "--db", "x\x1b[2J.db"}, "", "control character"},
		{"% in --db", []string{good, "--db", filepath.Join(work, "100%.db")}, "", `holds "%"`},
		{"backslash in --db", []string{good, "--db", filepath.Join(work, `a\b.db`)}, "", `holds "\\"`},
		{"newline in an sbatch option", []string{good, "--", "--comment=a\nb"}, "", "option"},
		{"a billion shards", []string{good, "--shards", "1000000000"}, "", "MaxArraySize"},
		{"a million shards", []string{good, "--shards", "1000000"}, "", "give --shards"},
		{"over the cluster's MaxArraySize", []string{good, "--shards", "3"}, conf, "MaxArraySize = 2 tasks here (" + conf + ")"},
		{"more shards than variants", []string{good, "--shards", "4"}, filepath.Join(work, "none.conf"), "has 3 variants"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SLURM_CONF", tt.conf)
			args := append([]string{"survey", "slurm", "--binary", "/opt/nimbook"}, tt.args...)
			if !slices.Contains(args, "--shards") {
				args = append([]string{"survey", "slurm", "--shards", "2"}, args[2:]...)
			}
			var out bytes.Buffer
			err := run(context.Background(), args, nil, &out, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if out.Len() > 0 {
				t.Errorf("printed a script: %q", out.String())
			}
		})
	}
}
