package notebook

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/syntax"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/kernel"
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
	return path + ": " + v.Type() + "\n" + shortText(v), true, true
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

// AsksExit tells whether code asks to end the session, as Execute decides:
// exit or quit alone in the cell, when the session has not given those
// names a value of its own.
func (s *Session) AsksExit(code string) bool {
	return IsExit(code) && !s.userDefined("exit", "quit")
}

// A few of IPython's magics, which users type by habit, work in a cell:
//
//	%time STATEMENT   run the statement, then print its CPU and wall times;
//	                  on the first line of a longer cell, the statement
//	                  and the rest of the cell (as IPython's %%time)
//	%%time            (first line) run the rest of the cell, then print its times
//	%who [TYPE...]    list the names the cells defined (of those types)
//	%limits           show the session's limits and ceilings
//
// A magic is the first line of its cell (blank and comment lines aside); a
// line magic is alone in its cell. Any other magic is an error that lists
// these.

// magicCell is a cell that starts with a magic.
type magicCell struct {
	name string // without its % signs
	cell bool   // %%name: the magic takes the rest of the cell
	arg  string // the rest of the magic's line
	body string // the lines after the magic's, as many lines down as in the cell
	more bool   // the cell has code after the magic's line
	line int    // the magic's line, from 0
}

// knownMagics lists the magics of a session, for messages.
const knownMagics = "%time, %%time, %who and %limits"

// parseMagic recognises a cell that starts with a magic.
func parseMagic(code string) (magicCell, bool) {
	lines := strings.Split(code, "\n")
	i := 0
	for i < len(lines) {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "#") {
			break
		}
		i++
	}
	if i == len(lines) {
		return magicCell{}, false
	}
	first := strings.TrimSpace(lines[i])
	if !strings.HasPrefix(first, "%") {
		return magicCell{}, false
	}
	m := magicCell{cell: strings.HasPrefix(first, "%%"), line: i}
	rest := strings.TrimLeft(first, "%")
	m.name, m.arg, _ = strings.Cut(rest, " ")
	if j := strings.IndexAny(m.name, "\t"); j >= 0 {
		m.name, m.arg = m.name[:j], m.name[j+1:]+" "+m.arg
	}
	m.arg = strings.TrimSpace(m.arg)
	// The body keeps its line numbers: errors name the cell's lines.
	m.body = strings.Repeat("\n", i+1) + strings.Join(lines[i+1:], "\n")
	m.more = strings.TrimSpace(stripComments(m.body)) != ""
	if !m.cell {
		m.arg = strings.Repeat("\n", i) + m.arg
	}
	return m, true
}

// magicHint adds to the syntax error of a cell whose line starts with %
// where only a first line may: magics go first.
func magicHint(code string, parseErr, shown error) error {
	var se syntax.Error
	var ce *kernel.CellError
	if !errors.As(parseErr, &se) || !errors.As(shown, &ce) {
		return shown
	}
	lines := strings.Split(code, "\n")
	if n := int(se.Pos.Line); n >= 1 && n <= len(lines) && strings.HasPrefix(strings.TrimSpace(lines[n-1]), "%") {
		ce.Value += " (a magic, " + knownMagics + ", goes on the first line of its cell)"
	}
	return shown
}

// magic runs a cell that starts with a magic.
func (s *Session) magic(ctx context.Context, m magicCell, out kernel.Output) (*kernel.Display, error) {
	usage := func(msg string) error { return &kernel.CellError{Name: "UsageError", Value: msg} }
	switch {
	case m.cell && m.name == "time":
		return s.timed(ctx, m.body, out)
	case m.cell:
		return nil, usage(fmt.Sprintf("Cell magic `%%%%%s` not found; nimbook knows %s", m.name, knownMagics))
	case m.name != "time" && m.name != "who" && m.name != "limits":
		return nil, usage(fmt.Sprintf("Line magic function `%%%s` not found; nimbook knows %s", m.name, knownMagics))
	case m.more && m.name == "time":
		// The first line of a longer cell: the statement on it and the
		// lines after it are timed together, each on its own line.
		return s.timed(ctx, m.arg+m.body[m.line:], out)
	case m.more:
		return nil, usage(fmt.Sprintf("%%%s goes alone in its cell", m.name))
	case m.name == "time":
		if strings.TrimSpace(m.arg) == "" {
			return nil, usage("%time needs a statement to time: %time nim_mul(2, 3)")
		}
		return s.timed(ctx, m.arg, out)
	case m.name == "who":
		out.Stream("stdout", s.who(strings.Fields(m.arg)))
		return nil, nil
	default: // limits
		if m.arg != "" {
			return nil, usage("%limits takes no argument; lower a limit with limits(steps=..., positions=..., memory=...)")
		}
		out.Stream("stdout", s.limitsText())
		return nil, nil
	}
}

// timed runs code as a cell and, when it succeeds, prints its CPU and
// wall times as IPython's %time does ("CPU times: user 1.2 ms, sys: 0 ns,
// total: 1.2 ms" then "Wall time: 1.3 ms"), read on the session's clocks.
// The CPU times are the process's (user and system), as IPython's are: a
// cell's engine work runs on goroutines of its own.
func (s *Session) timed(ctx context.Context, code string, out kernel.Output) (*kernel.Display, error) {
	start, cpu0 := s.clock(), s.cpuTimes()
	d, err := s.run(ctx, code, out)
	if err != nil {
		return nil, err
	}
	wall, cpu1 := s.clock().Sub(start), s.cpuTimes()
	user, sys := max(cpu1.user-cpu0.user, 0), max(cpu1.sys-cpu0.sys, 0)
	out.Stream("stdout", fmt.Sprintf("CPU times: user %s, sys: %s, total: %s\nWall time: %s\n",
		formatWallTime(user), formatWallTime(sys), formatWallTime(user+sys), formatWallTime(wall)))
	return d, nil
}

// cpuTime is the CPU time the process has used, in user and system mode.
type cpuTime struct{ user, sys time.Duration }

// cpuTimes reads the process's CPU times: processCPU unless a test set
// another clock.
func (s *Session) cpuTimes() cpuTime {
	if s.cpu != nil {
		return s.cpu()
	}
	return processCPU()
}

// clock is the session's clock: time.Now unless a test set another.
func (s *Session) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// formatWallTime writes a duration as IPython's %time does: three
// significant digits and a unit (s, ms, µs, ns), minutes and seconds past
// a minute.
func formatWallTime(d time.Duration) string {
	if d >= time.Minute {
		d = d.Round(time.Second)
		return fmt.Sprintf("%dmin %ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	units := []struct {
		name string
		size time.Duration
	}{{"s", time.Second}, {"ms", time.Millisecond}, {"µs", time.Microsecond}}
	for _, u := range units {
		if d >= u.size {
			return strconv.FormatFloat(float64(d)/float64(u.size), 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + " ns"
}

// who lists the names the cells defined, sorted, those of the given types
// only when types are given (IPython's %who), tab-separated.
func (s *Session) who(types []string) string {
	var names []string
	for _, name := range s.Globals() {
		if strings.HasPrefix(name, "_") {
			continue
		}
		if len(types) > 0 && !slices.Contains(types, s.globals[name].Type()) {
			continue
		}
		names = append(names, name)
	}
	switch {
	case len(names) > 0:
		return strings.Join(names, "\t") + "\n"
	case len(types) > 0:
		return "No variables match your requested type.\n"
	}
	return "Interactive namespace is empty.\n"
}

// limitsText shows the session's limits, what a cell may lower them to,
// and the ceilings the command line set.
func (s *Session) limitsText() string {
	var b strings.Builder
	row := func(name, now, ceil, flag string) {
		fmt.Fprintf(&b, "%-10s %-16s (ceiling %s, set by %s)\n", name, now, ceil, flag)
	}
	row("steps", fmt.Sprintf("%d", s.opts.MaxSteps), fmt.Sprintf("%d", s.ceil.steps), flagSteps)
	row("positions", fmt.Sprintf("%d", s.opts.Limits.Positions), fmt.Sprintf("%d", s.ceil.positions), flagPositions)
	row("memory", budget.FormatSize(s.opts.Limits.Memory), budget.FormatSize(s.ceil.memory), flagMemory)
	b.WriteString("Steps are counted per cell. Lower a limit with limits(steps=..., positions=..., memory=...); only the command line raises a ceiling.\n")
	return b.String()
}
