package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/nimbook/nimbook/explore/job"
)

// Markdown writes r as a Markdown document meant to be read as it is, in a
// terminal: a title, then per section its heading, its prose, the game in
// words and each analysis in the section's show order. Tables are GFM pipe
// tables padded into columns; P-positions (value 0) are in bold, not
// colour. Figures are left to the HTML and PDF forms.
func Markdown(w io.Writer, r *job.Report, opts Options) error {
	d, b, err := prepare(r, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	writeMarkdownHead(bw, d)
	err = b.each(r, formMarkdown, func(s *section) error {
		writeSectionMarkdown(bw, s, true)
		return nil
	})
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

// writeMarkdownHead writes the title and the date.
func writeMarkdownHead(w io.Writer, d *document) {
	fmt.Fprintf(w, "# %s\n\n", mdText(d.Title, true))
	if d.Date != "" {
		fmt.Fprintf(w, "%s\n\n", escape(d.Date))
	}
}

func writeSectionMarkdown(w io.Writer, s *section, mdOnly bool) {
	fmt.Fprintf(w, "## %s\n\n", mdText(s.Title, mdOnly))
	for _, b := range s.Blocks {
		writeBlockMarkdown(w, b, mdOnly)
	}
}

func writeBlockMarkdown(w io.Writer, b block, mdOnly bool) {
	switch b := b.(type) {
	case heading:
		if b.MDOnly && !mdOnly {
			return
		}
		fmt.Fprintf(w, "### %s\n\n", mdText(b.Text, mdOnly))
	case para:
		if b.MDOnly && !mdOnly {
			return
		}
		txt := spansMarkdown(b.Spans, mdOnly)
		if b.Note {
			txt = "*" + txt + "*"
		}
		fmt.Fprintf(w, "%s\n\n", txt)
	case prose:
		fmt.Fprintf(w, "%s\n\n", strings.TrimRight(proseScripts(b.MD, mdOnly), "\n"))
	case table:
		writeTableMarkdown(w, b, mdOnly)
	case list:
		for _, it := range b.Items {
			fmt.Fprintf(w, "- %s\n", spansMarkdown(it, mdOnly))
		}
		fmt.Fprintln(w)
	case codeBlock:
		if b.MDOnly && !mdOnly {
			return
		}
		fence := "```"
		for strings.Contains(b.Text, fence) {
			fence += "`"
		}
		fmt.Fprintf(w, "%s%s\n%s\n%s\n\n", fence, b.Lang, b.Text, fence)
	case figure:
		// Markdown has no figures; the note before them says so.
	}
}

// spansMarkdown writes spans as Markdown, their scripts as tags, or for a
// Markdown document read as it is (mdOnly) in Unicode (see scripts.go).
func spansMarkdown(ss []span, mdOnly bool) string {
	var sb strings.Builder
	for _, s := range ss {
		switch {
		case s.Code:
			sb.WriteString(codeSpan(s.Text))
		case s.Link != "" && !mdOnly:
			sb.WriteString("[" + escape(s.Text) + "](" + s.Link + ")")
		case len(s.Heaps) > 0:
			// For HTML, a zero-width space after each comma lets a line
			// break between heaps rather than inside a number.
			sep := "\u200b"
			if mdOnly {
				sep = ""
			}
			sb.WriteString(tupleText(s.Heaps, sep, func(h string) string { return "**" + h + "**" }))
		case s.Literal:
			sb.WriteString(escape(s.Text))
		default:
			sb.WriteString(mdText(s.Text, mdOnly))
		}
	}
	return sb.String()
}

func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// escape protects the characters that would change the meaning of
// generated text in Markdown, and leaves the rest readable as it is.
func escape(s string) string {
	var sb strings.Builder
	for i, r := range s {
		switch r {
		case '*', '`', '|':
			sb.WriteByte('\\')
		case '_':
			// An underscore inside a word (f_r, max_take) cannot open
			// or close emphasis in CommonMark: leave it readable.
			if i == 0 || i+1 >= len(s) || !isWordByte(s[i-1]) || !isWordByte(s[i+1]) {
				sb.WriteByte('\\')
			}
		case '<':
			// Only "<" before a letter, "/", "!" or "?" can open HTML.
			if i+1 < len(s) && (isLetter(s[i+1]) || strings.IndexByte("/!?", s[i+1]) >= 0) {
				sb.WriteByte('\\')
			}
		case ']':
			// Only "](" and "][" can make a link.
			if i+1 < len(s) && strings.IndexByte("([", s[i+1]) >= 0 {
				sb.WriteByte('\\')
			}
		case '\\':
			// A backslash escapes only ASCII punctuation; elsewhere
			// ("a \ b") it is a plain character.
			if i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
				sb.WriteByte('\\')
			}
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

func cellMarkdown(c cell, mdOnly bool) string {
	txt := escape(c.Text)
	if c.Scripts {
		txt = mdText(c.Text, mdOnly)
	}
	switch {
	case c.Text == "":
		return ""
	case c.Code:
		return codeSpan(c.Text)
	case c.Strong:
		return "**" + txt + "**"
	}
	return txt
}

// writeTableMarkdown pads every column to its widest cell so that the
// table reads as a table in a terminal too; labels left, numbers right.
func writeTableMarkdown(w io.Writer, t table, mdOnly bool) {
	cols := t.columns()
	text := make([][]string, 0, len(t.Rows)+1)
	for _, r := range append([][]cell{t.Header}, t.Rows...) {
		row := make([]string, cols)
		for j := range cols {
			if j < len(r) {
				row[j] = cellMarkdown(r[j], mdOnly)
			}
		}
		text = append(text, row)
	}
	// Numbers right, words left; the label column always left.
	right := t.rightAligned(cols)
	width := make([]int, cols)
	for _, r := range text {
		for j, c := range r {
			width[j] = max(width[j], utf8.RuneCountInString(c), 3)
		}
	}
	line := func(r []string) {
		var sb strings.Builder
		sb.WriteByte('|')
		for j, c := range r {
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			sb.WriteByte(' ')
			if !right[j] {
				sb.WriteString(c + pad)
			} else {
				sb.WriteString(pad + c)
			}
			sb.WriteString(" |")
		}
		fmt.Fprintln(w, sb.String())
	}
	line(text[0])
	var sb strings.Builder
	sb.WriteByte('|')
	for j := range cols {
		if !right[j] {
			sb.WriteString(" :" + strings.Repeat("-", width[j]-1) + " |")
		} else {
			sb.WriteString(" " + strings.Repeat("-", width[j]-1) + ": |")
		}
	}
	fmt.Fprintln(w, sb.String())
	for _, r := range text[1:] {
		line(r)
	}
	fmt.Fprintln(w)
}

// numeric reports whether a cell holds a number (or nothing).
func numeric(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

func isWordByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Markdown whose mathematics is in dollars, for Jupyter: a front end
// draws $n_0' \leq n$ with MathJax, and nbconvert's pandoc passes it to
// LaTeX as mathematics, where the Unicode of the reports' Markdown (n₀′ ≤
// n, φ, ⊕) has no glyph in xelatex's Latin Modern and vanished from the
// PDF. The formulas are those the LaTeX form sets (mathText).

// Formulas are marked with two private-use characters while they are
// written, so that balanceMath tells their two ends apart.
const mdMathOpen, mdMathClose = "\ue000", "\ue001"

var mdMathForm = textForm{
	text: mdSymbols,
	script: func(b *strings.Builder, p piece) {
		if p.script == 0 {
			b.WriteString(mdSymbols(p.text))
			return
		}
		b.WriteString(mdMathOpen + "{}" + scriptSign(p) + "{" + mathRunes(p.text) + "}" + mdMathClose)
	},
	open: mdMathOpen, close: mdMathClose,
}

// markdownMaths rewrites the text of Markdown src (not its code) with its
// mathematics in dollars.
func markdownMaths(src string) string {
	return rewriteText(src, "", func(text string) string {
		text = strings.NewReplacer(mdMathOpen, "\ufffd", mdMathClose, "\ufffd").Replace(text)
		out := mathText(text, mdMathForm)
		var b strings.Builder
		for {
			i := strings.Index(out, mdMathOpen)
			if i < 0 {
				b.WriteString(out)
				return b.String()
			}
			j := strings.Index(out[i:], mdMathClose)
			if j < 0 {
				b.WriteString(out)
				return b.String()
			}
			// pandoc reads $…$ as a formula only without a space inside
			// either dollar.
			f := strings.TrimSpace(out[i+len(mdMathOpen) : i+j])
			b.WriteString(out[:i])
			if f != "" {
				b.WriteString("$" + f + "$")
			}
			out = out[i+j+len(mdMathClose):]
		}
	})
}

// mdSymbols writes the symbols of text outside a formula (heads (●)) as
// formulas of their own.
func mdSymbols(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { _, ok := texMathRunes[r]; return ok && r >= 0x80 }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if c, ok := texMathRunes[r]; ok && r >= 0x80 {
			b.WriteString("$" + c + "$")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
