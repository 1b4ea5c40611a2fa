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
