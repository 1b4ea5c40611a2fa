package cref

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// Flags are the compiler flags: -O2 for the baseline instruction set, no
// -march=native, as the Go compiler targets baseline amd64 (GOAMD64=v1).
var Flags = []string{"-O2"}

// Program is a compiled C reference, or the reason there is none.
type Program struct {
	path    string
	missing string // why there is no program
}

// Build compiles the C source src (a path) with cc and Flags, once for a
// benchmark and its sub-benchmarks, into a temporary directory of b. With
// no C compiler installed it returns a Program whose Run skips: the
// reference is then not measured, which is no failure of the Go code.
func Build(b *testing.B, src string) *Program {
	b.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		return &Program{missing: "no C compiler (cc) on PATH: the C reference " + filepath.Base(src) + " is not measured"}
	}
	bin := filepath.Join(b.TempDir(), "cref")
	args := append(append([]string{}, Flags...), "-o", bin, src)
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		b.Fatalf("cc %s: %v\n%s", src, err, out)
	}
	return &Program{path: bin}
}

// Run runs the program with args and returns its standard output. It
// skips b when the program could not be built, and fails b when the
// program exits with an error.
func (p *Program) Run(b *testing.B, args ...string) []byte {
	b.Helper()
	if p.missing != "" {
		b.Skip(p.missing)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(p.path, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("C reference %v: %v\n%s", args, err, stderr.Bytes())
	}
	return stdout.Bytes()
}
