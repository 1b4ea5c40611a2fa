//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the file fi describes. Root
// can, and must: a file of another user rewritten by root would otherwise
// become root's. Another user can give at most a group of their own; the
// file becomes theirs, as with any editor that saves by renaming.
func keepOwner(f *os.File, fi fs.FileInfo) error {
	want, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	cur, err := f.Stat()
	if err != nil {
		return err
	}
	have, ok := cur.Sys().(*syscall.Stat_t)
	if !ok || (have.Uid == want.Uid && have.Gid == want.Gid) {
		return nil
	}
	err = f.Chown(int(want.Uid), int(want.Gid))
	if err == nil || os.Geteuid() == 0 {
		return err
	}
	if errors.Is(err, fs.ErrPermission) && have.Gid != want.Gid {
		f.Chown(-1, int(want.Gid)) // a group of ours, or nothing
	}
	return nil
}
