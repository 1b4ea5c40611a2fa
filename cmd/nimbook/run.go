package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
	nbversion "github.com/nimbook/nimbook/explore/version"
	"github.com/nimbook/nimbook/reports"
)

// usageError is a command line the program cannot understand; it exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg + " (run 'nimbook help' for usage)" }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// The usage of each command; nimbook help prints them all, and
// nimbook CMD --help its own.
const (
	runUsage = `  nimbook run FILE [-o OUT] [--format md|html|json|ipynb|pdf|tex|text] [--lang en|fr]
                   [--max-positions N] [--max-memory SIZE] [--jobs N] [--quiet]
                   [--templates DIR] [--export DIR] [--date DATE|today]
                   [--png] [--wrap N] [--allow-errors] [--in-place] [--max-steps N]
      Run a job file (.yaml), a notebook (.ipynb) or a Markdown notebook (.md)
      and write its report (standard output without -o). PDF is A4, made
      without any external program; ipynb is an executed notebook; tex is a
      LaTeX article for pdflatex, its figures written beside it as
      OUT-fig1.pdf, OUT-fig2.pdf… (none on standard output).
      Notebooks stop at the first failing cell unless --allow-errors; -o
      never overwrites the input unless --in-place (notebooks).
      --max-positions N and --max-memory SIZE (e.g. 512MiB, 4GiB) raise or
      lower the limits past which work is refused (default 100000000
      positions and 4GiB, or the job file's limits:).
      --jobs N computes up to N sections of a job file at once, as far as
      their memory estimates fit the limit together (default: one per core;
      1: one after another); the report is the same.
      --max-steps N bounds the Starlark steps of a notebook's cell, and of one
      call of a job's rule (default 100000000 for a call).
      --export DIR also writes, per section NN and analysis, DIR/sNN-values.csv
      and DIR/sNN-values.b.txt (an OEIS b-file), DIR/sNN-table.csv,
      DIR/sNN-weights.csv, DIR/sNN-distribution.csv, DIR/sNN-row-periods.csv,
      DIR/sNN-rare.csv and DIR/sNN-graph.dot, each written atomically; for
      a heap game's values, DIR/sNN-histogram.txt too ("value count" lines
      over g(1..upto), as Rogalski's published octal tables).
`
	evalUsage = `  nimbook eval [--json] [--lang en|fr] [--max-positions N] [--max-memory SIZE]
               [--max-steps N] 'CODE' | -
      Evaluate one notebook cell (Starlark; - reads it from standard input)
      and print its result. --max-steps bounds the Starlark steps of a cell
      (default 1000000000); a cell's limits(...) may lower it, not raise it.
`
	nimUsageText = `  nimbook nim add|mul|inv|sqrt|pow ARGS
      Nimber calculator on 64-bit nimbers, in decimal.
`
	kernelUsage = `  nimbook kernel install [--user] [--prefix DIR] [--binary PATH]
      Register the Jupyter kernel "nimbook".
  nimbook kernel [--debug] --connection-file FILE
      Serve as a Jupyter kernel (Jupyter starts this). Errors go to standard
      error; --debug (or NIMBOOK_KERNEL_DEBUG=1) logs what the kernel does.
`
	playUsageShort = `  nimbook play GAME [options]
      Play against the computer, which never misses a winning move
      (nimbook play --help).
`
	otherUsage = `  nimbook version
      Print the version of nimbook and of Go it was built with.
  nimbook help
`
)

const usage = "nimbook explores impartial combinatorial games.\n\nUsage:\n" +
	runUsage + surveyUsage + evalUsage + nimUsageText + kernelUsage + playUsageShort + otherUsage

// commandUsage is what nimbook CMD --help prints.
var commandUsage = map[string]string{
	"run":    "Usage:\n" + runUsage,
	"eval":   "Usage:\n" + evalUsage,
	"nim":    "Usage:\n" + nimUsageText,
	"kernel": "Usage:\n" + kernelUsage,
	"play":   playUsage,
	"survey": "Usage:\n" + surveyUsage,
}

// wantsHelp reports whether args ask for help: -h, -help or --help before
// any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usagef("no command given")
	}
	cmd, rest := args[0], args[1:]
	if text, ok := commandUsage[cmd]; ok && wantsHelp(rest) {
		_, err := fmt.Fprint(stdout, text)
		return err
	}
	switch cmd {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			if text, ok := commandUsage[rest[0]]; ok {
				_, err := fmt.Fprint(stdout, text)
				return err
			}
		}
		fmt.Fprint(stdout, usage)
		return nil
	case "version", "--version", "-version":
		_, err := fmt.Fprintln(stdout, version())
		return err
	case "nim":
		return runNim(rest, stdout)
	case "run":
		return runJob(ctx, rest, stdout, stderr)
	case "play":
		return runPlay(ctx, rest, stdin, stdout, stderr)
	case "survey":
		return runSurvey(ctx, rest, stdout, stderr)
	case "eval":
		return runEval(ctx, rest, stdin, stdout, stderr)
	case "kernel":
		return runKernel(ctx, rest, stdout, stderr)
	}
	return usagef("unknown command %q", cmd)
}

// version is the module version (a release tag, or a pseudo-version from
// the commit), else the commit built, and the Go release.
func version() string {
	return fmt.Sprintf("nimbook %s (%s)", nbversion.String(), nbversion.GoVersion())
}

// exitStatus is SPEC.md's exit status for err, with the message to print
// (empty: none): 0, 1 for bad input or refused work, 2 for bad usage, and
// 128 + the signal's number (130 for Ctrl-C) when a signal stopped the
// work.
func exitStatus(ctx context.Context, err error) (int, string) {
	var se *signalError
	if errors.As(context.Cause(ctx), &se) {
		if err == nil {
			return se.code(), ""
		}
		return se.code(), se.Error()
	}
	if err == nil {
		return 0, ""
	}
	msg := cleanText(err.Error())
	var u *usageError
	if errors.As(err, &u) {
		return 2, msg
	}
	return 1, msg
}

// parseInterleaved parses flags that may come before or after the
// positional arguments, as SPEC.md allows ("flags may come before or after
// FILE").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

var (
	flagUndefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	flagNoValue   = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	flagBadValue  = regexp.MustCompile(`^invalid (?:boolean )?value ("[^"]*") for (?:flag )?-+([^:]*): (.*)$`)
)

// flagError says what is wrong with a flag in the command's words.
func flagError(err error) error {
	msg := err.Error()
	if m := flagUndefined.FindStringSubmatch(msg); m != nil {
		return usagef("unknown flag %s", flagName(m[1]))
	}
	if m := flagNoValue.FindStringSubmatch(msg); m != nil {
		return usagef("%s needs a value", flagName(m[1]))
	}
	if m := flagBadValue.FindStringSubmatch(msg); m != nil {
		why := "not a whole number"
		switch {
		case strings.Contains(m[3], "out of range"):
			why = "too large"
		case strings.Contains(msg, "boolean"):
			why = "write true or false"
		}
		return usagef("%s %s: %s", flagName(m[2]), m[1], why)
	}
	return usagef("%s", msg)
}

// flagName writes a flag as the usage does: -o, --max-memory.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func lowerExt(path string) string {
	return strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
}

// writeExports writes the --export files of rep into dir, each streamed to
// its file as it is formatted: a sequence of millions of values costs a
// buffer, not a copy of itself.
func writeExports(ctx context.Context, dir string, rep *job.Report, o reports.Options) error {
	err := reports.WriteExports(ctx, dir, rep, o)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return stopped(ctx, err)
	}
	return fmt.Errorf("--export %s: %s", dir, strings.TrimPrefix(err.Error(), "reports: "))
}
