package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tmux is a tmux server of the test's own (its own socket) and the
// nimbook binary built for it.
type Tmux struct {
	Dir, Bin string
	TM       func(args ...string) string
	Cmd      string // the tmux command, and its socket, for has-session
	Sock     string
}

// NewTmux builds nimbook and starts nothing yet: sessions are made with
// tm("new-session", ...). Without tmux the test is skipped, unless
// NIMBOOK_E2E=1 asks for it.
func NewTmux(t *testing.T) *Tmux {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatal("NIMBOOK_E2E=1 but tmux is not installed")
		}
		t.Skip("tmux is not installed (apt-get install tmux)")
	}
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := Binary(t)
	sock := filepath.Join(dir, "tmux.sock")
	tm := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	return &Tmux{Dir: dir, Bin: bin, TM: tm, Cmd: tmux, Sock: sock}
}

// WaitGoneOr waits until session has ended (its command exited) or its
// pane shows want.
func (tx *Tmux) WaitGoneOr(t *testing.T, session, want string) {
	t.Helper()
	for deadline := time.Now().Add(TmuxWait); ; time.Sleep(50 * time.Millisecond) {
		if exec.Command(tx.Cmd, "-S", tx.Sock, "has-session", "-t", session).Run() != nil {
			return
		}
		out, err := exec.Command(tx.Cmd, "-S", tx.Sock, "capture-pane", "-p", "-J", "-t", session, "-S", "-50").Output()
		if err == nil && strings.Contains(string(out), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s still running after %v, without %q:\n%s", session, TmuxWait, want, out)
		}
	}
}

// TmuxWait bounds every wait for the screen: a hang guard only, generous
// enough for a machine loaded many times over.
const TmuxWait = time.Minute

// Screen waits until the pane of session shows want and returns the pane.
func (tx *Tmux) Screen(t *testing.T, session, want string) string {
	t.Helper()
	var s string
	for deadline := time.Now().Add(TmuxWait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		s = tx.TM("capture-pane", "-p", "-J", "-t", session, "-S", "-2000")
		if strings.Contains(s, want) {
			return s
		}
	}
	t.Fatalf("the screen never showed %q:\n%s", want, s)
	return s
}

// WaitCount waits until the pane of session shows want n times.
func (tx *Tmux) WaitCount(t *testing.T, session, want string, n int) {
	t.Helper()
	var s string
	for deadline := time.Now().Add(TmuxWait); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s = tx.TM("capture-pane", "-p", "-J", "-t", session, "-S", "-5000")
		if strings.Count(s, want) >= n {
			return
		}
	}
	t.Fatalf("the screen never showed %q %d times:\n%s", want, n, s)
}
