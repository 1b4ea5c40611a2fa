package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/nimbook/nimbook/explore/job"
)

// PlainText writes r as plain text, for a terminal or a mail: the
// Markdown form without its markup. Headings are underlined, tables are
// columns padded with spaces, notes and code are printed as they read,
// scripts are in Unicode (fᵣ, 2⁷) where it has the characters. P-positions
// are not marked in tables: plain text has no bold, and a value 0 says it.
// Figures are left to the HTML and PDF forms. It is the form of
// `--format text` and the text/plain of a notebook's results.
func PlainText(w io.Writer, r *job.Report, opts Options) error {
	d, b, err := prepare(r, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	underline(bw, plainScripts(d.Title), "=")
	if d.Date != "" {
		fmt.Fprintf(bw, "%s\n\n", d.Date)
	}
	err = b.each(r, formMarkdown, func(s *section) error {
		underline(bw, plainScripts(s.Title), "-")
		for _, bl := range s.Blocks {
			writeBlockText(bw, bl)
		}
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

// underline writes a title over a line of rule characters as long as it.
func underline(w io.Writer, title, rule string) {
	fmt.Fprintf(w, "%s\n%s\n\n", title, strings.Repeat(rule, max(utf8.RuneCountInString(title), 3)))
}

// writeBlockText writes one block as plain text, followed by a blank line.
func writeBlockText(w io.Writer, b block) {
	switch b := b.(type) {
	case heading:
		fmt.Fprintf(w, "%s\n\n", plainScripts(b.Text))
	case para:
		if txt := spansText(b.Spans); txt != "" {
			fmt.Fprintf(w, "%s\n\n", txt)
		}
	case prose:
		// The user's own Markdown reads as text already.
		fmt.Fprintf(w, "%s\n\n", strings.TrimRight(proseScripts(b.MD, true), "\n"))
	case table:
		writeTableText(w, b)
	case list:
		for _, it := range b.Items {
			fmt.Fprintf(w, "- %s\n", spansText(it))
		}
		fmt.Fprintln(w)
	case codeBlock:
		fmt.Fprintf(w, "%s\n\n", strings.TrimRight(b.Text, "\n"))
	case figure:
		// No figures in text; the note before them says so.
	}
}

// spansText writes spans as plain text: scripts in Unicode, links as their
// text, and without the note on bold P-positions.
func spansText(ss []span) string {
	var sb strings.Builder
	for _, s := range ss {
		switch {
		case s.BoldNote:
		case s.Code || s.Literal:
			sb.WriteString(s.Text)
		default:
			sb.WriteString(plainScripts(s.Text))
		}
	}
	return strings.TrimSpace(sb.String())
}

// writeTableText pads every column to its widest cell, two spaces apart,
// with a rule under the header; labels left, numbers right, as in the
// Markdown form.
func writeTableText(w io.Writer, t table) {
	cols := t.columns()
	rows := make([][]string, 0, len(t.Rows)+1)
	for _, r := range append([][]cell{t.Header}, t.Rows...) {
		row := make([]string, cols)
		for j := range cols {
			switch {
			case j >= len(r):
			case r[j].Scripts:
				row[j] = plainScripts(r[j].Text) // a genus: 0¹²⁰
			default:
				row[j] = r[j].Text
			}
		}
		rows = append(rows, row)
	}
	right := t.rightAligned(cols)
	width := make([]int, cols)
	for _, r := range rows {
		for j, c := range r {
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	line := func(r []string) {
		var sb strings.Builder
		for j, c := range r {
			if j > 0 {
				sb.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			if right[j] {
				sb.WriteString(pad + c)
			} else {
				sb.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
	}
	line(rows[0])
	rule := make([]string, cols)
	for j := range cols {
		rule[j] = strings.Repeat("-", width[j])
	}
	line(rule)
	for _, r := range rows[1:] {
		line(r)
	}
	fmt.Fprintln(w)
}
