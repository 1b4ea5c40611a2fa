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
	"slices"
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
// into place (see the package documentation for links, devices, modes and
// owners). When ctx is done the writer's next Write fails and nothing is
// renamed; the error then is budget.Err(ctx). Errors of write are returned
// as they are; the others name path.
func Write(ctx context.Context, path string, opts Options, write func(w io.Writer) error) error {
	p, err := Stage(ctx, path, opts, write)
	if err != nil {
		return err
	}
	return p.Commit()
}

// Pending is a file written by Stage and not yet in place.
type Pending struct {
	ctx          context.Context
	path, target string
	tmp          string // the finished temporary file; "" once committed or discarded
	// A device or a pipe cannot be staged: its writer runs at Commit.
	direct func(io.Writer) error
}

// Stage does what Write does but the last step: the temporary file is
// written, flushed and closed, and path is left as it was until Commit.
// A command with several outputs stages the one that must not appear
// unless the others were written, and commits it last. On an error
// nothing is left behind; otherwise Commit or Discard must follow.
func Stage(ctx context.Context, path string, opts Options, write func(w io.Writer) error) (*Pending, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	target, fi, err := plan(path, opts)
	if err != nil {
		return nil, err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return &Pending{ctx: ctx, path: path, target: target, direct: write}, nil
	}
	perm := opts.Perm
	if perm == 0 {
		perm = 0o666
	}
	create := perm // the umask applies: a new file gets what > would give it
	if fi != nil {
		// Never expose the temporary file more than the file itself
		// while it is written; it gets the file's mode before the rename.
		create = 0o600
	}
	removeStale(target)
	tmp, err := createTemp(filepath.Dir(target), filepath.Base(target), create)
	if err != nil {
		return nil, pathError(path, target, err)
	}
	done := false
	defer func() {
		if !done { // an error, a done context or a panic in write
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(&ctxWriter{ctx: ctx, w: tmp, path: path, target: target}); err != nil {
		return nil, err
	}
	if err := budget.Err(ctx); err != nil {
		return nil, err
	}
	if fi != nil {
		if err := keepAttrs(tmp, fi); err != nil {
			return nil, pathError(path, target, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return nil, pathError(path, target, err)
	}
	if err := tmp.Close(); err != nil {
		return nil, pathError(path, target, err)
	}
	done = true
	return &Pending{ctx: ctx, path: path, target: target, tmp: tmp.Name()}, nil
}

// Commit puts the staged file in place (a device or a pipe is written
// now). Once ctx is done nothing is renamed and the error is
// budget.Err(ctx).
func (p *Pending) Commit() error {
	if p.direct != nil {
		w := p.direct
		p.direct = nil
		return writeDirect(p.ctx, p.path, p.target, w)
	}
	if p.tmp == "" {
		return errors.New("atomicfile: " + p.path + " was committed or discarded already")
	}
	tmp := p.tmp
	p.tmp = ""
	if err := budget.Err(p.ctx); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, p.target); err != nil {
		os.Remove(tmp)
		return pathError(p.path, p.target, err)
	}
	syncDir(filepath.Dir(p.target))
	return nil
}

// Discard drops the staged file; path is left as it was. It may follow
// Commit (it then does nothing), so that a command can defer it.
func (p *Pending) Discard() {
	p.direct = nil
	if p.tmp != "" {
		os.Remove(p.tmp)
		p.tmp = ""
	}
}

// Replace puts the finished file tmp in place of path, as Write's last
// step does: a link at path is followed, and a regular file replaced keeps
// its mode and, where the system allows it (as root), its owner and group.
// tmp must be in the directory of Resolve(path), so that the rename is
// atomic. For files made by other means than a writer (a database).
func Replace(tmp, path string) error {
	target := resolve(path)
	if fi, err := os.Stat(target); err == nil && fi.Mode().IsRegular() {
		f, err := os.OpenFile(tmp, os.O_RDWR, 0)
		if err != nil {
			return pathError(path, target, err)
		}
		err = keepAttrs(f, fi)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return pathError(path, target, err)
		}
	}
	if err := os.Rename(tmp, target); err != nil {
		return pathError(path, target, err)
	}
	syncDir(filepath.Dir(target))
	return nil
}

// Resolve is the file a write to path replaces: path with the symbolic
// links of its last element followed (a dangling link names the file it
// would create).
func Resolve(path string) string { return resolve(path) }

// keepAttrs gives f, the new content of the file fi describes, that
// file's owner and group (where the system allows it) and mode: a
// notebook of 0600 rewritten by root stays its owner's and private.
func keepAttrs(f *os.File, fi fs.FileInfo) error {
	// The owner first: chown clears the set-user-ID and set-group-ID bits
	// that chmod then restores.
	if err := keepOwner(f, fi); err != nil {
		return err
	}
	return f.Chmod(fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
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
		return pathError(path, target, err)
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
	for _, in := range slices.Concat(opts.Inputs, protectedInputs()) {
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
	return "", nil, pathError(path, target, err)
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
		return pathError(path, target, err)
	}
	if err := write(&ctxWriter{ctx: ctx, w: f, path: path, target: target}); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return pathError(path, target, err)
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
// stops at Ctrl-C. Its own errors (a full disk) name the file as the user
// gave it, not the temporary file.
type ctxWriter struct {
	ctx          context.Context
	w            io.Writer
	path, target string
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := budget.Err(c.ctx); err != nil {
		return 0, err
	}
	n, err := c.w.Write(p)
	if err != nil {
		err = pathError(c.path, c.target, err)
	}
	return n, err
}

// pathError says what went wrong writing path, in words, without the
// temporary file's name. target is the file path resolves to: when path is
// a link, the directory that matters is the target's, and the message says
// where the link leads.
func pathError(path, target string, err error) error {
	var why string
	dir := filepath.Dir(target)
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
	if target != "" && target != path {
		why = fmt.Sprintf("%s (%s is a link to %s)", why, path, target)
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
