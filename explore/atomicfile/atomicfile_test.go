package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leftovers lists the hidden files in dir: temporary files left behind.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.md")
	if err := Write(context.Background(), path, Options{}, text("one")); err != nil {
		t.Fatal(err)
	}
	if err := Write(context.Background(), path, Options{}, text("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("got %q, want two", b)
	}
	if l := leftovers(t, dir); l != nil {
		t.Errorf("left behind: %v", l)
	}
}

// Every failure leaves the old file as it was and no temporary file.
func TestWriteFailures(t *testing.T) {
	boom := errors.New("boom")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		write func(io.Writer) error
		want  error
	}{
		{"writer error", context.Background(), func(w io.Writer) error {
			io.WriteString(w, "half")
			return boom
		}, boom},
		{"done context", cancelled, text("new"), context.Canceled},
		{"cancelled while writing", context.Background(), nil, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.md")
			os.WriteFile(path, []byte("old"), 0o644)
			ctx, write := tt.ctx, tt.write
			if write == nil {
				c, cancel := context.WithCancel(context.Background())
				ctx = c
				write = func(w io.Writer) error {
					if _, err := io.WriteString(w, "first half"); err != nil {
						return err
					}
					cancel() // Ctrl-C in the middle of a long rendering
					_, err := io.WriteString(w, "second half")
					return err
				}
			}
			err := Write(ctx, path, Options{}, write)
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if b, _ := os.ReadFile(path); string(b) != "old" {
				t.Errorf("the file holds %q, want old", b)
			}
			if l := leftovers(t, dir); l != nil {
				t.Errorf("left behind: %v", l)
			}
		})
	}
}

func TestWritePanicRemovesTemp(t *testing.T) {
	dir := t.TempDir()
	func() {
		defer func() { recover() }()
		Write(context.Background(), filepath.Join(dir, "out.md"), Options{}, func(w io.Writer) error {
			io.WriteString(w, "x")
			panic("renderer bug")
		})
	}()
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("left behind: %v", es)
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "job.yaml")
	os.WriteFile(in, []byte("title: x\n"), 0o644)
	link := filepath.Join(dir, "link.yaml")
	haveLink := os.Symlink(in, link) == nil
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	tests := []struct {
		name, path string
		want       string // in the message
		input      bool
	}{
		{"the input", in, "is also the input", true},
		{"the input by another name", sub + "/../job.yaml", "is the input", true},
		{"the input through a link", link, "is the input", true},
		{"a directory", sub, "is a directory", false},
		{"a missing directory", filepath.Join(dir, "nodir", "out.md"), "does not exist", false},
		{"a file as a directory", filepath.Join(in, "out.md"), "not a directory", false},
		{"no name", "", "no output file", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.path == link && !haveLink {
				t.Skip("no symbolic links")
			}
			opts := Options{Inputs: []string{in}}
			for _, err := range []error{Check(tt.path, opts), Write(context.Background(), tt.path, opts, text("x"))} {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("err = %v, want %q", err, tt.want)
					continue
				}
				if errors.Is(err, ErrInput) != tt.input {
					t.Errorf("%v: ErrInput %v, want %v", err, !tt.input, tt.input)
				}
				if strings.Contains(err.Error(), ".tmp") {
					t.Errorf("%v names the temporary file", err)
				}
			}
			if b, _ := os.ReadFile(in); string(b) != "title: x\n" {
				t.Errorf("the input was changed: %q", b)
			}
			if l := leftovers(t, dir); l != nil {
				t.Errorf("left behind: %v", l)
			}
		})
	}
}

func TestCheckLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	if err := Check(filepath.Join(dir, "out.md"), Options{}); err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("Check left %v", es)
	}
}

func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kernel.json")
	if err := WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{}" {
		t.Errorf("got %q", b)
	}
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	os.WriteFile(a, nil, 0o644)
	tests := []struct {
		x, y string
		want bool
	}{
		{a, a, true},
		{a, filepath.Join(dir, ".", "a"), true},
		{a, filepath.Join(dir, "b"), false},
		{filepath.Join(dir, "new"), filepath.Join(dir, "new"), true},
		{filepath.Join(dir, "new"), filepath.Join(dir, "other"), false},
	}
	for _, tt := range tests {
		if got := SameFile(tt.x, tt.y); got != tt.want {
			t.Errorf("SameFile(%s, %s) = %v", tt.x, tt.y, got)
		}
	}
}

// A staged file appears only on Commit; Discard leaves the old one.
func TestStage(t *testing.T) {
	tests := []struct {
		name   string
		commit bool
		want   string
	}{
		{"commit", true, "new"},
		{"discard", false, "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.md")
			os.WriteFile(path, []byte("old"), 0o644)
			p, err := Stage(context.Background(), path, Options{}, text("new"))
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); string(b) != "old" {
				t.Errorf("before Commit the file holds %q", b)
			}
			if tt.commit {
				if err := p.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			p.Discard() // after Commit: nothing
			if b, _ := os.ReadFile(path); string(b) != tt.want {
				t.Errorf("the file holds %q, want %q", b, tt.want)
			}
			if l := leftovers(t, dir); l != nil {
				t.Errorf("left behind: %v", l)
			}
			if err := p.Commit(); err == nil {
				t.Error("a second Commit succeeded")
			}
		})
	}
	// Ctrl-C between the staging and the commit: nothing renamed.
	dir := t.TempDir()
	path := filepath.Join(dir, "out.md")
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Stage(ctx, path, Options{}, text("new"))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := p.Commit(); !errors.Is(err, context.Canceled) {
		t.Errorf("Commit after cancel: %v", err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("left behind: %v", es)
	}
}
