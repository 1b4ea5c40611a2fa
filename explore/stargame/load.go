package stargame

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/sandbox"
)

const (
	// loadSteps bounds a file's top-level code and the call that makes
	// its game: a loop that never ends there stops in well under a second.
	loadSteps = 10_000_000
	// loadMemory is what they may allocate above the memory in use.
	loadMemory = 1 << 30
)

// Files already run, by path and content: a survey or a range of
// parameters builds a game of the same file for each value, a survey of a
// rule file a rule for each variant. Their globals are frozen, so that
// games share them safely.
var (
	filesMu sync.Mutex
	files   = map[string]starlark.StringDict{}
)

// LoadFile runs the Starlark file at path with game() predeclared, or
// returns its globals from an earlier run of the same content: the one
// loader of game files and rule files. The file is read by ReadSource (a
// regular .star file of a sane size, under root when root is not empty)
// and given to atomicfile.Protect, so that no output of the process
// replaces a file it ran; its top-level code runs within loadSteps steps
// and maxMemory bytes of memory in use.
func LoadFile(path, root string, maxMemory int64) (starlark.StringDict, error) {
	src, err := ReadSource(path, root)
	if err != nil {
		return nil, err
	}
	path = Resolve(path, root)
	protectOnce(path)
	key := fmt.Sprintf("%s\x00%x", path, sha256.Sum256(src))
	filesMu.Lock()
	g, ok := files[key]
	filesMu.Unlock()
	if ok {
		return g, nil
	}
	th, release := sandbox.NewThread(context.Background(), "load "+path, sandbox.Limits{MaxSteps: loadSteps, MaxMemory: maxMemory})
	defer release()
	if g, err = sandbox.ExecFile(th, path, src, Predeclared()); err != nil {
		return nil, err
	}
	filesMu.Lock()
	if len(files) >= 64 {
		clear(files)
	}
	files[key] = g
	filesMu.Unlock()
	return g, nil
}

// protected holds the files LoadFile gave atomicfile.Protect.
var protected sync.Map

func protectOnce(path string) {
	if _, loaded := protected.LoadOrStore(path, true); !loaded {
		atomicfile.Protect(path)
	}
}

// loadFile runs the game file at path (LoadFile), its top-level code
// within loadMemory bytes above the memory in use.
func loadFile(path string) (starlark.StringDict, error) {
	return LoadFile(path, "", budget.InUse()+loadMemory)
}

// Function returns the function name of the file at path, checked to take
// exactly params by name (those with defaults may be left out). The error,
// a *family.ParamError keyed file, name or params, names the file and the
// line of the def.
func Function(path, name string, params map[string]any) (*starlark.Function, []starlark.Tuple, error) {
	globals, err := loadFile(path)
	if err != nil {
		return nil, nil, &family.ParamError{Key: keyFile, Msg: err.Error()}
	}
	v, ok := globals[name]
	if !ok {
		return nil, nil, &family.ParamError{Key: keyName, Msg: fmt.Sprintf("%s defines no %s; its functions: %s", path, name, sandbox.Functions(globals))}
	}
	fn, ok := v.(*starlark.Function)
	if !ok {
		return nil, nil, &family.ParamError{Key: keyName, Msg: fmt.Sprintf("%s: %s is a %s, not a function; its functions: %s", path, name, v.Type(), sandbox.Functions(globals))}
	}
	kwargs, err := sandbox.Kwargs(params, sandbox.Tuples) // lists as tuples, which positions may hold
	if err != nil {
		return nil, nil, &family.ParamError{Key: keyParams, Msg: err.Error()}
	}
	pos := fn.Position()
	at := fmt.Sprintf("%s:%d", pos.Filename(), pos.Line)
	n := fn.NumParams()
	if fn.HasVarargs() {
		n--
	}
	if fn.HasKwargs() {
		n--
	}
	var takes []string
	for i := range n {
		p, _ := fn.Param(i)
		takes = append(takes, p)
	}
	sig := fmt.Sprintf("%s(%s)", name, strings.Join(takes, ", "))
	for _, kv := range kwargs {
		k := string(kv[0].(starlark.String))
		if !slices.Contains(takes, k) && !fn.HasKwargs() {
			return nil, nil, &family.ParamError{Key: keyParams, Msg: fmt.Sprintf("%s: %s takes no parameter %s", at, sig, k)}
		}
	}
	for i, p := range takes {
		if fn.ParamDefault(i) != nil {
			continue
		}
		if _, ok := params[p]; !ok {
			return nil, nil, &family.ParamError{Key: keyParams, Msg: fmt.Sprintf("%s: %s needs %s: give it in params, e.g. params: {%s: 3}", at, sig, p, p)}
		}
	}
	return fn, kwargs, nil
}

// Load returns the game that name(**params) of the file at path makes,
// bound to env: its functions run on one thread within env's step budget
// (DefaultMaxSteps when 0) and memory. Close the game when done.
func Load(path, name string, params map[string]any, env family.Env) (*Game, error) {
	fn, kwargs, err := Function(path, name, params)
	if err != nil {
		return nil, err
	}
	return newGame(fn, kwargs, env)
}
