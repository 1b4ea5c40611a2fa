package survey

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
)

// Slurm describes a survey run as a Slurm job array of shard tasks and a
// merge job that depends on them (afterok). Paths are absolute: the jobs
// run wherever Slurm puts them.
type Slurm struct {
	Bin    string // the nimbook binary
	File   string // the survey file
	DB     string // the database the merge writes
	Shards int
	// Jobs is the variants each task runs at once; 0 means the CPUs Slurm
	// gives the task (SLURM_CPUS_PER_TASK, else 1).
	Jobs int
	// Flags are passed to every shard run (limits, --retry).
	Flags []string
	// Sbatch are options passed to both sbatch commands (partition,
	// time, account...); they win over the scripts' #SBATCH lines.
	Sbatch []string
}

// Dir holds the shards' databases and the jobs' logs: DB.shards/.
func (c *Slurm) Dir() string { return c.DB + ".shards" }

// ShardDB is the database of shard i.
func (c *Slurm) ShardDB(i int) string { return filepath.Join(c.Dir(), strconv.Itoa(i)+".db") }

// MaxShards bounds the shards whatever the cluster: Slurm's MaxArraySize
// cannot exceed 4000001.
const MaxShards = 4000001

// DefaultMaxArraySize is Slurm's MaxArraySize when slurm.conf does not
// set it: a job array's task ids run from 0 to MaxArraySize − 1.
const DefaultMaxArraySize = 1001

// slurmConfs are where slurm.conf is looked for when SLURM_CONF is not
// set: Debian's and the usual installs, then the copy slurmd keeps in a
// configless cluster.
var slurmConfs = []string{"/etc/slurm/slurm.conf", "/etc/slurm-llnl/slurm.conf", "/usr/local/etc/slurm.conf", "/run/slurm/conf/slurm.conf", "/var/spool/slurmd/conf-cache/slurm.conf"}

// MaxArraySize is the cluster's MaxArraySize, read from its slurm.conf
// ($SLURM_CONF, else the usual places), and where it was read: the
// file, or "Slurm's default" when no slurm.conf sets it.
func MaxArraySize() (int, string) {
	files := slurmConfs
	if env := os.Getenv("SLURM_CONF"); env != "" {
		files = []string{env}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		n := DefaultMaxArraySize
		for _, line := range strings.Split(string(data), "\n") {
			line, _, _ = strings.Cut(line, "#")
			for _, field := range strings.Fields(line) {
				k, v, ok := strings.Cut(field, "=")
				if ok && strings.EqualFold(k, "MaxArraySize") {
					if m, err := strconv.Atoi(v); err == nil && m >= 1 {
						n = min(m, MaxShards)
					}
				}
			}
		}
		return n, f
	}
	return DefaultMaxArraySize, "Slurm's default; no slurm.conf was found: set SLURM_CONF to read the cluster's"
}

// Check refuses what the scripts cannot carry: a path with a control
// character (a newline would end a line of the script, or Slurm's
// #SBATCH and heredoc lines), or a database path with "%" or "\" (the log
// files' names are patterns in which Slurm reads those), and more shards
// than maxArray tasks.
func (c *Slurm) Check(maxArray int, from string) error {
	for _, p := range []struct{ what, path string }{
		{"the survey file", c.File}, {"the database (--db)", c.DB}, {"the nimbook binary (--binary)", c.Bin},
	} {
		if i := strings.IndexFunc(p.path, isControl); i >= 0 {
			return fmt.Errorf("survey slurm: the path of %s, %s, holds a control character (%U): a job script cannot carry it safely; rename it, or give another path",
				p.what, strconv.Quote(p.path), []rune(p.path[i:])[0])
		}
	}
	for _, f := range append(append([]string{}, c.Flags...), c.Sbatch...) {
		if strings.IndexFunc(f, isControl) >= 0 {
			return fmt.Errorf("survey slurm: the option %s holds a control character: a job script cannot carry it safely", strconv.Quote(f))
		}
	}
	if strings.ContainsAny(c.Dir(), "%\\") {
		return fmt.Errorf("survey slurm: the database path %s holds %q: Slurm reads %% and \\ in the jobs' log file names (%s/%%a.log) as patterns; give a --db without them",
			c.DB, string(c.Dir()[strings.IndexAny(c.Dir(), "%\\")]), c.Dir())
	}
	if c.Shards < 1 {
		return fmt.Errorf("survey slurm: --shards %d: give at least 1", c.Shards)
	}
	if c.Shards > maxArray {
		return fmt.Errorf("survey slurm: --shards %d: a Slurm job array has at most MaxArraySize = %d tasks here (%s); give --shards %d or fewer (each task runs its variants on the CPUs it gets)",
			c.Shards, maxArray, from, maxArray)
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func quoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quote(a)
	}
	return strings.Join(q, " ")
}

// arrayOptions and mergeOptions are the sbatch options of the two jobs
// that hold paths: given on sbatch's command line, where the shell's
// quoting (or none, with Submit) carries any path, rather than on #SBATCH
// lines, which Slurm splits at blanks. The user's options come after
// them and win.
func (c *Slurm) arrayOptions() []string {
	return append([]string{"--output=" + filepath.Join(c.Dir(), "%a.log")}, c.Sbatch...)
}

func (c *Slurm) mergeOptions() []string {
	return append([]string{"--output=" + filepath.Join(c.Dir(), "merge.log")}, c.Sbatch...)
}

// ArrayScript is the batch script of the shard tasks. Each task keeps its
// own database under Dir, so a task run again resumes it, and skips the
// variants the merged database already holds: resubmitting a partly done
// survey computes only what is missing. Its log goes where the sbatch
// options say (Dir/%a.log).
func (c *Slurm) ArrayScript() string {
	jobs := `"${SLURM_CPUS_PER_TASK:-1}"`
	if c.Jobs > 0 {
		jobs = strconv.Itoa(c.Jobs)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=nimbook-survey\n")
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", c.Shards-1)
	fmt.Fprintf(&b, "# Shard $SLURM_ARRAY_TASK_ID of %d of the survey below.\n", c.Shards)
	fmt.Fprintf(&b, "dir=%s\n", quote(c.Dir()))
	args := []string{c.Bin, "survey", c.File}
	fmt.Fprintf(&b, "exec %s --shard \"$SLURM_ARRAY_TASK_ID/%d\" --db \"$dir/$SLURM_ARRAY_TASK_ID.db\" --known %s --jobs %s",
		quoteAll(args), c.Shards, quote(c.DB), jobs)
	if len(c.Flags) > 0 {
		b.WriteString(" " + quoteAll(c.Flags))
	}
	b.WriteString("\n")
	return b.String()
}

// MergeScript is the batch script of the merge job. It names the shards'
// directory, not each shard: survey merge reads the databases in it, so
// that the command line stays short however many shards there are.
func (c *Slurm) MergeScript() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=nimbook-survey-merge\n")
	fmt.Fprintf(&b, "exec %s\n", quoteAll([]string{c.Bin, "survey", "merge", c.DB, c.Dir()}))
	return b.String()
}

// heredoc is a here-document of body for the printed script, under a
// delimiter that is no line of body (the delimiter is quoted: nothing in
// body is expanded).
func heredoc(name, body string) string {
	delim := name
	for i := 1; slices.Contains(strings.Split(body, "\n"), delim); i++ {
		delim = name + "_" + strconv.Itoa(i)
	}
	return "<<'" + delim + "'\n" + body + delim + "\n"
}

// Script is a shell script that submits the job array and the merge job
// with sbatch, as Submit does: what `nimbook survey slurm` prints. Every
// path in it is quoted for the shell.
func (c *Slurm) Script() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "# nimbook survey on Slurm: %d shard tasks (a job array), then a merge once\n", c.Shards)
	fmt.Fprintf(&b, "# every task has succeeded. Run it with sh, or use --submit.\n")
	fmt.Fprintf(&b, "#   survey:   %s\n", quote(c.File))
	fmt.Fprintf(&b, "#   database: %s\n", quote(c.DB))
	fmt.Fprintf(&b, "set -eu\n")
	fmt.Fprintf(&b, "mkdir -p %s\n", quote(c.Dir()))
	fmt.Fprintf(&b, "array=$(sbatch --parsable %s %s)\n", quoteAll(c.arrayOptions()), heredoc("NIMBOOK_ARRAY", c.ArrayScript()))
	fmt.Fprintf(&b, "array=${array%%%%;*}\n")
	fmt.Fprintf(&b, "merge=$(sbatch --parsable --dependency=afterok:\"$array\" %s %s)\n", quoteAll(c.mergeOptions()), heredoc("NIMBOOK_MERGE", c.MergeScript()))
	fmt.Fprintf(&b, "merge=${merge%%%%;*}\n")
	fmt.Fprintf(&b, "echo \"array job $array (%d shards), merge job $merge\"\n", c.Shards)
	return b.String()
}

// Submit submits the job array, then the merge job depending on it, and
// returns their job ids.
func (c *Slurm) Submit(ctx context.Context) (array, merge string, err error) {
	if err := os.MkdirAll(c.Dir(), 0o755); err != nil {
		return "", "", fmt.Errorf("survey slurm: %w", err)
	}
	array, err = sbatch(ctx, c.arrayOptions(), c.ArrayScript())
	if err != nil {
		return "", "", err
	}
	merge, err = sbatch(ctx, append([]string{"--dependency=afterok:" + array}, c.mergeOptions()...), c.MergeScript())
	if err != nil {
		return array, "", err
	}
	return array, merge, nil
}

func sbatch(ctx context.Context, opts []string, script string) (string, error) {
	cmd := exec.CommandContext(ctx, "sbatch", append([]string{"--parsable"}, opts...)...)
	cmd.Stdin = strings.NewReader(script)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.Error); ok {
			return "", fmt.Errorf("sbatch is not installed or not on PATH (install Slurm's client commands, or print the script without --submit)")
		}
		return "", fmt.Errorf("sbatch failed: %s", strings.TrimSpace(errb.String()+" "+err.Error()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
	if id == "" {
		return "", fmt.Errorf("sbatch printed no job id (%q)", errb.String())
	}
	return id, nil
}

// jobStates reads the state of every task of a job (one for a plain job,
// one per array task) from scontrol, keyed by array task id ("" for a
// plain job), with the reason a pending job waits.
func jobStates(ctx context.Context, id string) (map[string]string, string, error) {
	cmd := exec.CommandContext(ctx, "scontrol", "show", "job", "-o", id)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, "", fmt.Errorf("scontrol show job %s: %s", id, strings.TrimSpace(errb.String()+" "+err.Error()))
	}
	states := map[string]string{}
	reason := ""
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		task, state := "", ""
		for _, f := range strings.Fields(line) {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "ArrayTaskId":
				task = v
			case "JobState":
				state = v
			case "Reason":
				reason = v
			}
		}
		states[task] = state
	}
	return states, reason, nil
}

func finished(state string) bool {
	switch state {
	case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED", "":
		return false
	}
	return true
}

// Wait returns once the merge job has finished: nil when it and every
// shard task completed, else an error naming the failed tasks and their
// logs. A merge that can never start (a shard failed) is cancelled.
func (c *Slurm) Wait(ctx context.Context, array, merge string, poll time.Duration) error {
	for {
		ms, reason, err := jobStates(ctx, merge)
		if err != nil {
			return err
		}
		state := ms[""]
		if finished(state) || reason == "DependencyNeverSatisfied" {
			as, _, err := jobStates(ctx, array)
			if err != nil {
				return err
			}
			var failed []string
			tasks := make([]string, 0, len(as))
			for t := range as {
				tasks = append(tasks, t)
			}
			sort.Slice(tasks, func(i, j int) bool { a, _ := strconv.Atoi(tasks[i]); b, _ := strconv.Atoi(tasks[j]); return a < b })
			for _, t := range tasks {
				if s := as[t]; s != "COMPLETED" && finished(s) {
					failed = append(failed, fmt.Sprintf("task %s %s (log: %s)", t, s, filepath.Join(c.Dir(), t+".log")))
				}
			}
			if !finished(state) {
				exec.CommandContext(ctx, "scancel", merge).Run()
			}
			switch {
			case len(failed) > 0:
				return fmt.Errorf("array job %s: %s; the merge job %s did not run; fix and submit again (finished variants are kept)", array, strings.Join(failed, ", "), merge)
			case state != "COMPLETED":
				return fmt.Errorf("merge job %s ended %s (log: %s)", merge, state, filepath.Join(c.Dir(), "merge.log"))
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return budget.Err(ctx)
		case <-time.After(poll):
		}
	}
}
