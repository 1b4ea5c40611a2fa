package reports

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	gtext "github.com/yuin/goldmark/text"
)

// Users' Markdown prose (a job file's text:, a notebook's Markdown cells)
// read once, by one walker over goldmark's tree, into blocks the renderers
// that lay prose out themselves (PDF, LaTeX) both set; HTML renders it
// with goldmark, Markdown and plain text keep it as typed. The text keeps
// the scripts' notation (f_r, 2^7; scripts.go) for each form to typeset.

// mdKind is what a block of prose is.
type mdKind int

const (
	mdPara mdKind = iota
	mdHeading
	mdList
	mdCode
	mdHTML // a block of raw HTML, printed as the text it is
	mdQuote
	mdRule
	mdTable
)

// mdBlock is a block of prose.
type mdBlock struct {
	Kind    mdKind
	Inline  []mdInline  // a paragraph's or a heading's text
	Ordered bool        // a numbered list
	Items   [][]mdBlock // a list's items
	Blocks  []mdBlock   // a block quote's
	Text    string      // code, or raw HTML, as typed
	Table   table
}

// mdInlineKind is what a piece of a paragraph is.
type mdInlineKind int

const (
	inText mdInlineKind = iota
	inCode
	inEmph
	inLink
	inAutoLink
	inRaw
)

// mdInline is a piece of a paragraph: text (consecutive text nodes joined,
// a soft line break as "\n"), a code span, emphasis or a link holding
// pieces, an autolink, or raw HTML.
type mdInline struct {
	Kind  mdInlineKind
	Text  string // text, code, an autolink's address, raw HTML
	Break bool   // text: a hard line break follows
	// Literal: a sign the prose escapes (f\_r), printed as it is and
	// never read as a script or as mathematics.
	Literal bool
	Level   int        // emphasis: 1 italic, 2 bold
	URL     string     // a link's target
	Items   []mdInline // emphasis's or a link's text
}

// proseBlocks reads Markdown prose into blocks.
func proseBlocks(src string) []mdBlock {
	source := []byte(src)
	return mdBlocksOf(md.Parser().Parse(gtext.NewReader(source)), source)
}

func mdBlocksOf(n ast.Node, src []byte) []mdBlock {
	var out []mdBlock
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			out = append(out, mdBlock{Kind: mdPara, Inline: mdInlines(c, src)})
		case *ast.Heading:
			out = append(out, mdBlock{Kind: mdHeading, Inline: mdInlines(c, src)})
		case *ast.List:
			b := mdBlock{Kind: mdList, Ordered: c.IsOrdered()}
			for it := c.FirstChild(); it != nil; it = it.NextSibling() {
				b.Items = append(b.Items, mdBlocksOf(it, src))
			}
			out = append(out, b)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			out = append(out, mdBlock{Kind: mdCode, Text: linesOf(c, src)})
		case *ast.HTMLBlock:
			out = append(out, mdBlock{Kind: mdHTML, Text: linesOf(c, src)})
		case *ast.Blockquote:
			out = append(out, mdBlock{Kind: mdQuote, Blocks: mdBlocksOf(c, src)})
		case *ast.ThematicBreak:
			out = append(out, mdBlock{Kind: mdRule})
		case *east.Table:
			out = append(out, mdBlock{Kind: mdTable, Table: markdownTable(c, src)})
		default:
			out = append(out, mdBlocksOf(c, src)...)
		}
	}
	return out
}

// linesOf is the text of a block of lines (code, raw HTML) as typed.
func linesOf(n ast.Node, src []byte) string {
	var sb strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		sb.Write(seg.Value(src))
	}
	return sb.String()
}

// mdInlines reads the inline nodes under n. Consecutive text nodes are
// joined: goldmark cuts text at the signs that may open emphasis, "_"
// among them, and a formula or a script (f_r(n)) is read from the whole.
func mdInlines(n ast.Node, src []byte) []mdInline {
	var out []mdInline
	join := func(s string) {
		if s == "" {
			return
		}
		if k := len(out) - 1; k >= 0 && out[k].Kind == inText && !out[k].Break && !out[k].Literal {
			out[k].Text += s
			return
		}
		out = append(out, mdInline{Kind: inText, Text: s})
	}
	// goldmark keeps a backslash escape in its text: the escaped sign
	// is a piece of its own.
	text := func(s string) {
		for {
			i := strings.IndexByte(s, '\\')
			if i < 0 || i+1 >= len(s) || !isASCIIPunct(s[i+1]) {
				join(s)
				return
			}
			join(s[:i])
			out = append(out, mdInline{Kind: inText, Text: s[i+1 : i+2], Literal: true})
			s = s[i+2:]
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			s := string(c.Segment.Value(src))
			if c.SoftLineBreak() {
				s += "\n"
			}
			text(s)
			if c.HardLineBreak() && len(out) > 0 {
				out[len(out)-1].Break = true
			}
		case *ast.String:
			text(string(c.Value))
		case *ast.CodeSpan:
			out = append(out, mdInline{Kind: inCode, Text: strings.TrimSpace(proseNotation(mdInlines(c, src)))})
		case *ast.Emphasis:
			out = append(out, mdInline{Kind: inEmph, Level: c.Level, Items: mdInlines(c, src)})
		case *ast.Link:
			out = append(out, mdInline{Kind: inLink, URL: string(c.Destination), Items: mdInlines(c, src)})
		case *ast.AutoLink:
			out = append(out, mdInline{Kind: inAutoLink, Text: string(c.URL(src))})
		case *ast.RawHTML:
			var sb strings.Builder
			for i := 0; i < c.Segments.Len(); i++ {
				seg := c.Segments.At(i)
				sb.Write(seg.Value(src))
			}
			out = append(out, mdInline{Kind: inRaw, Text: sb.String()})
		default:
			// An image's text, and any node goldmark may add: its text.
			out = append(out, mdInlines(c, src)...)
		}
	}
	return out
}

// nodeText is the plain text under n: scripts in Unicode, or as typed.
func nodeText(n ast.Node, src []byte) string {
	return strings.TrimSpace(plainInline(mdInlines(n, src)))
}

// plainInline is the text of pieces on one line: scripts in Unicode, or
// as typed; a line break a space.
func plainInline(in []mdInline) string {
	var sb strings.Builder
	for _, x := range in {
		switch x.Kind {
		case inText:
			if x.Literal {
				sb.WriteString(x.Text)
				break
			}
			sb.WriteString(plainScripts(strings.ReplaceAll(x.Text, "\n", " ")))
			if x.Break {
				sb.WriteByte(' ')
			}
		case inCode, inAutoLink, inRaw:
			sb.WriteString(x.Text)
		default:
			sb.WriteString(plainInline(x.Items))
		}
	}
	return sb.String()
}

// markdownTable is a Markdown table of a user's prose as a table block:
// each cell's text, its scripts typeset.
func markdownTable(n ast.Node, src []byte) table {
	var t table
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		var row []cell
		for k := r.FirstChild(); k != nil; k = k.NextSibling() {
			txt := strings.TrimSpace(proseNotation(mdInlines(k, src)))
			row = append(row, cell{Text: txt, Scripts: hasScripts(txt)})
		}
		if _, ok := r.(*east.TableHeader); ok {
			t.Header = row
		} else {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// proseNotation is the text of pieces with the scripts' notation kept, for
// a form to typeset.
func proseNotation(in []mdInline) string {
	var sb strings.Builder
	for _, x := range in {
		switch x.Kind {
		case inText:
			sb.WriteString(strings.ReplaceAll(x.Text, "\n", " "))
		case inCode, inAutoLink, inRaw:
			sb.WriteString(x.Text)
		default:
			sb.WriteString(proseNotation(x.Items))
		}
	}
	return sb.String()
}

// isASCIIPunct reports whether a backslash before c escapes it
// (CommonMark's ASCII punctuation).
func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}
