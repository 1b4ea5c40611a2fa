package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/reports"
)

// A report format, as --format and -o's extension name it, and the
// commands that write it. Every format is here once: run (job files and
// notebooks) and survey read their names, aliases and extensions from
// this table.
type reportFormat struct {
	name    string
	aliases []string // other names and extensions (htm, markdown, latex)
	job     bool     // nimbook run on a job file
	nb      bool     // nimbook run on a notebook
	survey  bool     // nimbook survey's report
}

var reportFormats = []reportFormat{
	{name: "md", aliases: []string{"markdown"}, job: true, nb: true, survey: true},
	{name: "html", aliases: []string{"htm"}, job: true, nb: true, survey: true},
	{name: "pdf", job: true, nb: true, survey: true},
	{name: "tex", aliases: []string{"latex"}, job: true, nb: true, survey: true},
	{name: "ipynb", job: true, nb: true},
	{name: "json", job: true, survey: true},
	{name: "csv", survey: true},
	{name: "text", aliases: []string{"txt"}, job: true},
}

// formatNamed returns the format a name or an extension stands for,
// among those keep accepts.
func formatNamed(s string, keep func(reportFormat) bool) (string, bool) {
	s = strings.ToLower(s)
	for _, f := range reportFormats {
		if !keep(f) {
			continue
		}
		if f.name == s {
			return f.name, true
		}
		for _, a := range f.aliases {
			if a == s {
				return f.name, true
			}
		}
	}
	return "", false
}

// formatList writes the names keep accepts: "md|html|…" with sep "|",
// or in words, "md, html, … or json", with sep ", ".
func formatList(keep func(reportFormat) bool, sep string) string {
	var names []string
	for _, f := range reportFormats {
		if keep(f) {
			names = append(names, f.name)
		}
	}
	if sep == ", " && len(names) > 1 {
		return strings.Join(names[:len(names)-1], sep) + " or " + names[len(names)-1]
	}
	return strings.Join(names, sep)
}

func forJobs(f reportFormat) bool    { return f.job }
func forSurveys(f reportFormat) bool { return f.survey }

// texFigures makes a LaTeX report written to out write its figures beside
// it (OUT-fig1.pdf…), each atomically and never over an input; on standard
// output, or to a device, the report has none. The function it returns
// removes the figures this run made where there were none, for a report
// that failed: no figures without their document.
func texFigures(ctx context.Context, o *reports.Options, out string, inputs []string) (undo func()) {
	var made []string
	undo = func() {
		for _, p := range made {
			os.Remove(p)
		}
	}
	if out == "" {
		return undo
	}
	if fi, err := os.Stat(out); err == nil && !fi.Mode().IsRegular() {
		return undo
	}
	target := atomicfile.Resolve(out)
	dir := filepath.Dir(target)
	o.FigureStem = strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))
	o.Figures = func(name string, write func(io.Writer) error) error {
		p := filepath.Join(dir, name)
		_, err := os.Lstat(p)
		isNew := err != nil
		if err := atomicfile.Write(ctx, p, atomicfile.Options{Inputs: inputs}, write); err != nil {
			return err
		}
		if isNew {
			made = append(made, p)
		}
		return nil
	}
	return undo
}

// withTeXFigures is a LaTeX renderer whose figures go beside out, and are
// taken back when the document fails.
func withTeXFigures(ctx context.Context, o reports.Options, out string, inputs []string, render func(io.Writer, reports.Options) error) func(io.Writer) error {
	return func(w io.Writer) error {
		undo := texFigures(ctx, &o, out, inputs)
		err := render(w, o)
		if err != nil {
			undo()
		}
		return err
	}
}
