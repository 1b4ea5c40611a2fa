package starrule

import (
	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/stargame"
)

// load runs the rule file at path, or returns its globals from an
// earlier run of the same content (stargame.LoadFile, the one loader of
// Starlark files: game() is predeclared, as in game files and notebook
// cells, one dialect; the file is read by ReadSource and protected from
// the process's outputs); its top-level code runs within the memory limit
// of the process's watchdogs (budget.Lowest), or CallMemory above what is
// in use when none runs.
func load(path, root string) (starlark.StringDict, error) {
	return stargame.LoadFile(path, root, loadMemory())
}

// loadMemory is the memory limit of a rule file's top-level code: the
// lowest of the process's watchdogs, else CallMemory above what is in use.
func loadMemory() int64 { return threadMemory(CallMemory) }
