//go:build unix

package survey

import (
	"path/filepath"
	"syscall"
)

// diskFull reports whether the file system holding path has no room left:
// SQLite reports a full disk met while it maps its shared-memory file as a
// bare I/O error.
func diskFull(path string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(path), &st); err != nil {
		return false
	}
	return st.Bavail == 0
}
