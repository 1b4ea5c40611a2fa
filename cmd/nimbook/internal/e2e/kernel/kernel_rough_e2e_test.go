//go:build unix

package kernel

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// TestE2EKernelRoughEdges drives the nimbook kernel with jupyter_client
// through what issues 21 and 22 found: a list nested 400 000 deep shown at
// once and an interrupt_request answered at once while str() writes it; a
// cell of 9 MiB answered with an error naming the limit; is_complete of a
// block ending in a line of blanks; %time, %%time, %who, %limits; the
// history; and nothing on standard error.
func TestE2EKernelRoughEdges(t *testing.T) {
	e2e.NeedJupyter(t, false)
	cmd := exec.Command(e2e.SystemPython, "testdata/kernelrough.py")
	cmd.Env = e2e.JupyterHome(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kernelrough.py: %v\n%s%s", err, out, stderr.Bytes())
	}
	var r struct {
		DeepShowSeconds       float64           `json:"deep_show_seconds"`
		DeepShowCPU           *float64          `json:"deep_show_cpu"`
		InterruptStopCPU      *float64          `json:"interrupt_stop_cpu"`
		DeepStatus            string            `json:"deep_status"`
		DeepText              string            `json:"deep_text"`
		InterruptReplySeconds float64           `json:"interrupt_reply_seconds"`
		InterruptStopSeconds  float64           `json:"interrupt_stop_seconds"`
		InterruptedEname      string            `json:"interrupted_ename"`
		LargeStatus           string            `json:"large_status"`
		LargeEname            string            `json:"large_ename"`
		LargeEvalue           string            `json:"large_evalue"`
		AfterLarge            string            `json:"after_large"`
		IsComplete            map[string]string `json:"is_complete"`
		TimeOut               string            `json:"time_out"`
		TimeResult            string            `json:"time_result"`
		CellTimeOut           string            `json:"cell_time_out"`
		WhoOut                string            `json:"who_out"`
		WhoIntOut             string            `json:"who_int_out"`
		LimitsOut             string            `json:"limits_out"`
		HistoryTail           [][]any           `json:"history_tail"`
		HistorySearch         [][]any           `json:"history_search"`
		Alive                 bool              `json:"alive_after_shutdown"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := strings.Repeat("[", 100) + "[…]" + strings.Repeat("]", 100)
	if r.DeepStatus != "ok" || r.DeepText != want {
		t.Errorf("the deep list: %s, %.60q…", r.DeepStatus, r.DeepText)
	}
	// The interrupt used to wait 15 s, the display minutes. Counted in the
	// kernel's work, its processor time, which a loaded machine does not
	// stretch as it does the clock's time (kernelrough.py's timeouts guard
	// against a hang).
	if c := r.DeepShowCPU; c != nil && *c > 10 {
		t.Errorf("deep list shown in %.2f s of processor time", *c)
	}
	if c := r.InterruptStopCPU; c != nil && *c > 10 {
		t.Errorf("the cell stopped %.2f s of processor time after the interrupt_request", *c)
	}
	if r.InterruptedEname != "Interrupted" && r.InterruptedEname != "KeyboardInterrupt" {
		t.Errorf("the interrupted cell: %q", r.InterruptedEname)
	}
	if r.LargeStatus != "error" || r.LargeEname != "MessageTooLarge" || !strings.Contains(r.LargeEvalue, "limit of 8 MiB") || r.AfterLarge != "2" {
		t.Errorf("a cell of 9 MiB: %s %s %q; then 1+1 = %q", r.LargeStatus, r.LargeEname, r.LargeEvalue, r.AfterLarge)
	}
	for code, status := range map[string]string{
		"def f(n):\n    return n + 1\n    ":     "complete",
		"def f(n):\n    return n + 1":           "incomplete",
		"%time nim_mul(2, 3)":                   "complete",
		"%%time\nfor i in range(3):\n    y = i": "incomplete",
	} {
		if got := r.IsComplete[code]; got != status {
			t.Errorf("is_complete(%q) = %q, want %q", code, got, status)
		}
	}
	if !strings.HasPrefix(r.TimeOut, "CPU times: user ") || !strings.Contains(r.TimeOut, "\nWall time: ") || r.TimeResult != "1" {
		t.Errorf("%%time nim_mul(2, 3): stdout %q, result %q", r.TimeOut, r.TimeResult)
	}
	if !strings.HasPrefix(r.CellTimeOut, "45\nCPU times: user ") || !strings.Contains(r.CellTimeOut, "\nWall time: ") {
		t.Errorf("%%%%time: stdout %q", r.CellTimeOut)
	}
	// s is there if the interrupted loop finished a str() before the
	// interrupt.
	who := strings.Replace(r.WhoOut, "\ts\t", "\t", 1)
	if who != "a\tb\ti\tx\tz\n" || r.WhoIntOut != "a\ti\tz\n" {
		t.Errorf("%%who: %q; %%who int: %q", r.WhoOut, r.WhoIntOut)
	}
	if !strings.Contains(r.LimitsOut, "steps ") || !strings.Contains(r.LimitsOut, "--max-memory") {
		t.Errorf("%%limits: %q", r.LimitsOut)
	}
	var tail []string
	for _, h := range r.HistoryTail {
		tail = append(tail, h[2].(string))
	}
	if !slices.Equal(tail, []string{"%who", "%who int", "%limits"}) {
		t.Errorf("history tail %q", tail)
	}
	if len(r.HistorySearch) != 2 {
		t.Errorf("history search %%who*: %v", r.HistorySearch)
	}
	if r.Alive {
		t.Error("kernel alive after shutdown")
	}
	if strings.Contains(stderr.String(), "kernel: ") {
		t.Errorf("the kernel wrote on standard error:\n%s", stderr.Bytes())
	}
	t.Logf("deep list shown in %.3f s (%s of processor time); interrupt_request replied in %.3f s, the cell stopped in %.3f s (%s of processor time)",
		r.DeepShowSeconds, e2e.Seconds(r.DeepShowCPU), r.InterruptReplySeconds, r.InterruptStopSeconds, e2e.Seconds(r.InterruptStopCPU))
}

// TestE2EKernelConsole types into jupyter console (Debian's
// jupyter-console) in a terminal: a function whose body ends with Enter on
// the line of blanks the console offers runs (is_complete says complete),
// the magics work, and the kernel writes nothing on standard error.
func TestE2EKernelConsole(t *testing.T) {
	e2e.NeedJupyter(t, false)
	if out, err := exec.Command("jupyter", "console", "--version").CombinedOutput(); err != nil {
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatalf("NIMBOOK_E2E=1 but jupyter console is not available: %v %s", err, out)
		}
		t.Skipf("jupyter console is not available (apt-get install jupyter-console): %v", err)
	}
	tx := e2e.NewTmux(t)
	var env []string
	for _, kv := range e2e.JupyterHome(t) {
		if strings.HasPrefix(kv, "JUPYTER_") || strings.HasPrefix(kv, "IPYTHONDIR=") {
			env = append(env, "'"+kv+"'")
		}
	}
	stderr := filepath.Join(tx.Dir, "stderr")
	tx.TM("new-session", "-d", "-s", "c", "-x", "150", "-y", "50",
		"env "+strings.Join(env, " ")+" jupyter console --kernel nimbook 2>"+stderr)
	tx.Screen(t, "c", "In [1]:")
	// The console asks is_complete at each Enter: the next line is typed
	// once it has answered with a continuation prompt.
	for i, keys := range [][]string{{"def f(n):", "Enter"}, {"return n + 1", "Enter"}} {
		tx.TM(append([]string{"send-keys", "-t", "c"}, keys...)...)
		tx.WaitCount(t, "c", "...:", i+1)
	}
	tx.TM("send-keys", "-t", "c", "Enter")
	tx.Screen(t, "c", "In [2]:")
	tx.TM("send-keys", "-t", "c", "f(1)", "Enter")
	tx.Screen(t, "c", "Out[2]: 2")
	// Keys typed before the next prompt shows race prompt_toolkit's
	// redraw on a loaded machine ("Unhandled exception in event loop …
	// generator already executing"): each line waits for its prompt.
	tx.Screen(t, "c", "In [3]:")
	tx.TM("send-keys", "-t", "c", "%time nim_mul(2, 3)", "Enter")
	tx.Screen(t, "c", "Out[3]: 1")
	tx.Screen(t, "c", "In [4]:")
	tx.TM("send-keys", "-t", "c", "%who", "Enter")
	s := tx.Screen(t, "c", "In [5]:")
	// The console may draw its next prompt before the output of %who
	// reaches it (a loaded machine): the output is awaited on its own.
	who := regexp.MustCompile(`(?m)^f\s*$`)
	for deadline := time.Now().Add(e2e.TmuxWait); !who.MatchString(s) && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		s = tx.TM("capture-pane", "-p", "-J", "-t", "c", "-S", "-2000")
	}
	if !strings.Contains(s, "Wall time: ") || !who.MatchString(s) {
		t.Errorf("%%time and %%who in the console:\n%s", s)
	}
	tx.TM("send-keys", "-t", "c", "exit", "Enter")
	// On a loaded machine the console may still ask whether to exit;
	// answer it, then wait for the console and the kernel it shut down.
	for range 20 {
		if exec.Command(tx.Cmd, "-S", tx.Sock, "has-session", "-t", "c").Run() != nil {
			break
		}
		if out, _ := exec.Command(tx.Cmd, "-S", tx.Sock, "capture-pane", "-p", "-t", "c").Output(); strings.Contains(string(out), "(y/n)") || strings.Contains(string(out), "[y]/n") {
			tx.TM("send-keys", "-t", "c", "y", "Enter")
		}
		time.Sleep(500 * time.Millisecond)
	}
	// The kernel has answered: the console ends, or (when the answer
	// comes once it has shown its next prompt, as a loaded machine makes
	// likely) it waits at that prompt.
	tx.WaitGoneOr(t, "c", "In [6]:")
	if b, err := os.ReadFile(stderr); err != nil || strings.Contains(string(b), "kernel: ") {
		t.Errorf("standard error of the console and kernel (%v):\n%s", err, b)
	}
}
