//go:build unix

package atomicfile

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A new file gets 0666 less the umask, as the shell's > gives; an
// existing file keeps its mode, whatever the umask.
func TestModes(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()

	fresh := filepath.Join(dir, "new.md")
	if err := WriteFile(fresh, []byte("x"), 0); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o640 {
		t.Errorf("new file: mode %o, want 640", fi.Mode().Perm())
	}

	for _, mode := range []os.FileMode{0o600, 0o664, 0o755} {
		kept := filepath.Join(dir, "kept")
		os.WriteFile(kept, []byte("old"), 0o600)
		os.Chmod(kept, mode)
		if err := WriteFile(kept, []byte("x"), 0); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(kept); fi.Mode().Perm() != mode {
			t.Errorf("existing file: mode %o, want %o", fi.Mode().Perm(), mode)
		}
	}
}

func TestWritesThroughLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.md")
	link := filepath.Join(dir, "link.md")
	os.WriteFile(target, []byte("old"), 0o644)
	os.Symlink("target.md", link) // relative, as ln -s writes it
	if err := WriteFile(link, []byte("new"), 0); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q", b)
	}

	dangling := filepath.Join(dir, "dangling.md")
	os.Symlink("created.md", dangling)
	if err := WriteFile(dangling, []byte("made"), 0); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "created.md")); string(b) != "made" {
		t.Errorf("dangling link: target holds %q", b)
	}
}

func TestWritesIntoFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- ""
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := Check(fifo, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(context.Background(), fifo, Options{}, text("through")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through" {
		t.Errorf("read %q", s)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
}

func TestDevNull(t *testing.T) {
	if err := WriteFile(os.DevNull, []byte("gone"), 0); err != nil {
		t.Fatal(err)
	}
}

// A read-only directory is refused before any work, in words.
func TestReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(dir, 0o555)
	err := Check(filepath.Join(dir, "out.md"), Options{})
	if err == nil || err.Error() != "cannot write "+filepath.Join(dir, "out.md")+": permission denied" {
		t.Errorf("err = %v", err)
	}
}

// Rewriting a file keeps its owner, group and mode: as root, a private
// file of another user must not become root's (unreadable to its owner).
func TestKeepsOwnerAndMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	dir := t.TempDir()
	tests := []struct {
		name     string
		uid, gid int
		mode     os.FileMode
	}{
		{"private file of another user", 65534, 65534, 0o600},
		{"group-readable, another group", 65534, 100, 0o640},
		{"executable script", 1000, 1000, 0o755},
		{"root's own", 0, 0, 0o644},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "nb.ipynb")
			os.Remove(path)
			if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			os.Chown(path, tt.uid, tt.gid)
			os.Chmod(path, tt.mode)
			if err := WriteFile(path, []byte("new"), 0); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			st := fi.Sys().(*syscall.Stat_t)
			if int(st.Uid) != tt.uid || int(st.Gid) != tt.gid || fi.Mode().Perm() != tt.mode {
				t.Errorf("owner %d:%d mode %o, want %d:%d %o", st.Uid, st.Gid, fi.Mode().Perm(), tt.uid, tt.gid, tt.mode)
			}
			if b, _ := os.ReadFile(path); string(b) != "new" {
				t.Errorf("content %q", b)
			}
		})
	}
}

// Replace, for files made by other means, keeps the same.
func TestReplaceKeepsOwnerAndMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	os.WriteFile(path, []byte("old"), 0o640)
	os.Chmod(path, 0o640)
	uid := os.Getuid()
	if uid == 0 {
		uid = 65534
		os.Chown(path, uid, 65534)
	}
	tmp := filepath.Join(dir, ".s.db.tmp1")
	os.WriteFile(tmp, []byte("new"), 0o600)
	if err := Replace(tmp, path); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != uid || fi.Mode().Perm() != 0o640 {
		t.Errorf("owner %d mode %o, want %d 640", st.Uid, fi.Mode().Perm(), uid)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("content %q", b)
	}
}

// A link whose target's directory is missing: the message names the
// target's directory, not the link's.
func TestDanglingLinkMessage(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "out.md")
	if err := os.Symlink("nodir/x.md", link); err != nil {
		t.Skip(err)
	}
	want := "cannot write " + link + ": the directory " + filepath.Join(dir, "nodir") + " does not exist (" + link + " is a link to " + filepath.Join(dir, "nodir/x.md") + ")"
	for _, err := range []error{Check(link, Options{}), WriteFile(link, []byte("x"), 0)} {
		if err == nil || err.Error() != want {
			t.Errorf("err = %v\nwant  %s", err, want)
		}
	}
}
