package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestExitStatus builds the command and checks SPEC.md's exit statuses:
// 0 on success, 1 for wrong input or refused work, 2 for bad usage.
func TestExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "nimbook")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"success", []string{"nim", "mul", "2", "3"}, 0},
		{"usage", []string{"run"}, 2},
		{"unknown command", []string{"frob"}, 2},
		{"missing file", []string{"run", "no-such-job.yaml"}, 1},
		{"refused", []string{"run", example("wythoff.yaml"), "--max-positions", "10"}, 1},
		{"inverse of zero", []string{"nim", "inv", "0"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := exec.Command(bin, tt.args...).Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
		})
	}
}
