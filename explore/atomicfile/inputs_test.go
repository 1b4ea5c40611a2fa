package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestProtect: a file the process read as an input (a rule file a cell
// loaded, known only after the outputs were checked) is never replaced,
// through a link either (an export directory holding a link to it), until
// released (issue 29, class 4).
func TestProtect(t *testing.T) {
	dir := t.TempDir()
	rule := filepath.Join(dir, "rules.star")
	if err := os.WriteFile(rule, []byte("def f(n): return []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "values.csv")
	if err := os.Symlink("rules.star", link); err != nil {
		t.Fatal(err)
	}
	release := Protect(rule)
	write := func(path string) error {
		return Write(context.Background(), path, Options{}, func(w io.Writer) error {
			_, err := io.WriteString(w, "report")
			return err
		})
	}
	for _, p := range []string{rule, link} {
		if err := write(p); !errors.Is(err, ErrInput) {
			t.Errorf("writing %s over a protected input: %v", filepath.Base(p), err)
		}
		if err := Check(p, Options{}); !errors.Is(err, ErrInput) {
			t.Errorf("Check(%s): %v", filepath.Base(p), err)
		}
	}
	if b, _ := os.ReadFile(rule); string(b) != "def f(n): return []\n" {
		t.Fatalf("the rule file was replaced: %q", b)
	}
	release()
	release() // twice is once
	if err := write(link); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

// TestRemoveStale: a write removes the temporary files of its name that
// a process killed while writing left (.OUT.tmpNNN, older than this
// process by more than staleAge), and nothing else: not a file of
// another pattern, not one written since (another process's write under
// way).
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.md")
	old := time.Now().Add(-time.Hour)
	files := map[string]bool{ // name: removed
		".out.md.tmp12345":    true,
		".out.md.tmp9":        true,
		".out.md.tmpx":        false,
		".out.md.tmp123.keep": false,
		".other.md.tmp12345":  false,
		"out.md.tmp12345":     false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	fresh := filepath.Join(dir, ".out.md.tmp777")
	if err := os.WriteFile(fresh, []byte("another process writing"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Written 30 s before this process started: a write under way.
	recent := started.Add(-30 * time.Second)
	if err := os.Chtimes(fresh, recent, recent); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(out, []byte("report"), 0); err != nil {
		t.Fatal(err)
	}
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, os.ErrNotExist); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("the temporary file of a write under way was removed: %v", err)
	}
}
