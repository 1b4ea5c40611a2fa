package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// SystemPython is the Python that has Debian's Jupyter packages.
const SystemPython = "/usr/bin/python3"

// Package is the import path of the command.
const Package = "github.com/nimbook/nimbook/cmd/nimbook"

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// Binary builds the command once per test binary, outside any `go run`
// temporary directory (kernel install refuses those), and returns its path.
// Main removes it when the tests end.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nimbook-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "nimbook")
		if out, err := exec.Command("go", "build", "-o", binary, Package).CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building nimbook: %v", buildErr)
	}
	return binary
}

// Main runs the tests and removes the command Binary built.
func Main(m *testing.M) {
	code := m.Run()
	if binary != "" {
		os.RemoveAll(filepath.Dir(binary))
	}
	os.Exit(code)
}

// Run runs the command with args and no standard input, and returns its
// standard output and error; err is non-nil when it did not exit 0.
func Run(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(Binary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if err != nil {
		err = fmt.Errorf("nimbook %s: %w: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), errb.String(), err
}

// Missing skips the test because what is not available, or fails it under
// NIMBOOK_E2E=1.
func Missing(t testing.TB, what string, out []byte, err error) {
	t.Helper()
	msg := strings.TrimSpace(string(out))
	if os.Getenv("NIMBOOK_E2E") == "1" {
		t.Fatalf("NIMBOOK_E2E=1 but %s is not available: %v %s", what, err, msg)
	}
	t.Skipf("%s is not available (%v %s); set NIMBOOK_E2E=1 to make this a failure", what, err, msg)
}

// NeedJupyter skips the test in short mode, and when Debian's Jupyter
// client (and nbconvert, if asked) is missing.
func NeedJupyter(t testing.TB, nbconvert bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test")
	}
	if out, err := exec.Command(SystemPython, "-c", "import jupyter_client, nbclient, nbformat").CombinedOutput(); err != nil {
		Missing(t, SystemPython+" with jupyter_client, nbclient and nbformat", out, err)
	}
	if nbconvert {
		if out, err := exec.Command("jupyter", "nbconvert", "--version").CombinedOutput(); err != nil {
			Missing(t, "jupyter nbconvert", out, err)
		}
	}
}

// JupyterHome installs the kernelspec with `nimbook kernel install
// --prefix` into a fresh directory and returns the environment that makes
// Jupyter see only it.
func JupyterHome(t testing.TB) []string {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	if out, err := exec.Command(bin, "kernel", "install", "--prefix", dir).CombinedOutput(); err != nil {
		t.Fatalf("kernel install: %v\n%s", err, out)
	}
	spec, err := os.ReadFile(filepath.Join(dir, "share", "jupyter", "kernels", "nimbook", "kernel.json"))
	if err != nil || !bytes.Contains(spec, []byte(bin)) {
		t.Fatalf("kernel.json: %v\n%s", err, spec)
	}
	return append(os.Environ(),
		"JUPYTER_PATH="+filepath.Join(dir, "share", "jupyter"),
		"JUPYTER_DATA_DIR="+filepath.Join(dir, "data"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"),
		"IPYTHONDIR="+filepath.Join(dir, "ipython"),
		"PYTHONDONTWRITEBYTECODE=1",
	)
}

// Example is the path of an example file, named from examples/, seen from a
// package dirs levels below the module's root.
func Example(dirs int, name string) string {
	parts := make([]string, 0, dirs+2)
	for range dirs {
		parts = append(parts, "..")
	}
	return filepath.Join(append(parts, "examples", name)...)
}

// Seconds writes a time in seconds a Python client may not know.
func Seconds(s *float64) string {
	if s == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.2f s", *s)
}

// LockedBuffer is a buffer that a child's output and a test may use at
// once.
type LockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// CopyFile copies a file, failing the test on any error.
func CopyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, b, 0o644)
	}
	if err != nil {
		t.Fatal(errors.Join(errors.New("copying "+from), err))
	}
}
