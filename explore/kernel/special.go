package kernel

import (
	"regexp"
	"strings"

	"github.com/nimbook/nimbook/explore/version"
)

// Helper is an optional interface of an Executor: it recognises the cells
// that IPython treats apart, help requests ("name?", "name??", "?name") and
// exit or quit. The kernel checks for it with a type assertion; without it,
// the kernel recognises those cells itself and answers help through Inspect.
type Helper interface {
	// Help returns the help a cell asks for (shown in the front end's pager);
	// isHelp is false when code is an ordinary cell.
	Help(code string) (text string, isHelp bool)
	// IsExit reports whether code asks to end the session.
	IsExit(code string) bool
}

// helpCell matches IPython's help syntax on a name or a dotted path.
var helpCell = regexp.MustCompile(`^\s*(\?\??)?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\?\??)?\s*$`)

// special tells whether code asks to exit ("exit"), asks for help ("help",
// with the text to page, or "nohelp" with the text to print when the name is
// unknown), or neither ("").
func (k *Kernel) special(code string) (kind, arg string) {
	if h, ok := k.exec.(Helper); ok {
		var isExit, isHelp bool
		var text string
		if !k.safely("IsExit", func() { isExit = h.IsExit(code) }) {
			return "", ""
		}
		if isExit {
			return "exit", ""
		}
		if !k.safely("Help", func() { text, isHelp = h.Help(code) }) || !isHelp {
			return "", ""
		}
		return "help", text
	}
	switch c := strings.TrimSpace(code); c {
	case "exit", "quit", "exit()", "quit()":
		// Unless the session gave the name a value of its own.
		name := strings.TrimSuffix(c, "()")
		if _, found := k.inspectName(name); !found {
			return "exit", ""
		}
		return "", ""
	}
	g := helpCell.FindStringSubmatch(code)
	if g == nil || (g[1] == "") == (g[3] == "") { // one of ?name and name?
		return "", ""
	}
	if text, found := k.inspectName(g[2]); found {
		return "help", text
	}
	return "nohelp", "Object `" + g[2] + "` not found.\n"
}

// inspectName is the Executor's help about a name alone.
func (k *Kernel) inspectName(name string) (text string, found bool) {
	if !k.safely("Inspect", func() { text, found = k.exec.Inspect(name, len(name)) }) {
		return "", false
	}
	return text, found
}

// buildVersion is the version of the program (explore/version).
func buildVersion() string { return version.String() }
