package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func renderNotebook(t *testing.T, name string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Notebook(&b, fixtures()[name], Options{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestNotebookStructure(t *testing.T) {
	for _, name := range fixtureNames() {
		t.Run(name, func(t *testing.T) {
			b := renderNotebook(t, name)
			var nb struct {
				Cells []struct {
					Type    string   `json:"cell_type"`
					ID      string   `json:"id"`
					Source  []string `json:"source"`
					Count   *int     `json:"execution_count"`
					Outputs []struct {
						Type string         `json:"output_type"`
						Data map[string]any `json:"data"`
					} `json:"outputs"`
				} `json:"cells"`
				Format int `json:"nbformat"`
				Minor  int `json:"nbformat_minor"`
			}
			if err := json.Unmarshal(b, &nb); err != nil {
				t.Fatal(err)
			}
			if nb.Format != 4 || nb.Minor != 5 {
				t.Errorf("nbformat %d.%d, want 4.5", nb.Format, nb.Minor)
			}
			r := fixtures()[name]
			ids := map[string]bool{}
			headings, code, svg := 0, 0, 0
			for _, c := range nb.Cells {
				if ids[c.ID] || c.ID == "" {
					t.Errorf("cell id %q missing or repeated", c.ID)
				}
				ids[c.ID] = true
				src := strings.Join(c.Source, "")
				switch c.Type {
				case "markdown":
					if strings.HasPrefix(src, "## ") {
						headings++
					}
				case "code":
					code++
					if c.Count == nil || *c.Count != code {
						t.Errorf("cell %s: execution_count %v, want %d", c.ID, c.Count, code)
					}
					if len(c.Outputs) != 1 || c.Outputs[0].Type != "display_data" {
						t.Fatalf("cell %s: outputs %+v", c.ID, c.Outputs)
					}
					for _, mime := range []string{"text/markdown", "text/html", "text/plain"} {
						if c.Outputs[0].Data[mime] == nil {
							t.Errorf("cell %s: no %s", c.ID, mime)
						}
					}
					if c.Outputs[0].Data["image/svg+xml"] != nil {
						svg++
					}
					// text/plain is plain text, as a console prints it.
					if p, _ := c.Outputs[0].Data["text/plain"].(string); strings.Contains(p, "**") || strings.Contains(p, "| ") {
						t.Errorf("cell %s: text/plain holds Markdown:\n%s", c.ID, p)
					}
				}
			}
			if headings != len(r.Sections) {
				t.Errorf("%d section headings, want %d", headings, len(r.Sections))
			}
			if code == 0 {
				t.Error("no analysis cells")
			}
			plot := false
			for _, s := range r.Sections {
				if s.Spec != nil && strings.Contains(strings.Join(s.Spec.Show, " "), "plot") {
					plot = true
				}
			}
			if plot && svg == 0 {
				t.Error("a plot is shown but no output holds image/svg+xml")
			}
			if again := renderNotebook(t, name); !bytes.Equal(b, again) {
				t.Error("two renderings differ")
			}
		})
	}
}

// TestNotebookValidates runs nbformat's own validator on every fixture,
// when Debian's python3-nbformat is installed (NIMBOOK_E2E=1 makes its
// absence a failure).
func TestNotebookValidates(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatalf("NIMBOOK_E2E=1 but %s has no nbformat (apt-get install python3-nbformat): %v", py, err)
		}
		t.Skip("python3-nbformat is not installed")
	}
	dir := t.TempDir()
	var files []string
	for _, name := range fixtureNames() {
		f := filepath.Join(dir, name+".ipynb")
		if err := os.WriteFile(f, renderNotebook(t, name), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	script := `import sys, nbformat
for f in sys.argv[1:]:
    nb = nbformat.read(f, as_version=nbformat.NO_CONVERT)
    nbformat.validate(nb)
    assert nb.nbformat == 4 and nb.nbformat_minor == 5, f
print("ok", len(sys.argv) - 1)
`
	out, err := exec.Command(py, append([]string{"-c", script}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("nbformat.validate: %v\n%s", err, out)
	}
}
