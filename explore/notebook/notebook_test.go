package notebook

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/nbformat"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update if the change is right):\n%s", name, got)
	}
}

func TestRunNotebooks(t *testing.T) {
	tests := []struct {
		in, out     string
		allowErrors bool
		wantErr     string
	}{
		{"intro.ipynb", "intro.out.ipynb", false, ""},
		{"handout.md", "handout.out.ipynb", true, ""},
		{"handout.md", "handout.stop.ipynb", false, "name undefined_name is not defined"},
	}
	for _, tc := range tests {
		t.Run(tc.out, func(t *testing.T) {
			nb, err := nbformat.ReadFile(filepath.Join("testdata", tc.in))
			if err != nil {
				t.Fatal(err)
			}
			s := newSession(t)
			err = s.Run(context.Background(), nb, RunOptions{AllowErrors: tc.allowErrors})
			if tc.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != "" {
				var re *RunError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want a RunError with %q", err, tc.wantErr)
				}
			}
			var buf bytes.Buffer
			if err := nb.WriteIPYNB(&buf); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.out, buf.Bytes())

			// Reading the executed notebook back and writing it again
			// gives the same bytes.
			again, err := nbformat.ReadIPYNB(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			var buf2 bytes.Buffer
			if err := again.WriteIPYNB(&buf2); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
				t.Error("read and write again changed the notebook")
			}
		})
	}
}

// TestValidate checks the golden notebooks with nbformat itself, when the
// Debian package is installed.
func TestValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		t.Skip("nbformat is not installed (apt-get install python3-nbformat)")
	}
	for _, name := range []string{"intro.out.ipynb", "handout.out.ipynb", "handout.stop.ipynb"} {
		script := "import nbformat, sys\nnb = nbformat.read(sys.argv[1], as_version=4)\nnbformat.validate(nb)\n" +
			"assert nb.nbformat_minor == 5\nassert nb.metadata.kernelspec.name == 'nimbook'\n"
		out, err := exec.Command(py, "-c", script, filepath.Join("testdata", name)).CombinedOutput()
		if err != nil {
			t.Errorf("%s: nbformat.validate: %v\n%s", name, err, out)
		}
	}
}
