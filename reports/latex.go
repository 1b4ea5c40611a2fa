package reports

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot/vg"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/plots"
	"github.com/nimbook/nimbook/templates"
)

// The LaTeX form: a standalone article that pdflatex compiles with the
// packages of Debian's texlive-latex-base, -latex-recommended,
// -fonts-recommended and -lang-french, and lmodern (T1 and UTF-8 input,
// Latin Modern, babel in the report's language, booktabs and longtable
// tables, amsmath). One writer serves the job reports, the surveys, the
// notebooks and the notebook's text/latex: every word goes through
// texText or texEscape (texescape.go), so a title or a prose cannot
// break the document.
//
// Figures are files beside the document, which \includegraphics names:
// STEM-fig1.pdf, STEM-fig2.pdf… (vector PDF, see plots.PDF), or .png for
// a notebook's images, handed to Options.Figures to write; without it
// (the document on standard output) they are left out with a comment.
// Sections' sources are a bibliography (thebibliography), cited where the
// other forms print them.

var formLaTeX = form{"LaTeX", costCellMarkdown}

// figureWidth is the text width of the document (A4 with margins of
// 2.5 cm): a figure is never set wider.
const figureWidth = 16 * vg.Centimeter

// LaTeX writes r as a standalone LaTeX document (see the package's LaTeX
// form above), a section at a time.
func LaTeX(w io.Writer, r *job.Report, opts Options) error {
	d, b, err := prepare(r, opts)
	if err != nil {
		return err
	}
	tw := newTeXWriter(w, b.o, b.t)
	tw.head(d)
	i, n := 0, sectionCount(r)
	err = b.each(r, formLaTeX, func(s *section) error {
		i++
		tw.last = i == n
		return tw.section(s)
	})
	if err != nil {
		return err
	}
	return tw.close()
}

// SurveyLaTeX writes the report of a survey as a standalone LaTeX
// document: the other forms' sections, the figures across the variants
// beside it, and the table of variants as a longtable.
func SurveyLaTeX(w io.Writer, r *survey.Report, opts Options) error {
	d, o, b, err := buildSurvey(r, opts)
	if err != nil {
		return err
	}
	tw := newTeXWriter(w, o, b.t)
	tw.tooLarge = b.tooLarge
	tw.head(d)
	for i, s := range d.Sections {
		tw.last = i == len(d.Sections)-1
		if err := tw.section(s); err != nil {
			return err
		}
	}
	return tw.close()
}

// NotebookLaTeX writes an executed notebook as a standalone LaTeX
// document: Markdown cells as prose (a level-2 heading starts a section),
// code cells in typewriter type, outputs by their text/latex (the
// Bundler's tables), else as NotebookPDF prints them, PNG figures as files
// beside the document.
func NotebookLaTeX(w io.Writer, nb *nbformat.Notebook, title string, opts Options) error {
	d, o, t, err := notebookDocument(nb, title, opts, texFigureBlocks)
	if err != nil {
		return err
	}
	if err := o.checkMemory(formLaTeX, "this notebook", d.Sections...); err != nil {
		return err
	}
	tw := newTeXWriter(w, o, t)
	tw.head(d)
	for i, s := range d.Sections {
		tw.last = i == len(d.Sections)-1
		if err := tw.section(s); err != nil {
			return err
		}
	}
	return tw.close()
}

// rawTeX is LaTeX made by this package (a notebook output's text/latex),
// written as it is.
type rawTeX struct{ Text string }

func (rawTeX) isBlock() {}

// texOutputBlocks is what a notebook output shows in LaTeX: its
// text/latex and its image when it has them, else what it shows on paper.
func texOutputBlocks(o nbformat.Output) ([]block, error) {
	s, ok := o.Data["text/latex"].(string)
	if !ok || strings.TrimSpace(s) == "" {
		return outputBlocks(o)
	}
	out := []block{rawTeX{Text: s}}
	bs, err := outputBlocks(o)
	if err != nil {
		return nil, err
	}
	for _, b := range bs {
		if _, ok := b.(picture); ok {
			out = append(out, b)
		}
	}
	return out, nil
}

// vectorPicture is a figure a notebook output carries as application/pdf
// (see Bundle): the LaTeX form includes it as it is, in vector.
type vectorPicture struct {
	PDF           []byte
	Width, Height vg.Length
	Alt           string
}

func (vectorPicture) isBlock() {}

var mediaBox = regexp.MustCompile(`/MediaBox\s*\[\s*0\s+0\s+([0-9.]+)\s+([0-9.]+)\s*\]`)

// texFigureBlocks is what an output shows in LaTeX, its figure in vector
// when it carries one as PDF.
func texFigureBlocks(o nbformat.Output) ([]block, error) {
	bs, err := texOutputBlocks(o)
	if err != nil {
		return nil, err
	}
	s, ok := o.Data["application/pdf"].(string)
	if !ok {
		return bs, nil
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("reports: an application/pdf output is not base64: %w", err)
	}
	m := mediaBox.FindSubmatch(data)
	if m == nil {
		return bs, nil
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	if w <= 0 || h <= 0 {
		return bs, nil
	}
	for i, b := range bs {
		if p, ok := b.(picture); ok {
			bs[i] = vectorPicture{PDF: data, Width: vg.Length(w), Height: vg.Length(h), Alt: p.Alt}
			return bs, nil
		}
	}
	return bs, nil
}

// texWriter writes LaTeX; the first write error is kept.
type texWriter struct {
	w        *bufio.Writer
	o        Options
	t        *templates.Set
	figs     int
	refs     []string // the sources cited, in order
	tooLarge func(error) string
	fragment bool // a piece of a document: tables as tabular only
	last     bool // writing the last section (see tail)
	boxed    bool // its last lines are in box 0, with the references
	err      error
}

func newTeXWriter(w io.Writer, o Options, t *templates.Set) *texWriter {
	return &texWriter{w: bufio.NewWriterSize(w, 64<<10), o: o, t: t}
}

func (tw *texWriter) p(format string, a ...any) {
	if tw.err == nil {
		_, tw.err = fmt.Fprintf(tw.w, format, a...)
	}
}

func (tw *texWriter) s(s string) {
	if tw.err == nil {
		_, tw.err = tw.w.WriteString(s)
	}
}

// texPreamble loads what the document uses, each package in Debian's
// texlive (see the package documentation); head sets babel's language
// (%[1]s) and how much smaller a figure may be drawn (minFigureScale, as a
// percentage %[2]d and a factor %[3]g).
const texPreamble = `\documentclass[a4paper,10pt]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{lmodern}
\usepackage{textcomp}
\usepackage{amsmath,amssymb}
\usepackage[%[1]s]{babel}
\usepackage[margin=2.5cm]{geometry}
\usepackage{booktabs}
\usepackage{longtable}
\usepackage{array}
\usepackage{float}
\usepackage{graphicx}
\usepackage[hidelinks]{hyperref}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.6\baselineskip plus 2pt}
\setlength{\emergencystretch}{3em}
%% A formula in the text is never broken across lines (n = 10, 1 \oplus 2 = 3).
\relpenalty=10000
\binoppenalty=10000
\makeatletter
%% A web address breaks after any character, as xurl would have it.
\g@addto@macro\UrlBreaks{\do\a\do\b\do\c\do\d\do\e\do\f\do\g\do\h\do\i\do\j\do\k\do\l\do\m\do\n\do\o\do\p\do\q\do\r\do\s\do\t\do\u\do\v\do\w\do\x\do\y\do\z\do\A\do\B\do\C\do\D\do\E\do\F\do\G\do\H\do\I\do\J\do\K\do\L\do\M\do\N\do\O\do\P\do\Q\do\R\do\S\do\T\do\U\do\V\do\W\do\X\do\Y\do\Z\do0\do1\do2\do3\do4\do5\do6\do7\do8\do9}
\makeatother
%% \nbneed{length}: a page break here unless that much room is left (as
%% needspace does): a heading or a lead-in goes with what follows it.
\makeatletter
\newcommand{\nbneed}[1]{\par\penalty-100\begingroup\setlength{\dimen@}{#1}%%
  \dimen@ii\pagegoal\advance\dimen@ii-\pagetotal
  \ifdim\dimen@>\dimen@ii\ifdim\dimen@ii>\z@\vfil\fi\break\fi\endgroup}
\makeatother
%% \nbrefs places box 0, the last lines of the text, and box 2, the
%% references: on this page when they fit (it is made up to two lines
%% longer), else together on the next one when the references alone would
%% miss this page; when the last lines themselves run over the page they
%% flow, and the references follow them. The references never take a page
%% of their own.
\newcommand{\nbrefs}{\par
  \dimen0=\dimexpr\pagegoal-\pagetotal\relax
  \dimen2=\dimexpr\ht0+\dp0+\ht2+\dp2\relax
  \ifdim\pagegoal<\maxdimen
    \ifdim\dimen2>\dimen0
      \ifdim\dimexpr\dimen2-\dimen0\relax<2\baselineskip
        \enlargethispage{\dimexpr\dimen2-\dimen0+2pt\relax}%%
      \else\ifdim\dimexpr\ht0+\dp0\relax<\dimexpr\dimen0+\baselineskip\relax
        \newpage\fi\fi\fi\fi
  \unvbox0\unvbox2}
%% \nbtail: the room the last section's figures leave for the references.
\newlength{\nbtail}
%% \nbgraphic{width}{height}{file}: a figure stays where it is (in its
%% section), drawn smaller, down to %[2]d %%, rather than pushed to the next
%% page when the room left on this one is short.
\newlength{\nbroom}
\newcommand{\nbgraphic}[3]{%%
  \setlength{\nbroom}{\dimexpr\pagegoal-\pagetotal-5\baselineskip-\nbtail\relax}%%
  \ifdim\nbroom<%[3]g\dimexpr#2\relax\setlength{\nbroom}{#2}\fi
  \ifdim\nbroom>#2\relax\setlength{\nbroom}{#2}\fi
  \includegraphics[width=#1,height=\nbroom,keepaspectratio]{#3}}
`

func (tw *texWriter) head(d *document) {
	lang := "english"
	if d.Lang == "fr" {
		lang = "french"
	}
	tw.s("% Written by nimbook: compile with pdflatex (twice for the citations).\n")
	tw.p(texPreamble, lang, int(math.Round(100*minFigureScale)), minFigureScale)
	// The title as a block of its own: \maketitle leaves room for an
	// author and a date a report does not have.
	tw.s("\\begin{document}\n\\begin{center}\n")
	tw.p("{\\LARGE\\bfseries %s\\par}\n", texText(d.Title))
	if d.Date != "" {
		tw.p("\\medskip\n%s\\par\n", texText(d.Date))
	}
	tw.s("\\end{center}\n")
}

// tailStart is where the last lines of the last section begin that go
// with the references: its blocks of text after its last table or
// figure (or that figure, when it ends the section), a dozen lines at
// most. The notes under a table stay with the table (see tableNote):
// the tail begins after them when something is left for it.
func tailStart(bs []block) int {
	i := tailAfterLast(bs)
	j := i
	for j < len(bs) && tableNote(bs, j) {
		j++
	}
	if j < len(bs) {
		return j
	}
	return i
}

// nextShown is the first block from bs[i] on that LaTeX shows (not one
// for Markdown only), nil when none is.
func nextShown(bs []block, i int) block {
	for ; i < len(bs); i++ {
		switch b := bs[i].(type) {
		case heading:
			if b.MDOnly {
				continue
			}
		case para:
			if b.MDOnly {
				continue
			}
		case codeBlock:
			if b.MDOnly {
				continue
			}
		}
		return bs[i]
	}
	return nil
}

// tableNote reports whether bs[i] is a note under a table (its notes, its
// source), directly or after other notes: LaTeX must not break a page
// before it.
func tableNote(bs []block, i int) bool {
	if i >= len(bs) {
		return false
	}
	for ; i > 0; i-- {
		p, ok := bs[i].(para)
		if !ok || !p.Note && !p.Source {
			return false
		}
		if _, ok := bs[i-1].(table); ok {
			return true
		}
	}
	return false
}

// tailAfterLast is tailStart's first reading: the blocks after the last
// table or figure, a dozen lines at most.
func tailAfterLast(bs []block) int {
	lines := 0.0
	i := len(bs)
	for i > 0 {
		b := bs[i-1]
		switch b := b.(type) {
		case heading:
			lines += 3
		case para:
			lines += 2 + float64(len(spanText(b.Spans)))/90
		case list:
			lines += 1.2 * float64(len(b.Items))
		case figure, surveyFigure, picture, vectorPicture:
			if i < len(bs) {
				return i
			}
			// A figure that ends the section goes with the
			// references rather than leave them alone.
			lines = -12
		default:
			return i
		}
		if lines > 12 {
			if _, ok := b.(heading); ok {
				// A heading goes with its text: left outside,
				// it would stay alone at a page's foot when the
				// tail moves to the next page.
				return i - 1
			}
			return i
		}
		i--
	}
	return i
}

// tail has a figure of the last section leave room for what follows it:
// the section's other blocks and the references (those cited so far and
// one more, about a line and a half each, and their heading), so that
// the references end the last page rather than take one.
func (tw *texWriter) tail(rest []block) {
	// A reference takes a line and a bit, more when its text wraps (about
	// 95 characters a line in small type).
	lines := 3 + 1.3
	for _, r := range tw.refs {
		lines += 0.3 + math.Ceil(float64(utf8.RuneCountInString(r))/95)
	}
	for _, b := range rest {
		switch b := b.(type) {
		case heading:
			lines += 3
		case para:
			lines += 2 + float64(len(spanText(b.Spans)))/90
		case list:
			lines += 1.2 * float64(len(b.Items))
		case table:
			lines += 3 + 1.1*float64(len(b.Rows))
		case figure, surveyFigure, picture, vectorPicture:
			return // that figure makes the room
		default:
			lines += 4
		}
	}
	tw.p("\\setlength{\\nbtail}{%.1f\\baselineskip}\n", lines)
}

// close ends the document with the bibliography of the sources cited.
func (tw *texWriter) close() error {
	if len(tw.refs) > 0 || tw.boxed {
		// In small type, right after the text, placed with the last
		// lines of the last section: the references never take a page
		// of their own (see \nbrefs).
		if tw.boxed {
			tw.s("\\egroup\n")
		} else {
			tw.s("\n\\setbox0=\\vbox{}\n")
		}
		tw.s("\\setbox2=\\vbox{")
		if len(tw.refs) > 0 {
			tw.s("\\small\n\\begin{thebibliography}{99}\n")
			for i, r := range tw.refs {
				tw.p("\\bibitem{src%d} %s\n", i+1, texSource(r))
			}
			tw.s("\\end{thebibliography}\n")
		}
		tw.s("}\n\\nbrefs\n")
	}
	tw.s("\\end{document}\n")
	return tw.flush()
}

func (tw *texWriter) flush() error {
	if tw.err == nil {
		tw.err = tw.w.Flush()
	}
	if tw.err != nil {
		return fmt.Errorf("reports: %w", tw.err)
	}
	return nil
}

func (tw *texWriter) section(s *section) error {
	if s.Title != "" {
		tw.p("\n\\nbneed{%d\\baselineskip}\n\\section*{%s}\n\n", sectionNeed(s.Blocks), texText(s.Title))
	}
	box := len(s.Blocks)
	if tw.last && !tw.fragment {
		box = tailStart(s.Blocks)
	}
	kept := -1 // the last note a table keeps with it in one box
	for i, b := range s.Blocks {
		if i == box {
			// The section's last lines go with the references (see
			// close and \nbrefs).
			tw.s("\\setbox0=\\vbox\\bgroup\n")
			tw.boxed = true
		}
		if !tw.fragment && i < box {
			tw.keepWithNext(b, s.Blocks[i+1:])
		}
		if t, ok := b.(table); ok && !tw.fragment && len(t.Rows) <= 40 && tableNote(s.Blocks, i+1) {
			// A table (not a longtable) and the notes under it are
			// one box: a page never parts them. Not across the
			// start of the tail, a box of its own.
			end := i + 1
			for end+1 < len(s.Blocks) && tableNote(s.Blocks, end+1) {
				end++
			}
			if box <= i || box > end {
				tw.s("\\par\\vbox{%\n")
				kept = end
			}
		}
		if p, ok := b.(para); ok && p.Source && tw.o.Figures != nil && !tw.o.NoFigures {
			if f, ok := nextShown(s.Blocks, i+1).(figure); ok && f.Ref == p.Ref {
				// The figure just under it cites the source.
				if i == kept {
					tw.s("}\n\n")
				}
				continue
			}
		}
		switch b.(type) {
		case figure, surveyFigure, picture, vectorPicture:
			if tw.last && tw.o.Figures != nil && !tw.o.NoFigures {
				tw.tail(s.Blocks[i+1:])
			}
		}
		if err := tw.block(b); err != nil {
			return err
		}
		if i == kept {
			tw.s("}\n\n")
		}
	}
	return tw.err
}

// keepWithNext asks for room before a heading (its first lines with it)
// and before a sentence that leads into a table short enough to go whole
// with it, so that neither is left alone at a page's foot.
// sectionNeed is the room a section's title keeps with it, in lines: its
// opening paragraphs and its first heading or table with what they keep
// (a title and the game's line alone at a page's foot, the table on the
// next page, read as a section with nothing in it); 10 at least, 30 at
// most.
func sectionNeed(bs []block) int {
	lines := 4.0
	for i, b := range bs {
		switch b := b.(type) {
		case para:
			if b.MDOnly {
				continue
			}
			if lead := leadNeed(b, bs[i+1:]); lead > 0 {
				return min(30, max(10, int(lines)+lead))
			}
			lines += 1.5 + float64(len(spanText(b.Spans)))/90
			continue
		case heading:
			if b.MDOnly {
				continue
			}
			need := 5
			if i+1 < len(bs) {
				need = max(need, 5+leadNeed(bs[i+1], bs[i+2:]))
			}
			return min(30, max(10, int(lines)+need))
		}
		break
	}
	return 10
}

func (tw *texWriter) keepWithNext(b block, next []block) {
	switch b := b.(type) {
	case heading:
		if !b.MDOnly {
			// The heading, and what its lead-in keeps with it: a
			// heading never stays alone at a page's foot.
			need := 5
			if len(next) > 0 {
				need = max(need, 5+leadNeed(next[0], next[1:]))
			}
			tw.p("\\nbneed{%d\\baselineskip}\n", need)
		}
	case para:
		if need := leadNeed(b, next); need > 0 {
			tw.p("\\nbneed{%d\\baselineskip}\n", need)
		}
	}
}

// leadNeed is the room, in lines, a lead-in b keeps with the table that
// follows it (0 for no such table): a row of the table in small type is
// about a line.
func leadNeed(b block, next []block) int {
	p, ok := b.(para)
	if !ok || p.MDOnly || len(next) == 0 {
		return 0
	}
	if t, ok := next[0].(table); ok && len(t.Rows) <= 30 {
		return len(t.Rows) + 5
	}
	return 0
}

func (tw *texWriter) block(b block) error {
	switch b := b.(type) {
	case heading:
		if !b.MDOnly {
			tw.p("\\subsection*{%s}\n\n", texText(b.Text))
		}
	case para:
		if b.MDOnly {
			return nil
		}
		txt := tw.spans(b.Spans)
		if b.Source && b.Ref != "" {
			txt = tw.cite(b.Ref)
		}
		if b.Note {
			tw.p("{\\small %s\\par}\n\n", txt)
		} else {
			tw.p("%s\n\n", txt)
		}
	case prose:
		tw.prose(b.MD)
	case table:
		tw.table(b)
	case list:
		// Lists of positions, one a line: no space between the items.
		tw.s("\\begin{itemize}\\setlength{\\itemsep}{0pt}\\setlength{\\parskip}{0pt}\n")
		for _, it := range b.Items {
			tw.p("\\item %s\n", tw.spans(it))
		}
		tw.s("\\end{itemize}\n\n")
	case codeBlock:
		if !b.MDOnly {
			tw.code(b.Text)
		}
	case figure:
		if tw.o.NoFigures {
			return nil
		}
		return tw.figure(b)
	case surveyFigure:
		if tw.o.NoFigures {
			return nil
		}
		p, err := b.draw()
		if err != nil {
			tw.p("{\\small %s\\par}\n\n", texText(tw.tooLarge(err)))
			return nil
		}
		return tw.graphic("pdf", func(w io.Writer) error { return plots.PDF(w, p, plots.Width, b.Height) }, plots.Width, b.Height, b.Caption, "")
	case picture:
		if tw.o.NoFigures {
			return nil
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b.PNG))
		if err != nil {
			return fmt.Errorf("reports: an image/png output: %w", err)
		}
		width := vg.Length(cfg.Width) * vg.Inch / pictureDPI
		height := vg.Length(cfg.Height) * vg.Inch / pictureDPI
		return tw.graphic("png", func(w io.Writer) error {
			_, err := w.Write(b.PNG)
			return err
		}, width, height, b.Alt, "")
	case vectorPicture:
		if tw.o.NoFigures {
			return nil
		}
		return tw.graphic("pdf", func(w io.Writer) error {
			_, err := w.Write(b.PDF)
			return err
		}, b.Width, b.Height, b.Alt, "")
	case rawTeX:
		tw.p("%s\n\n", strings.TrimRight(b.Text, "\n"))
	}
	return tw.err
}

// spans writes a paragraph's spans.
func (tw *texWriter) spans(ss []span) string {
	var sb strings.Builder
	for _, s := range ss {
		switch {
		case s.Code:
			sb.WriteString(`\texttt{` + texEscape(s.Text) + `}`)
		case s.Link != "" && texURLSafe(s.Link):
			sb.WriteString(`\href{` + texURL(s.Link) + `}{` + texText(s.Text) + `}`)
		case len(s.Heaps) > 0:
			// Glue after each comma: a line breaks between heaps (and
			// stretches there), never inside a number.
			sb.WriteString(tupleText(s.Heaps, `\hskip 0pt plus 2pt\relax `, func(h string) string { return `\textbf{` + h + `}` }))
		case s.Math:
			sb.WriteString(`\(` + texMath(s.Text) + `\)`)
		case s.Literal:
			sb.WriteString(texEscape(s.Text))
		case strings.Contains(s.Text, "://"):
			// Web addresses (a survey's sources) as \url, which breaks
			// them at the margin.
			sb.WriteString(texSource(s.Text))
		default:
			sb.WriteString(texText(s.Text))
		}
	}
	return sb.String()
}

// cite writes the templates' citation of a source ("Source: …") with the
// source as a reference to the bibliography.
func (tw *texWriter) cite(src string) string {
	k := 0
	for i, r := range tw.refs {
		if r == src {
			k = i + 1
		}
	}
	if k == 0 {
		tw.refs = append(tw.refs, src)
		k = len(tw.refs)
	}
	const mark = "\x00"
	msg, err := tw.t.Text("source", args{"Source": mark})
	if err != nil {
		if tw.err == nil {
			tw.err = err
		}
		return ""
	}
	before, after, _ := strings.Cut(msg, mark)
	return texText(before) + fmt.Sprintf(`\cite{src%d}`, k) + texText(after)
}

// texSource writes a source for the bibliography, its web addresses as
// links.
func texSource(s string) string {
	// The words between addresses go to texText together: a word alone
	// loses what stands beside it ("S." is an initial before "Brown").
	var sb strings.Builder
	var run []string
	flush := func() {
		if len(run) > 0 {
			sb.WriteString(texText(strings.Join(run, " ")))
			run = run[:0]
		}
	}
	for i, w := range strings.Split(s, " ") {
		core := strings.TrimRight(w, ".,;:)")
		if (strings.HasPrefix(core, "https://") || strings.HasPrefix(core, "http://")) && texURLSafe(core) {
			flush()
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(`\url{` + texURL(core) + `}` + texEscape(w[len(core):]))
			continue
		}
		if i > 0 && len(run) == 0 {
			sb.WriteByte(' ')
		}
		run = append(run, w)
	}
	flush()
	return sb.String()
}

// texURLSafe reports whether a web address can go into \url or \href as
// it is (but for % and #, escaped by texURL).
func texURLSafe(u string) bool {
	for _, r := range u {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune(`\{}^~"|<>`+"`", r) {
			return false
		}
	}
	return u != ""
}

func texURL(u string) string {
	return strings.NewReplacer("%", `\%`, "#", `\#`).Replace(u)
}

// table writes a table with booktabs rules: a tabular when it fits a
// page, else a longtable whose header repeats on every page; the type
// shrinks with the columns, and a table too wide for the page even then
// is scaled down to its width.
func (tw *texWriter) table(t table) {
	cols := t.columns()
	if cols == 0 {
		return
	}
	get := at
	spec := "l"
	for _, right := range t.rightAligned(cols)[1:] {
		if right {
			spec += "r"
		} else {
			spec += "l"
		}
	}
	row := func(r []cell) string {
		parts := make([]string, cols)
		for j := range cols {
			parts[j] = texCell(get(r, j))
		}
		return strings.Join(parts, " & ") + ` \\`
	}
	// The largest type whose table fits the text's width (455 pt), from
	// the widest cell of each column: digits are half an em wide.
	chars := make([]int, cols)
	for _, r := range append([][]cell{t.Header}, t.Rows...) {
		for j := range cols {
			chars[j] = max(chars[j], utf8.RuneCountInString(get(r, j).Text))
		}
	}
	sizes := []struct {
		name, sep string
		em, sepPt float64
	}{{`\small`, "5pt", 9, 5}, {`\footnotesize`, "3.5pt", 8, 3.5}, {`\scriptsize`, "2pt", 7, 2}}
	fits := func(em, sep float64) bool {
		w := 0.0
		for _, c := range chars {
			w += float64(c)*em*0.5 + 2*sep
		}
		return w <= 440
	}
	k := 0
	for k < len(sizes)-1 && !fits(sizes[k].em, sizes[k].sepPt) {
		k++
	}
	size, sep := sizes[k].name, sizes[k].sep
	// A long table flows over pages in a fragment too: nbconvert's LaTeX
	// loads longtable and booktabs.
	long := len(t.Rows) > 40
	scaled := false
	if !fits(sizes[k].em, sizes[k].sepPt) {
		// Too wide even in the smallest type: the widest columns of
		// words wrap, as paragraphs of one width (the others keep
		// theirs), so that the table fits the text's width. A table of
		// numbers only is scaled down instead (but for a long one).
		if cs, ok := wrapColumns(chars, spec, sizes[k].em, sizes[k].sepPt); ok {
			spec = cs
		} else {
			scaled = !long && !tw.fragment
		}
	}
	if long {
		tw.p("{%s\\setlength{\\tabcolsep}{%s}\n\\begin{longtable}{%s}\n\\toprule\n%s\n\\midrule\n\\endfirsthead\n\\toprule\n%s\n\\midrule\n\\endhead\n\\bottomrule\n\\endfoot\n",
			size, sep, spec, row(t.Header), row(t.Header))
		for _, r := range t.Rows {
			tw.p("%s\n", row(r))
		}
		tw.s("\\end{longtable}}\n\n")
		return
	}
	if !tw.fragment {
		tw.s("\\begin{center}\n")
	}
	tw.p("{%s\\setlength{\\tabcolsep}{%s}\n", size, sep)
	if scaled {
		tw.s("\\resizebox{\\linewidth}{!}{%\n")
	}
	tw.p("\\begin{tabular}{%s}\n\\toprule\n%s\n\\midrule\n", spec, row(t.Header))
	for _, r := range t.Rows {
		tw.p("%s\n", row(r))
	}
	tw.s("\\bottomrule\n\\end{tabular}")
	if scaled {
		tw.s("}")
	}
	tw.s("}\n")
	if !tw.fragment {
		tw.s("\\end{center}\n")
	}
	tw.s("\n")
}

// wrapColumns sets the widest columns of words (spec "l") as paragraphs
// of one width, the widest the text's width (440 pt) leaves them; ok is
// false when no such column would make the table fit.
func wrapColumns(chars []int, spec string, em, sep float64) (string, bool) {
	width := func(j int) float64 { return float64(chars[j])*em*0.5 + 2*sep }
	fixed, wrap := 0.0, []int{}
	for j := range chars {
		if spec[j] == 'l' && j > 0 || spec[j] == 'l' && chars[j] > 12 {
			wrap = append(wrap, j)
		} else {
			fixed += width(j)
		}
	}
	if len(wrap) == 0 {
		return "", false
	}
	// Water-filling: the wrapped columns share the room left, none
	// wider than it needs, the widest capped at one width.
	room := 440 - fixed
	sort.Slice(wrap, func(a, b int) bool { return width(wrap[a]) < width(wrap[b]) })
	cap := 0.0
	for i, j := range wrap {
		share := room / float64(len(wrap)-i)
		if width(j) <= share {
			room -= width(j)
			continue
		}
		cap = share
		break
	}
	if cap == 0 {
		return spec, true // it fits as it is
	}
	if cap < 6*em {
		return "", false // columns a few letters wide: unreadable
	}
	b := []byte(spec)
	var out strings.Builder
	for j := range b {
		if slices.Contains(wrap, j) && width(j) > cap {
			fmt.Fprintf(&out, `>{\raggedright\arraybackslash}p{%.0fpt}`, cap-2*sep)
		} else {
			out.WriteByte(b[j])
		}
	}
	return out.String(), true
}

// texCell writes a table cell: P-positions in bold, code in typewriter.
func texCell(c cell) string {
	if a, b, ok := strings.Cut(c.Text, ".."); ok && a != "" && b != "" && strings.Trim(a+b, "0123456789") == "" {
		// A row label, 0..9: a range as a paper prints it, 0–9.
		return a + "--" + b
	}
	switch {
	case c.Text == "":
		return ""
	case c.Code:
		return `\texttt{` + texEscape(c.Text) + `}`
	case c.Scripts && c.Strong:
		// An element of a quotient (a b^2), of its P-portion: bold
		// mathematics.
		return `\(\boldsymbol{` + texMath(c.Text) + `}\)`
	case c.Scripts:
		return `\(` + texMath(c.Text) + `\)`
	case c.Strong:
		return `\textbf{` + texText(c.Text) + `}`
	}
	return texText(c.Text)
}

// code writes lines in typewriter type, every space kept.
func (tw *texWriter) code(text string) {
	tw.s("\\begin{flushleft}\\small\\ttfamily\n")
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, ln := range lines {
		e := texEscape(strings.ReplaceAll(ln, "\t", "    "))
		e = strings.ReplaceAll(e, " ", `\ `)
		// A long line of code breaks after a comma too, never inside a
		// number or a name.
		e = strings.ReplaceAll(e, ",", `,\allowbreak{}`)
		if e == "" {
			e = `\mbox{}`
		}
		tw.s(e)
		if i < len(lines)-1 {
			// \relax: a next line starting with "[" or "*" is not read
			// as the optional argument of \\.
			tw.s(`\\\relax`)
		}
		tw.s("\n")
	}
	tw.s("\\end{flushleft}\n\n")
}

// figure draws a report's figure into a PDF file beside the document.
func (tw *texWriter) figure(f figure) error {
	p, width, height, err := drawFigure(f)
	if err != nil {
		msg, terr := figureNote(err, tw.t.Text)
		if terr != nil {
			return terr
		}
		tw.p("{\\small %s\\par}\n\n", texText(msg))
		return nil
	}
	cite := ""
	if f.Ref != "" {
		cite = tw.cite(f.Ref)
	} else if f.Source != "" {
		cite = texText(f.Source)
	}
	return tw.graphic("pdf", func(w io.Writer) error { return plots.PDF(w, p, width, height) }, width, height, f.Caption, cite)
}

// graphic writes a figure's file through Options.Figures and the figure
// that includes it, set at its own width (at most the text's).
func (tw *texWriter) graphic(ext string, write func(io.Writer) error, width, height vg.Length, caption, cite string) error {
	if tw.o.Figures == nil {
		tw.p("%% A figure is left out here (%s): the document was not written to a file, beside which its figures go.\n\n", texComment(caption))
		return nil
	}
	tw.figs++
	name := fmt.Sprintf("%s-fig%d.%s", figureStem(tw.o.FigureStem), tw.figs, ext)
	if err := tw.o.Figures(name, write); err != nil {
		return err
	}
	// Figures at 80 % of the size they are drawn for: a paper's figure
	// leaves room for the text around it. A square one (a table's colour
	// map, a game graph) at 70 %: about the area of a plot (8.4 cm square
	// against 12.8 × 5.6 cm), which leaves a 16 × 16 table and its map on
	// one page (the nim-product handout).
	scale := 0.8
	if width == height {
		scale = 0.7
	}
	w := math.Min(scale*width.Points(), figureWidth.Points())
	h := w * height.Points() / width.Points()
	// [H] (float): the figure stays in its section, as in the other
	// forms; \nbgraphic draws it smaller to fit the page's foot.
	tw.p("\\begin{figure}[H]\n\\centering\n\\nbgraphic{%.1fpt}{%.1fpt}{%s}\n", w, h, name)
	if caption != "" {
		tw.p("\\caption{%s}\n", texText(caption))
	}
	if cite != "" {
		tw.p("{\\small\\centering %s\\par}\n", cite)
	}
	tw.s("\\end{figure}\n\n")
	return tw.err
}

// figureStem makes the names of figure files safe in \includegraphics:
// letters, digits, "-" and "_" only.
func figureStem(s string) string {
	if s == "" {
		return "report"
	}
	b := []byte(s)
	for i, c := range b {
		if !isWordByte(c) && c != '-' && c != '_' {
			b[i] = '-'
		}
	}
	return string(b)
}

// texComment makes text safe in a LaTeX comment: one line.
func texComment(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r < ' ' {
			return ' '
		}
		return r
	}, s)
}

// prose writes the job file's Markdown (proseBlocks) as LaTeX:
// paragraphs, headings, lists, code, block quotes, GFM tables; raw HTML
// prints as the text it is, as in the other forms.
func (tw *texWriter) prose(src string) {
	tw.mdBlocks(proseBlocks(src))
}

func (tw *texWriter) mdBlocks(bs []mdBlock) {
	for _, b := range bs {
		switch b.Kind {
		case mdPara:
			tw.p("%s\n\n", texInline(b.Inline))
		case mdHeading:
			tw.p("\\subsection*{%s}\n\n", texInline(b.Inline))
		case mdList:
			env := "itemize"
			if b.Ordered {
				env = "enumerate"
			}
			tw.p("\\begin{%s}\n", env)
			for _, item := range b.Items {
				tw.s("\\item ")
				tw.mdBlocks(item)
			}
			tw.p("\\end{%s}\n\n", env)
		case mdCode, mdHTML:
			tw.code(b.Text)
		case mdQuote:
			tw.s("\\begin{quote}\n")
			tw.mdBlocks(b.Blocks)
			tw.s("\\end{quote}\n\n")
		case mdRule:
			tw.s("\\noindent\\rule{\\linewidth}{0.4pt}\n\n")
		case mdTable:
			tw.table(b.Table)
		}
	}
}

// texInline writes a paragraph's pieces. Consecutive text is read as
// one for its mathematics (texText); an escaped sign (f\_r) stands in it
// as a private-use character, which is neither a script nor
// mathematics, and is then written as the sign.
func texInline(in []mdInline) string {
	var sb, run strings.Builder
	var signs []string
	flush := func() {
		s := texText(run.String())
		for _, c := range signs {
			s = strings.ReplaceAll(s, fmt.Sprintf(`\textsc{u+%04x}`, escapedSign+rune(c[0])), texEscape(c))
		}
		sb.WriteString(s)
		run.Reset()
		signs = signs[:0]
	}
	for _, x := range in {
		if x.Kind == inText && x.Literal && len(x.Text) == 1 {
			run.WriteRune(escapedSign + rune(x.Text[0]))
			signs = append(signs, x.Text)
			if x.Break {
				flush()
				sb.WriteString("\\\\\n")
			}
			continue
		}
		if x.Kind == inText && !x.Literal {
			run.WriteString(x.Text)
			if x.Break {
				flush()
				sb.WriteString("\\\\\n")
			}
			continue
		}
		flush()
		switch x.Kind {
		case inCode:
			sb.WriteString(`\texttt{` + texEscape(x.Text) + `}`)
		case inEmph:
			cmd := `\emph`
			if x.Level >= 2 {
				cmd = `\textbf`
			}
			sb.WriteString(cmd + "{" + texInline(x.Items) + "}")
		case inLink:
			if texURLSafe(x.URL) {
				sb.WriteString(`\href{` + texURL(x.URL) + `}{` + texInline(x.Items) + `}`)
			} else {
				sb.WriteString(texInline(x.Items))
			}
		case inAutoLink:
			if texURLSafe(x.Text) {
				sb.WriteString(`\url{` + texURL(x.Text) + `}`)
			} else {
				sb.WriteString(texEscape(x.Text))
			}
		case inRaw:
			sb.WriteString(texEscape(x.Text))
		}
	}
	flush()
	return sb.String()
}

// latexFragment writes blocks as a piece of a LaTeX document (a notebook
// result's text/latex): tables as tabular with booktabs rules (longtable
// past 40 rows), text as
// paragraphs; figures are left out (the bundle has them as images). With
// tablesOnly, only the tables, when there are some (a result's .latex()).
func latexFragment(blocks []block, o Options, t *templates.Set, tablesOnly bool) (string, error) {
	var buf bytes.Buffer
	tw := newTeXWriter(&buf, o, t)
	tw.fragment = true
	hasTable := false
	for _, b := range blocks {
		if _, ok := b.(table); ok {
			hasTable = true
		}
	}
	for _, b := range blocks {
		switch b := b.(type) {
		case figure, surveyFigure, picture:
			continue
		case table:
			tw.table(b)
			continue
		case para:
			if b.Source && b.Ref != "" {
				// No bibliography in a fragment: the source in words.
				b.Source = false
			}
			if tablesOnly && hasTable {
				continue
			}
			if err := tw.block(b); err != nil {
				return "", err
			}
			continue
		case heading:
			if tablesOnly && hasTable || b.MDOnly {
				continue
			}
			tw.p("\\paragraph{%s}\n", texText(b.Text))
			continue
		}
		if tablesOnly && hasTable {
			continue
		}
		if err := tw.block(b); err != nil {
			return "", err
		}
	}
	if err := tw.flush(); err != nil {
		return "", err
	}
	return strings.TrimRight(buf.String(), "\n") + "\n", nil
}

// escapedSign+c stands for the escaped ASCII sign c in texInline's text.
const escapedSign = '\ue100'
