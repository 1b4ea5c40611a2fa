package kernel

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
)

// The kernel keeps the cells it ran with store_history, for the front
// ends' history_request (jupyter console fills its up-arrow with it): each
// cell's code and the text of its result, numbered by execution_count, in
// one session, numbered 1 (the kernel keeps nothing between runs). The
// oldest cells are forgotten past historyMaxCells or historyMaxBytes.
const (
	historySession   = 1
	historyMaxCells  = 10000
	historyMaxBytes  = 32 << 20
	historyMaxOutput = 64 << 10 // of a result's text kept
)

type historyCell struct {
	line   int
	input  string
	output *string // the result's text/plain; nil: none
}

type history struct {
	mu    sync.Mutex
	cells []historyCell
	bytes int
}

// add records the code of cell line as it starts.
func (h *history) add(line int, input string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cells = append(h.cells, historyCell{line: line, input: input})
	h.bytes += len(input)
	for len(h.cells) > 1 && (len(h.cells) > historyMaxCells || h.bytes > historyMaxBytes) {
		h.bytes -= len(h.cells[0].input)
		if o := h.cells[0].output; o != nil {
			h.bytes -= len(*o)
		}
		h.cells[0] = historyCell{}
		h.cells = h.cells[1:]
	}
}

// setOutput records the result of cell line.
func (h *history) setOutput(line int, d *Display) {
	if d == nil {
		return
	}
	text, ok := d.Data["text/plain"].(string)
	if !ok {
		return
	}
	text = cutUTF8(text, historyMaxOutput)
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.cells); n > 0 && h.cells[n-1].line == line && h.cells[n-1].output == nil {
		h.cells[n-1].output = &text
		h.bytes += len(text)
	}
}

// historyRequest is the content of a history_request.
type historyRequest struct {
	access        string // tail, range or search
	output        bool
	session       int
	start, stop   int
	stopGiven     bool
	n             int
	nGiven        bool
	pattern       *regexp.Regexp
	patternSource string
	unique        bool
}

func parseHistory(m *message) (r historyRequest, err error) {
	c, err := parseContent(m)
	if err != nil {
		return r, err
	}
	if r.access, err = c.str("hist_access_type", false); err != nil {
		return r, err
	}
	switch r.access {
	case "":
		r.access = "range"
	case "tail", "range", "search":
	default:
		return r, &badRequest{fmt.Sprintf("history_request: \"hist_access_type\" must be tail, range or search, not %q", r.access)}
	}
	if r.output, err = c.boolean("output", false); err != nil {
		return r, err
	}
	if _, err = c.boolean("raw", true); err != nil {
		return r, err
	}
	if r.unique, err = c.boolean("unique", false); err != nil {
		return r, err
	}
	if r.session, _, err = c.signed("session", 0); err != nil {
		return r, err
	}
	if r.start, _, err = c.signed("start", 0); err != nil {
		return r, err
	}
	if r.stop, r.stopGiven, err = c.signed("stop", 0); err != nil {
		return r, err
	}
	def := 0
	if r.access == "tail" {
		def = 10
	}
	if r.n, r.nGiven, err = c.signed("n", def); err != nil {
		return r, err
	}
	if r.access == "tail" {
		r.nGiven = true
	}
	if r.patternSource, err = c.str("pattern", false); err != nil {
		return r, err
	}
	if r.patternSource == "" {
		r.patternSource = "*"
	}
	if r.pattern, err = globRegexp(r.patternSource); err != nil {
		return r, &badRequest{fmt.Sprintf("history_request: \"pattern\": %v", err)}
	}
	return r, nil
}

// signed returns an integer field that may be negative, def when absent.
func (c content) signed(name string, def int) (v int, given bool, err error) {
	raw := c.raw(name)
	if raw == nil {
		return def, false, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, false, c.wrongType(name, "a whole number", raw)
	}
	return int(f), true, nil
}

// globRegexp compiles a glob pattern as the history's search takes it
// (SQLite's GLOB, as IPython's history): * for any text, ? for any
// character, [...] for one of a set ([^...] none of it), matching the whole
// cell, case included.
func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := i + 1
			if j < len(glob) && glob[j] == '^' {
				j++
			}
			if j < len(glob) && glob[j] == ']' {
				j++
			}
			for j < len(glob) && glob[j] != ']' {
				j++
			}
			if j >= len(glob) {
				return nil, fmt.Errorf("%q: a [ without its ]", glob)
			}
			set := glob[i+1 : j]
			neg := strings.HasPrefix(set, "^")
			set = strings.TrimPrefix(set, "^")
			b.WriteByte('[')
			if neg {
				b.WriteByte('^')
			}
			for _, r := range set {
				if r == '-' {
					b.WriteByte('-') // a range, as in the glob
					continue
				}
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
			b.WriteByte(']')
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`\z`)
	return regexp.Compile(b.String())
}

// query returns the entries a request asks for, oldest first: [session,
// line, input], or [session, line, [input, output]] with output.
func (h *history) query(r historyRequest) []any {
	h.mu.Lock()
	cells := append([]historyCell(nil), h.cells...)
	h.mu.Unlock()
	var picked []historyCell
	switch r.access {
	case "tail":
		picked = cells[max(0, len(cells)-max(r.n, 0)):]
	case "range":
		if r.session != 0 && r.session != historySession {
			return []any{} // no other session is kept
		}
		last := 0
		if n := len(cells); n > 0 {
			last = cells[n-1].line
		}
		// Lines as IPython numbers them: start ≤ line < stop; negative
		// bounds count back from after the last line.
		start, stop := r.start, last+1
		if r.stopGiven {
			stop = r.stop
		}
		if start < 0 {
			start += last + 1
		}
		if stop < 0 {
			stop += last + 1
		}
		for _, c := range cells {
			if c.line >= start && c.line < stop {
				picked = append(picked, c)
			}
		}
	case "search":
		seen := map[string]bool{}
		for i := len(cells) - 1; i >= 0; i-- {
			c := cells[i]
			if !r.pattern.MatchString(c.input) || (r.unique && seen[c.input]) {
				continue
			}
			seen[c.input] = true
			picked = append(picked, c)
			if r.nGiven && r.n > 0 && len(picked) == r.n {
				break
			}
		}
		for i, j := 0, len(picked)-1; i < j; i, j = i+1, j-1 {
			picked[i], picked[j] = picked[j], picked[i]
		}
	}
	out := make([]any, 0, len(picked))
	for _, c := range picked {
		if r.output {
			var o any
			if c.output != nil {
				o = *c.output
			}
			out = append(out, []any{historySession, c.line, []any{c.input, o}})
		} else {
			out = append(out, []any{historySession, c.line, c.input})
		}
	}
	return out
}

// historyReply answers a history_request.
func (k *Kernel) historyReply(s *socket, m *message) {
	r, err := parseHistory(m)
	if err != nil {
		k.badReply(s, m, "history_reply", err)
		return
	}
	k.reply(s, m, "history_reply", map[string]any{"status": "ok", "history": k.hist.query(r)})
}
