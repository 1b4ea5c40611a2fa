package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/notebook"
	"github.com/nimbook/nimbook/reports"
)

// newSession is a notebook session whose results display through the
// report renderers, as in `nimbook kernel`, `eval` and `run`.
func newSession(lang string, limits job.Limits, steps uint64) (*notebook.Session, error) {
	return newSessionWith(reports.Bundler{Options: reports.Options{Lang: lang}}, limits, steps, "")
}

// newSessionWith renders results with bd: Print bundles for a PDF.
// steps is the Starlark step budget of a cell (--max-steps; 0: the
// default), a ceiling as the other limits are. dir is the notebook's
// folder, the only one whose .star files cells may read ("": the working
// directory).
func newSessionWith(bd reports.Bundler, limits job.Limits, steps uint64, dir string) (*notebook.Session, error) {
	opts := notebook.Options{
		Renderer: bd,
		Limits:   limits,
		MaxSteps: steps,
		Dir:      dir,
	}
	if limits.Positions > 0 {
		opts.MaxPositions = int(min(limits.Positions, int64(^uint(0)>>1)))
	}
	return notebook.New(opts)
}

// runKernel is `nimbook kernel install ...` and `nimbook kernel
// --connection-file FILE`.
func runKernel(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	newExec := func() (kernel.Executor, error) {
		s, err := newSession("en", job.Limits{}, 0)
		if err != nil {
			return nil, err
		}
		return kernelSession{s}, nil
	}
	// SIGINT interrupts the running cell (the kernel traps it); it must not
	// end the kernel through the command's own interrupt context (main
	// installs none for the kernel; tests may pass one).
	err := kernel.Main(context.WithoutCancel(ctx), args, newExec, stdout, stderr)
	if errors.Is(err, kernel.ErrUsage) {
		msg := strings.TrimPrefix(err.Error(), kernel.ErrUsage.Error()+": ")
		msg, _, _ = strings.Cut(msg, "\n")
		return usagef("kernel: %s", msg)
	}
	return err
}

// kernelSession is a notebook session as the kernel sees it: help requests
// go to the front end's pager and exit ends the kernel, as in IPython.
type kernelSession struct{ *notebook.Session }

func (k kernelSession) Help(code string) (string, bool) {
	text, _, ok := k.Session.Help(code)
	return text, ok
}

func (k kernelSession) IsExit(code string) bool { return k.Session.AsksExit(code) }

// runEval is `nimbook eval [--json] 'CODE'`: one cell in a fresh session.
// CODE "-" reads the cell from standard input.
func runEval(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	lang := fs.String("lang", "en", "en or fr, for the words of results")
	maxPositions := fs.Int64("max-positions", 0, "most positions an analysis may enumerate")
	maxMemory := fs.String("max-memory", "", "most memory the cell may use, e.g. 4GiB")
	maxSteps := fs.Int64("max-steps", 0, "most Starlark steps the cell may take")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("eval takes one cell of code, in quotes (nimbook eval 'nim_mul(2, 3)'), or - to read it from standard input (got %d arguments)", len(pos))
	}
	if *lang != "en" && *lang != "fr" {
		return usagef("--lang %q: write en or fr", *lang)
	}
	lim, err := limitFlags(fs, *maxPositions, *maxMemory)
	if err != nil {
		return err
	}
	steps, err := stepsFlag(fs, *maxSteps)
	if err != nil {
		return err
	}
	code := pos[0]
	in := bufio.NewReader(stdin)
	if code == "-" {
		b, err := io.ReadAll(in)
		if err != nil {
			return fmt.Errorf("eval: reading the cell from standard input: %w", err)
		}
		code = string(b)
	}
	s, err := newSession(*lang, lim, steps)
	if err != nil {
		return err
	}
	// What a cell prints and shows reaches the terminal cleaned.
	tout, terr := forTerminal(stdout), forTerminal(stderr)
	defer tout.Flush()
	defer terr.Flush()
	out := &cliOutput{stdout: tout, stderr: terr, in: in}
	ctx, stop := budget.Watch(ctx, memoryLimit(lim))
	defer stop()
	// A long cell shows its progress on a terminal (what it prints goes
	// to standard output, the line to standard error).
	ctx, _, stopProgress := startProgress(ctx, stderr, false)
	defer stopProgress()
	if *asJSON {
		v, err := s.EvalJSON(ctx, code, out)
		if err != nil {
			return evalError(ctx, err)
		}
		if v == nil {
			return nil
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
		_, err = out.write(tout, b.String())
		return err
	}
	d, err := s.Execute(ctx, code, out)
	if err != nil {
		return evalError(ctx, err)
	}
	if d != nil {
		text, _ := d.Data["text/plain"].(string)
		_, err = out.write(tout, strings.TrimRight(text, "\n")+"\n")
	}
	return err
}

func evalError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("eval: %w", budget.Err(ctx))
	}
	var ce *kernel.CellError
	if errors.As(err, &ce) {
		return fmt.Errorf("eval: %s", ce.Error())
	}
	return fmt.Errorf("eval: %w", err)
}

// cliOutput is a cell's Output in a terminal: streams go to standard
// output and error, displays print their text, and input reads a line
// of standard input (so that play() works in eval).
type cliOutput struct {
	mu             sync.Mutex
	stdout, stderr io.Writer
	in             *bufio.Reader
}

func (o *cliOutput) write(w io.Writer, s string) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return io.WriteString(w, s)
}

func (o *cliOutput) Stream(name, text string) {
	w := o.stdout
	if name == "stderr" {
		w = o.stderr
	}
	o.write(w, text)
}

func (o *cliOutput) Display(d *kernel.Display) {
	if d == nil {
		return
	}
	text, _ := d.Data["text/plain"].(string)
	o.write(o.stdout, strings.TrimRight(text, "\n")+"\n")
}

func (o *cliOutput) Input(prompt string, password bool) (string, error) {
	o.write(o.stdout, prompt)
	line, err := o.in.ReadString('\n')
	if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
		if errors.Is(err, io.EOF) {
			o.write(o.stdout, "\n")
		}
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// runNotebook is `nimbook run` on a notebook (.ipynb, or a Markdown
// notebook .md): every cell runs headlessly, then the executed notebook is
// written (-o out.ipynb), or rendered as a report (-o out.md, out.html;
// Markdown on standard output without -o).
func runNotebook(ctx context.Context, file string, f runFlags, format string, limits job.Limits, stdout, stderr io.Writer) error {
	out := f.out
	if f.inPlace {
		if lowerExt(file) != "ipynb" {
			return usagef("--in-place rewrites .ipynb notebooks; %s is a Markdown notebook: write the result with -o FILE", file)
		}
		if out == "" {
			out = file
			if f.format == "" {
				format = "ipynb"
			}
		}
		if format != "ipynb" {
			return usagef("--in-place writes the executed notebook: drop --format %s, or write the report with -o FILE", format)
		}
	}
	rf, err := formatFor(format, file, forNotebooks)
	if err != nil {
		if format == "json" {
			return fmt.Errorf("%s: --format json is the form of job files' results; for a notebook write ipynb (-o out.ipynb), md, html or pdf", file)
		}
		return fmt.Errorf("%s: a notebook has no %s form; write -o out.ipynb, out.md, out.html, out.pdf or out.tex", file, format)
	}
	// The output is checked before any cell runs.
	var inputs []string
	if !f.inPlace {
		inputs = []string{file}
	}
	if out != "" {
		if err := atomicfile.Check(out, atomicfile.Options{Inputs: inputs}); err != nil {
			if errors.Is(err, atomicfile.ErrInput) {
				return fmt.Errorf("%s: refusing to overwrite the input notebook with -o %s: write the output to another file, or add --in-place to replace the notebook by its executed form", file, out)
			}
			return err
		}
	}
	if f.export != "" {
		return usagef("--export writes the results of job files; a notebook's results are in its cells")
	}
	data, err := readInput(file, maxNotebookFile)
	if err != nil {
		return err
	}
	var nb *nbformat.Notebook
	if lowerExt(file) == "ipynb" {
		nb, err = nbformat.ReadIPYNB(bytes.NewReader(data))
	} else {
		nb, err = nbformat.ParseMarkdown(data)
	}
	if err != nil {
		return fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "nbformat: "))
	}
	lang := f.lang
	if lang == "" {
		lang = "en"
	}
	// For a PDF, results carry PNG figures and leave out what they show. A
	// notebook nimbook writes keeps text/html: shared, it opens untrusted,
	// which shows HTML tables and <img> figures but no Markdown.
	mem := limits.Memory
	if mem <= 0 {
		mem = job.DefaultLimits.Memory
	}
	s, err := newSessionWith(reports.Bundler{Options: reports.Options{Lang: lang, PNG: f.png, MaxMemory: mem}, Print: rf.print, HTML: rf.html}, limits, f.maxSteps, filepath.Dir(file))
	if err != nil {
		return err
	}
	ro := notebook.RunOptions{AllowErrors: f.allowErrors}
	wctx, stop := budget.Watch(ctx, memoryLimit(limits))
	defer stop()
	// On a terminal, a progress line says which cell runs; in a pipe or
	// with --quiet, nothing.
	pctx, prog, stopProgress := startProgress(wctx, stderr, f.quiet)
	defer stopProgress()
	n := 0
	ro.Progress = func(i, total int) {
		n++
		first, _, _ := strings.Cut(strings.TrimSpace(nb.Cells[i].Source), "\n")
		prog.SetStage(fmt.Sprintf("cell %d (%s)", n, clipLine(first, 40)))
		prog.Start("", 0)
	}
	err = s.Run(pctx, nb, ro)
	stopProgress()
	if err != nil {
		if wctx.Err() != nil {
			return fmt.Errorf("%s: %w", file, budget.Err(wctx))
		}
		return cellRunError(file, nb, err)
	}
	render := func(w io.Writer) error {
		o, title := reports.Options{Lang: lang, Date: f.date}, reports.NotebookTitle(nb, file)
		if rf.figures {
			return withTeXFigures(wctx, o, out, inputs, func(w io.Writer, o reports.Options) error {
				return rf.nb(w, nb, title, o)
			})(w)
		}
		return rf.nb(w, nb, title, o)
	}
	if out == "" {
		err = writeStdout(wctx, stdout, render)
	} else {
		err = writeOutput(wctx, out, inputs, render)
	}
	return stopped(wctx, err)
}

// memoryLimit is the memory limit of a notebook run: --max-memory, else
// the default of job files.
func memoryLimit(lim job.Limits) int64 {
	if lim.Memory > 0 {
		return lim.Memory
	}
	return job.DefaultLimits.Memory
}

var cellLine = regexp.MustCompile(`^line (\d+)(?: \(([^)]*)\))?: `)

// cellRunError names the failing cell, and for a Markdown notebook the line
// of the file, as `nimbook run` errors do for job files.
func cellRunError(file string, nb *nbformat.Notebook, err error) error {
	var re *notebook.RunError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s: %w", file, err)
	}
	c := nb.Cells[re.Index]
	msg := re.Err.Value
	if c.Line > 0 {
		if m := cellLine.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			rest := msg[len(m[0]):]
			if m[2] != "" {
				rest = m[2] + ": " + rest
			}
			return fmt.Errorf("%s:%d: cell %d: %s: %s", file, c.Line+n-1, re.Count, re.Err.Name, rest)
		}
		return fmt.Errorf("%s:%d: cell %d: %s", file, c.Line, re.Count, re.Err.Error())
	}
	return fmt.Errorf("%s: cell %d (%s): %s", file, re.Count, strconv.Quote(clipLine(re.Line, 60)), re.Err.Error())
}

func clipLine(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// stepsFlag reads --max-steps: the step budget of a notebook cell.
func stepsFlag(fs *flag.FlagSet, steps int64) (uint64, error) {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "max-steps" })
	if !set {
		return 0, nil
	}
	if steps < 1 {
		return 0, usagef("--max-steps %d: write a number of steps of at least 1 (the default is %d)", steps, notebook.DefaultMaxSteps)
	}
	return uint64(steps), nil
}
