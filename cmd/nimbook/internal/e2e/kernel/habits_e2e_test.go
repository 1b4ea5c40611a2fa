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

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// TestE2EHabits drives the real kernel through jupyter_client as a
// Python-notebook user would (kernelhabits.py): the registry's families
// as built-ins, completed and inspected; %time on a longer cell; dir();
// to_csv into the kernel's folder; a styled plot; a game graph's legend.
func TestE2EHabits(t *testing.T) {
	e2e.NeedJupyter(t, false)
	env := e2e.JupyterHome(t)
	dir := t.TempDir()
	cmd := exec.Command(e2e.SystemPython, "testdata/kernelhabits.py", dir)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kernelhabits.py: %v\n%s%s", err, out, stderr.Bytes())
	}
	type cell struct{ Status, Stdout, Result string }
	var r struct {
		NodeKayles cell `json:"node_kayles"`
		Cram       cell
		Chomp      cell
		Time       cell
		Dir        cell
		ToCSV      cell `json:"to_csv"`
		Plot       struct {
			Status, Result, SVG string
			MIME                []string
		}
		Graph struct{ Status, SVG string }
		// completion and inspection
		CompleteFamily []string `json:"complete_family"`
		CompleteParam  []string `json:"complete_param"`
		Inspect        string
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for name, c := range map[string]struct {
		got  cell
		want string
	}{
		// 2 × n Node Kayles alternates 1, 0 (issue 28); 1 × n Cram is
		// octal 0.07 from n = 1; 2 × 1 Chomp (rows 2 and 1) is a P-position.
		"node_kayles": {r.NodeKayles, "0"},
		"cram":        {r.Cram, "[0, 1, 1, 2, 0, 3, 1]"},
		"chomp":       {r.Chomp, `"P"`},
		"time":        {r.Time, "499501"},
		"dir":         {r.Dir, `["x", "y"]`},
	} {
		if c.got.Status != "ok" || c.got.Result != c.want {
			t.Errorf("%s: %s, result %q, want %q", name, c.got.Status, c.got.Result, c.want)
		}
	}
	if !strings.HasPrefix(r.Time.Stdout, "CPU times: user ") || !strings.Contains(r.Time.Stdout, "\nWall time: ") {
		t.Errorf("%%time on a longer cell printed %q", r.Time.Stdout)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "values.csv")); r.ToCSV.Status != "ok" || err != nil || string(b) != "n,value\n0,0\n1,0\n2,1\n3,1\n4,2\n5,0\n" {
		t.Errorf("to_csv: %s; values.csv %q, %v", r.ToCSV.Status, b, err)
	}
	if r.Plot.Status != "ok" || !strings.HasPrefix(r.Plot.Result, "Kayles on a log axis (") || !strings.Contains(r.Plot.SVG, `width="432pt"`) ||
		!strings.Contains(r.Plot.SVG, ">heap<") || !slices.Contains(r.Plot.MIME, "image/png") || !slices.Contains(r.Plot.MIME, "application/pdf") {
		t.Errorf("plot: %s %q %v (svg %d bytes)", r.Plot.Status, r.Plot.Result, r.Plot.MIME, len(r.Plot.SVG))
	}
	if r.Graph.Status != "ok" || !strings.Contains(r.Graph.SVG, "P-position: the player to move loses") {
		t.Errorf("graph: %s, no legend in %d bytes of SVG", r.Graph.Status, len(r.Graph.SVG))
	}
	if !slices.Contains(r.CompleteFamily, "node_kayles") {
		t.Errorf("completion of node_k: %v", r.CompleteFamily)
	}
	if len(r.CompleteParam) == 0 || r.CompleteParam[0] != "board=" {
		t.Errorf("completion of cram(bo: %v", r.CompleteParam)
	}
	if !strings.Contains(r.Inspect, "chomp(rows=[7, 4, 3]") || !strings.Contains(r.Inspect, "Parameters:") {
		t.Errorf("inspect chomp: %q", r.Inspect)
	}
}
