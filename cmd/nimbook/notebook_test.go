package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/nbformat"
)

func TestEval(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // a substring of standard output
	}{
		{"nim product", []string{"eval", "nim_mul(2, 3)"}, "1\n"}, // SPEC.md: 2 ⊗ 3 = 1
		{"json values", []string{"eval", "--json", `octal("0.77").values(11)`}, `{"values":[0,1,2,3,1,4,3,2,1,4,2,6]}`},
		{"json after code", []string{"eval", `coins(r=7, n=24).weights()`, "--json"}, `"weights":[1,0,0,0,0,0,0,0,759,`},
		{"text result", []string{"eval", `nim(1, 3, 5, 5).moves()`}, "(1,1,5,5)"},
		{"print", []string{"eval", `print("hello")`}, "hello\n"},
		{"no result", []string{"eval", `x = 1`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runArgs(t, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, tt.want) || (tt.want == "" && out != "") {
				t.Errorf("got %q, want %q", out, tt.want)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"no code", []string{"eval"}, true, "one cell"},
		{"two codes", []string{"eval", "1", "2"}, true, "one cell"},
		{"unknown flag", []string{"eval", "--frob", "1"}, true, "frob"},
		{"name error", []string{"eval", "1 +\nfoo"}, false, "line 1"},
		{"undefined", []string{"eval", "x = 1\ny = z"}, false, "line 2: name z is not defined"},
		{"engine error", []string{"eval", `octal("0.9")`}, false, "octal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runArgs(t, tt.args...)
			var u *usageError
			if err == nil || errors.As(err, &u) != tt.usage || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v (usage %v), want usage %v and %q", err, errors.As(err, &u), tt.usage, tt.want)
			}
		})
	}
}

func TestEvalPlayFromStdin(t *testing.T) {
	var out strings.Builder
	err := run(t.Context(), []string{"eval", "play(nim(1, 2))"}, strings.NewReader("2 1\n1\n"), &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "you win") {
		t.Errorf("transcript:\n%s", out.String())
	}
}

// TestExampleNotebooks runs every example notebook to an executed .ipynb, a
// Markdown report and an HTML report.
func TestExampleNotebooks(t *testing.T) {
	files, err := filepath.Glob(example("notebooks/*"))
	if err != nil || len(files) < 3 {
		t.Fatalf("example notebooks: %v %v", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			dir := t.TempDir()
			for _, ext := range []string{"ipynb", "md", "html", "pdf"} {
				out := filepath.Join(dir, "out."+ext)
				if _, _, err := runArgs(t, "run", file, "-o", out, "--quiet"); err != nil {
					t.Fatalf("-o out.%s: %v", ext, err)
				}
			}
			nb, err := nbformat.ReadFile(filepath.Join(dir, "out.ipynb"))
			if err != nil {
				t.Fatal(err)
			}
			code, results := 0, 0
			for _, c := range nb.Cells {
				if c.Type != "code" {
					continue
				}
				code++
				if c.ExecutionCount == nil {
					t.Errorf("cell %q not executed", c.Source)
				}
				for _, o := range c.Outputs {
					if o.Type == "error" {
						t.Errorf("cell %q: %s", c.Source, o.EValue)
					}
					if o.Type == "execute_result" {
						results++
					}
				}
			}
			if code == 0 || results == 0 {
				t.Errorf("%d code cells, %d results", code, results)
			}
			md, _ := os.ReadFile(filepath.Join(dir, "out.md"))
			if !strings.Contains(string(md), "```python") {
				t.Errorf("Markdown report without code blocks:\n%.400s", md)
			}
			html, _ := os.ReadFile(filepath.Join(dir, "out.html"))
			if !strings.Contains(string(html), "<pre class=\"code\">") || !strings.Contains(string(html), "</html>") {
				t.Errorf("HTML report:\n%.400s", html)
			}
			pdf, _ := os.ReadFile(filepath.Join(dir, "out.pdf"))
			if !bytes.HasPrefix(pdf, []byte("%PDF-1.")) || !bytes.Contains(pdf, []byte("/Subtype /Image")) {
				t.Errorf("PDF report: %d bytes, a figure expected", len(pdf))
			}
			// Without -o: Markdown on standard output.
			stdout, _, err := runArgs(t, "run", file)
			if err != nil || !strings.HasPrefix(stdout, "# ") {
				t.Errorf("stdout report: %v\n%.200s", err, stdout)
			}
		})
	}
}

func TestRunNotebookInPlace(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "nb.ipynb")
	src, err := os.ReadFile(example("notebooks/new-variant.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runArgs(t, "run", in, "-o", filepath.Join(dir, ".", "nb.ipynb"))
	var u *usageError
	if err == nil || errors.As(err, &u) || !strings.Contains(err.Error(), "--in-place") {
		t.Fatalf("overwriting the input: %v", err)
	}
	if b, _ := os.ReadFile(in); string(b) != string(src) {
		t.Fatal("the input changed")
	}
	if _, _, err := runArgs(t, "run", in, "--in-place", "--quiet"); err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Outputs []json.RawMessage `json:"outputs"`
		} `json:"cells"`
	}
	b, _ := os.ReadFile(in)
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatal(err)
	}
	outputs := 0
	for _, c := range nb.Cells {
		outputs += len(c.Outputs)
	}
	if outputs == 0 {
		t.Error("--in-place wrote no outputs")
	}
	// A Markdown notebook is never rewritten.
	md := filepath.Join(dir, "h.md")
	os.WriteFile(md, []byte("# t\n\n```nimbook\n1+1\n```\n"), 0o644)
	if _, _, err := runArgs(t, "run", md, "-o", md); err == nil {
		t.Error("overwrote a Markdown notebook")
	}
	if _, _, err := runArgs(t, "run", md, "--in-place"); !errors.As(err, &u) {
		t.Errorf("--in-place on .md: %v", err)
	}
}

func TestRunNotebookErrors(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "bad.md")
	// The failing line is line 8 of the file: line 2 of the second cell.
	src := "# Bad\n\n```nimbook\nx = 1\n```\n\n```nimbook\ny = x\nz = nope\n```\n"
	if err := os.WriteFile(md, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runArgs(t, "run", md)
	if err == nil || !strings.Contains(err.Error(), "bad.md:9: cell 2") || !strings.Contains(err.Error(), "nope") {
		t.Errorf("err = %v, want bad.md:9: cell 2 … nope", err)
	}
	// --allow-errors keeps going and writes the error into the notebook.
	out := filepath.Join(dir, "out.ipynb")
	if _, _, err := runArgs(t, "run", md, "--allow-errors", "-o", out, "--quiet"); err != nil {
		t.Errorf("--allow-errors: %v", err)
	}
	ipynb := filepath.Join(dir, "bad.ipynb")
	nb, _ := nbformat.ParseMarkdown([]byte(src))
	if err := nb.WriteFile(ipynb); err != nil {
		t.Fatal(err)
	}
	_, _, err = runArgs(t, "run", ipynb)
	if err == nil || !strings.Contains(err.Error(), `cell 2 ("y = x")`) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("err = %v, want cell 2 (\"y = x\") … line 2", err)
	}
	var u *usageError
	if _, _, err := runArgs(t, "run", ipynb, "--format", "json"); err == nil || errors.As(err, &u) {
		t.Errorf("--format json of a notebook: %v", err)
	}
}

func TestKernelCommand(t *testing.T) {
	var u *usageError
	if _, _, err := runArgs(t, "kernel"); !errors.As(err, &u) {
		t.Errorf("kernel without arguments: %v", err)
	}
	if _, _, err := runArgs(t, "kernel", "install", "--frob"); !errors.As(err, &u) {
		t.Errorf("kernel install --frob: %v", err)
	}
	prefix := t.TempDir()
	bin := filepath.Join(prefix, "nimbook")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runArgs(t, "kernel", "install", "--prefix", prefix, "--binary", bin); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(prefix, "share", "jupyter", "kernels", "nimbook", "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Argv          []string `json:"argv"`
		Language      string   `json:"language"`
		InterruptMode string   `json:"interrupt_mode"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	want := []string{bin, "kernel", "--connection-file", "{connection_file}"}
	if strings.Join(spec.Argv, " ") != strings.Join(want, " ") || spec.Language != "starlark" || spec.InterruptMode != "message" {
		t.Errorf("kernel.json %s", b)
	}
}

// TestRunNotebookFigures: an executed notebook's figures are images that
// survive an untrusted Notebook (no inline <svg> in text/html), SVG by
// default and PNG with --png (issue 14, item 2).
func TestRunNotebookFigures(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "plot.md")
	os.WriteFile(md, []byte("# Figures\n\n```nimbook\noctal(\"0.77\").plot(60)\n```\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "data:image/svg+xml;base64,"},
		{[]string{"--png"}, "data:image/png;base64,"},
	} {
		out := filepath.Join(dir, "out.ipynb")
		if _, _, err := runArgs(t, append([]string{"run", md, "-o", out, "--quiet"}, tc.args...)...); err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Outputs []struct {
					Data map[string]any `json:"data"`
				} `json:"outputs"`
			} `json:"cells"`
		}
		b, _ := os.ReadFile(out)
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatal(err)
		}
		var html string
		for _, c := range nb.Cells {
			for _, o := range c.Outputs {
				if h, ok := o.Data["text/html"]; ok {
					switch h := h.(type) {
					case string:
						html += h
					case []any:
						for _, l := range h {
							html += fmt.Sprint(l)
						}
					}
				}
			}
		}
		if !strings.Contains(html, `<img `) || !strings.Contains(html, `src="`+tc.want) {
			t.Errorf("%v: text/html holds no <img> of %s", tc.args, tc.want)
		}
		if strings.Contains(html, "<svg") {
			t.Errorf("%v: text/html holds an inline <svg>, which an untrusted notebook strips", tc.args)
		}
	}
}
