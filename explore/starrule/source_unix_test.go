//go:build unix

package starrule

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadSource: every loader's one way to read a Starlark file refuses,
// at once and naming it, what is not a regular .star file of a sane size
// (issue 29, class 1), and with a root what lies outside it, by .., an
// absolute path or a link (class 3); no refusal quotes the file's content.
func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "nb")
	out := filepath.Join(dir, "outside")
	for _, d := range []string{root, filepath.Join(root, "sub"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const secret = "s3cr3tTOKENabc123"
	write(filepath.Join(root, "rules.star"), "def f(n):\n    return []\n")
	write(filepath.Join(root, "sub", "deep.star"), "def g(n):\n    return []\n")
	write(filepath.Join(root, "secret.env"), secret+"\n")
	write(filepath.Join(out, "o.star"), secret+"\n")
	write(filepath.Join(root, "big.star"), strings.Repeat("#", MaxSourceSize+1))
	link := func(to, name string) {
		if err := os.Symlink(to, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	link("secret.env", "evil.star")
	link(filepath.Join(out, "o.star"), "out.star")
	link(out, "outdir")
	link("/dev/zero", "zero.star")
	link("rules.star", "alias.star")
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.star"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, root string
		want       string // "" reads the file
	}{
		{"rules.star", root, ""},
		{"sub/deep.star", root, ""},
		{"sub/../rules.star", root, ""},
		{"alias.star", root, ""},
		{filepath.Join(root, "rules.star"), root, ""},
		{filepath.Join(root, "rules.star"), "", ""},
		{"secret.env", root, "not a Starlark file"},
		{"evil.star", root, "a link to secret.env, which is not a Starlark file"},
		{"../outside/o.star", root, "outside the notebook's folder"},
		{filepath.Join(out, "o.star"), root, "outside the notebook's folder"},
		{"../missing.star", root, "outside the notebook's folder"},
		{"out.star", root, "a link to a file outside the notebook's folder"},
		{"outdir/o.star", root, "a link to a file outside the notebook's folder"},
		{"zero.star", root, "not a Starlark file"},
		{"/dev/zero", "", "not a Starlark file"},
		{filepath.Join(root, "fifo.star"), "", "a FIFO (named pipe)"},
		{"sub", root, "not a Starlark file"},
		{filepath.Join(root, "big.star"), "", "more than the 1048576"},
		{"missing.star", root, "no such file"},
		{"", root, "no file named"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			start := time.Now()
			src, err := ReadSource(tc.path, tc.root)
			if tc.want == "" {
				if err != nil || !strings.HasPrefix(string(src), "def ") {
					t.Fatalf("ReadSource(%q, %q) = %q, %v", tc.path, tc.root, src, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReadSource(%q, %q) = %q, %v; want an error saying %q", tc.path, tc.root, src, err, tc.want)
			}
			if tc.path != "" && !strings.Contains(err.Error(), tc.path) {
				t.Errorf("error %q does not name %s", err, tc.path)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error %q quotes the file's content", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("refused after %v: it blocked", d) // a FIFO blocks for ever
			}
		})
	}
}

// TestLoadRefusesOtherFiles: Load (a job file's rule) reads through
// ReadSource: a non-.star file's Starlark error, which would name its
// text, is never reached.
func TestLoadRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.env")
	if err := os.WriteFile(p, []byte("s3cr3tTOKENabc123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p, "f", nil)
	if err == nil || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "not a Starlark file") {
		t.Fatalf("Load(secret.env) = %v; want a refusal that quotes nothing of it", err)
	}
}
