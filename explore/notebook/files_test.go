package notebook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

// TestCellFiles: a cell reads the .star files of its notebook's folder
// and below, nothing else, and no refusal quotes another file's content
// (issue 29, class 3: rule(file="secret.env", name="f") printed "name
// s3cr3tTOKENabc123 is not defined").
func TestCellFiles(t *testing.T) {
	dir := t.TempDir()
	nb := filepath.Join(dir, "nb")
	if err := os.MkdirAll(filepath.Join(nb, "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	const secret = "s3cr3tTOKENabc123"
	files := map[string]string{
		"nb/secret.env":        secret + "\n",
		"nb/rules/lasker.star": "def f(n):\n    return [[n - 1]] if n > 0 else []\n",
		"outside.star":         secret + "\n",
	}
	for p, s := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("secret.env", filepath.Join(nb, "evil.star")); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Dir: nb})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cell, want string }{
		{`[rule(file="rules/lasker.star", name="f").grundy(n) for n in range(5)]`, "[0, 1, 0, 1, 0]"},
		{`rule(file="secret.env", name="f")`, "not a Starlark file"},
		{`rule(file="evil.star", name="f")`, "which is not a Starlark file"},
		{`rule(file="../outside.star", name="f")`, "outside the notebook's folder"},
		{`rule(file="` + filepath.Join(dir, "outside.star") + `", name="f")`, "outside the notebook's folder"},
		{`rule("/dev/zero", "f")`, "not a Starlark file"},
	} {
		t.Run(tc.cell, func(t *testing.T) {
			text, _, err := run(t, s, tc.cell)
			got := text
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("%s = %q; want %q", tc.cell, got, tc.want)
			}
			if strings.Contains(got, secret) {
				t.Fatalf("%s quotes another file's content: %q", tc.cell, got)
			}
		})
	}
}

// TestParamCopyRefused: a rule's parameters are refused before they are
// copied past the cell's memory limit (issue 29, class 8:
// rule(f, k=list(range(10**7))) reached 770 MiB under 256MiB), whether
// given to a cell's function or in a rule file's params.
func TestParamCopyRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "r.star"), []byte("def f(n, k):\n    return [[n - 1]] if n else []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Dir: dir, Limits: job.Limits{Memory: 64 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cell := range []string{
		"def f(n, k):\n    return [[n - 1]] if n else []\nrule(f, k=list(range(800000)))",
		`rule(file="r.star", name="f", params={"k": list(range(800000))})`,
	} {
		_, _, err := run(t, s, cell)
		if err == nil || !strings.Contains(err.Error(), "values) needs about") {
			t.Errorf("%s: %v; want a refusal before the copy", cell, err)
		}
	}
	// A parameter of a sane size is taken.
	text, _, err := run(t, s, "def g(n, k):\n    return [[n - 1]] if n else []\nrule(g, k=list(range(5000))).grundy(3)")
	if err != nil || strings.TrimSpace(text) != "1" {
		t.Errorf("a list of 5000: %q, %v", text, err)
	}
}

// cancelOnPrint is an Output whose first print interrupts the cell.
type cancelOnPrint struct {
	recorder
	cancel context.CancelFunc
}

func (c *cancelOnPrint) Stream(name, text string) {
	c.recorder.Stream(name, text)
	c.cancel()
}

// TestInterruptRuleAnalyses: an interrupt (the kernel's, Ctrl-C) stops a
// rule's function inside the misère analyses of a cell (issue 29, class
// 2; the command's signal tests hold the job files' side). The rule
// prints as it starts a loop of 10^7 steps, which interrupts the cell:
// the loop must not run to its end and print "done".
func TestInterruptRuleAnalyses(t *testing.T) {
	for _, analysis := range []string{"genus(12)", "quotient(12)", "outcome([6, 7, 8])"} {
		t.Run(analysis, func(t *testing.T) {
			s, err := New(Options{MaxSteps: 1 << 40})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &cancelOnPrint{cancel: cancel}
			play := ""
			if strings.HasPrefix(analysis, "quotient") || strings.HasPrefix(analysis, "outcome") {
				play = `, play="misere"`
			}
			cell := "def slow(n):\n    if n >= 5:\n        print(\"counting\")\n        t = 0\n        for i in range(10000000):\n            t += i\n        print(\"done\")\n    return [[n - k] for k in range(1, n + 1)]\n" +
				"rule(slow" + play + ")." + analysis
			_, err = s.Execute(ctx, cell, out)
			if err == nil || !strings.Contains(err.Error(), "nterrupt") {
				t.Fatalf("%s: %v; want it interrupted", analysis, err)
			}
			if strings.Contains(out.stdout.String(), "done") {
				t.Fatalf("%s: the rule's loop ran to its end after the interrupt", analysis)
			}
		})
	}
}
