package starrule

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/sandbox"
	"github.com/nimbook/nimbook/explore/stargame"
)

// maxFileSize bounds a rule file (MaxSourceSize): rules are a few
// functions.
const maxFileSize = 1 << 20

// loadSteps is the step budget of a rule file's top-level code, which
// defines functions: a loop there that never ends stops in well under a
// second.
const loadSteps = 10_000_000

// Files already run, by path and content: a survey builds a game of the
// same file for each variant. Their globals are frozen, so that games
// share them safely.
var (
	modulesMu sync.Mutex
	modules   = map[string]starlark.StringDict{}
)

// load runs the rule file at path, or returns its globals from an
// earlier run of the same content. The file is read by ReadSource (a
// regular .star file of a sane size, under root when root is not empty);
// its top-level code runs within loadSteps steps and the memory limit of
// the process's watchdogs (budget.Lowest), or CallMemory above what is in
// use when none runs.
func load(path, root string) (starlark.StringDict, error) {
	src, err := ReadSource(path, root)
	if err != nil {
		return nil, err
	}
	path = Resolve(path, root)
	// No output of the process may replace a file it ran.
	protectOnce(path)
	key := fmt.Sprintf("%s\x00%x", path, sha256.Sum256(src))
	modulesMu.Lock()
	g, ok := modules[key]
	modulesMu.Unlock()
	if ok {
		return g, nil
	}
	th, release := sandbox.NewThread(context.Background(), "load "+path, sandbox.Limits{MaxSteps: loadSteps, MaxMemory: loadMemory()})
	defer release()
	// game() is predeclared, as in game files and notebook cells: one
	// dialect, so that a file of games and rules loads as either.
	g, err = sandbox.ExecFile(th, path, src, stargame.Predeclared())
	if err != nil {
		return nil, err
	}
	modulesMu.Lock()
	if len(modules) >= 64 {
		clear(modules)
	}
	modules[key] = g
	modulesMu.Unlock()
	return g, nil
}

// protected holds the files load gave atomicfile.Protect.
var protected sync.Map

func protectOnce(path string) {
	if _, loaded := protected.LoadOrStore(path, true); !loaded {
		atomicfile.Protect(path)
	}
}

// loadMemory is the memory limit of a rule file's top-level code: the
// lowest of the process's watchdogs, else CallMemory above what is in use.
func loadMemory() int64 { return threadMemory(CallMemory) }
