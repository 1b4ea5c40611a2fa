package notebook

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

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
