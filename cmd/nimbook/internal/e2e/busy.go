package e2e

import (
	"os/exec"
	"testing"
	"time"
)

// HangGuard bounds the waits of the tests on a child process: it only
// guards against a hang, so it is generous enough for a machine loaded many
// times over. What a test measures is processor time or an event, never
// this.
const HangGuard = 2 * time.Minute

// WaitBusy waits until the process of cmd, started, has spent busy of
// processor time (its work is under way, however loaded the machine; half
// a second on the clock where that is unknown). done receives the end of
// cmd.Wait: when the process ends first, WaitBusy fails the test with its
// standard error.
func WaitBusy(t *testing.T, cmd *exec.Cmd, busy time.Duration, done <-chan error, stderr func() string) {
	t.Helper()
	if _, ok := ProcCPU(cmd.Process.Pid); !ok {
		select {
		case err := <-done:
			t.Fatalf("finished before the signal (%v):\n%s", err, stderr())
		case <-time.After(500 * time.Millisecond):
		}
		return
	}
	guard := time.After(HangGuard)
	for {
		if cpu, _ := ProcCPU(cmd.Process.Pid); cpu >= busy {
			return
		}
		select {
		case err := <-done:
			t.Fatalf("finished before the signal (%v):\n%s", err, stderr())
		case <-guard:
			t.Fatalf("%v of processor time in %v: the work never started", busy, HangGuard)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// CPUAfter is the processor time the process of cmd, ended, spent after it
// had spent at, and whether it is known.
func CPUAfter(cmd *exec.Cmd, at time.Duration, known bool) (time.Duration, bool) {
	if !known || cmd.ProcessState == nil {
		return 0, false
	}
	total := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return max(0, total-at), true
}
