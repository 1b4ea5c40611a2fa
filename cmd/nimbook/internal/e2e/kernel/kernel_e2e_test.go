//go:build unix

package kernel

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// End-to-end tests: the real Jupyter client from Debian (jupyter-client,
// jupyter-nbconvert, python3-nbclient, python3-nbformat) drives the real
// nimbook kernel, built with go build and installed with `nimbook kernel
// install --prefix` into a temporary Jupyter home. They skip when the tools
// are missing, unless NIMBOOK_E2E=1 (CI), which makes that a failure.

type nbSummary struct {
	Kernel   string `json:"kernel"`
	Language string `json:"language"`
	Cells    []struct {
		Source  string `json:"source"`
		Outputs []struct {
			Type   string   `json:"type"`
			MIME   []string `json:"mime"`
			Ename  string   `json:"ename"`
			Evalue string   `json:"evalue"`
		} `json:"outputs"`
	} `json:"cells"`
}

// TestE2ENbconvert executes the example notebooks with `jupyter nbconvert
// --execute` on the nimbook kernel, validates them with nbformat and checks
// the MIME types of their outputs.
func TestE2ENbconvert(t *testing.T) {
	e2e.NeedJupyter(t, true)
	env := e2e.JupyterHome(t)
	tests := []struct {
		file string
		mime []string // every one appears in some output
		plot bool     // a .plot() cell has image/svg+xml
	}{
		{"sources.ipynb", []string{"text/markdown", "image/svg+xml", "application/json", "text/plain"}, true},
		{"new-variant.ipynb", []string{"text/markdown", "image/svg+xml", "text/plain"}, false},
		// A Markdown notebook goes through nimbook run to .ipynb first.
		{"handout.md", []string{"text/markdown", "image/svg+xml"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.ipynb")
			if strings.HasSuffix(tt.file, ".md") {
				if _, _, err := e2e.Run(t, "run", e2e.Example(5, "notebooks/"+tt.file), "-o", in, "--quiet"); err != nil {
					t.Fatal(err)
				}
			} else {
				b, err := os.ReadFile(e2e.Example(5, "notebooks/"+tt.file))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(in, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			cmd := exec.Command("jupyter", "nbconvert", "--to", "notebook", "--execute", in,
				"--output", "out.ipynb", "--ExecutePreprocessor.timeout=120")
			cmd.Env, cmd.Dir = env, dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("nbconvert: %v\n%s", err, out)
			}
			t.Logf("nbconvert --execute %s: %v", tt.file, time.Since(start).Round(time.Millisecond))
			out, err := exec.Command(e2e.SystemPython, "testdata/nbsummary.py", filepath.Join(dir, "out.ipynb")).CombinedOutput()
			if err != nil {
				t.Fatalf("nbformat.validate: %v\n%s", err, out)
			}
			var s nbSummary
			if err := json.Unmarshal(out, &s); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if s.Kernel != "nimbook" || s.Language != "starlark" || len(s.Cells) == 0 {
				t.Fatalf("kernel %q, language %q, %d cells", s.Kernel, s.Language, len(s.Cells))
			}
			seen := map[string]bool{}
			plotSVG := false
			for _, c := range s.Cells {
				for _, o := range c.Outputs {
					if o.Type == "error" {
						t.Errorf("cell %q: %s: %s", c.Source, o.Ename, o.Evalue)
					}
					for _, m := range o.MIME {
						seen[m] = true
					}
					if strings.Contains(c.Source, ".plot(") && slices.Contains(o.MIME, "image/svg+xml") {
						plotSVG = true
					}
				}
			}
			for _, m := range tt.mime {
				if !seen[m] {
					t.Errorf("no output has %s (seen %v)", m, seen)
				}
			}
			if tt.plot && !plotSVG {
				t.Error("no plot cell has image/svg+xml")
			}
		})
	}
}

// TestE2EInterrupt interrupts `while True: pass` through jupyter_client,
// checks that the next cell runs, and measures a small cell's round trip.
func TestE2EInterrupt(t *testing.T) {
	e2e.NeedJupyter(t, false)
	env := e2e.JupyterHome(t)
	cmd := exec.Command(e2e.SystemPython, "testdata/kernelclient.py")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kernelclient.py: %v\n%s%s", err, out, stderr.Bytes())
	}
	var r struct {
		InterruptSeconds   float64  `json:"interrupt_seconds"`
		InterruptCPU       *float64 `json:"interrupt_cpu_seconds"`
		InterruptedStatus  string   `json:"interrupted_status"`
		InterruptedEname   string   `json:"interrupted_ename"`
		NextStatus         string   `json:"next_status"`
		NextResult         string   `json:"next_result"`
		RoundtripMS        float64  `json:"roundtrip_ms"`
		RoundtripResults   []string `json:"roundtrip_results"`
		CellsTimed         int      `json:"cells_timed"`
		AliveAfterShutdown bool     `json:"alive_after_shutdown"`
		PlayPrompts        []string `json:"play_prompts"`
		PlayText           string   `json:"play_text"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.InterruptedStatus != "error" && r.InterruptedStatus != "aborted" {
		t.Errorf("interrupted cell: status %q (%s)", r.InterruptedStatus, r.InterruptedEname)
	}
	// The requirement: an interrupt stops a running cell within a
	// second; in the work the kernel does after it, its processor time,
	// which a loaded machine does not stretch as it does the clock's time
	// (kernelclient.py's timeouts guard against a hang).
	if r.InterruptCPU != nil && *r.InterruptCPU > 1 {
		t.Errorf("the kernel spent %.2f s of processor time after the interrupt, more than a second", *r.InterruptCPU)
	}
	if r.NextStatus != "ok" || r.NextResult != "2" {
		t.Errorf("1+1 after the interrupt: status %q, result %q", r.NextStatus, r.NextResult)
	}
	if len(r.RoundtripResults) != 1 || r.RoundtripResults[0] != "1" {
		t.Errorf("nim_mul(2, 3) gave %q, want 1", r.RoundtripResults)
	}
	// From (1,2) the human plays to (1,1) and wins: three input requests
	// (two moves, then "Enter to leave").
	if len(r.PlayPrompts) < 2 || !strings.Contains(r.PlayText, "you win") {
		t.Errorf("play through input_request: prompts %q, transcript:\n%s", r.PlayPrompts, r.PlayText)
	}
	if r.AliveAfterShutdown {
		t.Error("kernel alive after shutdown")
	}
	t.Logf("interrupt of while True: pass: %.3f s, %s of processor time (%s, %s)", r.InterruptSeconds, e2e.Seconds(r.InterruptCPU), r.InterruptedStatus, r.InterruptedEname)
	t.Logf("round trip of nim_mul(2, 3), mean of %d cells through execute_interactive: %.2f ms", r.CellsTimed, r.RoundtripMS)
}
