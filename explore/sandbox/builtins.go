package sandbox

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

type builtinFunc = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

var (
	builtinsOnce sync.Once
	builtinSet   starlark.StringDict
)

// Builtins returns the names guarded code must find predeclared: the hidden
// built-ins Guard's rewriting calls, the guarded versions of Starlark's
// built-ins that materialise, scan or print (list, tuple, set, dict,
// sorted, reversed, enumerate, zip, min, max, any, all, str, repr, print,
// int, getattr), and sum, which Starlark lacks. The dict is the caller's to
// extend; its values are the same each time.
func Builtins() starlark.StringDict {
	builtinsOnce.Do(func() {
		fns := guardBuiltins()
		maps.Copy(fns, universeBuiltins())
		fns["sum"] = builtinSum
		builtinSet = starlark.StringDict{}
		for name, fn := range fns {
			builtinSet[name] = starlark.NewBuiltin(name, fn)
		}
	})
	return maps.Clone(builtinSet)
}

// Hidden reports whether name is one of the hidden built-ins of Builtins,
// which no code can write: lists of names shown to users leave them out.
func Hidden(name string) bool { return strings.HasPrefix(name, "·") }

// builtinSum is Python's sum, which Starlark lacks.
func builtinSum(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	var total starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "values", &it, "start?", &total); err != nil {
		return nil, err
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for i := 1; iter.Next(&x); i++ {
		v, err := guardedBinary(th, syntax.PLUS, total, x)
		if err != nil {
			if err == ErrStopped {
				return nil, err
			}
			return nil, fmt.Errorf("sum: %v", err)
		}
		total = v
		if i%chunk == 0 {
			if err := Tick(th, chunk); err != nil {
				return nil, err
			}
		}
	}
	return total, nil
}
