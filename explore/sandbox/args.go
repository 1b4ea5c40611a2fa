package sandbox

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.starlark.net/starlark"
)

// Functions lists, sorted, the functions a file's globals define, for
// errors that name a function the file lacks ("none" when it has none).
func Functions(globals starlark.StringDict) string {
	var names []string
	for name, v := range globals {
		if _, ok := v.(*starlark.Function); ok {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// Lists says how Kwargs passes a list of whole numbers: as a frozen list
// or as a tuple. Neither can be changed by the function; a tuple is also
// hashable, so that a game may keep it in a position.
type Lists int

const (
	FrozenLists Lists = iota // heap rules' parameters
	Tuples                   // games' parameters
)

// Kwargs makes parameters read from a job file or a notebook (whole
// numbers, words, true or false, lists of whole numbers) the keyword
// arguments of a Starlark function, sorted by name.
func Kwargs(params map[string]any, lists Lists) ([]starlark.Tuple, error) {
	names := slices.Sorted(maps.Keys(params))
	out := make([]starlark.Tuple, 0, len(names))
	for _, k := range names {
		var v starlark.Value
		switch x := params[k].(type) {
		case int:
			v = starlark.MakeInt(x)
		case bool:
			v = starlark.Bool(x)
		case string:
			v = starlark.String(x)
		case []int:
			elems := make([]starlark.Value, len(x))
			for i, e := range x {
				elems[i] = starlark.MakeInt(e)
			}
			if lists == Tuples {
				v = starlark.Tuple(elems)
			} else {
				l := starlark.NewList(elems)
				l.Freeze()
				v = l
			}
		default:
			return nil, fmt.Errorf("%s: want a whole number, a word, true or false, or a list of whole numbers, not %v", k, params[k])
		}
		out = append(out, starlark.Tuple{starlark.String(k), v})
	}
	return out, nil
}
