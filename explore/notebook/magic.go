package notebook

import (
	"errors"
	"regexp"
	"strings"
)

// ErrExit is the error of Execute for a cell that is exactly exit, quit,
// exit() or quit(): as in IPython, the user asks to end the session. A
// kernel ends (or restarts) the session; it is no error to show.
var ErrExit = errors.New("notebook: the cell asks to end the session")

// IsExit tells whether code is a request to end the session: exit, quit,
// exit() or quit(), alone in the cell (blanks and comments aside).
func IsExit(code string) bool {
	switch strings.TrimSpace(stripComments(code)) {
	case "exit", "quit", "exit()", "quit()":
		return true
	}
	return false
}

// helpRequest matches a cell that is only a help request: name?, name??,
// ?name or ??name, for a name or a dotted path (g.values?).
var helpRequest = regexp.MustCompile(`^\s*(?:\?{1,2}\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)|([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\?{1,2})\s*$`)

// Help answers a cell that is only a help request, as IPython does:
// name? (also name??, ?name) gives the documentation of a built-in, a
// method, a game or a function of the session (its call form and what it
// does), or the type and value of any other global. ok is false when code
// is not a help request; found is false when it names nothing (text then
// says so). Execute answers help requests itself, on the cell's standard
// output; a kernel may call Help to show the text in a pager instead.
func (s *Session) Help(code string) (text string, found, ok bool) {
	m := helpRequest.FindStringSubmatch(stripComments(code))
	if m == nil {
		return "", false, false
	}
	path := m[1] + m[2]
	v, known := s.lookup(path)
	if !known {
		return "Object `" + path + "` not found.", false, true
	}
	if t, ok := helpOf(v); ok {
		return t, true, true
	}
	return path + ": " + v.Type() + "\n" + shortText(v.String()), true, true
}

// stripComments removes # comments from the lines of code (a # inside
// a string is rare in a help request or an exit).
func stripComments(code string) string {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if j := strings.IndexByte(l, '#'); j >= 0 && !strings.ContainsAny(l[:j], `"'`) {
			lines[i] = l[:j]
		}
	}
	return strings.Join(lines, "\n")
}

// shortText cuts a value's text for help: its beginning says what it is.
func shortText(s string) string {
	const most = 2000
	if len(s) <= most {
		return s
	}
	return s[:most] + "…"
}

// AsksExit tells whether code asks to end the session, as Execute decides:
// exit or quit alone in the cell, when the session has not given those
// names a value of its own.
func (s *Session) AsksExit(code string) bool {
	return IsExit(code) && !s.userDefined("exit", "quit")
}
