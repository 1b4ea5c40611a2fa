package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/reports"
)

// A report format, as --format and -o's extension name it, and its
// renderers for what the commands write: one row per format, so that a
// format is added in one place, and a command asked for a form its input
// does not have says so (formatFor) rather than falling through to
// another. run (job files and notebooks) and survey read their names,
// aliases and extensions from this table.
type reportFormat struct {
	name    string
	aliases []string // other names and extensions (htm, markdown, latex)
	// job, nb and survey write a job file's report, an executed
	// notebook and a survey's report; nil where the format has none.
	job func(w io.Writer, r *job.Report, o reports.Options) error
	nb  func(w io.Writer, nb *nbformat.Notebook, title string, o reports.Options) error
	// survey writes the report made of a survey.Report, which holds
	// surveyBytes per variant and per byte of the stored results; a
	// format written a variant at a time from the store (JSON, CSV) has
	// streamed instead.
	survey      func(w io.Writer, r *survey.Report, o reports.Options) error
	surveyBytes reportBytes
	streamed    func(w io.Writer, s *survey.Survey, st *survey.Store) error
	// figures: the document's figures are files beside it (LaTeX).
	figures bool
	// print and html are how a notebook's cells render their results
	// for the format (reports.Bundler's Print and HTML).
	print, html bool
}

// reportBytes is what a survey's report in a document form holds, per
// variant and per byte of its stored results and errors: the report of
// every variant (survey.Report) and the document made of it, in memory at
// once. Measured above the survey itself: on 100 000 variants of Nim (1.5
// MB of results) Markdown took 115 MiB, HTML 395 MiB and PDF 230 MiB; on
// 4000 variants with 32 MB of values, 313, 345 and 364 MiB (JSON, written
// a variant at a time: 8 MiB). LaTeX's is Markdown's: a figure at a time.
type reportBytes struct{ variant, result int64 }

var reportFormats = []reportFormat{
	{name: "md", aliases: []string{"markdown"}, job: reports.Markdown,
		nb: func(w io.Writer, nb *nbformat.Notebook, title string, _ reports.Options) error {
			return reports.NotebookMarkdown(w, nb, title)
		},
		survey: reports.SurveyMarkdown, surveyBytes: reportBytes{1400, 11}},
	{name: "html", aliases: []string{"htm"}, job: reports.HTML, nb: reports.NotebookHTML, html: true,
		survey: reports.SurveyHTML, surveyBytes: reportBytes{4600, 12}},
	{name: "pdf", job: reports.PDF, nb: reports.NotebookPDF, print: true,
		survey: reports.SurveyPDF, surveyBytes: reportBytes{2600, 13}},
	{name: "tex", aliases: []string{"latex"}, job: reports.LaTeX, nb: reports.NotebookLaTeX, print: true,
		survey: reports.SurveyLaTeX, surveyBytes: reportBytes{1400, 11}, figures: true},
	{name: "ipynb", job: reports.Notebook, html: true,
		nb: func(w io.Writer, nb *nbformat.Notebook, _ string, _ reports.Options) error { return nb.WriteIPYNB(w) }},
	{name: "json", job: func(w io.Writer, r *job.Report, _ reports.Options) error { return reports.JSON(w, r) }, streamed: survey.WriteJSON},
	{name: "csv", streamed: survey.WriteCSV},
	{name: "text", aliases: []string{"txt"}, job: reports.PlainText},
}

// formatFor returns the row of a format by its name, or an error when
// the format has no renderer for the input (has says which).
func formatFor(name, input string, has func(reportFormat) bool) (reportFormat, error) {
	for _, f := range reportFormats {
		if f.name == name {
			if !has(f) {
				break
			}
			return f, nil
		}
	}
	return reportFormat{}, fmt.Errorf("format %s: %s has no such form", name, input)
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

func forJobs(f reportFormat) bool      { return f.job != nil }
func forNotebooks(f reportFormat) bool { return f.nb != nil }
func forSurveys(f reportFormat) bool   { return f.survey != nil || f.streamed != nil }

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
