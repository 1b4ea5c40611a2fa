package reports

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	gtext "github.com/yuin/goldmark/text"

	"github.com/nimbook/nimbook/explore/controlchar"
)

// Text from a job file or a notebook (titles, prose) reaches terminals,
// Markdown files and notebooks. Control characters would act there (an
// escape sequence recolours or rewrites a terminal), and raw HTML would
// be markup in a notebook's Markdown cell where the HTML report shows it as
// nothing: both are neutralised once, when the document is built, so that
// every form shows the same text.

// cleanTitle drops control characters (C0, DEL, C1) and invalid UTF-8
// from a title, and turns line breaks and tabs into spaces: a title is one
// line.
func cleanTitle(s string) string {
	return strings.TrimSpace(dropControls(s, " "))
}

// cleanProse drops control characters but newlines and tabs, and escapes
// raw HTML so that it reads as text in every form.
func cleanProse(s string) string {
	return escapeRawHTML(dropControls(s, ""))
}

// dropControls removes control characters; newline and tab are kept, or
// replaced by keep when it is not empty.
func dropControls(s, keep string) string {
	clean := true
	for _, r := range s {
		if isControl(r) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean && (keep == "" || !strings.ContainsAny(s, "\n\t\r")) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				continue // an invalid byte
			}
			b.WriteRune(r)
		case r == '\n' || r == '\t' || r == '\r':
			if keep != "" {
				b.WriteString(keep)
			} else if r != '\r' {
				b.WriteRune(r)
			}
		case isControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl is the rule of package controlchar, with carriage return
// (kept or replaced with the other breaks above) left to dropControls.
func isControl(r rune) bool { return controlchar.Is(r) }

// escapeRawHTML puts a backslash before each "<" that opens raw HTML (an
// HTML block or inline tag, comment or declaration, as goldmark parses
// them), so that the Markdown shows it as text. Escaping can turn what
// followed an HTML block into new HTML, hence the passes.
func escapeRawHTML(src string) string {
	if !strings.Contains(src, "<") {
		return src
	}
	for range 8 {
		at := rawHTMLStarts([]byte(src))
		if len(at) == 0 {
			return src
		}
		var b strings.Builder
		last := 0
		for _, i := range at {
			b.WriteString(src[last:i])
			b.WriteByte('\\')
			last = i
		}
		b.WriteString(src[last:])
		src = b.String()
	}
	// Markup that keeps reappearing: escape every tag opening.
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		if src[i] == '<' && opensTag(src, i) && (i == 0 || src[i-1] != '\\') {
			b.WriteByte('\\')
		}
		b.WriteByte(src[i])
	}
	return b.String()
}

// rawHTMLStarts lists, in order, the offsets of the "<" that open raw
// HTML in src: the start of every inline raw HTML, and every tag opening
// on the lines of an HTML block.
func rawHTMLStarts(src []byte) []int {
	doc := md.Parser().Parse(gtext.NewReader(src))
	seen := map[int]bool{}
	add := func(i int) {
		if i >= 0 && i < len(src) && src[i] == '<' && (i == 0 || src[i-1] != '\\') {
			seen[i] = true
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.RawHTML:
			if n.Segments.Len() > 0 {
				add(n.Segments.At(0).Start)
			}
		case *ast.HTMLBlock:
			lines := n.Lines()
			for k := 0; k < lines.Len(); k++ {
				seg := lines.At(k)
				for i := seg.Start; i < seg.Stop; i++ {
					if src[i] == '<' && opensTag(string(src[:seg.Stop]), i) {
						add(i)
					}
				}
			}
			if n.HasClosure() {
				add(n.ClosureLine.Start)
			}
		}
		return ast.WalkContinue, nil
	})
	out := make([]int, 0, len(seen))
	for i := range src {
		if seen[i] {
			out = append(out, i)
		}
	}
	return out
}

// opensTag reports whether the "<" at s[i] could open HTML: a tag, a
// closing tag, a comment, a declaration or a processing instruction.
func opensTag(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	c := s[i+1]
	return isLetter(c) || c == '/' || c == '!' || c == '?'
}
