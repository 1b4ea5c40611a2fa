package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// usageError is a command line the program cannot understand; it exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg + " (run 'nimbook help' for usage)" }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

const usage = `nimbook explores impartial combinatorial games.

Usage:
  nimbook run FILE [-o OUT] [--format md|html|json|ipynb|pdf] [--lang en|fr]
                   [--max-positions N] [--max-memory SIZE] [--quiet]
                   [--templates DIR] [--export DIR] [--date DATE|today]
                   [--png] [--wrap N] [--allow-errors] [--in-place]
      Run a job file (.yaml), a notebook (.ipynb) or a Markdown notebook (.md)
      and write its report (standard output without -o). PDF is A4, made
      without any external program; ipynb is an executed notebook.
      Notebooks stop at the first failing cell unless --allow-errors; -o
      never overwrites the input notebook unless --in-place.
      --export DIR also writes, per section NN and analysis, DIR/sNN-values.csv
      and DIR/sNN-values.b.txt (an OEIS b-file), DIR/sNN-table.csv,
      DIR/sNN-weights.csv, DIR/sNN-distribution.csv, DIR/sNN-row-periods.csv,
      DIR/sNN-rare.csv and DIR/sNN-graph.dot, each written atomically.
` + surveyUsage + `  nimbook eval [--json] [--lang en|fr] 'CODE' | -
      Evaluate one notebook cell (Starlark; - reads it from standard input)
      and print its result.
  nimbook nim add|mul|inv|sqrt|pow ARGS
      Nimber calculator on 64-bit nimbers, in decimal.
  nimbook kernel install [--user] [--prefix DIR]
      Register the Jupyter kernel "nimbook".
  nimbook kernel --connection-file FILE
      Serve as a Jupyter kernel (Jupyter starts this).
  nimbook play GAME [options]
      Play against the computer, which never misses a winning move
      (nimbook play --help).
  nimbook help
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usagef("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
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

// parseInterleaved parses flags that may come before or after the
// positional arguments, as SPEC.md allows ("flags may come before or after
// FILE").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usagef("%v", err)
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

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// writeAtomically writes the output through a temporary file in the same
// directory and renames it into place, so a failure never leaves a
// half-written file.
func writeAtomically(path string, write func(w io.Writer) error) (err error) {
	// A device or pipe (-o /dev/stdout, /dev/null, a FIFO) cannot be replaced
	// by a rename, and must not be: write to it directly.
	if fi, statErr := os.Stat(path); statErr == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory; give a file name to -o", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	// Replace the file a symbolic link points to, not the link.
	if real, linkErr := filepath.EvalSymlinks(path); linkErr == nil {
		path = real
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func lowerExt(path string) string {
	return strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
}
