//go:build unix

package stargame

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nimbook/nimbook/explore/atomicfile"
)

// TestFunctionRefusesFiles: a game file is read as every Starlark file is
// (ReadSource): /dev/zero, a FIFO, a folder or a file of another kind is
// refused at once, naming the file, never quoting its content (issue 29,
// classes 1 and 3); a file read is protected from the process's outputs
// (class 4).
func TestFunctionRefusesFiles(t *testing.T) {
	dir := t.TempDir()
	const secret = "s3cr3tTOKENabc123"
	at := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(at("secret.env"), []byte(secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("ok.star"), []byte(takeAway), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", at("zero.star")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(at("secret.env"), at("evil.star")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(at("d.star"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(at("fifo.star"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{"/dev/zero", "/dev/zero: not a Starlark file"},
		{at("zero.star"), "zero.star: a link to zero, which is not a Starlark file"},
		{at("fifo.star"), "fifo.star: a FIFO (named pipe), not a Starlark file"},
		{at("d.star"), "d.star: a folder, not a Starlark file"},
		{at("secret.env"), "secret.env: not a Starlark file"},
		{at("evil.star"), "evil.star: a link to secret.env, which is not a Starlark file"},
		{at("none.star"), "none.star: no such file"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			_, _, err := Function(tc.file, "take", map[string]any{"n": 3})
			if err == nil {
				t.Fatalf("%s loaded", tc.file)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, secret) {
				t.Errorf("error %q, want %q and no content", msg, tc.want)
			}
		})
	}
	if _, _, err := Function(at("ok.star"), "take", map[string]any{"n": 3}); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Check(at("ok.star"), atomicfile.Options{}); err == nil {
		t.Error("a game file loaded may be overwritten by an output")
	}
}
