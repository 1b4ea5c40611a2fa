//go:build unix

package kernel_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/kernel"
)

// The end-to-end tests run the real Jupyter client (jupyter_client, nbclient,
// nbconvert, nbformat: Debian packages jupyter-client jupyter-core
// python3-nbclient python3-nbformat jupyter-nbconvert) against the fakekernel
// command. They skip when those tools are missing, unless NIMBOOK_E2E=1, which
// makes a missing tool a failure (CI).

const python = "/usr/bin/python3" // the system Python that has the Debian packages

// needTools skips (or fails under NIMBOOK_E2E=1) when a tool is missing.
func needTools(t *testing.T, nbconvert bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("an end-to-end test: run without -short (CI does)")
	}
	missing := func(what string, err error) {
		t.Helper()
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatalf("NIMBOOK_E2E=1 but %s is not available: %v", what, err)
		}
		t.Skipf("%s is not available (%v); set NIMBOOK_E2E=1 to make this a failure", what, err)
	}
	if out, err := exec.Command(python, "-c", "import jupyter_client, nbclient, nbformat").CombinedOutput(); err != nil {
		missing(python+" with jupyter_client, nbclient and nbformat", fmtErr(err, out))
	}
	if nbconvert {
		if out, err := exec.Command("jupyter", "nbconvert", "--version").CombinedOutput(); err != nil {
			missing("jupyter nbconvert", fmtErr(err, out))
		}
	}
}

func fmtErr(err error, out []byte) error {
	if len(out) > 0 {
		return &outErr{err, strings.TrimSpace(string(out))}
	}
	return err
}

type outErr struct {
	err error
	out string
}

func (e *outErr) Error() string { return e.err.Error() + ": " + e.out }

var (
	buildOnce sync.Once
	buildBin  string
	buildErr  error
)

// fakeKernel builds the fakekernel command once per test run.
func fakeKernel(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nimbook-kernel-e2e")
		if err != nil {
			buildErr = err
			return
		}
		buildBin = filepath.Join(dir, "fakekernel")
		if out, err := exec.Command("go", "build", "-o", buildBin, "./internal/fakekernel").CombinedOutput(); err != nil {
			buildErr = fmtErr(err, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building fakekernel: %v", buildErr)
	}
	return buildBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildBin != "" {
		os.RemoveAll(filepath.Dir(buildBin))
	}
	os.Exit(code)
}

// jupyterEnv installs the kernelspec into a fresh Jupyter home and returns the
// environment that makes Jupyter use only it.
func jupyterEnv(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	t.Setenv("JUPYTER_DATA_DIR", data)
	spec, err := kernel.Install(kernel.InstallOptions{Binary: fakeKernel(t)})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(data, "kernels", "nimbook"); spec != want {
		t.Fatalf("Install = %s, want %s", spec, want)
	}
	env := os.Environ()
	env = append(env,
		"JUPYTER_PATH="+data,
		"JUPYTER_DATA_DIR="+data,
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"),
		"IPYTHONDIR="+filepath.Join(dir, "ipython"),
		"PYTHONDONTWRITEBYTECODE=1",
	)
	return env
}

func notebook(cells ...map[string]any) []byte {
	var cs []map[string]any
	for _, c := range cells {
		cell := map[string]any{"cell_type": "code", "execution_count": nil, "metadata": map[string]any{},
			"outputs": []any{}, "source": c["source"]}
		if tags, ok := c["tags"]; ok {
			cell["metadata"] = map[string]any{"tags": tags}
		}
		cs = append(cs, cell)
	}
	cs = append(cs, map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": "# end"})
	b, _ := json.MarshalIndent(map[string]any{
		"nbformat": 4, "nbformat_minor": 4, "cells": cs,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "nimbook", "display_name": "nimbook", "language": "starlark"}},
	}, "", " ")
	return b
}

type summary struct {
	Kernel   string `json:"kernel"`
	Language string `json:"language"`
	Cells    []struct {
		ExecutionCount int `json:"execution_count"`
		Outputs        []struct {
			OutputType string   `json:"output_type"`
			Name       string   `json:"name"`
			Text       string   `json:"text"`
			MIME       []string `json:"mime"`
			Ename      string   `json:"ename"`
		} `json:"outputs"`
	} `json:"cells"`
}

func TestE2ENbconvert(t *testing.T) {
	needTools(t, true)
	env := jupyterEnv(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.ipynb")
	nb := notebook(
		map[string]any{"source": "print hello\n1+1"},
		map[string]any{"source": "html hi"},
		map[string]any{"source": "warn oops\nfail boom", "tags": []string{"raises-exception"}},
		map[string]any{"source": "cells"},
	)
	if err := os.WriteFile(in, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd := exec.Command("jupyter", "nbconvert", "--to", "notebook", "--execute", in, "--output", "out.ipynb",
		"--ExecutePreprocessor.timeout=60")
	cmd.Env, cmd.Dir = env, dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, out)
	}
	t.Logf("nbconvert of a 4-cell notebook: %v", time.Since(start))
	out, err := exec.Command(python, "testdata/validate.py", filepath.Join(dir, "out.ipynb")).CombinedOutput()
	if err != nil {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	var s summary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if s.Kernel != "nimbook" || s.Language != "fake" || len(s.Cells) != 4 {
		t.Fatalf("summary %s", out)
	}
	type o struct{ typ, detail string }
	want := [][]o{
		{{"stream", "stdout:hello\n"}, {"execute_result", "text/plain:2"}},
		{{"display_data", "text/html,text/plain:hi"}},
		{{"stream", "stderr:oops\n"}, {"error", "ValueError"}},
		{{"execute_result", "text/plain:4"}},
	}
	for i, c := range s.Cells {
		if c.ExecutionCount != i+1 {
			t.Errorf("cell %d: execution_count %d", i, c.ExecutionCount)
		}
		var got []o
		for _, out := range c.Outputs {
			d := ""
			switch out.OutputType {
			case "stream":
				d = out.Name + ":" + out.Text
			case "error":
				d = out.Ename
			default:
				d = strings.Join(out.MIME, ",") + ":" + out.Text
			}
			got = append(got, o{out.OutputType, d})
		}
		if len(got) != len(want[i]) {
			t.Errorf("cell %d outputs %q, want %q", i, got, want[i])
			continue
		}
		for j := range got {
			if got[j] != want[i][j] {
				t.Errorf("cell %d output %d = %q, want %q", i, j, got[j], want[i][j])
			}
		}
	}
}

func TestE2EInterrupt(t *testing.T) {
	needTools(t, false)
	env := jupyterEnv(t)
	cmd := exec.Command(python, "testdata/client.py", "interrupt")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.py: %v\n%s%s", err, out, stderr.Bytes())
	}
	var r struct {
		InterruptSeconds   float64  `json:"interrupt_seconds"`
		InterruptedStatus  string   `json:"interrupted_status"`
		InterruptedEname   string   `json:"interrupted_ename"`
		SIGINTEname        string   `json:"sigint_ename"`
		InputPrompt        string   `json:"input_prompt"`
		InputEcho          string   `json:"input_echo"`
		NextStatus         string   `json:"next_status"`
		NextOutputs        []string `json:"next_outputs"`
		RoundtripMS        float64  `json:"roundtrip_ms"`
		AliveAfterShutdown bool     `json:"alive_after_shutdown"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.InterruptedStatus != "error" || r.InterruptedEname != "KeyboardInterrupt" {
		t.Errorf("interrupted cell: %+v", r)
	}
	if r.SIGINTEname != "KeyboardInterrupt" {
		t.Errorf("cell after SIGINT: %+v", r)
	}
	if r.InputPrompt != "name?" || r.InputEcho != "got bob\n" {
		t.Errorf("input: %+v", r)
	}
	if r.NextStatus != "ok" || !strings.Contains(strings.Join(r.NextOutputs, ","), "execute_result") {
		t.Errorf("cell after the interrupt: %+v", r)
	}
	if r.AliveAfterShutdown {
		t.Errorf("kernel alive after shutdown")
	}
	t.Logf("interrupt took %.3f s; trivial cell round trip %.2f ms (jupyter_client execute_interactive)", r.InterruptSeconds, r.RoundtripMS)
}

// TestE2EOrphan checks that a kernel whose client dies without shutting it
// down exits by itself.
func TestE2EOrphan(t *testing.T) {
	needTools(t, false)
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	env := jupyterEnv(t)
	cmd := exec.Command(python, "testdata/client.py", "orphan")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.py: %v\n%s", err, out)
	}
	var r struct {
		PID int `json:"pid"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.PID == 0 {
		t.Fatalf("%v: %s", err, out)
	}
	deadline := time.Now().Add(60 * time.Second) // a hang guard only
	for running(r.PID) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(r.PID, syscall.SIGKILL)
			t.Fatalf("orphaned kernel %d still running", r.PID)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// running reports whether pid runs (a zombie waiting for a reaper does not).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// clientRun runs testdata/client.py in a mode and decodes its JSON into v.
func clientRun(t *testing.T, mode string, v any) {
	t.Helper()
	needTools(t, false)
	cmd := exec.Command(python, "testdata/client.py", mode)
	cmd.Env = jupyterEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.py %s: %v\n%s%s", mode, err, out, stderr.Bytes())
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestE2EAbortAfterError queues cells as Run All does: after the failing one
// the others are answered "aborted" (ipykernel's stop_on_error).
func TestE2EAbortAfterError(t *testing.T) {
	var r struct {
		Status       []string   `json:"status"`
		Outputs      [][]string `json:"outputs"`
		AfterStatus  string     `json:"after_status"`
		AfterOutputs []string   `json:"after_outputs"`
		Alive        bool       `json:"alive_after_shutdown"`
	}
	clientRun(t, "abort", &r)
	if got := strings.Join(r.Status, ","); got != "error,aborted,aborted" {
		t.Errorf("statuses %s, want error,aborted,aborted", got)
	}
	want := []string{"busy,execute_input,error,idle", "busy,idle", "busy,idle"}
	for i, o := range r.Outputs {
		if got := strings.Join(o, ","); i < len(want) && got != want[i] {
			t.Errorf("cell %d iopub %s, want %s", i, got, want[i])
		}
	}
	if r.AfterStatus != "ok" || strings.Join(r.AfterOutputs, ",") != "busy,execute_input,execute_result,idle" {
		t.Errorf("cell sent after: %s %v", r.AfterStatus, r.AfterOutputs)
	}
	if r.Alive {
		t.Errorf("kernel alive after shutdown")
	}
}

// TestE2ECommOpen opens a comm as ipywidgets does: the kernel closes it.
func TestE2ECommOpen(t *testing.T) {
	var r struct {
		IOPub []struct {
			Type    string         `json:"type"`
			Content map[string]any `json:"content"`
		} `json:"iopub"`
	}
	clientRun(t, "comm", &r)
	var types []string
	for _, m := range r.IOPub {
		types = append(types, m.Type)
	}
	if got := strings.Join(types, ","); got != "status,comm_close,status" || r.IOPub[1].Content["comm_id"] != "c-1" {
		t.Errorf("iopub %+v, want busy, comm_close of c-1, idle", r.IOPub)
	}
}

// TestE2EHugeFramesMemory sends three unsigned 1 GiB frames to a kernel
// process and reads its peak resident memory, which must stay small (zmq4
// alone allocated each frame whole: 2.1 GB).
func TestE2EHugeFramesMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc")
	}
	info, file := connectionFile(t)
	cmd := exec.Command(fakeKernel(t), "kernel", "--connection-file", file)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	c := dial(t, info)
	id := c.send("shell", "kernel_info_request", map[string]any{})
	c.reply("shell", id) // the kernel is up
	for i := range 3 {
		if err := sendHuge(zmtpDial(t, info.ShellPort), 1<<30); err == nil {
			t.Fatalf("frame %d: the kernel read a 1 GiB frame to the end", i)
		}
	}
	id = c.send("shell", "kernel_info_request", map[string]any{})
	c.reply("shell", id)
	status, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	var peakKB int
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			peakKB, _ = strconv.Atoi(strings.Fields(v)[0])
		}
	}
	if peakKB == 0 || peakKB > 100<<10 {
		t.Errorf("kernel peak resident memory %d KiB after three 1 GiB frames, want under 100 MiB", peakKB)
	}
	t.Logf("kernel peak resident memory after three 1 GiB frames: %.1f MiB", float64(peakKB)/1024)
}

// TestE2ELargeRequests sends a cell of 9 MiB through jupyter_client and,
// before its reply, a small one: the first gets an error naming the limit,
// the second runs, and complete and inspect requests of 9 MiB are answered
// too (the connection used to be dropped, and the client waited for ever).
func TestE2ELargeRequests(t *testing.T) {
	type reply struct {
		Type   string `json:"type"`
		Status string `json:"status"`
		Ename  string `json:"ename"`
		Evalue string `json:"evalue"`
	}
	var r struct {
		Status   []string   `json:"status"`
		Outputs  [][]string `json:"outputs"`
		Complete reply      `json:"complete"`
		Inspect  reply      `json:"inspect"`
		Execute  reply      `json:"execute"`
		After    struct {
			Status string `json:"status"`
		} `json:"after"`
	}
	clientRun(t, "large", &r)
	// The large cell fails, and the cell queued behind it is aborted as
	// after any failing cell (stop_on_error). On a loaded machine the
	// client may spend longer signing 9 MiB than the kernel takes to refuse
	// it and let its quiet window pass: the small request then comes later
	// than any queued one could, dated after the refusal reached the
	// client's side as far as the kernel can tell, and runs as a new one.
	if got := strings.Join(r.Status, ","); got != "error,aborted" && got != "error,ok" {
		t.Errorf("statuses %s, want error,aborted (or error,ok when the second request came late)", got)
	}
	if len(r.Outputs) == 2 && strings.Join(r.Outputs[0], ",") != "busy,error,idle" {
		t.Errorf("iopub of the large cell: %v", r.Outputs[0])
	}
	for name, rep := range map[string]reply{"complete": r.Complete, "inspect": r.Inspect, "execute": r.Execute} {
		if rep.Status != "error" || rep.Ename != "MessageTooLarge" || !strings.Contains(rep.Evalue, "limit of 8 MiB") {
			t.Errorf("%s: %+v, want an error naming the limit of 8 MiB", name, rep)
		}
	}
	if r.Complete.Type != "complete_reply" || r.Inspect.Type != "inspect_reply" {
		t.Errorf("reply types %s, %s", r.Complete.Type, r.Inspect.Type)
	}
	if r.After.Status != "ok" {
		t.Errorf("a cell after: %s", r.After.Status)
	}
}

// TestE2EHistory asks for the cells run through jupyter_client's history().
func TestE2EHistory(t *testing.T) {
	var r struct {
		Tail   []any `json:"tail"`
		Range  []any `json:"range"`
		Search []any `json:"search"`
	}
	clientRun(t, "history", &r)
	got, _ := json.Marshal(r)
	want := `{"tail":[[1,3,"fail boom"],[1,4,"40+2"]],"range":[[1,1,"1+1"],[1,2,"print hi"]],"search":[[1,1,["1+1","2"]],[1,4,["40+2","42"]]]}`
	if string(got) != want {
		t.Errorf("history %s\nwant    %s", got, want)
	}
}

// TestE2EQuietStderr runs a notebook through nbconvert and a session
// through jupyter_client: the kernel writes nothing on standard error,
// unless NIMBOOK_KERNEL_DEBUG=1 asks for its log.
func TestE2EQuietStderr(t *testing.T) {
	needTools(t, true)
	for _, debug := range []bool{false, true} {
		t.Run(fmt.Sprintf("debug=%v", debug), func(t *testing.T) {
			env := jupyterEnv(t)
			if debug {
				env = append(env, kernel.DebugEnv+"=1")
			}
			dir := t.TempDir()
			in := filepath.Join(dir, "in.ipynb")
			if err := os.WriteFile(in, notebook(map[string]any{"source": "print hello\n1+1"}), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("jupyter", "nbconvert", "--to", "notebook", "--execute", in, "--output", "out.ipynb")
			cmd.Env, cmd.Dir = env, dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("nbconvert: %v\n%s", err, stderr.Bytes())
			}
			cmd = exec.Command(python, "testdata/client.py", "abort")
			cmd.Env = env
			cmd.Stderr = &stderr
			if out, err := cmd.Output(); err != nil {
				t.Fatalf("client.py: %v\n%s%s", err, out, stderr.Bytes())
			}
			logged := strings.Contains(stderr.String(), "kernel: ")
			if logged != debug {
				t.Errorf("standard error:\n%s\nwant the kernel's log: %v", stderr.Bytes(), debug)
			}
			if debug && !strings.Contains(stderr.String(), "listening: transport") {
				t.Errorf("the debug log has no listening line:\n%s", stderr.Bytes())
			}
		})
	}
}
