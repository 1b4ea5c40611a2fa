//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// Ctrl-C and SIGTERM stop the work within a second (of work: processor
// time), say so in a word,
// exit 128 + the signal's number and leave no file behind.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := e2e.Binary(t)
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
			var stdout, stderr e2e.LockedBuffer
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
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// The work has started: a game asks for a move, a cell has
			// spent 300 ms of processor time.
			if tt.args[0] == "play" {
				waitOutput(t, &stdout, "> ", done)
			} else {
				e2e.WaitBusy(t, cmd, 300*time.Millisecond, done, stderr.String)
			}
			at, known := e2e.ProcCPU(cmd.Process.Pid)
			cmd.Process.Signal(tt.sig)
			sent := time.Now()
			select {
			case err = <-done:
			case <-time.After(e2e.HangGuard):
				cmd.Process.Kill()
				t.Fatalf("still running %v after the signal", e2e.HangGuard)
			}
			// A second is the promise, in the work done after the signal
			// (processor time, which a loaded machine does not stretch as
			// it does the clock's).
			after, ok := e2e.CPUAfter(cmd, at, known)
			if ok && after > time.Second {
				t.Errorf("%v of processor time after the signal", after)
			}
			t.Logf("stopped %v after the signal, %v of processor time", time.Since(sent).Round(time.Millisecond), after)
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

// waitOutput waits until out holds want; done receives the end of the
// process, which fails the test when it comes first.
func waitOutput(t *testing.T, out *e2e.LockedBuffer, want string, done <-chan error) {
	t.Helper()
	guard := time.After(e2e.HangGuard)
	for !strings.Contains(out.String(), want) {
		select {
		case err := <-done:
			t.Fatalf("ended (%v) before writing %q:\n%s", err, want, out.String())
		case <-guard:
			t.Fatalf("no %q in %v:\n%s", want, e2e.HangGuard, out.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
}
