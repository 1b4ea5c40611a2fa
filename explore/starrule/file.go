package starrule

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"sync"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/sandbox"
	"github.com/nimbook/nimbook/explore/stargame"
)

// maxFileSize bounds a rule file: rules are a few functions.
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
// earlier run of the same content.
func load(path string) (starlark.StringDict, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	}
	if info.Size() > maxFileSize {
		return nil, fmt.Errorf("%s: %d bytes is more than the %d a rule file may have", path, info.Size(), maxFileSize)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	}
	key := fmt.Sprintf("%s\x00%x", path, sha256.Sum256(src))
	modulesMu.Lock()
	g, ok := modules[key]
	modulesMu.Unlock()
	if ok {
		return g, nil
	}
	th, release := sandbox.NewThread(context.Background(), "load "+path, sandbox.Limits{MaxSteps: loadSteps, MaxMemory: budget.InUse() + CallMemory})
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
