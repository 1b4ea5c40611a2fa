package main

import (
	"os/exec"
	"testing"
	"time"
)

// hangGuard bounds the waits of the tests on a child process: it only
// guards against a hang, so it is generous enough for a machine loaded many
// times over. What a test measures is processor time or an event, never
// this.
const hangGuard = 2 * time.Minute

// waitBusy waits until the process of cmd, started, has spent busy of
// processor time (its work is under way, however loaded the machine; half
// a second on the clock where that is unknown). done receives the end of
// cmd.Wait: when the process ends first, waitBusy fails the test with its
// standard error.
func waitBusy(t *testing.T, cmd *exec.Cmd, busy time.Duration, done <-chan error, stderr func() string) {
	t.Helper()
	if _, ok := procCPU(cmd.Process.Pid); !ok {
		select {
		case err := <-done:
			t.Fatalf("finished before the signal (%v):\n%s", err, stderr())
		case <-time.After(500 * time.Millisecond):
		}
		return
	}
	guard := time.After(hangGuard)
	for {
		if cpu, _ := procCPU(cmd.Process.Pid); cpu >= busy {
			return
		}
		select {
		case err := <-done:
			t.Fatalf("finished before the signal (%v):\n%s", err, stderr())
		case <-guard:
			t.Fatalf("%v of processor time in %v: the work never started", busy, hangGuard)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// cpuAfter is the processor time the process of cmd, ended, spent after it
// had spent at, and whether it is known.
func cpuAfter(cmd *exec.Cmd, at time.Duration, known bool) (time.Duration, bool) {
	if !known || cmd.ProcessState == nil {
		return 0, false
	}
	total := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return max(0, total-at), true
}
