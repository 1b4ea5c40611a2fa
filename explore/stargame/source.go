package stargame

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Ext is the extension every Starlark file nimbook reads must have: a
// file of another kind (a key file, /etc/passwd) is refused before it is
// read, so that no Starlark error (name s3cr3t is not defined) ever
// quotes its content.
const Ext = ".star"

// MaxSourceSize bounds a Starlark file: rules and games are a few
// functions.
const MaxSourceSize = 1 << 20

// ReadSource reads the Starlark file at path, the one way every loader of
// nimbook reads one. It is refused at once, naming it, unless it is a
// regular file (not a device such as /dev/zero, a FIFO, a socket or a
// folder) of at most MaxSourceSize bytes whose name, and the name of the
// file it links to, ends in .star; it is opened without blocking (a FIFO
// put in its place between the check and the open blocks nothing) and
// read to MaxSourceSize bytes at most.
//
// root, when not empty, is the only folder whose files (and those of its
// sub-folders) may be read: a relative path is taken from it, and a path
// that leaves it, by .. or by a symbolic link, is refused (a notebook's
// cell reads the rule files of its notebook's folder, nothing else).
// Without root a relative path is the process's.
func ReadSource(path, root string) ([]byte, error) {
	if path == "" {
		return nil, errors.New("stargame: no file named: give a .star file, e.g. rules.star")
	}
	full := path
	if root != "" && !filepath.IsAbs(full) {
		full = filepath.Join(root, full)
	}
	if !strings.HasSuffix(full, Ext) {
		return nil, fmt.Errorf("%s: not a Starlark file: a rule or game file's name ends in %s", path, Ext)
	}
	if root != "" {
		// Named outside: refused before the file system is asked (not
		// even whether it exists).
		if err := inside(path, full, root, false); err != nil {
			return nil, err
		}
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, pathErr(err))
	}
	if !strings.HasSuffix(real, Ext) {
		return nil, fmt.Errorf("%s: a link to %s, which is not a Starlark file (its name does not end in %s)", path, filepath.Base(real), Ext)
	}
	if root != "" {
		if err := inside(path, real, root, true); err != nil {
			return nil, err
		}
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, pathErr(err))
	}
	if err := regular(path, info); err != nil {
		return nil, err
	}
	// O_NONBLOCK: a FIFO or device swapped in since the Stat opens at
	// once, and the Fstat below refuses it.
	f, err := os.OpenFile(real, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, pathErr(err))
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, pathErr(err))
	}
	if err := regular(path, info); err != nil {
		return nil, err
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxSourceSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, pathErr(err))
	}
	if len(src) > MaxSourceSize {
		return nil, fmt.Errorf("%s: more than the %d bytes a Starlark file may have", path, MaxSourceSize)
	}
	return src, nil
}

// regular refuses what is not a regular file of a sane size.
func regular(path string, info fs.FileInfo) error {
	m := info.Mode()
	switch {
	case m.IsDir():
		return fmt.Errorf("%s: a folder, not a Starlark file", path)
	case m&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%s: a FIFO (named pipe), not a Starlark file", path)
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return fmt.Errorf("%s: a device, not a Starlark file", path)
	case !m.IsRegular():
		return fmt.Errorf("%s: not a regular file (%v), not a Starlark file", path, m.Type())
	case info.Size() > MaxSourceSize:
		return fmt.Errorf("%s: %d bytes is more than the %d a Starlark file may have", path, info.Size(), MaxSourceSize)
	}
	return nil
}

// inside refuses p (path, its links resolved when resolved) when it lies
// outside root (its links resolved too when resolved).
func inside(path, p, root string, resolved bool) error {
	r := root
	if resolved {
		var err error
		if r, err = filepath.EvalSymlinks(root); err != nil {
			return fmt.Errorf("%s: the notebook's folder %s: %w", path, root, pathErr(err))
		}
	}
	r, err := filepath.Abs(r)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rel, err := filepath.Rel(r, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		if resolved {
			return fmt.Errorf("%s: a link to a file outside the notebook's folder: a cell reads the .star files of its notebook's folder and of the folders below it only", path)
		}
		return fmt.Errorf("%s: outside the notebook's folder: a cell reads the .star files of its notebook's folder and of the folders below it only", path)
	}
	return nil
}

// pathErr is the reason of a file system error, without the path it
// repeats.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Resolve is the path ReadSource(path, root) reads: path taken from root
// when it is relative, for a loader that records what it read.
func Resolve(path, root string) string {
	if root != "" && !filepath.IsAbs(path) {
		return filepath.Join(root, path)
	}
	return path
}
