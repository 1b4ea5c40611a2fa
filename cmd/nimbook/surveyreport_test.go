package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The documents over a survey's database: the format from -o's extension
// or --format, the language from --lang, Markdown on standard output.
func TestSurveyReports(t *testing.T) {
	file := writeSurvey(t, "title: Take-away\nlang: fr\nsurvey:\n  subtraction: {within: 3, upto: 40}\nshow: [period, values]\n")
	dir := filepath.Dir(file)
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"survey", file, "--quiet", "--format", "md", "--lang", "en"}, nil, &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	for _, w := range []string{"# Take-away", "7 variants of subtraction games, one for each set", "| #   | set", "| 6   | [1,2,3] |"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("Markdown: %q missing from\n%s", w, out.String())
		}
	}
	tests := []struct {
		out, format string
		want        string
	}{
		{"r.html", "", `<html lang="fr">`},
		{"r.md", "", "Vue d’ensemble"},
		{"r.pdf", "", "%PDF-1."},
		{"r.tex", "", `\usepackage[french]{babel}`},
		{"r.out", "htm", "<figure>"},
		{"r2.out", "markdown", "## Variantes"},
	}
	for _, tc := range tests {
		t.Run(tc.out, func(t *testing.T) {
			args := []string{"survey", file, "--quiet", "-o", filepath.Join(dir, tc.out)}
			if tc.format != "" {
				args = append(args, "--format", tc.format)
			}
			if err := run(context.Background(), args, nil, io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, tc.out))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("%q missing", tc.want)
			}
		})
	}
	err := run(context.Background(), []string{"survey", file, "--format", "docx"}, nil, io.Discard, io.Discard)
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "md, html, pdf, tex, json or csv") {
		t.Errorf("--format docx: %v", err)
	}
}
