package survey

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/starrule"
	"github.com/nimbook/nimbook/explore/version"
)

// Canonical returns the canonical JSON of v: object keys sorted, no
// spaces, no HTML escaping, numbers as written. Stored results are
// canonical so that the same variant gives the same bytes on any machine.
func Canonical(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return canonicalBytes(raw)
}

func canonicalBytes(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// hash identifies a survey by its analyses, its position and the game of
// every variant, in order.
func hash(s *Survey) string {
	h := sha256.New()
	head, _ := Canonical(map[string]any{"family": s.Family, "show": s.Show, "position": positionOf(s)})
	h.Write(head)
	h.Write([]byte{'\n'})
	for _, v := range s.Variants {
		g, _ := Canonical(v.identity())
		h.Write(g)
		h.Write([]byte{'\n'})
	}
	if s.Rules != "" {
		// Only then: the hash of a survey without rule files is what it
		// always was, and its databases stay its own.
		h.Write([]byte("rules\n" + s.Rules))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ruleDigests lists the rule files of s's variants (heap parameters of
// kind heap.File) by name, with a SHA-256 of each one's content, read as
// the rule's loader reads it (starrule.ReadSource).
func ruleDigests(s *Survey) (string, error) {
	seen := map[string]bool{}
	var lines []string
	for _, v := range s.Variants {
		// A heap rule's files, and a registered family's (a Starlark
		// game's file): the same parameter kind, File.
		var qs []heap.Param
		var ps heap.Params
		if h := v.Section.Heap(); h != nil && h.Rule != nil {
			qs, ps = h.Rule.Params, h.Params
		} else if f := v.Section.Registered(); f != nil {
			qs, ps = f.Family.Params, f.Params
		}
		for _, q := range qs {
			f := ps.String(q.Key)
			if q.Kind != heap.File || q.Memo || f == "" || seen[f] {
				continue
			}
			seen[f] = true
			src, err := starrule.ReadSource(f, "")
			if err != nil {
				return "", err
			}
			lines = append(lines, fmt.Sprintf("%s %x", filepath.Base(f), sha256.Sum256(src)))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}

func positionOf(s *Survey) any {
	if len(s.Variants) == 0 {
		return nil
	}
	if h := s.Variants[0].Section.Heap(); h != nil && h.Rule.PositionParam != "" {
		return nil // the position is a parameter (Nim's heaps)
	}
	return s.Variants[0].Section.Position
}

// compact renders a parameter value on one line: 0.07, 3, [1,3,4].
func compact(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := Canonical(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Version is nimbook's version as the build records it: the module
// version of a released build, else the VCS revision, else "devel".
func Version() string { return version.String() }

// Cost is the estimated work of one variant, known before it starts: the
// job's estimate of its section (job.Section.Estimate).
type Cost = job.Cost
