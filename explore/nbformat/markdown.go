package nbformat

import (
	"fmt"
	"strings"
)

// ParseMarkdown reads a Markdown notebook: each fenced block whose info
// string starts with the word nimbook (```nimbook or ~~~nimbook) is a code
// cell, and the text between them forms markdown cells. Other fenced
// blocks stay in the text, so a nimbook fence inside them is not a cell.
// An unclosed nimbook fence is an error naming its line.
func ParseMarkdown(src []byte) (*Notebook, error) {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	lines := strings.SplitAfter(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	nb := &Notebook{Metadata: map[string]any{}}
	var md []string
	flushMD := func() {
		s := strings.Trim(strings.Join(md, ""), "\n")
		md = md[:0]
		if strings.TrimSpace(s) == "" {
			return
		}
		nb.Cells = append(nb.Cells, &Cell{Type: "markdown", Source: s})
	}
	for i := 0; i < len(lines); i++ {
		f, ok := openFence(lines[i])
		if !ok {
			md = append(md, lines[i])
			continue
		}
		// Find the closing fence.
		end := -1
		for j := i + 1; j < len(lines); j++ {
			if f.closedBy(lines[j]) {
				end = j
				break
			}
		}
		if !f.nimbook {
			stop := end
			if stop < 0 {
				stop = len(lines) - 1
			}
			md = append(md, lines[i:stop+1]...)
			i = stop
			continue
		}
		if end < 0 {
			return nil, fmt.Errorf("line %d: the %s fence is not closed; end the cell with a line %s", i+1, strings.Repeat(string(f.char), f.n)+"nimbook", strings.Repeat(string(f.char), f.n))
		}
		flushMD()
		var code strings.Builder
		for _, l := range lines[i+1 : end] {
			code.WriteString(dedent(l, f.indent))
		}
		nb.Cells = append(nb.Cells, &Cell{Type: "code", Source: strings.TrimRight(code.String(), "\n"), Line: i + 2})
		i = end
	}
	flushMD()
	return nb, nil
}

// fence is an opening code fence.
type fence struct {
	char    byte
	n       int // length of the run of fence characters
	indent  int
	nimbook bool
}

// openFence recognises a CommonMark opening fence: up to three spaces,
// three or more backticks or tildes, an info string (without backticks for
// a backtick fence).
func openFence(line string) (fence, bool) {
	l := strings.TrimRight(line, "\n")
	ind := 0
	for ind < len(l) && l[ind] == ' ' {
		ind++
	}
	if ind > 3 || ind >= len(l) || (l[ind] != '`' && l[ind] != '~') {
		return fence{}, false
	}
	c := l[ind]
	n := 0
	for ind+n < len(l) && l[ind+n] == c {
		n++
	}
	if n < 3 {
		return fence{}, false
	}
	info := strings.TrimSpace(l[ind+n:])
	if c == '`' && strings.Contains(info, "`") {
		return fence{}, false
	}
	word, _, _ := strings.Cut(info, " ")
	word = strings.TrimRight(word, "{}")
	return fence{char: c, n: n, indent: ind, nimbook: strings.EqualFold(word, "nimbook")}, true
}

// closedBy reports whether line closes the fence: up to three spaces, at
// least as many of the same character, nothing else.
func (f fence) closedBy(line string) bool {
	l := strings.TrimRight(line, "\n")
	ind := 0
	for ind < len(l) && l[ind] == ' ' {
		ind++
	}
	if ind > 3 {
		return false
	}
	n := 0
	for ind+n < len(l) && l[ind+n] == f.char {
		n++
	}
	return n >= f.n && strings.TrimSpace(l[ind+n:]) == ""
}

// dedent removes up to n leading spaces, as CommonMark does for the lines
// of an indented fence.
func dedent(l string, n int) string {
	for n > 0 && strings.HasPrefix(l, " ") {
		l = l[1:]
		n--
	}
	return l
}
