package reports

import (
	"fmt"
	"strings"
	"unicode"
)

// A live notebook's text/latex. Jupyter Notebook 6 shows text/latex
// through MathJax, before a figure and before plain text when a notebook
// is opened untrusted (it skips Markdown there), and MathJax typesets
// mathematics only: a tabular with booktabs rules showed as its source.
// So the kernel's results carry their tables as arrays in display math,
// which MathJax draws and pdflatex compiles alike (nbconvert --to latex
// and --to pdf take text/latex first); .latex() and the reports keep
// booktabs tables for papers (latexFragment).

// mathJaxTables writes the tables among blocks as arrays in display math,
// "" when there is none: prose and figures are the other outputs' part.
func mathJaxTables(blocks []block) string {
	var b strings.Builder
	for _, bl := range blocks {
		t, ok := bl.(table)
		if !ok {
			continue
		}
		cols := len(t.Header)
		for _, r := range t.Rows {
			cols = max(cols, len(r))
		}
		if cols == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(`\[\begin{array}{l|` + strings.Repeat("r", cols-1) + "}\n")
		row := func(r []cell) {
			for j := range cols {
				if j > 0 {
					b.WriteString(" & ")
				}
				if j < len(r) {
					b.WriteString(mathJaxCell(r[j]))
				}
			}
			b.WriteString(` \\` + "\n")
		}
		if len(t.Header) > 0 {
			row(t.Header)
			b.WriteString(`\hline` + "\n")
		}
		for _, r := range t.Rows {
			row(r)
		}
		b.WriteString(`\end{array}\]` + "\n")
	}
	return b.String()
}

// mathJaxCell writes a cell in math mode: numbers as they are, bold when
// they are P-positions; words in \text; signs and symbols as math
// commands. Only characters both MathJax and pdflatex read the same way
// are written inside \text: the others leave it.
func mathJaxCell(c cell) string {
	if c.Text == "" {
		return ""
	}
	var b strings.Builder
	inText := false
	text := func(on bool) {
		if on != inText {
			if on {
				b.WriteString(`\text{`)
			} else {
				b.WriteString(`}`)
			}
			inText = on
		}
	}
	rs := []rune(c.Text)
	for i, r := range rs {
		switch {
		case r == '-' && (inText || i > 0 && unicode.IsLetter(rs[i-1])) && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			// A hyphen between words ("P-positions") stays one, in
			// the text: in math mode it is a minus sign.
			text(true)
			b.WriteRune(r)
		case r == '\\':
			// "a \ b" (a row and a column): a backslash, as a set
			// difference is written.
			text(false)
			b.WriteString(`\backslash `)
		case r >= '0' && r <= '9' || strings.ContainsRune("()[],.;:+-=/!?'*", r):
			text(false)
			b.WriteRune(r)
		case r == ' ':
			if inText {
				b.WriteRune(r)
			} else {
				b.WriteString(`\ `)
			}
		case r < 0x80 && unicode.IsLetter(r) || r >= 0xc0 && r <= 0x17f && unicode.IsLetter(r):
			// ASCII and accented Latin letters: T1 and utf8 in pdflatex.
			text(true)
			b.WriteRune(r)
		default:
			text(false)
			b.WriteString(mathJaxSymbol(r))
		}
	}
	text(false)
	if c.Strong {
		return `\mathbf{` + b.String() + `}`
	}
	return b.String()
}

// mathJaxSymbol writes a character of neither kind in math mode: a
// mathematical symbol by its command, a special character escaped, and
// anything else by its code point, so that no text can break the array.
func mathJaxSymbol(r rune) string {
	if s, ok := texMathRunes[r]; ok {
		return s + " "
	}
	if s, ok := texTextRunes[r]; ok && strings.HasPrefix(s, `\ensuremath{`) {
		return strings.TrimSuffix(strings.TrimPrefix(s, `\ensuremath{`), "}") + " "
	}
	switch r {
	case '’', '‘':
		return `'`
	case '\u00a0', '\u202f', '\u2009':
		return `\,`
	case '&', '%', '#', '$', '_', '{', '}':
		return `\` + string(r)
	case '<':
		return `<`
	case '>':
		return `>`
	case '|':
		return `\vert `
	case '…':
		return `\ldots `
	case '–', '—':
		return `-`
	}
	return fmt.Sprintf(`\text{U+%04X}`, r)
}
