//go:build unix

package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// widgetsJS is Debian's jupyter-js-widgets (ipywidgets 6), which Notebook
// 6 loads through /etc/jupyter/nbconfig.
const widgetsJS = "/usr/share/jupyter/nbextensions/jupyter-js-widgets/extension.js"

// interactCell is the example: a slider for r, the values under it.
const interactCell = "interact(lambda r: coins(r=r).values(20), r=(1, 9))"

// TestE2ENotebookWidgets runs interact() in the classic Notebook UI with
// Debian's widgets: the slider is drawn, the values of its initial r (5,
// the middle of 1..9) show under it, and moving it to 7 (through the
// widget's model, as a drag ends) replaces them with the values for r = 7.
func TestE2ENotebookWidgets(t *testing.T) {
	needNotebookUI(t)
	if _, err := os.Stat(widgetsJS); err != nil {
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatalf("NIMBOOK_E2E=1 but the widgets' front end is not installed (apt-get install jupyter-nbextension-jupyter-js-widgets python3-ipywidgets): %v", err)
		}
		t.Skipf("the widgets' front end is not installed (%v); set NIMBOOK_E2E=1 to make this a failure", err)
	}
	env := e2e.JupyterHome(t)
	dir := t.TempDir()
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "nimbook", "display_name": "nimbook", "language": "starlark"}},
		"cells": []any{map[string]any{
			"cell_type": "code", "id": "interact", "metadata": map[string]any{},
			"source": interactCell, "outputs": []any{}, "execution_count": nil,
		}},
	}
	b, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "widgets.ipynb"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	base := startNotebookServer(t, env, dir)
	browser := startBrowser(t)
	tab := openTab(t, browser, base+"/notebooks/widgets.ipynb", true)
	shot := filepath.Join(t.TempDir(), "widgets.png")
	tab.runAll(t, shot)

	// The slider on the page, and the Output widget under it showing r = 5.
	waitText := func(what, js string) string {
		t.Helper()
		var got string
		_, err := chromedp.Run(tab.ctx, chromedp.Poll[bool](`(() => { const s = `+js+`; window.__nimbookText = s; return `+what+`; })()`,
			chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(e2e.HangGuard)))
		got, _ = chromedp.Run(tab.ctx, chromedp.Evaluate[string](`String(window.__nimbookText)`))
		if err != nil {
			tab.screenshot(t, shot, pageState{})
			t.Fatalf("waiting for %s: %v; the widget area shows %q%s", what, err, got, tab.consoleText())
		}
		return got
	}
	const areaJS = `(Jupyter.notebook.get_cell(0).element[0].querySelector('.widget-area') || {innerText: ''}).innerText`
	waitText(`document.querySelectorAll('.widget-area .widget-hslider, .widget-area .widget-slider').length === 1`, `''`)
	first := waitText(`s.includes('at most 5 coins')`, areaJS)
	if !strings.Contains(first, "r") {
		t.Errorf("the slider has no label r:\n%s", first)
	}

	// Move the slider: the model's new value goes to the kernel as a drag's
	// end does, and the values for r = 7 replace those for r = 5.
	ok, err := chromedp.Run(tab.ctx, chromedp.Evaluate[bool](`(async () => {
		const wm = Jupyter.notebook.kernel.widget_manager;
		const models = await Promise.all(Object.values(wm._models));
		const m = models.find(m => m.get('_model_name') === 'IntSliderModel');
		if (!m) return false;
		m.set('value', 7);
		m.save_changes();
		return true;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil || !ok {
		t.Fatalf("setting the slider: %v (found: %v)%s", err, ok, tab.consoleText())
	}
	after := waitText(`s.includes('at most 7 coins') && !s.includes('at most 5 coins')`, areaJS)
	// f(n) for r = 7 starts 1 2 4 8 16 32 64 127: the Golay code's game.
	if !strings.Contains(after, "127") {
		t.Errorf("the values for r = 7 are not shown:\n%s", after)
	}
	st := tab.read(t)
	for _, c := range st.Cells {
		for _, o := range c.Outputs {
			if o.Type == "error" {
				t.Errorf("error output: %s", o.Text)
			}
		}
	}
	tab.screenshot(t, shot, st)
	if d := os.Getenv("NIMBOOK_SCREENSHOTS"); d != "" {
		e2e.CopyFile(t, shot, filepath.Join(d, "widgets.png"))
	}
	tab.close(t)
}
