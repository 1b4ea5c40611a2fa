package notebook

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update if the change is right):\n%s", name, got)
	}
}

func TestRunNotebooks(t *testing.T) {
	tests := []struct {
		in, out     string
		allowErrors bool
		wantErr     string
	}{
		{"intro.ipynb", "intro.out.ipynb", false, ""},
		{"handout.md", "handout.out.ipynb", true, ""},
		{"handout.md", "handout.stop.ipynb", false, "name undefined_name is not defined"},
	}
	for _, tc := range tests {
		t.Run(tc.out, func(t *testing.T) {
			nb, err := ReadFile(filepath.Join("testdata", tc.in))
			if err != nil {
				t.Fatal(err)
			}
			s := newSession(t)
			err = s.Run(context.Background(), nb, RunOptions{AllowErrors: tc.allowErrors})
			if tc.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != "" {
				var re *RunError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want a RunError with %q", err, tc.wantErr)
				}
			}
			var buf bytes.Buffer
			if err := nb.WriteIPYNB(&buf); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.out, buf.Bytes())

			// Reading the executed notebook back and writing it again
			// gives the same bytes.
			again, err := ReadIPYNB(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			var buf2 bytes.Buffer
			if err := again.WriteIPYNB(&buf2); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
				t.Error("read and write again changed the notebook")
			}
		})
	}
}

// TestValidate checks the golden notebooks with nbformat itself, when the
// Debian package is installed.
func TestValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		t.Skip("nbformat is not installed (apt-get install python3-nbformat)")
	}
	for _, name := range []string{"intro.out.ipynb", "handout.out.ipynb", "handout.stop.ipynb"} {
		script := "import nbformat, sys\nnb = nbformat.read(sys.argv[1], as_version=4)\nnbformat.validate(nb)\n" +
			"assert nb.nbformat_minor == 5\nassert nb.metadata.kernelspec.name == 'nimbook'\n"
		out, err := exec.Command(py, "-c", script, filepath.Join("testdata", name)).CombinedOutput()
		if err != nil {
			t.Errorf("%s: nbformat.validate: %v\n%s", name, err, out)
		}
	}
}

func TestReadIPYNBErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"not json", "{", "invalid JSON"},
		{"no nbformat", `{"cells": []}`, "no nbformat"},
		{"nbformat 3", `{"nbformat": 3, "worksheets": []}`, "nbformat 3 is not supported"},
		{"bad cell", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "python"}]}`, "unknown cell_type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadIPYNB(strings.NewReader(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseMarkdown(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // "type:source"
		err       string
	}{
		{"empty", "", nil, ""},
		{"text only", "# Title\n\nSome text.\n", []string{"markdown:# Title\n\nSome text."}, ""},
		{"one cell", "Intro\n\n```nimbook\nx = 1\nx\n```\n\nOutro\n",
			[]string{"markdown:Intro", "code:x = 1\nx", "markdown:Outro"}, ""},
		{"tilde fence and info", "~~~~ nimbook {.cell}\na\n~~~~\n", []string{"code:a"}, ""},
		{"other language stays", "```python\nprint(1)\n```\n", []string{"markdown:```python\nprint(1)\n```"}, ""},
		{"nested fence", "````md\n```nimbook\nno\n```\n````\n", []string{"markdown:````md\n```nimbook\nno\n```\n````"}, ""},
		{"longer close", "```nimbook\na\n`````\n", []string{"code:a"}, ""},
		{"indented fence", "  ```nimbook\n  a\n   b\n  ```\n", []string{"code:a\n b"}, ""},
		{"crlf", "```nimbook\r\na\r\n```\r\n", []string{"code:a"}, ""},
		{"unclosed", "text\n```nimbook\nx = 1\n", nil, "line 2: the ```nimbook fence is not closed"},
		{"backtick in info", "```nimbook`\nx\n```\n", []string{"markdown:```nimbook`\nx\n```"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nb, err := ParseMarkdown([]byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range nb.Cells {
				got = append(got, c.Type+":"+c.Source)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func FuzzParseMarkdown(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "handout.md")); err == nil {
		f.Add(data)
	}
	f.Add([]byte("```nimbook\nx\n```"))
	f.Add([]byte("~~~\n```nimbook\n~~~\n```nimbook\n```\n"))
	f.Add([]byte("   ````nimbook\n    a\n````"))
	f.Fuzz(func(t *testing.T, src []byte) {
		nb, err := ParseMarkdown(src)
		if err != nil {
			return
		}
		// Whatever parses writes as a valid notebook.
		var buf bytes.Buffer
		if err := nb.WriteIPYNB(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadIPYNB(&buf); err != nil {
			t.Fatal(err)
		}
		for _, c := range nb.Cells {
			if c.Type == "markdown" && strings.TrimSpace(c.Source) == "" {
				t.Fatal("empty markdown cell")
			}
		}
	})
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	nb, err := ParseMarkdown([]byte("```nimbook\n1\n```\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "out.ipynb")
	if err := nb.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
