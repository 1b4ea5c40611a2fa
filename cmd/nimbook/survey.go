package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/reports"
)

const surveyUsage = `  nimbook survey FILE [--db DB] [--jobs N] [--shard I/N] [--redo] [--retry]
                      [-o OUT] [--format md|html|pdf|tex|json|csv] [--lang en|fr]
                      [--max-positions N] [--max-memory SIZE] [--max-variants N]
                      [--known DB] [--check] [--quiet]
      Run every variant of a survey file (one family whose parameters are
      lists or ranges "A..B") on every core, and keep the results in an
      SQLite database, DB (default: FILE with the extension .db), committed
      as each variant finishes. Running again computes only what is
      missing; --redo recomputes all, --retry the refused and failed ones.
      --shard I/N runs the variants whose index is I mod N (I may be "auto":
      $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX); --known DB also skips
      what DB holds. --check states the variants and the cost, and stops.
      -o writes a report over the database: a table of the variants, the
      notable ones and figures across them (md, html, pdf), or the data
      (json, csv).
  nimbook survey merge OUT.db SHARD.db|DIR...
      Combine databases of one survey (and OUT.db itself, if it exists); a
      directory stands for the .db files in it. Two different results of
      one variant are an error, and nothing is written.
  nimbook survey slurm FILE --shards N [--db DB] [--jobs N] [--submit] [--wait]
                       [--binary PATH] [-- SBATCH-OPTIONS...]
      Print a script that submits a Slurm job array of N shard tasks and a
      merge job depending on them (afterok); --submit submits them and
      prints the job ids, --wait returns when the merge has finished
      (exit status 1 if a task failed). Options after -- go to sbatch.
      N is at most the survey's variants and the cluster's MaxArraySize
      (slurm.conf; Slurm's default is 1001).
`

// runSurvey is `nimbook survey ...`.
func runSurvey(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "merge":
			return runSurveyMerge(args[1:], stdout)
		case "slurm":
			return runSurveySlurm(ctx, args[1:], stdout, stderr)
		case "-h", "--help", "help":
			fmt.Fprint(stdout, "Usage:\n"+surveyUsage)
			return nil
		}
	}
	fs := newFlagSet("survey")
	var (
		db, shard, out, format, lang, maxMemory, known string
		jobs, maxVariants                              int
		maxPositions                                   int64
		redo, retry, quiet, check                      bool
	)
	fs.StringVar(&db, "db", "", "the database (default: FILE with the extension .db)")
	fs.IntVar(&jobs, "jobs", 0, "variants run at once (default: every core)")
	fs.StringVar(&shard, "shard", "", "I/N: run the variants whose index is I mod N")
	fs.BoolVar(&redo, "redo", false, "recompute every variant")
	fs.BoolVar(&retry, "retry", false, "recompute the refused and failed variants")
	fs.StringVar(&out, "o", "", "report file (format from its extension)")
	fs.StringVar(&format, "format", "", formatList(forSurveys, ", "))
	fs.StringVar(&lang, "lang", "", "en or fr")
	fs.Int64Var(&maxPositions, "max-positions", 0, "most positions one variant may enumerate")
	fs.StringVar(&maxMemory, "max-memory", "", "most memory the variants in flight may use, e.g. 4GiB")
	fs.IntVar(&maxVariants, "max-variants", 0, "most variants the survey may have")
	fs.StringVar(&known, "known", "", "also skip the variants this database holds")
	fs.BoolVar(&check, "check", false, "check the survey, state its variants and cost, compute nothing")
	fs.BoolVar(&quiet, "quiet", false, "no progress or summary on standard error")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("survey takes one survey file (.yaml), got %d", len(pos))
	}
	file := pos[0]
	if format == "" && out != "" {
		// As run does: a report whose format cannot be told is refused,
		// not silently left unwritten.
		f, ok := formatNamed(lowerExt(out), forSurveys)
		if !ok {
			return usagef("-o %s: cannot tell the format from the extension; add --format %s", strconv.Quote(out), formatList(forSurveys, "|"))
		}
		format = f
	}
	if format != "" {
		f, ok := formatNamed(format, forSurveys)
		if !ok {
			return usagef("--format %q: write %s", format, formatList(forSurveys, ", "))
		}
		format = f
	}
	if check && out != "" {
		return usagef("--check computes nothing and writes no report: drop -o %s, or drop --check", out)
	}
	if lang != "" && lang != "en" && lang != "fr" {
		return usagef("--lang %q: write en or fr", lang)
	}
	if jobs < 0 || maxPositions < 0 || maxVariants < 0 {
		return usagef("--jobs, --max-positions and --max-variants must be positive")
	}
	sh, err := parseShard(shard)
	if err != nil {
		return err
	}
	var o survey.Options
	o.Limits.Positions = maxPositions
	o.MaxVariants = maxVariants
	if maxMemory != "" {
		m, err := job.ParseSize(maxMemory)
		if err != nil {
			return usagef("--max-memory %q: write a size like 512MiB or 4GiB", maxMemory)
		}
		o.Limits.Memory = m
	}
	// A survey holds its variants all at once: they are refused past the
	// memory limit before they are made (survey.VariantBytes), and a
	// watchdog keeps the collector within the limit while they are made
	// and planned. Run has watchdogs of its own, and the report one.
	watchLimit := o.Limits.Memory
	if watchLimit <= 0 {
		watchLimit = job.DefaultLimits.Memory
	}
	wctx, stopWatch := budget.Watch(ctx, watchLimit)
	defer func() { stopWatch() }()
	s, err := survey.ParseFile(file, o)
	if err != nil {
		return err
	}
	if s.Limits.Memory != watchLimit {
		// The file's limits: {memory: ...}.
		stopWatch()
		wctx, stopWatch = budget.Watch(ctx, s.Limits.Memory)
	}
	// The variants are held while the survey runs: the estimates of its
	// work and of its report set them aside.
	defer budget.Hold(int64(len(s.Variants)) * survey.VariantBytes)()
	if db == "" {
		db = defaultDB(file)
	}
	if atomicfile.SameFile(db, file) {
		return fmt.Errorf("--db %s is the survey file: give the database another name (the default is %s)", db, defaultDB(file))
	}
	// The report never replaces what the command reads: the survey file,
	// the database, the --known one, the files of Starlark rules.
	inputs := []string{file, db, known}
	for _, v := range s.Variants {
		for _, f := range ruleFiles(v.Section) {
			if !slices.Contains(inputs, f) {
				inputs = append(inputs, f)
			}
		}
	}
	if out != "" {
		// A report that cannot be written is known before any work.
		if err := atomicfile.Check(out, atomicfile.Options{Inputs: inputs}); err != nil {
			return err
		}
	}
	if check {
		todo := s.Select(sh)
		plan, err := survey.NewPlan(wctx, s, todo, jobs)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d variants of %s (varying %s); %s\n", file, len(s.Variants), s.Family, strings.Join(s.Varying, ", "), plan)
		return nil
	}
	// --known is read before the database is made: a refused --known
	// leaves no new database behind.
	var knownHave map[int]string
	if known != "" && !redo {
		if knownHave, err = readKnown(known, s); err != nil {
			return err
		}
	}
	st, err := survey.Create(db, s)
	if err != nil {
		return err
	}
	defer st.Close()
	have, err := st.Statuses()
	if err != nil {
		return err
	}
	for i, status := range knownHave {
		if _, ok := have[i]; !ok || status == survey.StatusDone {
			have[i] = status
		}
	}
	selected := s.Select(sh)
	todo := survey.Missing(selected, have, redo, retry)
	if err := st.Writable(len(todo)); err != nil {
		return err
	}
	plan, err := survey.NewPlan(wctx, s, todo, jobs)
	if err != nil {
		return err
	}
	stopWatch()
	if !quiet {
		what := fmt.Sprintf("%d variants", len(s.Variants))
		if sh.N > 1 {
			what += fmt.Sprintf(", %d in shard %d/%d", len(selected), sh.I, sh.N)
		}
		fmt.Fprintf(stderr, "nimbook: %s: %s, %d already in %s; %s\n", file, what, len(selected)-len(todo), db, plan)
	}
	start := time.Now()
	printMemos := memoFiles()
	pctx, progress, stop := startProgress(ctx, stderr, quiet)
	sum, runErr := survey.Run(pctx, s, st, plan, survey.RunOptions{Progress: progress})
	stop()
	if !quiet || runErr != nil {
		fmt.Fprintf(stderr, "nimbook: computed %d variants (%d done, %d refused, %d failed) in %.1f s; results in %s\n",
			sum.Done+sum.Refused+sum.Errors, sum.Done, sum.Refused, sum.Errors, time.Since(start).Seconds(), db)
		printMemos(stderr)
	}
	if runErr != nil {
		var se *survey.StoreError
		if errors.As(runErr, &se) {
			// The database failed (a full disk): what to fix comes
			// first, then running again.
			return fmt.Errorf("survey stopped: %w; the variants finished before are kept in %s: once that is fixed, run the same command again to compute the rest", runErr, db)
		}
		if sum.Interrupted {
			return fmt.Errorf("survey stopped (%v); every finished variant is kept in %s: run the same command again to compute the rest", runErr, db)
		}
		return runErr
	}
	if format == "" {
		return nil
	}
	wctx, stopWatch = budget.Watch(ctx, s.Limits.Memory)
	render, err := surveyRender(s, st, format, lang, func(render func(io.Writer, reports.Options) error) func(io.Writer) error {
		return withTeXFigures(wctx, reports.Options{}, out, inputs, render)
	})
	if err != nil {
		return err
	}
	if out == "" {
		err = writeStdout(wctx, stdout, render)
	} else {
		err = writeOutput(wctx, out, inputs, render)
	}
	return surveyStopped(wctx, err)
}

// surveyRender returns the renderer of the report of s over st. JSON and
// CSV are written a variant at a time; the documents are made of a
// survey.Report, refused past the memory limit before it is read.
func surveyRender(s *survey.Survey, st *survey.Store, format, lang string, tex func(func(io.Writer, reports.Options) error) func(io.Writer) error) (func(io.Writer) error, error) {
	if format == "" {
		format = "json"
	}
	rf, err := formatFor(format, s.File+"'s survey report", forSurveys)
	if err != nil {
		return nil, err
	}
	if rf.streamed != nil {
		return func(w io.Writer) error { return rf.streamed(w, s, st) }, nil
	}
	per := rf.surveyBytes
	size, err := st.ResultBytes()
	if err != nil {
		return nil, err
	}
	need := int64(len(s.Variants))*per.variant + size*per.result
	if lim := s.Limits.Memory; need > budget.Available(lim) {
		runtime.GC()
		if used := budget.Used(); need > budget.Available(lim) {
			err := &budget.LimitError{What: fmt.Sprintf("the %s report of %d variants", format, len(s.Variants)), Need: need, Limit: lim, Aside: used + budget.Margin(lim)}
			return nil, fmt.Errorf("%s: %w; write it as JSON or CSV (-o FILE.json or .csv: written a variant at a time), or raise the limit with --max-memory or limits: {memory: SIZE}", s.File, err)
		}
	}
	rows, err := st.Rows()
	if err != nil {
		return nil, err
	}
	rep := survey.NewReport(s, rows, lang)
	if rf.figures {
		// Its figures go beside the report (tex says where).
		return tex(func(w io.Writer, o reports.Options) error { return rf.survey(w, rep, o) }), nil
	}
	return func(w io.Writer) error { return rf.survey(w, rep, reports.Options{}) }, nil
}

// surveyStopped is the error of a report stopped by the memory watchdog,
// naming the flag that raises the limit.
func surveyStopped(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	cause := budget.Err(ctx)
	if errors.Is(cause, budget.ErrMemory) {
		return fmt.Errorf("the report %w; write it as JSON or CSV, or raise the limit with --max-memory or limits: {memory: SIZE}", cause)
	}
	return cause
}

// defaultDB is FILE with its extension replaced by .db.
func defaultDB(file string) string {
	return strings.TrimSuffix(file, filepath.Ext(file)) + ".db"
}

// parseShard reads I/N; I may be "auto": the task index a job array
// scheduler gives (Slurm, Kubernetes Indexed Jobs).
func parseShard(s string) (survey.Shard, error) {
	if s == "" {
		return survey.Shard{}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(ns)
	if !ok || err != nil || n < 1 {
		return survey.Shard{}, usagef("--shard %q: write I/N with 0 ≤ I < N, e.g. --shard 0/4", s)
	}
	if is == "auto" {
		for _, env := range []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"} {
			if v := os.Getenv(env); v != "" {
				is = v
				break
			}
		}
		if is == "auto" {
			return survey.Shard{}, usagef("--shard auto/%d: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set; give the index, e.g. --shard 0/%d", n, n)
		}
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return survey.Shard{}, usagef("--shard %q: write I/N with 0 ≤ I < N, e.g. --shard 0/%d", s, n)
	}
	return survey.Shard{I: i, N: n}, nil
}

// readKnown reads the statuses another database of the same survey
// holds; a missing database holds none.
func readKnown(path string, s *survey.Survey) (map[int]string, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	k, err := survey.OpenRead(path)
	if err != nil {
		return nil, err
	}
	defer k.Close()
	if k.Meta.Hash != s.Hash {
		return nil, fmt.Errorf("--known %s holds the results of another survey (%s: %q), not of %s", path, k.Meta.File, k.Meta.Title, s.File)
	}
	return k.Statuses()
}

func runSurveyMerge(args []string, stdout io.Writer) error {
	fs := newFlagSet("survey merge")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("survey merge takes OUT.db and at least one database to merge into it")
	}
	m, err := survey.Merge(pos[0], pos[1:])
	if err != nil {
		return err
	}
	st, err := survey.OpenRead(pos[0])
	if err != nil {
		return err
	}
	defer st.Close()
	have, err := st.Statuses()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d of %d variants of %q\n", pos[0], len(have), m.Count, m.Title)
	return nil
}

func runSurveySlurm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("survey slurm")
	var (
		db, bin, maxMemory  string
		shards, jobs        int
		maxPositions        int64
		submit, wait, retry bool
	)
	fs.StringVar(&db, "db", "", "the merged database (default: FILE with the extension .db)")
	fs.IntVar(&shards, "shards", 0, "number of shard tasks")
	fs.IntVar(&jobs, "jobs", 0, "variants each task runs at once (default: the CPUs Slurm gives it)")
	fs.BoolVar(&submit, "submit", false, "submit the jobs with sbatch and print their ids")
	fs.BoolVar(&wait, "wait", false, "with --submit: return when the merge has finished")
	fs.BoolVar(&retry, "retry", false, "recompute the refused and failed variants")
	fs.StringVar(&bin, "binary", "", "the nimbook the jobs run (default: this one)")
	fs.Int64Var(&maxPositions, "max-positions", 0, "most positions one variant may enumerate")
	fs.StringVar(&maxMemory, "max-memory", "", "most memory the variants in flight may use")
	// Options after -- are sbatch's: split them off before parsing.
	var sbatchOpts []string
	for i, a := range args {
		if a == "--" {
			args, sbatchOpts = args[:i], args[i+1:]
			break
		}
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("survey slurm takes one survey file, got %d", len(pos))
	}
	if shards < 1 {
		return usagef("survey slurm needs --shards N (N ≥ 1), the number of tasks of the job array")
	}
	if wait && !submit {
		return usagef("--wait goes with --submit")
	}
	file := pos[0]
	var o survey.Options
	o.Limits.Positions = maxPositions
	var flags []string
	if maxPositions > 0 {
		flags = append(flags, "--max-positions", strconv.FormatInt(maxPositions, 10))
	}
	if maxMemory != "" {
		m, err := job.ParseSize(maxMemory)
		if err != nil {
			return usagef("--max-memory %q: write a size like 512MiB or 4GiB", maxMemory)
		}
		o.Limits.Memory = m
		flags = append(flags, "--max-memory", maxMemory)
	}
	if retry {
		flags = append(flags, "--retry")
	}
	if db == "" {
		db = defaultDB(file)
	}
	if atomicfile.SameFile(db, file) {
		return fmt.Errorf("--db %s is the survey file: the merge would replace it; give the database another name (the default is %s)", db, defaultDB(file))
	}
	c := &survey.Slurm{Shards: shards, Jobs: jobs, Flags: flags, Sbatch: sbatchOpts}
	if c.File, err = filepath.Abs(file); err != nil {
		return err
	}
	if c.DB, err = filepath.Abs(db); err != nil {
		return err
	}
	if c.Bin, err = slurmBinary(bin); err != nil {
		return err
	}
	// What the scripts cannot carry, and more tasks than the cluster
	// takes, are refused at once, before the survey is read.
	maxArray, from := survey.MaxArraySize()
	if err := c.Check(maxArray, from); err != nil {
		return err
	}
	// Check the survey now rather than in every task.
	s, err := survey.ParseFile(file, o)
	if err != nil {
		return err
	}
	if shards > len(s.Variants) {
		return fmt.Errorf("survey slurm: --shards %d: %s has %d variants, and a task would have nothing to do; give --shards %d or fewer", shards, file, len(s.Variants), len(s.Variants))
	}
	if _, err := survey.NewPlan(ctx, s, s.Variants, max(jobs, 1)); err != nil {
		return err
	}
	if !submit {
		fmt.Fprint(stdout, c.Script())
		return nil
	}
	array, merge, err := c.Submit(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "array job %s (%d shards), merge job %s -> %s\n", array, shards, merge, c.DB)
	if !wait {
		return nil
	}
	if err := c.Wait(ctx, array, merge, 500*time.Millisecond); err != nil {
		return err
	}
	st, err := survey.OpenRead(c.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	have, err := st.Statuses()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merge job %s done: %d of %d variants in %s\n", merge, len(have), len(s.Variants), c.DB)
	return nil
}

// slurmBinary is the nimbook the jobs run: an absolute path that outlives
// this process (not a `go run` build).
func slurmBinary(bin string) (string, error) {
	if bin == "" {
		p, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("cannot find this program's path; give it with --binary PATH")
		}
		bin = p
	}
	p, err := filepath.Abs(bin)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if strings.HasPrefix(part, "go-build") {
			return "", fmt.Errorf("%s is a temporary `go run` build that will be deleted before the jobs run; build nimbook first (go build -o nimbook ./cmd/nimbook) or give --binary PATH", p)
		}
	}
	if runtime.GOOS == "windows" {
		return "", fmt.Errorf("survey slurm needs a Unix system")
	}
	return p, nil
}
