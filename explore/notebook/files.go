package notebook

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/sandbox"
	"github.com/nimbook/nimbook/explore/starrule"
)

// dir is the folder whose .star files the session's cells may read:
// Options.Dir, else the working directory (where Jupyter starts the
// kernel: the notebook's folder).
func (s *Session) dir() string {
	if s.opts.Dir != "" {
		return s.opts.Dir
	}
	return "."
}

// cellFile checks a file a cell of th names (rule(file="rules.star")):
// a regular .star file in the notebook's folder or below, read by
// starrule.ReadSource, which refuses the rest (.., a path or a link
// outside, another kind of file, a device, a FIFO) before reading a byte
// of it, so that no error can quote another file's content. It returns
// the path to load (taken from the notebook's folder).
func cellFile(th *starlark.Thread, fn, key, path string) (string, error) {
	s, _, _ := sessionOf(th)
	root := s.dir()
	if _, err := starrule.ReadSource(path, root); err != nil {
		return "", fmt.Errorf("%s: %s: %s", fn, key, strings.TrimPrefix(err.Error(), "starrule: "))
	}
	return starrule.Resolve(path, root), nil
}

// paramBytes is about what one element of a rule's parameter costs once
// copied: the Go int, the frozen Starlark list's element, and the text of
// the game's name and repr, which quote it.
const paramBytes = 128

// checkParamSize refuses, before any copy, a rule's parameter (key=v of
// the built-in fn) whose copies would take the cell past its memory
// limit: rule(f, k=list(range(10**7))) reached 770 MiB under 256MiB,
// copied past the limit in Go, where the watchdog stops nothing.
func checkParamSize(th *starlark.Thread, fn, key string, v starlark.Value) error {
	n := elements(v, 0)
	if n < 1<<12 {
		return nil
	}
	return sandbox.NeedMemory(th, fmt.Sprintf("%s: copying %s (%d values)", fn, key, n), n*paramBytes)
}

// elements counts the values v holds, lists and dicts within it too (to
// depth 3: parameters are numbers, words and lists of numbers).
func elements(v starlark.Value, depth int) int64 {
	switch v := v.(type) {
	case *starlark.Dict:
		n := int64(v.Len())
		if depth < 3 {
			for _, kv := range v.Items() {
				n += elements(kv[1], depth+1)
			}
		}
		return n
	case starlark.Sequence:
		n := int64(v.Len())
		if depth < 3 && n < 1<<16 {
			it := v.Iterate()
			defer it.Done()
			var x starlark.Value
			for it.Next(&x) {
				n += elements(x, depth+1)
			}
		}
		return n
	}
	return 1
}
