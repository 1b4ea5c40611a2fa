package sandbox

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/nimbook/nimbook/explore/budget"
)

// FileOptions returns the dialect of nimbook's Starlark: as close to
// Python in a notebook as Starlark goes (top-level if/for/while, while
// loops, recursion, sets, reassigning globals).
func FileOptions() *syntax.FileOptions {
	return &syntax.FileOptions{
		Set:             true,
		While:           true,
		TopLevelControl: true,
		GlobalReassign:  true,
		Recursion:       true,
	}
}

// ExecFile parses src (as syntax.Parse reads it: nil reads the file),
// guards it and runs it on th, a thread of NewThread, with the built-ins
// of Builtins and predeclared (whose names win) predeclared. It returns
// the file's globals, frozen: the functions it defines cannot change them
// from one call to the next. An error is an *Error naming the file and
// line.
func ExecFile(th *starlark.Thread, filename string, src any, predeclared starlark.StringDict) (starlark.StringDict, error) {
	f, err := FileOptions().Parse(filename, src, 0)
	if err != nil {
		return nil, FileError(th, filename, err)
	}
	Guard(f)
	pre := Builtins()
	maps.Copy(pre, predeclared)
	prog, err := starlark.FileProgram(f, pre.Has)
	if err != nil {
		return nil, FileError(th, filename, err)
	}
	g, err := prog.Init(th, pre)
	if err != nil {
		return nil, FileError(th, filename, err)
	}
	g.Freeze()
	return g, nil
}

// Call calls fn on th; an error is an *Error naming the innermost line of
// Starlark code where it happened.
func Call(th *starlark.Thread, fn starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := starlark.Call(th, fn, args, kwargs)
	if err != nil {
		return nil, FileError(th, "", err)
	}
	return v, nil
}

// Error is an error of Starlark code at a line of a file.
type Error struct {
	File string // "" when no frame of the code is known
	Line int
	Msg  string
	err  error
}

// Error is FILE:LINE: MSG, or MSG when the place is unknown.
func (e *Error) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Unwrap returns what stopped the code: ErrSteps, the cause of its
// context (budget.Err: a memory limit, an interrupt), or Starlark's error.
func (e *Error) Unwrap() error { return e.err }

// FileError turns the error of Starlark code run on th into an *Error
// whose line is that of the innermost frame in filename (for "", in any
// file), and whose message says why a stopped thread stopped. th may be
// nil (an error of parsing). Other errors come back as they are, unless
// th was stopped.
func FileError(th *starlark.Thread, filename string, err error) error {
	var st *State
	if th != nil {
		st = StateOf(th)
	}
	stopped := func() (string, error) {
		if st == nil {
			return "", nil
		}
		if st.exceeded {
			return fmt.Sprintf("ran past the budget of %d steps (a loop that never ends?)", st.max), ErrSteps
		}
		if st.ctx.Err() != nil {
			_, msg := StoppedMessage(st.ctx, "the code")
			return msg, budget.Err(st.ctx)
		}
		return "", nil
	}
	var se syntax.Error
	var rl resolve.ErrorList
	var ee *starlark.EvalError
	switch {
	case errors.As(err, &se):
		return &Error{File: se.Pos.Filename(), Line: int(se.Pos.Line), Msg: se.Msg, err: err}
	case errors.As(err, &rl) && len(rl) > 0:
		return &Error{File: rl[0].Pos.Filename(), Line: int(rl[0].Pos.Line), Msg: ResolveMsg(rl[0].Msg), err: err}
	case errors.As(err, &ee):
		msg, cause := ee.Msg, error(ee)
		if m, c := stopped(); c != nil {
			msg, cause = m, c
		}
		for k := len(ee.CallStack) - 1; k >= 0; k-- {
			fr := ee.CallStack[k]
			fn := fr.Pos.Filename()
			if fr.Pos.Line > 0 && fn != "" && !strings.HasPrefix(fn, "<") && (filename == "" || fn == filename) {
				return &Error{File: fn, Line: int(fr.Pos.Line), Msg: msg, err: cause}
			}
		}
		return &Error{Msg: msg, err: cause}
	}
	if st != nil && st.ctx.Err() != nil {
		_, msg := StoppedMessage(st.ctx, "the code")
		return &Error{Msg: msg, err: budget.Err(st.ctx)}
	}
	return err
}

// ResolveMsg rephrases the resolver's terse messages the way Python users
// expect them.
func ResolveMsg(m string) string {
	if name, ok := strings.CutPrefix(m, "undefined: "); ok {
		return fmt.Sprintf("name %s is not defined", name)
	}
	return m
}
