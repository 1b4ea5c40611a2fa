package starrule

import "github.com/nimbook/nimbook/explore/stargame"

// Ext is the extension every Starlark file nimbook reads must have
// (stargame.Ext).
const Ext = stargame.Ext

// MaxSourceSize bounds a Starlark file (stargame.MaxSourceSize).
const MaxSourceSize = stargame.MaxSourceSize

// ReadSource reads the Starlark file at path, the one way every loader of
// nimbook reads one: stargame.ReadSource, where game files are loaded
// too (this package builds on it).
func ReadSource(path, root string) ([]byte, error) { return stargame.ReadSource(path, root) }

// Resolve is the path ReadSource(path, root) reads (stargame.Resolve).
func Resolve(path, root string) string { return stargame.Resolve(path, root) }
