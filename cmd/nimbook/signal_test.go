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
	// A rule of a few million steps a heap, for the misère analyses that
	// call it (issue 29: the genus ignored SIGINT for 57 s).
	slow := "def take(n):\n    x = 0\n    for i in range(3000000):\n        x += i\n    return [[n - k] for k in range(1, n + 1)]\n"
	ruleJob := func(show string) string {
		return "sections:\n  - game: {rule: {file: slow.star, name: take, upto: 40, play: misere}}\n    show: [" + show + "]\n"
	}
	tests := []struct {
		name  string
		args  []string
		sig   syscall.Signal
		code  int
		msg   string            // in standard error; for play, in standard output
		files map[string]string // besides nb.md
	}{
		{name: "rule's genus, Ctrl-C", args: []string{"run", "job.yaml", "-o", "out.json", "--quiet"}, sig: syscall.SIGINT, code: 130, msg: "nimbook: interrupted", files: map[string]string{"slow.star": slow, "job.yaml": ruleJob("genus")}},
		{name: "rule's quotient, Ctrl-C", args: []string{"run", "job.yaml", "-o", "out.json", "--quiet"}, sig: syscall.SIGINT, code: 130, msg: "nimbook: interrupted", files: map[string]string{"slow.star": slow, "job.yaml": ruleJob("quotient")}},
		{name: "rule's misère outcome, Ctrl-C", args: []string{"run", "job.yaml", "-o", "out.json", "--quiet"}, sig: syscall.SIGINT, code: 130, msg: "nimbook: interrupted", files: map[string]string{"slow.star": slow, "job.yaml": "sections:\n  - game: {rule: {file: slow.star, name: take, position: [30, 31, 32], play: misere}}\n    show: [outcome]\n"}},
		{name: "cell's rule genus, Ctrl-C", args: []string{"eval", "rule(file=\"slow.star\", name=\"take\").genus(40)"}, sig: syscall.SIGINT, code: 130, msg: "nimbook: interrupted", files: map[string]string{"slow.star": slow}},
		{name: "cell's lambda quotient, Ctrl-C", args: []string{"eval", "def take(n):\n    x = 0\n    for i in range(3000000):\n        x += i\n    return [[n - k] for k in range(1, n + 1)]\nrule(take).quotient(40)"}, sig: syscall.SIGINT, code: 130, msg: "nimbook: interrupted"},
		{name: "play waiting for a move, Ctrl-C", args: []string{"play", "nim", "--save", "game.yaml"}, sig: syscall.SIGINT, code: 130, msg: "Interrupted."},
		{name: "play, SIGTERM", args: []string{"play", "wythoff"}, sig: syscall.SIGTERM, code: 143, msg: "Interrupted."},
		{name: "eval, Ctrl-C", args: []string{"eval", "--max-steps", "100000000000", long}, sig: syscall.SIGINT, code: 130, msg: "nimbook: interrupted"},
		{name: "eval, SIGTERM", args: []string{"eval", "--max-steps", "100000000000", long}, sig: syscall.SIGTERM, code: 143, msg: "nimbook: terminated"},
		{name: "run to a file, Ctrl-C", args: []string{"run", "nb.md", "-o", "out.html", "--quiet", "--max-steps", "100000000000"}, sig: syscall.SIGINT, code: 130, msg: "nimbook: interrupted"},
		{name: "run to a file, SIGTERM", args: []string{"run", "nb.md", "-o", "out.html", "--quiet", "--max-steps", "100000000000"}, sig: syscall.SIGTERM, code: 143, msg: "nimbook: terminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "nb.md"), []byte("# Long\n\n```nimbook\n"+long+"\n```\n"), 0o644)
			for name, text := range tt.files {
				os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
			}
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
			if es, _ := os.ReadDir(dir); len(es) != 1+len(tt.files) {
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
