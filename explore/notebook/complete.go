package notebook

import (
	"errors"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// keywords of Starlark offered by completion.
var keywords = []string{"and", "break", "continue", "def", "elif", "else", "for", "if", "in", "lambda", "load", "not", "or", "pass", "return", "while"}

func isIdent(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// Complete completes the name or attribute before cursor: global names,
// built-ins and keywords, or after "x." the attributes of the value of x
// (a dotted path of names; nothing is called to find it). Inside the
// parentheses of a heap rule's built-in or a registered family's
// (node_kayles), its keyword arguments (max_take=, graph=) come first,
// read from the registry's parameters.
func (s *Session) Complete(code string, cursor int) (matches []string, start, end int) {
	cursor = max(0, min(cursor, len(code)))
	start = cursor
	for start > 0 && (isIdent(code[start-1]) || code[start-1] == '.') {
		start--
	}
	word := code[start:cursor]
	if i := strings.LastIndexByte(word, '.'); i >= 0 {
		obj, prefix := word[:i], word[i+1:]
		v, ok := s.lookup(obj)
		if !ok {
			return nil, cursor, cursor
		}
		ha, ok := v.(starlark.HasAttrs)
		if !ok {
			return nil, cursor, cursor
		}
		for _, n := range ha.AttrNames() {
			if strings.HasPrefix(n, prefix) {
				matches = append(matches, n)
			}
		}
		sort.Strings(matches)
		return matches, start + i + 1, cursor
	}
	seen := map[string]bool{}
	add := func(n string) {
		if strings.HasPrefix(n, word) && !seen[n] && !hidden(n) {
			seen[n] = true
			matches = append(matches, n)
		}
	}
	var kws []string
	for _, kw := range s.callKeywords(code, start) {
		if strings.HasPrefix(kw, word) && word != "" {
			kws = append(kws, kw)
		}
	}
	for n := range s.globals {
		add(n)
	}
	for n := range starlark.Universe {
		add(n)
	}
	for _, n := range keywords {
		add(n)
	}
	sort.Strings(matches)
	return append(kws, matches...), start, cursor
}

// callKeywords lists the keyword arguments ("max_take=") of the heap
// rule's built-in whose call's parentheses hold position at, if any.
func (s *Session) callKeywords(code string, at int) []string {
	start, end, ok := callee(code, at)
	if !ok {
		return nil
	}
	name := code[start:end]
	v, ok := s.lookup(name)
	if b, isBuiltin := v.(*starlark.Builtin); !ok || !isBuiltin || b != builtins()[name] {
		return nil
	}
	if f, ok := registeredOf(name); ok {
		var out []string
		for _, q := range f.Params {
			out = append(out, q.Keyword()+"=")
		}
		return append(out, "play=")
	}
	r, ok := ruleOfBuiltin(name)
	if !ok {
		return nil
	}
	var out []string
	for _, q := range r.Params {
		out = append(out, q.Keyword()+"=")
	}
	return append(out, "play=", "position=")
}

// callee finds the name called by the innermost open parenthesis before
// at: code[start:end].
func callee(code string, at int) (start, end int, ok bool) {
	depth := 0
	for i := at - 1; i >= 0; i-- {
		switch code[i] {
		case ')':
			depth++
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			start = i
			for start > 0 && (isIdent(code[start-1]) || code[start-1] == '.') {
				start--
			}
			return start, i, start < i
		}
	}
	return 0, 0, false
}

// lookup evaluates a dotted path of names (x, x.y) without calling
// anything.
func (s *Session) lookup(path string) (starlark.Value, bool) {
	parts := strings.Split(path, ".")
	v, ok := s.globals[parts[0]]
	if !ok {
		v, ok = starlark.Universe[parts[0]]
	}
	if !ok || parts[0] == "" {
		return nil, false
	}
	for _, p := range parts[1:] {
		ha, ok := v.(starlark.HasAttrs)
		if !ok {
			return nil, false
		}
		x, err := ha.Attr(p)
		if err != nil || x == nil {
			return nil, false
		}
		v = x
	}
	return v, true
}

// Inspect documents the name (or dotted path) around cursor.
func (s *Session) Inspect(code string, cursor int) (string, bool) {
	cursor = max(0, min(cursor, len(code)))
	start, end := cursor, cursor
	for start > 0 && (isIdent(code[start-1]) || code[start-1] == '.') {
		start--
	}
	for end < len(code) && isIdent(code[end]) {
		end++
	}
	// Inside a call's parentheses, where the word at the cursor is no
	// known name (an argument): the callee.
	if _, known := s.lookup(strings.Trim(code[start:end], ".")); !known {
		if cs, ce, ok := callee(code, cursor); ok {
			start, end = cs, ce
		}
	}
	path := strings.Trim(code[start:end], ".")
	if path == "" {
		return "", false
	}
	v, ok := s.lookup(path)
	if !ok {
		return "", false
	}
	if text, ok := helpOf(v); ok {
		return text, true
	}
	return v.Type() + ": " + shortText(v), true
}

// IsComplete says whether code can run: "incomplete" when the parse stops
// at the end of the text (an open block, bracket or string) or a block's
// body may still be typed (its last line is indented), "invalid" for any
// other syntax error. As in IPython, a block ends with a blank line: code
// whose last line is empty or only blanks is complete once it parses. A
// cell that starts with a magic is judged by the code the magic runs.
func (s *Session) IsComplete(code string) (status, indent string) {
	if m, ok := parseMagic(code); ok {
		switch {
		case m.cell && strings.TrimSpace(m.body) == "":
			return "incomplete", "" // %%time on its own: the cell's code comes next
		case m.cell:
			return s.IsComplete(m.body)
		case m.name == "time" && strings.TrimSpace(m.arg) != "" && !m.more:
			return s.IsComplete(m.arg)
		}
		return "complete", "" // running it says what is wrong, if anything
	}
	_, err := fileOptions.Parse("cell", code, 0)
	lines := strings.Split(code, "\n")
	last := ""
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			last = lines[i]
			break
		}
	}
	lead := last[:len(last)-len(strings.TrimLeft(last, " \t"))]
	if err != nil {
		var se syntax.Error
		if errors.As(err, &se) && atEOF(code, se) {
			if strings.HasSuffix(strings.TrimSpace(last), ":") {
				return "incomplete", lead + "    "
			}
			return "incomplete", lead
		}
		return "invalid", ""
	}
	// An indented last line may be followed by more of its block, until
	// the user enters a blank line (empty, or the indentation a console
	// offers and the user left as it was).
	blankEnd := len(lines) > 1 && strings.TrimSpace(lines[len(lines)-1]) == ""
	if lead != "" && !blankEnd {
		return "incomplete", lead
	}
	return "complete", ""
}

// atEOF reports a syntax error found at the end of the input: more text
// could complete it.
func atEOF(code string, se syntax.Error) bool {
	if strings.Contains(se.Msg, "end of file") || strings.Contains(se.Msg, "unexpected EOF") ||
		strings.Contains(se.Msg, "unexpected newline in string") || strings.Contains(se.Msg, "unclosed") {
		return true
	}
	// The error's line is past the last line of text.
	n := int32(strings.Count(strings.TrimRight(code, "\n \t"), "\n") + 1)
	return se.Pos.Line > n
}
