// Package version says which build of nimbook is running, from the build
// information the Go toolchain records in the binary: the module version
// when nimbook was installed with go install, else the commit it was built
// from. The kernel reports it to Jupyter, surveys store it beside each
// result, and `nimbook version` prints it.
package version

import (
	"runtime/debug"
	"strings"
)

// String returns the version: "1.2.3" for a released module,
// "devel+0123456789ab" for a build from a commit (with "-dirty" when the
// tree had local changes), or "devel" when no commit is recorded.
func String() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromBuildInfo(bi)
}

// GoVersion returns the version of Go the binary was built with.
func GoVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.GoVersion
	}
	return "unknown Go"
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel+" + rev[:min(12, len(rev))]
	if dirty {
		v += "-dirty"
	}
	return v
}
