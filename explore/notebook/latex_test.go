package notebook

import (
	"context"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
)

// texRenderer renders results and writes them as LaTeX, naming the
// analysis.
type texRenderer struct{ fakeRenderer }

func (r *texRenderer) LaTeX(v any) (string, error) {
	sr := v.(*job.SectionResult)
	return `\begin{tabular}{l}` + strings.Join(sr.Spec.Show, ",") + `\end{tabular}`, nil
}

func (r *texRenderer) Bundle(v any) (*kernel.Display, error) { return r.fakeRenderer.Bundle(v) }

// r.latex() is the renderer's LaTeX of the result, a string; without a
// LaTeX renderer it says why it cannot be.
func TestResultLaTeX(t *testing.T) {
	tests := []struct {
		name     string
		renderer Renderer
		code     string
		want     string
		err      string
	}{
		{"values", &texRenderer{}, `octal("0.77").values(10).latex()`, `\begin{tabular}{l}values\end{tabular}`, ""},
		{"period", &texRenderer{}, `octal("0.77").period(300).latex()`, `\begin{tabular}{l}period\end{tabular}`, ""},
		{"a string", &texRenderer{}, `type(octal("0.77").values(10).latex())`, `string`, ""},
		{"in dir", &texRenderer{}, `"latex" in dir(octal("0.77").values(10))`, `True`, ""},
		{"no LaTeX renderer", &fakeRenderer{}, `octal("0.77").values(10).latex()`, "", "renders no LaTeX"},
		{"a path or nothing", &texRenderer{}, `octal("0.77").values(10).latex(1)`, "", `latex: path must be a file name like "values.tex"`},
		{"two arguments", &texRenderer{}, `octal("0.77").values(10).latex("a.tex", 2)`, "", "latex: got 2 arguments, want at most 1"},
		{"a .tex file only", &texRenderer{}, `octal("0.77").values(10).latex("a.ipynb")`, "", "the file's name must end in .tex"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(Options{Renderer: tc.renderer})
			if err != nil {
				t.Fatal(err)
			}
			d, err := s.Execute(context.Background(), tc.code, nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// text/plain is the string's repr: its backslashes doubled.
			if got := d.Data["text/plain"]; !strings.Contains(got.(string), strings.ReplaceAll(tc.want, `\`, `\\`)) {
				t.Errorf("%s = %v, want %s", tc.code, got, tc.want)
			}
		})
	}
}
