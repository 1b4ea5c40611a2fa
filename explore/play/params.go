package play

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/heap"
)

// ParseParam reads the value of a rule's parameter as a player types it on
// a command line, by its kind: a number (3), numbers separated by commas
// or blanks (1,3,4), a word or a path (0.77), a mapping in YAML's flow form
// (a: 1, b: [1, 3]). Bounds and the rule's own checks come after, from
// NewHeapRule.
func ParseParam(q heap.Param, s string) (any, error) {
	s = strings.TrimSpace(s)
	switch q.Kind {
	case heap.Int:
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number; write e.g. %s", s, ParamExample(q))
		}
		return v, nil
	case heap.Ints:
		out := []int{}
		for _, f := range strings.FieldsFunc(strings.Trim(s, "()[]"), func(r rune) bool { return r == ',' || r == ' ' }) {
			v, err := strconv.Atoi(f)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("%q is not a whole number ≥ 0; write e.g. %s", f, ParamExample(q))
			}
			out = append(out, v)
		}
		return out, nil
	case heap.Map:
		if !strings.HasPrefix(s, "{") {
			s = "{" + s + "}"
		}
		var m map[string]any
		if err := yaml.Unmarshal([]byte(s), &m); err != nil {
			return nil, fmt.Errorf("write a mapping, e.g. %s", ParamExample(q))
		}
		for k, v := range m {
			pv, ok := heap.MapValue(v)
			if !ok {
				return nil, fmt.Errorf("%s: want a whole number, a word, true or false, or a list of whole numbers, not %v", k, v)
			}
			m[k] = pv
		}
		if m == nil {
			m = map[string]any{}
		}
		return m, nil
	}
	if s == "" {
		return nil, fmt.Errorf("write a value, e.g. %s", ParamExample(q))
	}
	return s, nil
}

// ParamExample is the parameter's example as ParseParam reads it: a job
// file's [1, 3, 4] is 1,3,4 and "0.77" is 0.77.
func ParamExample(q heap.Param) string {
	switch q.Kind {
	case heap.Ints:
		return strings.ReplaceAll(strings.Trim(q.Example, "[]"), ", ", ",")
	case heap.String, heap.File:
		return strings.Trim(q.Example, `"`)
	}
	return q.Example
}
