package notebook

import (
	"context"
	"fmt"
	"sort"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// EvalJSON runs one cell like Execute and returns the JSON form of its
// result, for `nimbook eval --json`: a result gives the JSON object of
// SPEC.md's keys (e.g. {"values": [...]}), plain data its JSON (tuples as
// arrays, nimbers as numbers, dicts with string keys as objects); nil when
// the cell has no result. print and display still write to out.
func (s *Session) EvalJSON(ctx context.Context, code string, out kernel.Output) (any, error) {
	var last starlark.Value
	s.lastValue = &last
	defer func() { s.lastValue = nil }()
	if _, err := s.Execute(ctx, code, out); err != nil {
		return nil, err
	}
	if last == nil {
		return nil, nil
	}
	if sandbox.ReprSize(last, sandbox.MaxText) > sandbox.MaxText {
		return nil, fmt.Errorf("the result is too large for JSON (more than %d characters); return a part of it", sandbox.MaxText)
	}
	return valueJSON(last, 0)
}

func valueJSON(v starlark.Value, depth int) (any, error) {
	if depth > 100 {
		return nil, fmt.Errorf("the value is nested too deeply for JSON")
	}
	switch v := v.(type) {
	case result:
		j, ok := resultJSON(v.section())
		if !ok {
			return nil, fmt.Errorf("this %s has no JSON form", v.Type())
		}
		return j, nil
	case *surveyValue:
		return v.json()
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(v), nil
	case starlark.Int:
		return jsonNumber(v.String()), nil
	case Nimber:
		return uint64(v), nil
	case starlark.Float:
		return float64(v), nil
	case starlark.String:
		return string(v), nil
	case *starlark.Dict:
		m := map[string]any{}
		for _, kv := range v.Items() {
			k, ok := kv[0].(starlark.String)
			if !ok {
				return nil, fmt.Errorf("a dict with %s keys has no JSON form (keys must be strings)", kv[0].Type())
			}
			x, err := valueJSON(kv[1], depth+1)
			if err != nil {
				return nil, err
			}
			m[string(k)] = x
		}
		return m, nil
	case starlark.Iterable:
		arr := []any{}
		iter := v.Iterate()
		defer iter.Done()
		var x starlark.Value
		for iter.Next(&x) {
			j, err := valueJSON(x, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, j)
		}
		if _, ok := v.(*starlark.Set); ok {
			sort.SliceStable(arr, func(i, j int) bool { return fmt.Sprint(arr[i]) < fmt.Sprint(arr[j]) })
		}
		return arr, nil
	}
	return v.String(), nil
}
