package reports

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text for LaTeX. Everything a report prints passes through texEscape
// (text as it is: positions, code, sources) or texText (generated text
// and prose, whose mathematics goes into math mode). Both write only
// ASCII and the Latin letters that inputenc's utf8 and the T1 encoding
// set; every other character becomes a command (a symbol in math mode
// through \ensuremath), or, without one, its code point, so that no text
// can stop pdflatex or act on it (\input, \write18, an unbalanced brace).

// texSpecials are ASCII characters with a meaning in LaTeX's text mode,
// written as text.
var texSpecials = map[rune]string{
	'\\': `\textbackslash{}`,
	'{':  `\{`,
	'}':  `\}`,
	'$':  `\$`,
	'&':  `\&`,
	'#':  `\#`,
	'%':  `\%`,
	'_':  `\_`,
	'^':  `\textasciicircum{}`,
	'~':  `\textasciitilde{}`,
	'<':  `\textless{}`,
	'>':  `\textgreater{}`,
	'|':  `\textbar{}`,
	'"':  `\textquotedbl{}`,
	// A backquote would make ligatures of the T1 fonts (`` “, !` ¡);
	// texEscape writes "--" apart ("-{}-") for the same reason.
	'`': `\textasciigrave{}`,
}

// texTextRunes are the characters of text mode beyond ASCII that the
// report's words use, as commands (so that the output is ASCII but for
// accented letters).
var texTextRunes = map[rune]string{
	'\u00a0': `\nobreakspace{}`,
	// A narrow no-break space (digit groups, French punctuation) as glue
	// that babel's French spacing removes before adding its own.
	'\u202f': `\nobreak\hspace{0.16667em}`,
	'\u2009': `\hspace{0.16667em}`,
	'–':      `\textendash{}`,
	'—':      `\textemdash{}`,
	'…':      `\dots{}`,
	'‘':      `\textquoteleft{}`,
	'’':      `\textquoteright{}`,
	'“':      `\textquotedblleft{}`,
	'”':      `\textquotedblright{}`,
	'«':      `\guillemotleft{}`,
	'»':      `\guillemotright{}`,
	'•':      `\textbullet{}`,
	'°':      `\textdegree{}`,
	'§':      `\S{}`,
	'©':      `\copyright{}`,
	'€':      `\texteuro{}`,
	'£':      `\pounds{}`,
	'¡':      `\textexclamdown{}`,
	'¿':      `\textquestiondown{}`,
	'\u00ad': `\-`,
	'\u2011': `\mbox{-}`,
	'\u2010': `-{}`,
	'✓':      `\ensuremath{\checkmark}`,
	'✔':      `\ensuremath{\checkmark}`,
	'✗':      `\ensuremath{\times}`,
	'✘':      `\ensuremath{\times}`,
	'\t':     ` `,
	'\n':     "\n",
	'\r':     ` `,
}

// texMathRunes are the characters written in math mode: operators,
// relations, Greek letters, brackets, and Unicode's scripts.
var texMathRunes = map[rune]string{
	'⊕': `\oplus`, '⊗': `\otimes`, '⊖': `\ominus`, '×': `\times`, '·': `\cdot`, '÷': `\div`,
	'±': `\pm`, '∓': `\mp`, '−': `-`, '∗': `\ast`, '∘': `\circ`, '√': `\surd`,
	'≤': `\leq`, '≥': `\geq`, '≠': `\neq`, '≈': `\approx`, '≡': `\equiv`, '∼': `\sim`, '≅': `\cong`,
	'⩽': `\leqslant`, '⩾': `\geqslant`, '≪': `\ll`, '≫': `\gg`,
	'→': `\to`, '←': `\leftarrow`, '↦': `\mapsto`, '⇒': `\Rightarrow`, '⇔': `\Leftrightarrow`, '↔': `\leftrightarrow`,
	'∈': `\in`, '∉': `\notin`, '⊂': `\subset`, '⊆': `\subseteq`, '⊃': `\supset`, '⊇': `\supseteq`,
	'∪': `\cup`, '∩': `\cap`, '∅': `\emptyset`, '∞': `\infty`, '∑': `\sum`, '∏': `\prod`,
	'∀': `\forall`, '∃': `\exists`, '¬': `\neg`, '∧': `\wedge`, '∨': `\vee`, '∂': `\partial`,
	'⌊': `\lfloor`, '⌋': `\rfloor`, '⌈': `\lceil`, '⌉': `\rceil`, '⟨': `\langle`, '⟩': `\rangle`,
	'ℕ': `\mathbb{N}`, 'ℤ': `\mathbb{Z}`, 'ℚ': `\mathbb{Q}`, 'ℝ': `\mathbb{R}`, 'ℂ': `\mathbb{C}`, '𝔽': `\mathbb{F}`,
	'′': `'`, '″': `''`, '●': `\bullet`, '○': `\circ`, '□': `\square`, '■': `\blacksquare`,
	'⋯': `\cdots`, '⋮': `\vdots`, '∣': `\mid`, '∤': `\nmid`, '∝': `\propto`, 'µ': `\mu`, 'ℓ': `\ell`,
	'α': `\alpha`, 'β': `\beta`, 'γ': `\gamma`, 'δ': `\delta`, 'ε': `\varepsilon`, 'ζ': `\zeta`,
	'η': `\eta`, 'θ': `\theta`, 'ι': `\iota`, 'κ': `\kappa`, 'λ': `\lambda`, 'μ': `\mu`, 'ν': `\nu`,
	'ξ': `\xi`, 'π': `\pi`, 'ρ': `\rho`, 'σ': `\sigma`, 'ς': `\varsigma`, 'τ': `\tau`, 'υ': `\upsilon`,
	'φ': `\varphi`, 'ϕ': `\phi`, 'χ': `\chi`, 'ψ': `\psi`, 'ω': `\omega`,
	'Γ': `\Gamma`, 'Δ': `\Delta`, 'Θ': `\Theta`, 'Λ': `\Lambda`, 'Ξ': `\Xi`, 'Π': `\Pi`, 'Σ': `\Sigma`,
	'Υ': `\Upsilon`, 'Φ': `\Phi`, 'Ψ': `\Psi`, 'Ω': `\Omega`,
}

// unicodeScripts maps Unicode's superscript and subscript characters to
// what they raise or lower (the reverse of scripts.go's tables).
var unicodeScripts = func() map[rune]piece {
	m := map[rune]piece{}
	for r, u := range superscripts {
		m[u] = piece{text: string(r), script: 1}
	}
	for r, u := range subscripts {
		m[u] = piece{text: string(r), script: -1}
	}
	return m
}()

// texLetter reports whether r may be written as it is: ASCII letters,
// digits and harmless punctuation, and the accented letters of Latin-1
// and Latin Extended-A, which inputenc's utf8 sets in T1.
func texLetter(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	case r < 0x80:
		return strings.ContainsRune(" !'()*+,-./:;=?@[]", r)
	case r >= 0xc0 && r <= 0x17e:
		// Not ×, ÷, nor the few letters T1 has no glyph for.
		return r != 0xd7 && r != 0xf7 && r != 0x138 && r != 0x149 && r != 0x131
	}
	return false
}

// texEscape writes s as LaTeX text, every character printed as it is;
// symbols that only math mode has go through \ensuremath.
func texEscape(s string) string {
	var b strings.Builder
	for i, r := range s {
		writeTextRune(&b, r)
		if r == '-' && strings.HasPrefix(s[i+1:], "-") {
			b.WriteString("{}")
		}
	}
	return b.String()
}

func writeTextRune(b *strings.Builder, r rune) {
	switch {
	case texLetter(r):
		b.WriteRune(r)
	case texSpecials[r] != "":
		b.WriteString(texSpecials[r])
	case texTextRunes[r] != "":
		b.WriteString(texTextRunes[r])
	case texMathRunes[r] != "":
		b.WriteString(`\ensuremath{` + texMathRunes[r] + `}`)
	case unicodeScripts[r].text != "":
		p := unicodeScripts[r]
		b.WriteString(`\ensuremath{{}` + scriptSign(p) + `{` + mathRunes(p.text) + `}}`)
	default:
		writeUnknown(b, r)
	}
}

// writeUnknown writes a character LaTeX cannot set with the report's
// packages: spaces as spaces, controls as nothing, anything else as its
// code point.
func writeUnknown(b *strings.Builder, r rune) {
	switch {
	case unicode.IsSpace(r):
		b.WriteByte(' ')
	case unicode.IsControl(r) || r == utf8.RuneError || unicode.Is(unicode.Cf, r):
	default:
		fmt.Fprintf(b, `\textsc{u+%04x}`, r)
	}
}

func scriptSign(p piece) string {
	if p.script > 0 {
		return "^"
	}
	return "_"
}

// mathRunes writes text inside math mode: letters and digits as they
// are (math italic letters), symbols as commands, anything else as text.
func mathRunes(s string) string {
	var m mathWriter
	m.runes(s)
	return m.b.String()
}

// mathWriter writes math mode, keeping what a base already carries: a
// second superscript or subscript in a row (x^2^3, M₂₄ read a digit at a
// time) gets an empty base, {}, which LaTeX requires.
type mathWriter struct {
	b        strings.Builder
	sup, sub bool
}

func (m *mathWriter) base(s string) {
	m.b.WriteString(s)
	m.sup, m.sub = false, false
}

// script writes a superscript (kind > 0) or a subscript of math text.
func (m *mathWriter) script(kind int, content string) {
	if kind > 0 && m.sup || kind < 0 && m.sub {
		m.base("{}")
	}
	sign := "_"
	if kind > 0 {
		sign = "^"
		m.sup = true
	} else {
		m.sub = true
	}
	m.b.WriteString(sign + "{" + content + "}")
}

// mathOperators are the names of functions written upright in
// mathematics: max(n₀, 1).
var mathOperators = []string{"max", "min", "gcd", "lcm", "mod"}

func (m *mathWriter) runes(s string) {
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if op := operatorAt(rs, i); op != "" {
			m.base(`\` + op + " ")
			i += len(op) - 1
			continue
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			m.base(string(r))
		case strings.ContainsRune("+=()[],./;:!?'*|<>-", r):
			m.base(string(r))
		case r == ' ':
			m.b.WriteByte(' ')
		case unicodeScripts[r].text != "":
			// A run of Unicode's scripts of one kind is one script: M₂₄.
			kind := unicodeScripts[r].script
			var content strings.Builder
			for ; i < len(rs) && unicodeScripts[rs[i]].script == kind; i++ {
				content.WriteString(unicodeScripts[rs[i]].text)
			}
			i--
			m.script(kind, mathRunes(content.String()))
		case texMathRunes[r] != "":
			c := texMathRunes[r]
			if last := c[len(c)-1]; last >= 'a' && last <= 'z' || last >= 'A' && last <= 'Z' {
				c += " " // \varphi k, not \varphik
			}
			m.base(c)
		default:
			var t strings.Builder
			writeTextRune(&t, r)
			m.base(`\text{` + t.String() + `}`)
		}
	}
}

// texMath writes s, mathematics as typed (scripts as scripts.go reads
// them, letters side by side a product), for math mode.
func texMath(s string) string {
	var m mathWriter
	for _, p := range splitScripts(s) {
		if p.script == 0 {
			m.runes(p.text)
		} else {
			m.script(p.script, mathRunes(p.text))
		}
	}
	return m.b.String()
}

// operatorAt is the name of mathOperators that starts at rs[i], a word of
// its own, or "".
func operatorAt(rs []rune, i int) string {
	letter := func(j int) bool { return j >= 0 && j < len(rs) && unicode.IsLetter(rs[j]) }
	if letter(i - 1) {
		return ""
	}
	for _, op := range mathOperators {
		if strings.HasPrefix(string(rs[i:min(len(rs), i+len(op))]), op) && !letter(i+len(op)) {
			return op
		}
	}
	return ""
}

// mathy reports whether r marks a token as mathematics (the coins ● and
// ○ of a row are not).
func mathy(r rune) bool {
	if r == '●' || r == '○' {
		return false
	}
	_, ok := texMathRunes[r]
	if !ok {
		_, ok = unicodeScripts[r]
	}
	return ok
}

// A token of text for texText: a run of characters without spaces, its
// scripts (as scripts.go reads them) kept apart.
type texToken struct {
	pieces []piece
	space  string // the spaces after it
	math   bool
	// inList: the token is an item of a list ("(1," "3," "5)"), a
	// position rather than a formula, when it holds only numbers.
	inList bool
	// joinComma: the comma after it is the formula's (0 ≤ a, b < 16).
	joinComma bool
}

// texText writes generated text or prose as LaTeX: the mathematics it
// holds in math mode, the rest as text (texEscape). A word holding a
// script (f_r(n), 2^7, φ²) or a mathematical symbol (⊕, ⌊, ≤, φ) is
// mathematics, and so are the single letters, numbers and signs next to
// it (h ⊕ 2 < h), up to the punctuation that ends a sentence.
func texText(s string) string { return mathText(s, texForm) }

// A form of text with its mathematics apart: how it writes text, a piece
// of text (a script standing in it, as a bracket's "²)", too), and opens
// and closes a formula.
type textForm struct {
	text        func(string) string
	script      func(*strings.Builder, piece)
	open, close string
}

// texForm is LaTeX's: \( … \), the text escaped.
var texForm = textForm{text: texEscape, script: writeTextPiece, open: `\(`, close: `\)`}

// mathText writes s in form f: the mathematics texText finds as formulas,
// the rest as text.
func mathText(s string, f textForm) string {
	toks := texTokens(s)
	if len(toks) == 0 {
		return ""
	}
	for i := range toks {
		if len(toks[i].pieces) == 1 && (funcApp.MatchString(toks[i].pieces[0].text) || varLetter(toks, i)) {
			// g(n), f(n), and the letters that name a number (a heap
			// of n, coin n) are mathematics wherever they stand.
			toks[i].math = true
		}
		// "2)," closes a bracket: the end of a clause, not a list item.
		toks[i].inList = endsClause(toks[i], ",") && !strings.HasSuffix(toks[i].pieces[len(toks[i].pieces)-1].text, "),") ||
			i > 0 && endsClause(toks[i-1], ",")
	}
	// "0 ≤ a, b < 16": letters listed before a sign are one formula,
	// their comma its own.
	for i := 0; i+2 < len(toks); i++ {
		if varLetter(toks, i) && endsClause(toks[i], ",") && varLetter(toks, i+1) && !endsClause(toks[i+1], ",.;:") && opToken(toks[i+2]) {
			toks[i].joinComma = true
		}
	}
	// A sign between two atoms is mathematics (b < 16), and so is an
	// atom beside mathematics when one of the two is a sign (a ⊗ b,
	// 0 ≤ a), until no token changes; a clause's end stops it.
	for i := 1; i+1 < len(toks); i++ {
		if opToken(toks[i]) && !toks[i].math && termAtom(toks[i-1]) && termAtom(toks[i+1]) && !endsClause(toks[i-1], ",") {
			toks[i-1].math, toks[i].math, toks[i+1].math = true, true, true
		}
	}
	// A sweep each way carries mathematics as far as it goes in that
	// direction: linear in the tokens, however long the chain.
	spread := func(i int) {
		t := toks[i]
		if t.math || !termAtom(t) && !opToken(t) {
			return
		}
		left := i > 0 && toks[i-1].math && toks[i-1].space != "" && !endsClause(toks[i-1], ".;:") &&
			(opToken(toks[i-1]) || opToken(t))
		right := i+1 < len(toks) && toks[i+1].math && t.space != "" && !endsClause(t, ",.;:") &&
			!startsQuote(toks[i+1]) && (opToken(toks[i+1]) || opToken(t))
		if left || right {
			toks[i].math = true
		}
	}
	for i := range toks {
		spread(i)
	}
	for i := len(toks) - 1; i >= 0; i-- {
		spread(i)
	}
	// A bracket opened in mathematics closes in it: max(n₀, 1) is one
	// formula, though its ", 1)" alone would read as text.
	depth := 0
	for i := range toks {
		if !toks[i].math {
			depth = 0
			continue
		}
		depth += parenDepth(toks[i])
		for depth > 0 && i+1 < len(toks) && !toks[i+1].math && parenDepth(toks[i+1]) < 0 && closesFormula(toks[i+1]) {
			toks[i+1].math = true
			i++
			depth += parenDepth(toks[i])
		}
		if depth < 0 {
			depth = 0
		}
	}
	var b strings.Builder
	inMath := false
	depth = 0 // the brackets the formula being written has open
	for i, t := range toks {
		if !t.math {
			for _, p := range t.pieces {
				f.script(&b, p)
			}
			b.WriteString(f.text(t.space))
			continue
		}
		lead, core, trail := splitPunct(t)
		if inMath && len(lead) > 0 {
			b.WriteString(f.close)
			inMath = false
		}
		for _, p := range lead {
			f.script(&b, p)
		}
		if len(core) > 0 && !inMath {
			b.WriteString(f.open)
			inMath = true
		}
		var m mathWriter
		for _, p := range core {
			if p.script == 0 {
				m.runes(p.text)
			} else {
				m.script(p.script, mathRunes(p.text))
			}
		}
		b.WriteString(m.b.String())
		for _, p := range core {
			depth += strings.Count(p.text, "(") - strings.Count(p.text, ")")
		}
		if inMath && (depth > 0 || t.joinComma) && len(trail) == 1 && trail[0].text == "," && i+1 < len(toks) && toks[i+1].math {
			// max(n₀, 1): a comma inside brackets is the formula's.
			b.WriteByte(',')
			if t.space != "" {
				b.WriteByte(' ')
			}
			continue
		}
		if inMath && len(trail) == 0 && i+1 < len(toks) && toks[i+1].math {
			if t.space != "" {
				b.WriteByte(' ')
			}
			continue // the next token goes on in math mode
		}
		if inMath {
			b.WriteString(f.close)
			inMath = false
			depth = 0
		}
		for _, p := range trail {
			f.script(&b, p)
		}
		b.WriteString(f.text(t.space))
	}
	if inMath {
		b.WriteString(f.close)
	}
	return balanceMath(b.String(), f.open, f.close)
}

// balanceMath moves out of each formula \( … \) a bracket it does not
// close or open itself: "(n = 70)" is (\(n = 70\)), not \((n = 70)\).
func balanceMath(s, open, close string) string {
	if !strings.Contains(s, open) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i:], close)
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		body := s[i+len(open) : i+j]
		s = s[i+j+len(close):]
		lead, trail := "", ""
		for strings.HasPrefix(body, "(") && strings.Count(body, "(") > strings.Count(body, ")") {
			lead += "("
			body = body[1:]
		}
		for strings.HasSuffix(body, ")") && strings.Count(body, ")") > strings.Count(body, "(") {
			trail = ")" + trail
			body = body[:len(body)-1]
		}
		b.WriteString(lead + open + body + close + trail)
	}
}

// writeTextPiece writes a piece in text mode: a script as a math script.
func writeTextPiece(b *strings.Builder, p piece) {
	if p.script == 0 {
		b.WriteString(texEscape(p.text))
		return
	}
	b.WriteString(`\ensuremath{{}` + scriptSign(p) + `{` + mathRunes(p.text) + `}}`)
}

// texTokens cuts s into tokens at spaces, reading its scripts first.
func texTokens(s string) []texToken {
	var toks []texToken
	cur := texToken{}
	flush := func() {
		if len(cur.pieces) > 0 || cur.space != "" {
			toks = append(toks, cur)
		}
		cur = texToken{}
	}
	for _, p := range splitScripts(s) {
		if p.script != 0 {
			if cur.space != "" {
				flush()
			}
			cur.pieces = append(cur.pieces, p)
			cur.math = true
			continue
		}
		start := 0
		for i, r := range p.text {
			if r == ' ' || r == '\n' || r == '\u202f' || r == '\u00a0' {
				if i > start {
					if cur.space != "" {
						flush()
					}
					addText(&cur, p.text[start:i])
				}
				cur.space += string(r)
				start = i + utf8.RuneLen(r)
			}
		}
		if start < len(p.text) {
			if cur.space != "" {
				flush()
			}
			addText(&cur, p.text[start:])
		}
	}
	flush()
	return toks
}

func addText(t *texToken, s string) {
	t.pieces = append(t.pieces, piece{text: s})
	for _, r := range s {
		if mathy(r) {
			t.math = true
		}
	}
}

// termAtom reports whether a token is a letter or a number, which reads
// as mathematics beside mathematics.
func termAtom(t texToken) bool {
	if len(t.pieces) != 1 || t.pieces[0].script != 0 {
		return false
	}
	s := strings.TrimRight(t.pieces[0].text, ",.;:")
	if s == "" {
		return false
	}
	if len(s) > 1 && s[0] == '(' && s == t.pieces[0].text {
		// An opening parenthesis belongs to the formula it opens, (1 + √5)/2,
		// unless the token ends a clause: (1, 3) is a position.
		s = s[1:]
	}
	if len(s) == 1 && isLetter(s[0]) {
		return true
	}
	if strings.ContainsAny(s, "()") {
		// g(n, p), g(n), max(n, 70): letters, numbers and operators'
		// names in brackets are mathematics too; numbers alone in a
		// list are a position, (1, 3, 5, 5).
		parts := strings.FieldsFunc(s, func(r rune) bool { return r == '(' || r == ')' })
		letters := false
		for _, p := range parts {
			letter := len(p) == 1 && isLetter(p[0]) || slices.Contains(mathOperators, p)
			letters = letters || letter
			if !letter && strings.Trim(p, "0123456789") != "" {
				return false
			}
		}
		return len(parts) > 0 && (letters || !t.inList)
	}
	return strings.Trim(s, "0123456789") == ""
}

// funcApp is a one-letter function of one letter or number, g(n), f(1),
// or the first of its arguments, g(a, b) (its bracket closes the formula),
// or of numbers written without a space, S(5,8,24), a Steiner system.
var funcApp = regexp.MustCompile(`^\(?[A-Za-z]\(([A-Za-z0-9]|[0-9]+(,[0-9]+)+)(\)[,.;:]?|,)$`)

// letterToken is a letter alone, in brackets or before a punctuation
// mark: "n", "(n", "b)", "a,".
var letterToken = regexp.MustCompile(`^\(?([A-Za-z])\)?[,.;:]?$`)

// varLetter reports whether toks[i] is a letter naming a number, which a
// paper sets in italic mathematics wherever it stands ("heaps a (row) and
// b (column)", "row a, column b", "(n mod 4)"). Lowercase letters are, but
// y (French) and a: "a" is a variable only where no word follows it (a
// bracket, a comma, "and", the end), not in "a heap" nor in "il y a 2".
// Of the capitals only S, a set, and not as an initial ("S. Brown").
func varLetter(toks []texToken, i int) bool {
	t := toks[i]
	if len(t.pieces) != 1 || t.pieces[0].script != 0 {
		return false
	}
	s := t.pieces[0].text
	m := letterToken.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	var next string
	if i+1 < len(toks) && len(toks[i+1].pieces) > 0 && toks[i+1].pieces[0].script == 0 {
		next = toks[i+1].pieces[0].text
	}
	switch c := m[1][0]; {
	case c == 'S':
		initial := strings.HasSuffix(s, ".") && next != "" && unicode.IsUpper([]rune(next)[0])
		return !initial
	case c == 'a':
		if strings.TrimPrefix(s, "(") != "a" || i+1 == len(toks) || strings.HasPrefix(next, "(") {
			return true // "a," "a)" "a (row)": "(a win" is a word
		}
		switch strings.TrimRight(next, ",.;:") {
		case "and", "or", "et", "ou", `\`:
			return true
		}
		return false
	case c == 'y':
		return false
	}
	return m[1][0] >= 'b' && m[1][0] <= 'z'
}

// closesFormula reports whether a token closing a bracket is a term of
// the formula the bracket opened: 1)), n).
func closesFormula(t texToken) bool {
	t.inList = false
	return termAtom(t)
}

// parenDepth is how many brackets a token opens (less those it closes).
func parenDepth(t texToken) int {
	d := 0
	for _, p := range t.pieces {
		d += strings.Count(p.text, "(") - strings.Count(p.text, ")")
	}
	return d
}

// opToken reports whether a token is an operator or a relation alone:
// ⊕, ≤, <, =.
func opToken(t texToken) bool {
	if len(t.pieces) != 1 || t.pieces[0].script != 0 {
		return false
	}
	switch s := t.pieces[0].text; s {
	case "<", ">", "=", "+", "-", "<=", ">=", "/":
		return true
	case "max", "min":
		// A prefix operator, as a sign: n₀ + max S is one formula.
		return true
	default:
		for _, r := range s {
			if m := texMathRunes[r]; m == "" || !strings.HasPrefix(m, `\`) && m != "-" || strings.HasPrefix(m, `\mathbb`) ||
				unicode.Is(unicode.Greek, r) || strings.ContainsRune("⌊⌋⌈⌉⟨⟩∅∞●○□■′″", r) {
				return false
			}
		}
		return s != ""
	}
}

// endsClause reports whether a token ends with one of the punctuation
// marks in marks.
func endsClause(t texToken, marks string) bool {
	if len(t.pieces) == 0 {
		return false
	}
	last := t.pieces[len(t.pieces)-1]
	return last.script == 0 && last.text != "" && strings.ContainsRune(marks, rune(last.text[len(last.text)-1]))
}

func startsQuote(t texToken) bool {
	return t.pieces[0].script == 0 && strings.HasPrefix(t.pieces[0].text, "«")
}

// splitPunct cuts the punctuation around a mathematical token that
// belongs to the sentence: quotes and an opening parenthesis not closed
// inside before it, the end of a clause after it.
func splitPunct(t texToken) (lead, core, trail []piece) {
	core = append([]piece(nil), t.pieces...)
	if p := core[0]; p.script == 0 {
		i := 0
		for i < len(p.text) && (p.text[i] == '"' || p.text[i] == '\'') {
			i++
		}
		for _, q := range []string{"«", "“", "‘"} {
			if strings.HasPrefix(p.text[i:], q) {
				i += len(q)
			}
		}
		if i > 0 {
			lead = []piece{{text: p.text[:i]}}
			core[0].text = p.text[i:]
		}
	}
	if p := core[len(core)-1]; p.script == 0 {
		end := len(p.text)
		for end > 0 && strings.IndexByte(",.;:!?\"'", p.text[end-1]) >= 0 {
			end--
		}
		for _, q := range []string{"»", "”", "’"} {
			if strings.HasSuffix(p.text[:end], q) {
				end -= len(q)
			}
		}
		if end < len(p.text) {
			trail = []piece{{text: p.text[end:]}}
			core[len(core)-1].text = p.text[:end]
		}
	}
	// Pieces emptied by the cut are dropped.
	kept := core[:0]
	for _, p := range core {
		if p.text != "" {
			kept = append(kept, p)
		}
	}
	return lead, kept, trail
}
