package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"time"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/starrule"
	"github.com/nimbook/nimbook/reports"
	"github.com/nimbook/nimbook/templates"
)

// runFlags are the flags of nimbook run (SPEC.md).
type runFlags struct {
	out, format, lang string
	maxPositions      int64
	maxSteps          uint64
	maxStepsFlag      int64
	maxMemory         string
	quiet             bool
	inPlace           bool
	allowErrors       bool
	templates         string
	export            string
	date              string
	png               bool
	wrap              int
	jobs              int
}

func runJob(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run")
	var f runFlags
	fs.StringVar(&f.out, "o", "", "output file (format from its extension)")
	fs.StringVar(&f.format, "format", "", formatList(forJobs, ", "))
	fs.StringVar(&f.lang, "lang", "", "en or fr (over the job file's lang)")
	fs.Int64Var(&f.maxPositions, "max-positions", 0, "most positions an analysis may enumerate")
	fs.StringVar(&f.maxMemory, "max-memory", "", "most memory an analysis may use, e.g. 4GiB")
	fs.Int64Var(&f.maxStepsFlag, "max-steps", 0, "most Starlark steps a notebook cell, a job's game, or a job's rule (each call and in all) may take")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress on standard error")
	fs.BoolVar(&f.inPlace, "in-place", false, "allow -o to overwrite the input notebook")
	fs.BoolVar(&f.allowErrors, "allow-errors", false, "notebooks: keep running after a cell fails (its error is in its outputs)")
	fs.StringVar(&f.templates, "templates", "", "directory of templates overriding the built-in ones")
	fs.StringVar(&f.date, "date", "", "print this date under the title (today: the current date); reports carry none by default")
	fs.BoolVar(&f.png, "png", false, "HTML: figures as PNG images instead of inline SVG")
	fs.IntVar(&f.wrap, "wrap", 10, "values per row of a value table (the seeds use 10; 20 suits long runs)")
	fs.IntVar(&f.jobs, "jobs", 0, "job files: sections computed at once, as memory allows (default: one per core; 1: one after another)")
	fs.StringVar(&f.export, "export", "", "also write each section's sequences (CSV, OEIS b-file), tables (CSV) and game graphs (DOT) into this directory")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("run takes one file (a job .yaml, a notebook .ipynb or .md), got %d", len(pos))
	}
	file := pos[0]
	format, err := outputFormat(f.format, f.out)
	if err != nil {
		return err
	}
	if f.lang != "" && f.lang != "en" && f.lang != "fr" {
		return usagef("--lang %q: write en or fr", f.lang)
	}
	if f.wrap < 1 || f.wrap > 100 {
		return usagef("--wrap %d: write a number of values per row from 1 to 100 (10 or 20 are usual)", f.wrap)
	}
	if f.jobs < 0 {
		return usagef("--jobs %d: write how many sections may run at once, 1 or more (the default, 0, is one per core)", f.jobs)
	}
	if f.date == "today" {
		f.date = time.Now().Format("2006-01-02")
	}
	if err := checkDate(f.date); err != nil {
		return err
	}
	lim, err := limitFlags(fs, f.maxPositions, f.maxMemory)
	if err != nil {
		return err
	}
	if f.maxSteps, err = stepsFlag(fs, f.maxStepsFlag); err != nil {
		return err
	}
	// A call of a job's rule gets the budget a cell has.
	starrule.SetCallSteps(f.maxSteps)
	if f.templates != "" {
		if fi, err := os.Stat(f.templates); err != nil || !fi.IsDir() {
			return fmt.Errorf("--templates %s: no such directory; give the directory holding the templates to override", f.templates)
		}
	}
	var opts job.Options
	opts.Lang = f.lang
	opts.Limits = lim
	opts.Limits.Steps = int64(f.maxSteps) // bounds Starlark rules and games too
	opts.Jobs = f.jobs

	switch lowerExt(file) {
	case "yaml", "yml":
		if f.inPlace {
			// A report never replaces its job file: the flag would be
			// silently ignored.
			return usagef("--in-place rewrites .ipynb notebooks with their executed form; %s is a job file, whose report goes to -o FILE (or standard output)", file)
		}
	case "ipynb", "md", "markdown":
		return runNotebook(ctx, file, f, format, opts.Limits, stdout, stderr)
	default:
		return fmt.Errorf("%s: nimbook run reads job files (.yaml, .yml) and notebooks (.ipynb, or Markdown .md with ```nimbook cells)", file)
	}
	// Every output is checked before the work: a typo in -o or --export
	// must not cost the whole run.
	inputs := []string{file}
	if f.out != "" {
		if err := atomicfile.Check(f.out, atomicfile.Options{Inputs: inputs}); err != nil {
			return err
		}
	}
	if f.export != "" {
		if err := checkExportDir(f.export); err != nil {
			return err
		}
	}
	data, err := readInput(file, maxJobFile)
	if err != nil {
		return err
	}
	j, err := parseJob(ctx, file, data, lim.Memory)
	if err != nil {
		return err
	}
	if rules := ruleFiles(j.Sections...); len(rules) > 0 && f.out != "" {
		// The Starlark files of rules are read too, and known now.
		inputs = append(inputs, rules...)
		if err := atomicfile.Check(f.out, atomicfile.Options{Inputs: inputs}); err != nil {
			return err
		}
	}
	ropts := reports.Options{Lang: f.lang, Date: f.date, PNG: f.png, Wrap: f.wrap, MaxMemory: j.Limits.Memory}
	if opts.Limits.Memory > 0 {
		ropts.MaxMemory = opts.Limits.Memory // the rendering is bounded like the work
	}
	if ropts.Lang == "" {
		ropts.Lang = j.Lang
	}
	if f.templates != "" {
		set, err := templates.Load(f.templates, ropts.Lang)
		if err != nil {
			return err
		}
		ropts.Templates = set
	}
	// The memory limit holds for the whole process: the watchdog stops
	// what the estimates missed.
	mem := j.Limits.Memory
	if lim.Memory > 0 {
		mem = lim.Memory
	}
	wctx, stop := budget.Watch(ctx, mem)
	defer stop()
	// On a terminal, a progress line says which section runs and how far
	// it is; in a pipe or with --quiet, nothing.
	pctx, prog, stopProgress := startProgress(wctx, stderr, f.quiet)
	// Sections run one at a time name themselves on the line; several at
	// once, job.Run keeps the line (the sections done and those running).
	if job.Concurrency(j, opts) == 1 {
		opts.Progress = func(i int, s *job.Section) {
			title := s.Title
			if title == "" {
				title = s.Family
			}
			prog.SetStage(fmt.Sprintf("section %d/%d (%s)", i+1, len(j.Sections), clipLine(title, 40)))
			prog.Start("", 0)
		}
	}
	if !f.quiet {
		// Memory and time are stated before a long computation starts,
		// even in a pipe: a job that will run for minutes says so.
		erase := ""
		if isTerminalWriter(stderr) {
			erase = "\r\x1b[K" // over the progress line, redrawn after
		}
		opts.Estimate = func(i int, s *job.Section, cost string) {
			fmt.Fprintf(stderr, "%snimbook: section %d: %s\n", erase, i+1, sanitizeLine(cost))
		}
	}
	printMemos := memoFiles()
	rep, err := job.Run(pctx, j, opts)
	stopProgress()
	if !f.quiet {
		printMemos(stderr)
	}
	if err != nil {
		return stopped(wctx, err)
	}
	ropts.Lang = rep.Lang
	rf, err := formatFor(format, "a job file's report", forJobs)
	if err != nil {
		return err
	}
	render := func(w io.Writer) error {
		if rf.figures {
			return withTeXFigures(wctx, ropts, f.out, inputs, func(w io.Writer, o reports.Options) error {
				return rf.job(w, rep, o)
			})(w)
		}
		return rf.job(w, rep, ropts)
	}
	// The report is rendered first, the exports written next, and the
	// report put in place last: a report that cannot be rendered leaves no
	// exports, and exports that fail (a full disk) leave no report.
	if f.export == "" {
		if f.out == "" {
			return failed(wctx, writeStdout(wctx, stdout, render))
		}
		return failed(wctx, writeOutput(wctx, f.out, inputs, render))
	}
	return writeWithExports(wctx, stdout, f.out, inputs, render, func() error {
		return writeExports(wctx, f.export, rep, ropts)
	}, f.export)
}

// limitFlags reads --max-positions and --max-memory; the zero Limits
// fields (flag not given) leave the job file's or the defaults.
func limitFlags(fs *flag.FlagSet, positions int64, memory string) (job.Limits, error) {
	var lim job.Limits
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["max-positions"] {
		if positions < 1 {
			return lim, usagef("--max-positions %d: write a number of positions of at least 1 (the default is %d)", positions, job.DefaultLimits.Positions)
		}
		lim.Positions = positions
	}
	if set["max-memory"] {
		m, err := budget.ParseSize(memory)
		if err != nil || m <= 0 {
			return lim, usagef("--max-memory %q: write a size like 512MiB or 4GiB (the default is %s)", memory, budget.FormatSize(job.DefaultLimits.Memory))
		}
		lim.Memory = m
	}
	return lim, nil
}

// stopped is the error to show for work that failed: when its context is
// done, why (the memory limit, Ctrl-C), rather than how it ended.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	cause := budget.Err(ctx)
	if !errors.Is(cause, budget.ErrMemory) {
		return cause // interrupted or terminated: said in a word by main
	}
	// The watchdog stopped a section: say which, and how to give it more.
	var re *job.RunError
	if errors.As(err, &re) {
		where := *re
		where.Err = cause
		return fmt.Errorf("%w; raise it with --max-memory or limits.memory in the job file", &where)
	}
	return fmt.Errorf("%w; raise it with --max-memory or limits.memory in the job file", cause)
}

// outputFormat decides the format: --format, else -o's extension, else md.
func outputFormat(format, out string) (string, error) {
	if format != "" {
		f, ok := formatNamed(format, forJobs)
		if !ok {
			return "", usagef("--format %q: write %s", format, formatList(forJobs, ", "))
		}
		return f, nil
	}
	if out != "" {
		f, ok := formatNamed(lowerExt(out), forJobs)
		if !ok {
			return "", usagef("-o %s: cannot tell the format from the extension; add --format %s", strconv.Quote(out), formatList(forJobs, "|"))
		}
		return f, nil
	}
	return "md", nil
}

// parseJob parses a job file within the memory limit memory (--max-memory;
// 0: the default of job files): checking a section runs its rule file's
// top-level code, which a watchdog stops there like any work.
func parseJob(ctx context.Context, file string, data []byte, memory int64) (*job.Job, error) {
	if memory <= 0 {
		memory = job.DefaultLimits.Memory
	}
	_, stop := budget.Watch(ctx, memory)
	defer stop()
	return job.Parse(file, data)
}

// numericDate is a date written with numbers only, as 2026-11-29 is.
var numericDate = regexp.MustCompile(`^[0-9]+[-/.][0-9]+[-/.][0-9]+$`)

// checkDate refuses a --date written with numbers that is no day of the
// calendar (2026-13-45); words (a term, "Spring 2026") pass as written.
func checkDate(d string) error {
	if !numericDate.MatchString(d) {
		return nil
	}
	if _, err := time.Parse("2006-01-02", d); err != nil {
		return usagef("--date %s: no such day; write the date as YYYY-MM-DD (e.g. 2026-11-29), or today", d)
	}
	return nil
}
