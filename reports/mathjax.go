package reports

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// A live notebook's text/latex. Jupyter Notebook 6 shows text/latex
// through MathJax, before a figure and before plain text when a notebook
// is opened untrusted (it skips Markdown there), and MathJax typesets
// mathematics only: a tabular with booktabs rules showed as its source,
// and any command outside a formula (\section, \textbf, \%) shows as
// typed. nbconvert --to latex and --to pdf take text/latex first, ahead
// of Markdown, and paste it into the document as it is: a text/latex of
// tables alone lost the headings, captions and notes the HTML shows.
//
// So the kernel's results carry the whole result in a form both read
// alike (mathJaxResult): text as plain words, every sign with a meaning
// to LaTeX inside a formula \( … \), headings as \(\textbf{…}\),
// paragraphs apart by a blank line, tables as arrays in display math.
// MathJax draws the formulas and leaves the words; LaTeX sets both.
// .latex() and the reports keep booktabs tables for papers
// (latexFragment).

// mathJaxResult writes blocks, a result or a survey, in that form; ""
// when one of them has no such form (a figure, a code block): the other
// outputs then stand for it.
func mathJaxResult(blocks []block) string {
	var b strings.Builder
	par := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteString(s + "\n\n")
		}
	}
	for _, bl := range blocks {
		switch bl := bl.(type) {
		case heading:
			if !bl.MDOnly {
				par(mathJaxHeading(bl.Text))
			}
		case para:
			if !bl.MDOnly {
				par(mathJaxSpans(bl.Spans))
			}
		case list:
			for _, it := range bl.Items {
				par(`\(\bullet\) ` + mathJaxSpans(it))
			}
		case table:
			b.WriteString(mathJaxTables([]block{bl}) + "\n")
		case prose:
			if !mathJaxProse(&b, proseBlocks(bl.MD)) {
				return ""
			}
		case codeBlock:
			if !bl.MDOnly {
				return ""
			}
		default:
			return ""
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// mathJaxProse writes a user's Markdown in mathJaxResult's form; false
// when it holds what the form cannot write (code, raw HTML).
func mathJaxProse(b *strings.Builder, bs []mdBlock) bool {
	for _, m := range bs {
		switch m.Kind {
		case mdHeading:
			b.WriteString(mathJaxHeading(plainInline(m.Inline)) + "\n\n")
		case mdPara:
			b.WriteString(mathJaxText(plainInline(m.Inline)) + "\n\n")
		case mdList:
			for i, it := range m.Items {
				mark := `\(\bullet\) `
				if m.Ordered {
					mark = strconv.Itoa(i+1) + ". "
				}
				var ib strings.Builder
				if !mathJaxProse(&ib, it) {
					return false
				}
				b.WriteString(mark + ib.String())
			}
		case mdQuote:
			if !mathJaxProse(b, m.Blocks) {
				return false
			}
		case mdTable:
			b.WriteString(mathJaxTables([]block{m.Table}) + "\n")
		case mdRule:
		default:
			return false
		}
	}
	return true
}

// mathJaxForm is mathJaxResult's text: words as they are, LaTeX's
// special characters as formulas.
var mathJaxForm = textForm{text: mathJaxEscape, script: mathJaxPiece, open: `\(`, close: `\)`}

// mathJaxText writes generated text in mathJaxResult's form: its
// mathematics as formulas (as texText finds it), the rest as words.
func mathJaxText(s string) string { return joinFormulas(mathText(s, mathJaxForm)) }

// joinFormulas merges formulas that touch, \(a\)\(b\), into one.
func joinFormulas(s string) string { return strings.ReplaceAll(s, `\)\(`, "") }

// mathJaxHeading writes a heading: its words bold, through \textbf
// inside a formula, which both MathJax and LaTeX read.
func mathJaxHeading(s string) string {
	out := mathJaxText(s)
	var b strings.Builder
	for out != "" {
		i := strings.Index(out, `\(`)
		if i < 0 {
			i = len(out)
		}
		if w := out[:i]; strings.TrimSpace(w) != "" {
			b.WriteString(`\(\textbf{` + w + `}\)`)
		} else {
			b.WriteString(w)
		}
		out = out[i:]
		if out == "" {
			break
		}
		j := strings.Index(out, `\)`)
		if j < 0 {
			b.WriteString(out)
			break
		}
		b.WriteString(out[:j+2])
		out = out[j+2:]
	}
	return b.String()
}

// mathJaxSpans writes a paragraph's spans: positions with the heaps a
// move changed in bold, a line free to break between heaps of a long
// one; formulas as formulas; code and links as their text.
func mathJaxSpans(ss []span) string {
	var b strings.Builder
	for _, s := range ss {
		switch {
		case len(s.Heaps) > 0:
			b.WriteString(tupleText(s.Heaps, " ", func(h string) string { return `\(\mathbf{` + h + `}\)` }))
		case s.Math:
			b.WriteString(`\(` + texMath(s.Text) + `\)`)
		case s.Literal, s.Code:
			b.WriteString(mathJaxEscape(s.Text))
		default:
			b.WriteString(mathJaxText(s.Text))
		}
	}
	return joinFormulas(b.String())
}

// mathJaxPiece writes a piece of text: a script as a formula.
func mathJaxPiece(b *strings.Builder, p piece) {
	if p.script == 0 {
		b.WriteString(mathJaxEscape(p.text))
		return
	}
	b.WriteString(`\({}` + scriptSign(p) + `{` + mathRunes(p.text) + `}\)`)
}

// mathJaxEscape writes words for mathJaxResult: letters, digits and the
// punctuation both read alike as they are, as do the accented letters
// and typographic quotes and dashes that LaTeX's utf8 and xelatex set;
// the characters LaTeX reads as commands, and the symbols only math mode
// has, as formulas; a no-break space as one that cannot break.
func mathJaxEscape(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '-' && i+1 < len(rs) && rs[i+1] == '-':
			b.WriteString(`-\(\)`) // no en dash ligature
		case r < 0x80 && (texLetter(r) || r == '"' || r == '`'):
			b.WriteRune(r)
		case r == '\n', r == '\t', r == '\r':
			b.WriteByte(' ')
		case r >= 0xc0 && r <= 0x17e && texLetter(r), strings.ContainsRune("–—’‘“”«»…", r):
			b.WriteRune(r)
		case r == '\u00a0':
			b.WriteString(`\(\ \)`)
		case r == '\u202f' || r == '\u2009':
			b.WriteString(`\(\,\)`)
		case unicodeScripts[r].text != "":
			mathJaxPiece(&b, unicodeScripts[r])
		case r == '\\':
			b.WriteString(`\(\backslash\)`)
		case r == '^':
			b.WriteString(`\(\hat{}\)`)
		case r == '~':
			b.WriteString(`\(\sim\)`)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
		default:
			b.WriteString(`\(` + strings.TrimSpace(mathJaxSymbol(r)) + `\)`)
		}
	}
	return b.String()
}

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
		case r < 0x80 && unicode.IsLetter(r) && (i == 0 || !unicode.IsLetter(rs[i-1])) && (i+1 == len(rs) || !unicode.IsLetter(rs[i+1])):
			// A letter alone names a number (n, a \ b): italic.
			text(false)
			b.WriteRune(r)
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
