package kernel

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"unicode/utf8"
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
	pattern       glob
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
	if r.pattern, err = compileGlob(r.patternSource); err != nil {
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

// A glob is a search pattern as the history takes it (SQLite's GLOB, as
// IPython's history): * for any text, ? for any character, [...] for one
// of a set ([^...] none of it), matching the whole cell, case included.
// It is matched by the wildcard algorithm that backtracks to the last *
// only (runs of * are one *), in at most len(text) × len(glob) steps, and
// the steps of one search are capped (searchSteps): a regular expression
// of 300 .* over five cells of 1 MB answered nothing in 15 s, and the
// kernel's shell answered nothing else meanwhile.
type glob []globToken

type globToken struct {
	kind byte // 'c' a character, '?' any, '[' a set, '*' any text
	r    rune
	neg  bool
	set  []rune // pairs lo, hi
}

// maxGlob bounds a search pattern's tokens.
const maxGlob = 4096

// compileGlob reads a glob pattern.
func compileGlob(src string) (glob, error) {
	var g glob
	rs := []rune(src)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			if len(g) > 0 && g[len(g)-1].kind == '*' {
				continue
			}
			g = append(g, globToken{kind: '*'})
		case '?':
			g = append(g, globToken{kind: '?'})
		case '[':
			j := i + 1
			neg := j < len(rs) && rs[j] == '^'
			if neg {
				j++
			}
			from := j
			if j < len(rs) && rs[j] == ']' {
				j++
			}
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if j >= len(rs) {
				return nil, fmt.Errorf("%q: a [ without its ]", cutUTF8(src, 60))
			}
			t := globToken{kind: '[', neg: neg}
			set := rs[from:j]
			for k := 0; k < len(set); k++ {
				if k+2 < len(set) && set[k+1] == '-' {
					t.set = append(t.set, set[k], set[k+2])
					k += 2
					continue
				}
				t.set = append(t.set, set[k], set[k])
			}
			g = append(g, t)
			i = j
		default:
			g = append(g, globToken{kind: 'c', r: c})
		}
		if len(g) > maxGlob {
			return nil, fmt.Errorf("more than %d characters and sets: write a shorter pattern", maxGlob)
		}
	}
	return g, nil
}

// one tells whether token t (not a *) matches the character r.
func (t *globToken) one(r rune) bool {
	switch t.kind {
	case '?':
		return true
	case 'c':
		return t.r == r
	}
	in := false
	for k := 0; k+1 < len(t.set); k += 2 {
		if t.set[k] <= r && r <= t.set[k+1] {
			in = true
			break
		}
	}
	return in != t.neg
}

// searchSteps caps the steps of one history search: a few hundredths of a
// second. The search then answers with the cells matched so far.
const searchSteps = 1 << 24

// match tells whether g matches the whole of text, counting its steps
// in *steps; ok is false once they pass searchSteps.
func (g glob) match(text string, steps *int) (matched, ok bool) {
	p, s := 0, 0
	starP, starS := -1, 0
	for s < len(text) {
		if *steps++; *steps > searchSteps {
			return false, false
		}
		r, size := utf8.DecodeRuneInString(text[s:])
		switch {
		case p < len(g) && g[p].kind == '*':
			starP, starS = p, s
			p++
		case p < len(g) && g[p].one(r):
			p++
			s += size
		case starP >= 0:
			// Back to the last *, which takes one more character.
			_, size := utf8.DecodeRuneInString(text[starS:])
			starS += size
			p, s = starP+1, starS
		default:
			return false, true
		}
	}
	for p < len(g) && g[p].kind == '*' {
		p++
	}
	return p == len(g), true
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
		steps := 0
		for i := len(cells) - 1; i >= 0; i-- {
			c := cells[i]
			matched, ok := r.pattern.match(c.input, &steps)
			if !ok {
				break // the search's steps are spent: what was found
			}
			if !matched || (r.unique && seen[c.input]) {
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
