//go:build unix

package kernel

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// TestE2ENbconvertMarkdown exports an executed notebook with `jupyter
// nbconvert --to markdown --execute`, as a user sharing results does: the
// Markdown holds the tables as Markdown (no raw HTML, no base64), the plot
// as an image file beside it, and the P-positions of a game defined in a
// cell as a list that can be pasted back into a cell.
func TestE2ENbconvertMarkdown(t *testing.T) {
	e2e.NeedJupyter(t, true)
	env := e2e.JupyterHome(t)
	dir := t.TempDir()
	cells := []string{
		"subtraction(set=[1, 3, 4]).values(30)",
		"coins(r=2).plot(20)",
		"g = game(moves=lambda n: [n - k for k in (1, 3, 4) if k <= n], start=20)\ng.p_positions()",
		// nbclient reads the widget models (ipywidgets 7's form) and keeps
		// the values at the slider's start, r = 5, in the cell.
		"interact(lambda r: coins(r=r).values(10), r=(1, 9))",
	}
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "nimbook", "display_name": "nimbook", "language": "starlark"}},
		"cells":    []any{},
	}
	for i, src := range cells {
		nb["cells"] = append(nb["cells"].([]any), map[string]any{
			"cell_type": "code", "id": "c" + string(rune('0'+i)), "metadata": map[string]any{},
			"source": src, "outputs": []any{}, "execution_count": nil,
		})
	}
	b, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in.ipynb"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("jupyter", "nbconvert", "--to", "markdown", "--execute", "in.ipynb",
		"--output", "out", "--ExecutePreprocessor.timeout=120")
	cmd.Env, cmd.Dir = env, dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, out)
	}
	md, err := os.ReadFile(filepath.Join(dir, "out.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := string(md)
	for _, want := range []string{
		"| 0..9   | **0** |     1 | **0** |", // the table, as Markdown
		"*Values 0 (P-positions) are in bold.*",
		"![svg](out_files/out_1_0.svg)", // the plot, as a file
		"[0, 2, 7, 9, 14, 16]",          // commas: it pastes back into a cell
		"turn over at most 5 coins on 10 coins",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("out.md lacks %q:\n%s", want, m)
		}
	}
	for _, bad := range []string{"<div", "<table", "base64", "<img"} {
		if strings.Contains(m, bad) {
			t.Errorf("out.md holds %q (raw HTML):\n%s", bad, m)
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "out_files", "out_1_0.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "<svg") {
		t.Errorf("out_1_0.svg is not an SVG: %.200s", svg)
	}
}
