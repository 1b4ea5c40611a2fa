package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/nimbook/nimbook/explore/budget"
)

// ErrInput is wrapped by the error refusing to write over one of
// Options.Inputs.
var ErrInput = errors.New("refusing to overwrite an input")

// Options tune Write and Check.
type Options struct {
	// Inputs are files the output must never replace: the files the
	// command reads. A path naming one of them, even through a link, is
	// refused.
	Inputs []string
	// Perm is the mode of a new file before the umask; 0 means 0o666, a
	// document's mode. An existing file keeps its own.
	Perm fs.FileMode
}

// maxLinks bounds the symbolic links followed, as the kernel does (ELOOP).
const maxLinks = 40

// Write writes path with what write produces, atomically: through a
// temporary file in the same directory, flushed to the disk and renamed
// into place (see the package documentation for links, devices and
// modes). When ctx is done the writer's next Write fails and nothing is
// renamed; the error then is budget.Err(ctx). Errors of write are returned
// as they are; the others name path.
func Write(ctx context.Context, path string, opts Options, write func(w io.Writer) error) (err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	target, fi, err := plan(path, opts)
	if err != nil {
		return err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return writeDirect(ctx, path, target, write)
	}
	perm := opts.Perm
	if perm == 0 {
		perm = 0o666
	}
	create := perm // the umask applies: a new file gets what > would give it
	if fi != nil {
		// Keep the file's own mode, but never expose the temporary file
		// more than the file itself while it is written.
		perm, create = fi.Mode().Perm(), 0o600
	}
	tmp, err := createTemp(filepath.Dir(target), filepath.Base(target), create)
	if err != nil {
		return pathError(path, err)
	}
	done := false
	defer func() {
		if !done { // an error, a done context or a panic in write
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(&ctxWriter{ctx: ctx, w: tmp}); err != nil {
		return err
	}
	if err := budget.Err(ctx); err != nil {
		return err
	}
	if fi != nil {
		if err := tmp.Chmod(perm); err != nil {
			return pathError(path, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return pathError(path, err)
	}
	if err := tmp.Close(); err != nil {
		return pathError(path, err)
	}
	if err := budget.Err(ctx); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return pathError(path, err)
	}
	done = true
	syncDir(filepath.Dir(target))
	return nil
}

// WriteFile writes data to path atomically, as Write does, a new file
// with mode perm (0: 0o666) less the umask.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(context.Background(), path, Options{Perm: perm}, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Check reports whether Write could write path, without touching it: the
// path is not a directory nor one of opts.Inputs, and its directory exists
// and takes new files (a hidden file is created there and removed at once).
// A command calls it for every output before its work starts.
func Check(path string, opts Options) error {
	target, fi, err := plan(path, opts)
	if err != nil {
		return err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return nil // a device or a pipe: opened when written
	}
	tmp, err := createTemp(filepath.Dir(target), filepath.Base(target), 0o600)
	if err != nil {
		return pathError(path, err)
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// SameFile reports whether a and b name the same file: the same existing
// file through any links, else the same absolute path once links are
// followed.
func SameFile(a, b string) bool {
	ra, rb := resolve(a), resolve(b)
	if fa, err := os.Stat(ra); err == nil {
		if fb, err := os.Stat(rb); err == nil {
			return os.SameFile(fa, fb)
		}
	}
	pa, err1 := filepath.Abs(ra)
	pb, err2 := filepath.Abs(rb)
	return err1 == nil && err2 == nil && pa == pb
}

// plan resolves path to the file to write and checks it: fi is that file's
// info, nil when it does not exist yet.
func plan(path string, opts Options) (target string, fi fs.FileInfo, err error) {
	if path == "" {
		return "", nil, errors.New("no output file name given")
	}
	for _, in := range opts.Inputs {
		if in != "" && SameFile(path, in) {
			if in == path {
				return "", nil, fmt.Errorf("%s is also the input: %w; write the output to another file", path, ErrInput)
			}
			return "", nil, fmt.Errorf("%s is the input %s: %w; write the output to another file", path, in, ErrInput)
		}
	}
	target = resolve(path)
	fi, err = os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return "", nil, fmt.Errorf("%s is a directory: give a file name", path)
	case err == nil:
		return target, fi, nil
	case errors.Is(err, fs.ErrNotExist):
		return target, nil, nil
	}
	return "", nil, pathError(path, err)
}

// resolve follows the symbolic links of path's last element (dangling ones
// too: writing through a link to a missing file creates the file), so
// that the rename replaces the file a link points to, not the link.
func resolve(path string) string {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path
		}
		to, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return path
}

// createTemp creates a new hidden file next to base in dir, with mode perm
// less the umask (os.CreateTemp would force 0600).
func createTemp(dir, base string, perm fs.FileMode) (*os.File, error) {
	for range 10000 {
		name := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, errors.New("no free temporary file name")
}

// writeDirect writes into a device or a named pipe.
func writeDirect(ctx context.Context, path, target string, write func(io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return pathError(path, err)
	}
	if err := write(&ctxWriter{ctx: ctx, w: f}); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return pathError(path, err)
	}
	return budget.Err(ctx)
}

// syncDir flushes a directory's entries, so that the rename survives a
// crash; where directories cannot be synced there is nothing to do.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// ctxWriter fails every Write once ctx is done, so that a long rendering
// stops at Ctrl-C.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := budget.Err(c.ctx); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// pathError says what went wrong writing path, in words, without the
// temporary file's name.
func pathError(path string, err error) error {
	var why string
	dir := filepath.Dir(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = fmt.Sprintf("the directory %s does not exist", dir)
	case errors.Is(err, syscall.ENOTDIR):
		why = fmt.Sprintf("%s is not a directory", dir)
	case errors.Is(err, fs.ErrPermission):
		why = "permission denied"
	case errors.Is(err, syscall.ENOSPC):
		why = "no space left on the disk"
	case errors.Is(err, syscall.EROFS):
		why = "the file system is read-only"
	default:
		why = bare(err).Error()
	}
	return &Error{Path: path, Reason: why, Err: err}
}

// bare strips the file name an os error carries (the temporary file's).
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// Error is a file that could not be written.
type Error struct {
	Path   string // the path as given
	Reason string // what is wrong, in words
	Err    error  // the system's error
}

func (e *Error) Error() string { return "cannot write " + e.Path + ": " + e.Reason }

func (e *Error) Unwrap() error { return e.Err }
