//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Ctrl-C and SIGTERM stop the work within a second, say so in a word,
// exit 128 + the signal's number and leave no file behind.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := nimbookBinary(t)
	long := "def f():\n    n = 0\n    for i in range(100000000000):\n        n += i\n    return n\nf()"
	tests := []struct {
		name string
		args []string
		sig  syscall.Signal
		code int
		msg  string // in standard error; for play, in standard output
	}{
		{"play waiting for a move, Ctrl-C", []string{"play", "nim", "--save", "game.yaml"}, syscall.SIGINT, 130, "Interrupted."},
		{"play, SIGTERM", []string{"play", "wythoff"}, syscall.SIGTERM, 143, "Interrupted."},
		{"eval, Ctrl-C", []string{"eval", "--max-steps", "100000000000", long}, syscall.SIGINT, 130, "nimbook: interrupted"},
		{"eval, SIGTERM", []string{"eval", "--max-steps", "100000000000", long}, syscall.SIGTERM, 143, "nimbook: terminated"},
		{"run to a file, Ctrl-C", []string{"run", "nb.md", "-o", "out.html", "--quiet", "--max-steps", "100000000000"}, syscall.SIGINT, 130, "nimbook: interrupted"},
		{"run to a file, SIGTERM", []string{"run", "nb.md", "-o", "out.html", "--quiet", "--max-steps", "100000000000"}, syscall.SIGTERM, 143, "nimbook: terminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "nb.md"), []byte("# Long\n\n```nimbook\n"+long+"\n```\n"), 0o644)
			cmd := exec.Command(bin, tt.args...)
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			// A game waits on an input that neither ends nor answers.
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond) // the work has started
			cmd.Process.Signal(tt.sig)
			sent := time.Now()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("still running 10 s after the signal")
			}
			// A second is the promise; a loaded machine gets a margin.
			if took := time.Since(sent); took > 5*time.Second {
				t.Errorf("stopped %v after the signal", took)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tt.code {
				t.Errorf("exit %v, want %d", err, tt.code)
			}
			if !strings.Contains(stdout.String()+stderr.String(), tt.msg) || strings.Contains(stderr.String(), "context canceled") {
				t.Errorf("stderr %q, want %q", stderr.String(), tt.msg)
			}
			if es, _ := os.ReadDir(dir); len(es) != 1 {
				t.Errorf("left behind: %v", es)
			}
		})
	}
}
