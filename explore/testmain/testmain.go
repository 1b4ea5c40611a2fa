// Package testmain runs the tests of packages whose tests take minutes, so
// that they hold on a busy machine.
//
// go test stops a test binary after ten minutes however many times -count
// repeats it, and a machine at a load of 10 or 20 runs a package's tests
// five to ten times slower than an idle one: `go test -count=3 ./...` of
// two copies at once passed every test of cmd/nimbook and explore/heap
// and still failed them on that alarm. When the timeout is go test's
// default, Run raises it to 30 minutes per count; a timeout given on the
// command line (-timeout) is kept.
package testmain

import (
	"flag"
	"os"
	"strconv"
	"testing"
	"time"
)

// goTestDefault is the -timeout go test passes when none is given.
const goTestDefault = 10 * time.Minute

// PerCount is the timeout Run allows for each count of a package's tests.
const PerCount = 30 * time.Minute

// Run parses the test flags, stretches go test's default timeout, runs the
// tests and returns their exit code, for TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testmain.Run(m)) }
func Run(m *testing.M) int {
	if !flag.Parsed() {
		flag.Parse()
	}
	stretch(flag.CommandLine)
	return m.Run()
}

// stretch raises the test.timeout flag of fs from go test's default to
// PerCount times test.count.
func stretch(fs *flag.FlagSet) {
	timeout := fs.Lookup("test.timeout")
	if timeout == nil {
		return
	}
	d, err := time.ParseDuration(timeout.Value.String())
	if err != nil || d != goTestDefault {
		return
	}
	count := 1
	if c := fs.Lookup("test.count"); c != nil {
		if n, err := strconv.Atoi(c.Value.String()); err == nil && n > 1 {
			count = n
		}
	}
	if err := timeout.Value.Set((PerCount * time.Duration(count)).String()); err != nil {
		// The flag is testing's own duration flag: it takes any duration.
		os.Exit(2)
	}
}
