package nbformat

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoundTrip reads an executed notebook (streams, rich displays, an
// error) and writes it back: the bytes are those read, as Jupyter would
// write them.
func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"handout.out.ipynb", "intro.out.ipynb"} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			nb, err := ReadIPYNB(bytes.NewReader(want))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := nb.WriteIPYNB(&got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("read and write again changed %s:\n%s", name, got.Bytes())
			}
		})
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
