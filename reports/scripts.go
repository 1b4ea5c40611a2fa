package reports

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Subscripts and superscripts. Titles, prose, sources and the templates'
// messages write them as mathematics is typed in plain text, and every
// form typesets them: <sub> and <sup> in HTML (and in the Markdown of
// notebooks, which Jupyter renders), a smaller raised or lowered text in
// the PDF, and Unicode (fᵣ, 2⁷) in the Markdown read in a terminal and
// wherever only plain text fits (the PDF's outline and footer, the HTML
// title), or the form typed when Unicode has no such character.
//
// The notation:
//
//	^{…} and _{…}   any text up to the closing brace (no braces inside,
//	                at most 40 bytes): 2^{k+1}, x_{max}
//	^7, ^24, ^k     a run of digits, or one letter not followed by a
//	                letter or digit: 2^7, 10^8, 2^K
//	_r, _1, _24     the same after a letter or digit: f_r(n), n_1, M_24
//
// The sign must follow a character of the text it qualifies (not a space),
// so "a ^ b" and "_word_" are left alone, and a name written with
// underscores between words (max_take, split_or_take) is not a subscript:
// after "_" come one letter, or digits, then no letter, digit or "_".
// Code spans and code blocks are never read. In Markdown prose a
// backslash keeps the sign as typed (f\_r).

// piece is a run of text: plain, or a superscript (script > 0) or a
// subscript (script < 0).
type piece struct {
	text   string
	script int
}

// maxScript is the most bytes a braced script may hold.
const maxScript = 40

// scriptAt reports whether s[i] ('^' or '_') opens a script: its
// content, whether it is a superscript, and the index after it.
func scriptAt(s string, i int) (content string, sup bool, end int, ok bool) {
	c := s[i]
	if (c != '^' && c != '_') || i == 0 || i+1 >= len(s) {
		return "", false, 0, false
	}
	sup = c == '^'
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	switch {
	case prev == utf8.RuneError || unicode.IsSpace(prev) || prev == '^' || prev == '_' || prev == '\\':
		return "", false, 0, false
	case !sup && !unicode.IsLetter(prev) && !unicode.IsDigit(prev) && prev != ')' && prev != '}':
		return "", false, 0, false
	}
	if s[i+1] == '{' {
		j := strings.IndexByte(s[i+2:], '}')
		if j <= 0 || j > maxScript {
			return "", false, 0, false
		}
		content = s[i+2 : i+2+j]
		if strings.ContainsAny(content, "{\n") || strings.TrimSpace(content) != content {
			return "", false, 0, false
		}
		return content, sup, i + 3 + j, true
	}
	j := i + 1
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i+1 {
		if !isLetter(s[j]) {
			return "", false, 0, false
		}
		j++
	}
	if j < len(s) && (isWordByte(s[j]) || s[j] == '_' || s[j] >= utf8.RuneSelf && startsLetter(s[j:])) {
		return "", false, 0, false
	}
	return s[i+1 : j], sup, j, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func startsLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// splitScripts cuts plain text into pieces.
func splitScripts(s string) []piece {
	if !strings.ContainsAny(s, "^_") {
		return []piece{{text: s}}
	}
	var out []piece
	last := 0
	for i := 0; i < len(s); i++ {
		content, sup, end, ok := scriptAt(s, i)
		if !ok {
			continue
		}
		if i > last {
			out = append(out, piece{text: s[last:i]})
		}
		p := piece{text: content, script: -1}
		if sup {
			p.script = 1
		}
		out = append(out, p)
		last, i = end, end-1
	}
	if last < len(s) {
		out = append(out, piece{text: s[last:]})
	}
	return out
}

// hasScripts reports whether s holds a script.
func hasScripts(s string) bool {
	ps := splitScripts(s)
	return len(ps) > 1 || len(ps) == 1 && ps[0].script != 0
}

// Unicode's superscript and subscript characters, those DejaVu Sans (the
// PDF's font) has.
var (
	superscripts = map[rune]rune{
		'0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
		'+': '⁺', '-': '⁻', '−': '⁻', '=': '⁼', '(': '⁽', ')': '⁾',
		'a': 'ᵃ', 'b': 'ᵇ', 'c': 'ᶜ', 'd': 'ᵈ', 'e': 'ᵉ', 'f': 'ᶠ', 'g': 'ᵍ', 'h': 'ʰ', 'i': 'ⁱ', 'j': 'ʲ',
		'k': 'ᵏ', 'l': 'ˡ', 'm': 'ᵐ', 'n': 'ⁿ', 'o': 'ᵒ', 'p': 'ᵖ', 'r': 'ʳ', 's': 'ˢ', 't': 'ᵗ', 'u': 'ᵘ',
		'v': 'ᵛ', 'w': 'ʷ', 'x': 'ˣ', 'y': 'ʸ', 'z': 'ᶻ',
	}
	subscripts = map[rune]rune{
		'0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
		'+': '₊', '-': '₋', '−': '₋', '=': '₌', '(': '₍', ')': '₎',
		'a': 'ₐ', 'e': 'ₑ', 'h': 'ₕ', 'i': 'ᵢ', 'j': 'ⱼ', 'k': 'ₖ', 'l': 'ₗ', 'm': 'ₘ', 'n': 'ₙ', 'o': 'ₒ',
		'p': 'ₚ', 'r': 'ᵣ', 's': 'ₛ', 't': 'ₜ', 'u': 'ᵤ', 'v': 'ᵥ', 'x': 'ₓ',
	}
)

// unicodeScript writes a script in Unicode's characters, when it has them
// all.
func unicodeScript(p piece) (string, bool) {
	table := subscripts
	if p.script > 0 {
		table = superscripts
	}
	var b strings.Builder
	for _, r := range p.text {
		u, ok := table[r]
		if !ok {
			return "", false
		}
		b.WriteRune(u)
	}
	return b.String(), true
}

// typed writes a script as it was typed.
func typed(p piece) string {
	sign := "_"
	if p.script > 0 {
		sign = "^"
	}
	if len(p.text) == 1 || strings.Trim(p.text, "0123456789") == "" {
		return sign + p.text
	}
	return sign + "{" + p.text + "}"
}

// tag writes a script as HTML (its text escaped by esc).
func tag(p piece, esc func(string) string) string {
	name := "sub"
	if p.script > 0 {
		name = "sup"
	}
	return "<" + name + ">" + esc(p.text) + "</" + name + ">"
}

// plainScripts writes s for plain text: scripts in Unicode, or as typed.
func plainScripts(s string) string {
	if !strings.ContainsAny(s, "^_") {
		return s
	}
	var b strings.Builder
	for _, p := range splitScripts(s) {
		if p.script == 0 {
			b.WriteString(p.text)
		} else if u, ok := unicodeScript(p); ok {
			b.WriteString(u)
		} else {
			b.WriteString(typed(p))
		}
	}
	return b.String()
}

// mdText writes generated text (a title, a message) as Markdown: escaped,
// with its scripts as <sub> and <sup>, or, for a Markdown document read
// as it is (mdOnly), in Unicode where it has the characters.
func mdText(s string, mdOnly bool) string {
	if !mdOnly {
		s = keepFormulas(s) // for HTML, which prints it
	}
	if !strings.ContainsAny(s, "^_") {
		return escape(s)
	}
	return mdScripts(s, mdOnly, escape)
}

// mdScripts writes s, its text through esc, its scripts as tags or, with
// mdOnly, in Unicode where it has the characters.
func mdScripts(s string, mdOnly bool, esc func(string) string) string {
	var b strings.Builder
	for _, p := range splitScripts(s) {
		switch {
		case p.script == 0:
			b.WriteString(esc(p.text))
		case mdOnly:
			if u, ok := unicodeScript(p); ok {
				b.WriteString(u)
				break
			}
			fallthrough
		default:
			b.WriteString(tag(p, esc))
		}
	}
	return b.String()
}

// htmlText writes generated text for HTML outside Markdown (a figure's
// caption): escaped, with its scripts as <sub> and <sup>.
func htmlText(s string, esc func(string) string) string {
	var b strings.Builder
	for _, p := range splitScripts(s) {
		if p.script == 0 {
			b.WriteString(esc(p.text))
		} else {
			b.WriteString(tag(p, esc))
		}
	}
	return b.String()
}

// proseScripts rewrites the scripts of Markdown prose, in its text only
// (not in code, links' targets or raw HTML), with the Markdown for the
// form: tags, or Unicode for a Markdown document read as it is.
func proseScripts(src string, mdOnly bool) string {
	return rewriteText(src, "^_", func(text string) string {
		return mdScripts(text, mdOnly, func(s string) string { return s })
	})
}

// rewriteText rewrites the runs of text of Markdown src that hold one of
// the bytes of any, or every run when any is "" (not code, links'
// targets or raw HTML), with f, and keeps the rest of the source as it is.
func rewriteText(src, any string, f func(string) string) string {
	if any != "" && !strings.ContainsAny(src, any) {
		return src
	}
	source := []byte(src)
	doc := md.Parser().Parse(gtext.NewReader(source))
	// Runs of text: consecutive Text nodes whose bytes follow one
	// another in the source (an escaped sign breaks a run).
	type run struct{ start, stop int }
	var runs []run
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.RawHTML, *ast.AutoLink:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			seg := n.Segment
			if k := len(runs) - 1; k >= 0 && runs[k].stop == seg.Start && !n.IsRaw() {
				runs[k].stop = seg.Stop
			} else {
				runs = append(runs, run{seg.Start, seg.Stop})
			}
		}
		return ast.WalkContinue, nil
	})
	var b strings.Builder
	last := 0
	for _, r := range runs {
		text := src[r.start:r.stop]
		if any != "" && !strings.ContainsAny(text, any) {
			continue
		}
		b.WriteString(src[last:r.start])
		b.WriteString(f(text))
		last = r.stop
	}
	b.WriteString(src[last:])
	return b.String()
}

// Mathematics between dollars. A Jupyter notebook's Markdown cells write
// it as Jupyter (MathJax) and nbconvert (pandoc) read it: $f_r(n)$, the
// opening dollar before a character that is not a space, the closing one
// after such a character and not before a digit ("$5 and $10" is money).
// The reports read the formula's text as they read prose (scripts.go's
// notation, texText's mathematics), so the dollars go (mathDollars), and
// the commands of the symbols the reports know become those symbols
// ($\lfloor n\varphi \rfloor$ is ⌊nφ⌋); a backslash keeps a dollar as
// typed (\$).

// mathDollars drops the dollars around the inline formulas of Markdown
// prose, in its text only, keeping what they hold.
func mathDollars(src string) string {
	return rewriteText(src, "$", func(text string) string {
		var b strings.Builder
		for {
			i, j, ok := dollarSpan(text)
			if !ok {
				b.WriteString(text)
				return b.String()
			}
			b.WriteString(text[:i])
			b.WriteString(texSymbols(text[i+1 : j]))
			text = text[j+1:]
		}
	})
}

// dollarSpan finds the first formula $…$ of a line of text: the indexes
// of its two dollars.
func dollarSpan(s string) (open, close int, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i > 0 && s[i-1] == '\\' || i+1 >= len(s) || s[i+1] == '$' || s[i+1] == ' ' || s[i+1] == '\n' {
			continue
		}
		for j := i + 1; j < len(s); j++ {
			if s[j] == '\n' {
				break
			}
			if s[j] != '$' || s[j-1] == ' ' || s[j-1] == '\\' {
				continue
			}
			if j+1 < len(s) && isDigit(s[j+1]) {
				continue
			}
			return i, j, true
		}
	}
	return 0, 0, false
}

// scriptTags renders the raw HTML of Markdown: the four tags scripts are
// written with, <sub>, </sub>, <sup> and </sup>, and nothing else (as
// goldmark's default, any other raw HTML is left out). Raw HTML from a job
// file or a notebook's text is escaped before it gets here (cleanProse),
// so these tags are the reports' own.
type scriptTags struct{}

func (scriptTags) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkSkipChildren, nil
		}
		raw := n.(*ast.RawHTML)
		var b strings.Builder
		for i := 0; i < raw.Segments.Len(); i++ {
			seg := raw.Segments.At(i)
			b.Write(seg.Value(source))
		}
		if scriptTag(b.String()) != 0 {
			_, _ = w.WriteString(b.String())
		} else {
			_, _ = w.WriteString("<!-- raw HTML omitted -->")
		}
		return ast.WalkSkipChildren, nil
	})
}

// scriptTag says what a raw HTML tag does to scripts: +1 opens <sup>, -1
// opens <sub>, +2 or -2 closes them, 0 is another tag.
func scriptTag(s string) int {
	switch s {
	case "<sup>":
		return 1
	case "<sub>":
		return -1
	case "</sup>":
		return 2
	case "</sub>":
		return -2
	}
	return 0
}

// withScriptTags is the goldmark option that renders the scripts' tags.
func withScriptTags() goldmark.Option {
	return goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(scriptTags{}, 100)))
}

// In the PDF a script is set at 70 % of the text's size, raised by 35 % of
// the size (superscript) or lowered by 15 % (subscript).
const (
	pdfScriptSize = 0.7
	pdfSupOffset  = 0.35
	pdfSubOffset  = -0.15
)

// writeScripted writes text at the current position as Write does, its
// scripts typeset; size is the current font size in points.
func (p *pdfWriter) writeScripted(h, size float64, s string) {
	for _, pc := range splitScripts(keepFormulas(s)) {
		p.writePiece(h, size, pc)
	}
}

// writePiece writes one piece: plain, or a script smaller and raised or
// lowered.
func (p *pdfWriter) writePiece(h, size float64, pc piece) {
	switch {
	case pc.script == 0:
		p.writeBreaking(h, pc.text)
	case pc.script > 0:
		p.f.SubWrite(h, pc.text, size*pdfScriptSize, size*pdfSupOffset, 0, "")
	default:
		p.f.SubWrite(h, pc.text, size*pdfScriptSize, size*pdfSubOffset, 0, "")
	}
}

// writeBreaking writes text that may hold zero-width spaces (after the
// commas of a long position, see spansMarkdown): fpdf breaks lines only
// at spaces, so the line is broken here, at a zero-width space, when the
// word after it does not fit; the zero-width spaces are not drawn.
func (p *pdfWriter) writeBreaking(h float64, s string) {
	if !strings.Contains(s, "\u200b") && !p.zwsp {
		p.f.Write(h, s)
		return
	}
	_, _, right, _ := p.f.GetMargins()
	pw, _ := p.f.GetPageSize()
	for i, part := range strings.Split(s, "\u200b") {
		if part == "" {
			continue
		}
		if i > 0 || p.zwsp {
			word, _, _ := strings.Cut(part, " ")
			if p.f.GetX()+p.f.GetStringWidth(word)+p.f.GetStringWidth(",") > pw-right-2*p.f.GetCellMargin() {
				p.f.Ln(h)
			}
		}
		p.zwsp = false
		p.f.Write(h, part)
	}
	p.zwsp = strings.HasSuffix(s, "\u200b")
}

// multiCell writes a left-aligned block of text of the current font size
// (size points) with lines h apart, as MultiCell does, its scripts
// typeset.
func (p *pdfWriter) multiCell(h, size float64, s string) {
	if !hasScripts(s) {
		p.f.MultiCell(0, h, s, "", "L", false)
		return
	}
	p.writeScripted(h, size, s)
	p.f.Ln(h)
}

// formulaOps are the signs a short formula is joined across: n = 10,
// 1 ⊕ 2 = 3, h ⊕ s < h.
const formulaOps = "=<>≤≥≠⊕⊗+−×→"

// keepFormulas joins the short formulas of a text with no-break spaces,
// so that a printed line never ends inside one ("n =" / "10"): the
// spaces around a sign between two short terms, and those after the
// commas of a short bracket, GL(3, 2).
func keepFormulas(s string) string {
	if !strings.ContainsAny(s, formulaOps+"(") {
		return s
	}
	words := strings.Split(s, " ")
	if len(words) < 2 {
		return s
	}
	term := func(w string) bool {
		w = strings.Trim(w, ",.;:()")
		n := utf8.RuneCountInString(w)
		return n > 0 && n <= 8 && !strings.ContainsAny(w, "«»\"“”")
	}
	op := func(w string) bool {
		return utf8.RuneCountInString(w) == 1 && strings.Contains(formulaOps, w)
	}
	join := make([]bool, len(words)-1) // join[i]: words i and i+1
	for i := 1; i+1 < len(words); i++ {
		if op(words[i]) && term(words[i-1]) && term(words[i+1]) && !strings.HasSuffix(words[i-1], ",") {
			join[i-1], join[i] = true, true
		}
	}
	for i := 0; i+1 < len(words); i++ {
		// GL(3, 2): a bracket that opens and closes within two words.
		w, next := words[i], words[i+1]
		if o := strings.LastIndex(w, "("); o >= 0 && !strings.Contains(w[o:], ")") && strings.HasSuffix(w, ",") &&
			utf8.RuneCountInString(w) <= 10 && strings.Contains(next, ")") && utf8.RuneCountInString(next) <= 6 {
			join[i] = true
		}
	}
	var b strings.Builder
	for i, w := range words {
		b.WriteString(w)
		if i < len(join) {
			if join[i] {
				b.WriteString("\u00a0")
			} else {
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}

// texCommands are the commands of texMathRunes's symbols, and the short
// names TeX has for a few of them.
var texCommands = func() map[string]rune {
	m := map[string]rune{}
	for r, c := range texMathRunes {
		name, ok := strings.CutPrefix(c, `\`)
		if !ok || strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			continue
		}
		if old, ok := m[name]; !ok || r < old {
			m[name] = r
		}
	}
	m["mu"] = 'μ' // not the micro sign
	m["le"], m["ge"], m["ne"] = '≤', '≥', '≠'
	return m
}()

// texSymbols writes the commands of a formula that name a symbol
// (texCommands) as the symbol; \left and \right go, and any other command
// stays as typed.
func texSymbols(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b []byte
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b = append(b, s[i])
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isLetter(s[j]) {
			j++
		}
		name := s[i+1 : j]
		r, known := texCommands[name]
		switch {
		case known:
			if strings.ContainsRune("⌋⌉⟩", r) {
				b = bytes.TrimSuffix(b, []byte(" ")) // n\varphi^2 \rfloor
			}
			b = utf8.AppendRune(b, r)
		case name == "left" || name == "right":
		default:
			b = append(b, s[i:j]...)
			if j == i+1 && j < len(s) {
				j++ // \{, \$: the sign as typed
				b = append(b, s[i+1])
			}
			i = j
			continue
		}
		// The space that ends the name of a letter or a bracket is the
		// command's: n\varphi \rfloor is nφ⌋; a ≤ b keeps its spaces.
		if j < len(s) && s[j] == ' ' && (!known || unicode.Is(unicode.Greek, r) || strings.ContainsRune("⌊⌋⌈⌉⟨⟩", r)) {
			j++
		}
		i = j
	}
	return string(b)
}
