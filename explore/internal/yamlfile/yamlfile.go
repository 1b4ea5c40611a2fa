package yamlfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a job file, located by file, line and key path.
type Error struct {
	File string
	Line int    // 0 when unknown
	Path string // e.g. sections[1].game.coins.r
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Parser reads the YAML of one file, for errors that name it.
type Parser struct{ File string }

func (p *Parser) Errf(n *yaml.Node, path, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: p.File, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// mapping walks a YAML mapping, remembering which keys were read so that
// the rest can be reported as unknown.
type Mapping struct {
	P     *Parser
	Node  *yaml.Node
	Path  string
	Keys  []string // in the file's order
	Nodes map[string]*yaml.Node
	Lines map[string]int // the line of each key
}

func (p *Parser) Mapping(n *yaml.Node, path string) (*Mapping, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.Errf(n, path, "want a mapping (key: value lines), not %s", Describe(n))
	}
	m := &Mapping{P: p, Node: n, Path: path, Nodes: map[string]*yaml.Node{}, Lines: map[string]int{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if _, dup := m.Nodes[k.Value]; dup {
			return nil, p.Errf(k, Join(path, k.Value), "key given twice; keep one")
		}
		m.Keys = append(m.Keys, k.Value)
		v := n.Content[i+1]
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		m.Nodes[k.Value] = v
		m.Lines[k.Value] = k.Line
	}
	return m, nil
}

func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// check reports the first key that is not in allowed.
func (m *Mapping) Check(allowed ...string) error {
	for _, k := range m.Keys {
		ok := false
		for _, a := range allowed {
			if k == a {
				ok = true
			}
		}
		if !ok {
			hint := ""
			if s := Closest(k, allowed); s != "" {
				hint = fmt.Sprintf("did you mean %q? ", s)
			}
			return &Error{File: m.P.File, Line: m.Lines[k], Path: Join(m.Path, k),
				Msg: fmt.Sprintf("unknown key; %sallowed here: %s", hint, strings.Join(allowed, ", "))}
		}
	}
	return nil
}

func (m *Mapping) Has(key string) bool { _, ok := m.Nodes[key]; return ok }

func (m *Mapping) Str(key, def string) (string, error) {
	n, ok := m.Nodes[key]
	if !ok {
		return def, nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", m.P.Errf(n, Join(m.Path, key), "want a single value, not %s", Describe(n))
	}
	return n.Value, nil
}

// integer reads key as an integer in [lo, hi]; what says what the number is.
func (m *Mapping) Integer(key string, def, lo, hi int, what string) (int, error) {
	n, ok := m.Nodes[key]
	if !ok {
		return def, nil
	}
	return m.P.Integer(n, Join(m.Path, key), lo, hi, what)
}

func (p *Parser) Integer(n *yaml.Node, path string, lo, hi int, what string) (int, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, p.Errf(n, path, "want a whole number (%s), not %s", what, Describe(n))
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 10, 64)
	if err != nil {
		return 0, p.Errf(n, path, "want a whole number (%s), not %q", what, n.Value)
	}
	if v < int64(lo) || v > int64(hi) {
		if hi == math.MaxInt {
			return 0, p.Errf(n, path, "%d is out of range: %s must be at least %d", v, what, lo)
		}
		return 0, p.Errf(n, path, "%d is out of range: %s must be from %d to %d", v, what, lo, hi)
	}
	return int(v), nil
}

func (p *Parser) IntList(n *yaml.Node, path string, lo, hi int, what string) ([]int, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.Errf(n, path, "want a list of whole numbers like [1, 3, 5], not %s", Describe(n))
	}
	out := make([]int, 0, len(n.Content))
	for i, c := range n.Content {
		v, err := p.Integer(c, fmt.Sprintf("%s[%d]", path, i), lo, hi, what)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Value == "" {
			return "an empty value"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "this"
}

// closest returns the allowed word nearest to s, if it is near enough to
// be a likely typo.
func Closest(s string, allowed []string) string {
	best, bestD := "", 3
	for _, a := range allowed {
		if d := editDistance(s, a); d < bestD {
			best, bestD = a, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
