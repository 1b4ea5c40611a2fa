package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// Input files larger than these are refused before they are read whole: a
// job or Starlark file is a page or two, and a notebook with its figures a
// few megabytes. A link to /dev/zero must not fill the memory.
const (
	maxJobFile      = 16 << 20
	maxNotebookFile = 256 << 20
)

// readInput reads a file the command was given, with errors in words
// naming it once.
func readInput(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, inputError(path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory: give a file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, inputError(path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %s: too large for this kind of file", path, budget.FormatSize(limit))
	}
	return data, nil
}

func inputError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", path)
	case errors.Is(err, syscall.EISDIR):
		return fmt.Errorf("%s is a directory: give a file", path)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read %s: %v", path, err)
}

// ruleFiles are the files the sections read besides the job file: the
// Starlark files of heap rules. An output must not replace them either.
func ruleFiles(secs ...*job.Section) []string {
	var out []string
	for _, s := range secs {
		h := s.Heap()
		if h == nil || h.Rule == nil {
			continue
		}
		for _, p := range h.Rule.Params {
			if f := h.Params.String(p.Key); p.Kind == heap.File && f != "" && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// checkExportDir refuses, before any work, an --export directory that
// could not be written: a file in the way, or no way to create it.
func checkExportDir(dir string) error {
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			// A directory cannot be made through a dangling link.
			to, _ := os.Readlink(dir)
			return fmt.Errorf("--export %s: %s is a link to %s, which does not exist: create that directory, or give another", dir, dir, to)
		}
	}
	probe := dir
	for {
		fi, err := os.Stat(probe)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("--export %s: %s is not a directory", dir, probe)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--export %s: %v", dir, inputError(probe, err))
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			break
		}
		probe = parent
	}
	// The nearest existing directory must take new files (the export
	// directory itself, or where it will be made).
	if err := atomicfile.Check(filepath.Join(probe, "nimbook-export-check"), atomicfile.Options{}); err != nil {
		var ae *atomicfile.Error
		if errors.As(err, &ae) {
			return fmt.Errorf("--export %s: cannot write into %s: %s", dir, probe, ae.Reason)
		}
		return fmt.Errorf("--export %s: %v", dir, err)
	}
	return nil
}

// writeOutput writes a report to path atomically, never over one of inputs.
func writeOutput(ctx context.Context, path string, inputs []string, render func(io.Writer) error) error {
	return atomicfile.Write(ctx, path, atomicfile.Options{Inputs: inputs}, render)
}

// writeWithExports writes a report (to out, or standard output when out is
// empty) and its exports so that nothing is half done: the report is
// rendered and staged, the exports written, and only then the report put
// in place (printed). When the exports fail, the report is dropped, and an
// export directory this run made is removed with what it holds.
func writeWithExports(ctx context.Context, stdout io.Writer, out string, inputs []string, render func(io.Writer) error, exports func() error, dir string) error {
	var commit func() error
	if out == "" {
		sp := &spool{}
		defer sp.close()
		if err := render(sp); err != nil {
			return failed(ctx, err)
		}
		if sp.err != nil {
			return fmt.Errorf("holding the report before printing it: %v", sp.err)
		}
		commit = func() error {
			w := forTerminal(stdout)
			if err := sp.copyTo(w); err != nil {
				return err
			}
			return w.Flush()
		}
	} else {
		p, err := atomicfile.Stage(ctx, out, atomicfile.Options{Inputs: inputs}, render)
		if err != nil {
			return failed(ctx, err)
		}
		defer p.Discard()
		commit = p.Commit
	}
	made := firstMissing(dir)
	if err := exports(); err != nil {
		if made != "" {
			os.RemoveAll(made)
		}
		return err
	}
	if err := budget.Err(ctx); err != nil {
		return failed(ctx, err)
	}
	return failed(ctx, commit())
}

// failed is stopped(ctx, err) for an error, nil for none.
func failed(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	return stopped(ctx, err)
}

// firstMissing is the outermost directory of dir that does not exist yet
// (dir itself, or a parent the exports would make), "" when dir exists.
func firstMissing(dir string) string {
	missing := ""
	for p := filepath.Clean(dir); ; {
		if _, err := os.Lstat(p); err == nil {
			return missing
		}
		missing = p
		parent := filepath.Dir(p)
		if parent == p {
			return missing
		}
		p = parent
	}
}

// spoolLimit is how much of a report on standard output is held in memory;
// beyond it the rest waits in a temporary file.
const spoolLimit = 8 << 20

// writeStdout renders a report on standard output whole or not at all: a
// rendering that fails halfway prints nothing. The report waits in memory
// up to spoolLimit, then in an unnamed temporary file, so that a long
// report does not cost its size in memory.
func writeStdout(ctx context.Context, stdout io.Writer, render func(io.Writer) error) error {
	sp := &spool{}
	defer sp.close()
	if err := render(sp); err != nil {
		return err
	}
	if err := sp.err; err != nil {
		return fmt.Errorf("holding the report before printing it: %v", err)
	}
	if err := budget.Err(ctx); err != nil {
		return err
	}
	w := forTerminal(stdout)
	if err := sp.copyTo(w); err != nil {
		return err
	}
	return w.Flush()
}

// spool holds what is written: in memory, then in a temporary file.
type spool struct {
	mem  []byte
	file *os.File
	err  error
}

func (s *spool) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.file == nil && len(s.mem)+len(p) <= spoolLimit {
		s.mem = append(s.mem, p...)
		return len(p), nil
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "nimbook-report-*")
		if err != nil {
			s.err = err
			return 0, err
		}
		os.Remove(f.Name()) // unnamed from now on where the system allows it
		s.file = f
		if _, err := f.Write(s.mem); err != nil {
			s.err = err
			return 0, err
		}
		s.mem = nil
	}
	n, err := s.file.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

func (s *spool) copyTo(w io.Writer) error {
	if s.file == nil {
		_, err := w.Write(s.mem)
		return err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.file)
	return err
}

func (s *spool) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
	}
}
