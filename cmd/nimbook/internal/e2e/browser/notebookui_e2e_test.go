//go:build unix

package browser

import (
	"context"

	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// The Notebook UI test: Debian's classic Jupyter Notebook 6.4
// (jupyter-notebook) serves the example notebooks on 127.0.0.1, headless
// Chromium driven through chromedp opens each one with the nimbook kernel and
// runs it with Run All, as a reader would, and the test reads the page
// through the Notebook's own JavaScript objects (Jupyter.notebook): the
// outputs, the tables and figures on screen, the browser console. It skips
// when jupyter-notebook or chromium is missing, unless NIMBOOK_E2E=1.

const uiChromium = "/usr/bin/chromium"

func needNotebookUI(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test")
	}
	missing := func(what string, err error) {
		t.Helper()
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatalf("NIMBOOK_E2E=1 but %s is not available: %v", what, err)
		}
		t.Skipf("%s is not available (%v); set NIMBOOK_E2E=1 to make this a failure", what, err)
	}
	if out, err := exec.Command("jupyter", "notebook", "--version").CombinedOutput(); err != nil {
		missing("jupyter notebook (apt-get install jupyter-notebook)", fmt.Errorf("%v %s", err, strings.TrimSpace(string(out))))
	}
	if _, err := os.Stat(uiChromium); err != nil {
		missing(uiChromium+" (apt-get install chromium)", err)
	}
}

// uiNotebook is one notebook the test runs in the browser.
type uiNotebook struct {
	file    string // in the notebook directory
	untrust string // the same notebook executed by nimbook run, opened untrusted
	kernel  string // the same executed by nbconvert through the kernel, opened untrusted
	errors  []int  // code cells (notebook cell indices) whose error is expected
	stops   bool   // Run All must stop after the first expected error
}

// TestE2ENotebookUI runs every example notebook with Run All in the classic
// Notebook UI and checks what the page shows: no error output where none is
// expected, no browser console error, every table and figure the cells
// produce (see expectFromSource), Run All stopping at a failing cell, and the
// figures of an executed notebook opened untrusted. It saves a full-page
// screenshot of each page (NIMBOOK_SCREENSHOTS=dir copies them there).
func TestE2ENotebookUI(t *testing.T) {
	needNotebookUI(t)
	start := time.Now()
	env := e2e.JupyterHome(t)
	dir := t.TempDir()
	shots := t.TempDir()
	if d := os.Getenv("NIMBOOK_SHOTS"); d != "" {
		shots = d // to look at the pages after the test
	}

	var notebooks []uiNotebook
	examples, err := filepath.Glob(e2e.Example(5, "notebooks/*.ipynb"))
	if err != nil || len(examples) == 0 {
		t.Fatalf("no example notebooks: %v", err)
	}
	examples = append(examples, e2e.Example(5, "notebooks/handout.md")) // a Markdown notebook
	for _, src := range examples {
		name := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
		nb := uiNotebook{file: name + ".ipynb", untrust: name + "-executed.ipynb"}
		if strings.HasSuffix(src, ".md") {
			// nimbook run turns it into a notebook (with outputs, which Run
			// All replaces).
			if _, _, err := e2e.Run(t, "run", src, "-o", filepath.Join(dir, nb.file), "--quiet"); err != nil {
				t.Fatal(err)
			}
		} else {
			e2e.CopyFile(t, src, filepath.Join(dir, nb.file))
		}
		// A notebook executed elsewhere and shared carries no signature, so
		// the Notebook opens it untrusted.
		if _, _, err := e2e.Run(t, "run", src, "-o", filepath.Join(dir, nb.untrust), "--quiet"); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(src, ".ipynb") {
			// Executed by Jupyter itself: the kernel's bundles, Markdown
			// and images without HTML.
			nb.kernel = name + "-kernel.ipynb"
			cmd := exec.Command("jupyter", "nbconvert", "--to", "notebook", "--execute", nb.file,
				"--output", nb.kernel, "--ExecutePreprocessor.timeout=120")
			cmd.Env, cmd.Dir = env, dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("nbconvert %s: %v\n%s", nb.file, err, out)
			}
		}
		notebooks = append(notebooks, nb)
	}
	e2e.CopyFile(t, filepath.Join("testdata", "notebookui", "stop.ipynb"), filepath.Join(dir, "stop.ipynb"))
	notebooks = append(notebooks, uiNotebook{file: "stop.ipynb", errors: []int{2}, stops: true})

	base := startNotebookServer(t, env, dir)
	browser := startBrowser(t)
	t.Logf("setup (build, kernelspec, server, browser): %v", time.Since(start).Round(time.Millisecond))

	for _, nb := range notebooks {
		t.Run("runall/"+nb.file, func(t *testing.T) {
			tab := openTab(t, browser, base+"/notebooks/"+nb.file, true)
			if tab.state.Kernel != "nimbook" {
				t.Fatalf("kernel %q, want nimbook", tab.state.Kernel)
			}
			began := time.Now()
			tab.runAll(t, filepath.Join(shots, strings.TrimSuffix(nb.file, ".ipynb")+"-timeout.png"))
			t.Logf("Run All: %v", time.Since(began).Round(time.Millisecond))
			st := tab.read(t)
			tab.screenshot(t, filepath.Join(shots, strings.TrimSuffix(nb.file, ".ipynb")+"-runall.png"), st)
			checkErrors(t, st, nb)
			if nb.stops {
				checkStopped(t, st, nb)
			} else {
				checkTablesFigures(t, st)
			}
			tab.close(t) // reports console errors
		})
	}
	for _, nb := range notebooks {
		if nb.untrust == "" {
			continue
		}
		// Issue 14 item 2: figures must survive the untrusted sanitizer.
		t.Run("untrusted/"+nb.untrust, func(t *testing.T) {
			tab := openTab(t, browser, base+"/notebooks/"+nb.untrust, false)
			tab.waitMathJax(t)
			st := tab.read(t)
			tab.screenshot(t, filepath.Join(shots, strings.TrimSuffix(nb.untrust, ".ipynb")+"-untrusted.png"), st)
			if st.Trusted {
				t.Error("the executed notebook opened trusted; the check needs an untrusted one")
			}
			checkErrors(t, st, nb)
			checkTablesFigures(t, st)
			tab.close(t)
		})
	}
	for _, nb := range notebooks {
		if nb.kernel == "" {
			continue
		}
		// An untrusted notebook skips text/markdown and image/svg+xml
		// (JUPYTER.md): the kernel's results show as plain text, their
		// figures as the PNG.
		t.Run("untrusted/"+nb.kernel, func(t *testing.T) {
			tab := openTab(t, browser, base+"/notebooks/"+nb.kernel, false)
			tab.waitMathJax(t)
			st := tab.read(t)
			tab.screenshot(t, filepath.Join(shots, strings.TrimSuffix(nb.kernel, ".ipynb")+"-untrusted.png"), st)
			if st.Trusted {
				t.Error("the executed notebook opened trusted; the check needs an untrusted one")
			}
			checkErrors(t, st, nb)
			figures := 0
			for _, c := range st.Cells {
				table, figure := expectFromSource(c.Source)
				if figure {
					figures++
					if c.Figures != 1 {
						t.Errorf("cell %d %q: %d figures on the page, want 1", c.Index, lastLine(c.Source), c.Figures)
					}
				}
				if table && c.Texts == 0 {
					t.Errorf("cell %d %q: its table shows no text", c.Index, lastLine(c.Source))
				}
				// Issue 30: the text/latex MathJax draws holds the whole
				// result, its heading and words with the table, and
				// MathJax reads all of it.
				if c.LatexRaw > 0 {
					t.Errorf("cell %d %q: MathJax left a command as typed:\n%s", c.Index, lastLine(c.Source), c.Latex)
				}
				if table && c.Latex != "" && !strings.Contains(c.Latex, "Game:") && !strings.Contains(c.Latex, "Nim-product") {
					t.Errorf("cell %d %q: the result MathJax drew has no words, only its table:\n%s", c.Index, lastLine(c.Source), c.Latex)
				}
			}
			t.Logf("%d figures expected", figures)
			tab.close(t)
		})
	}
	if d := os.Getenv("NIMBOOK_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		pngs, _ := filepath.Glob(filepath.Join(shots, "*.png"))
		for _, p := range pngs {
			e2e.CopyFile(t, p, filepath.Join(d, filepath.Base(p)))
		}
		t.Logf("%d screenshots in %s", len(pngs), d)
	}
	t.Logf("total: %v", time.Since(start).Round(time.Millisecond))
}

// checkErrors wants error outputs exactly in the cells nb.errors names.
func checkErrors(t *testing.T, st pageState, nb uiNotebook) {
	t.Helper()
	for _, c := range st.Cells {
		want := false
		for _, i := range nb.errors {
			want = want || i == c.Index
		}
		var errs []string
		for _, o := range c.Outputs {
			if o.Type == "error" {
				errs = append(errs, o.Text)
			}
		}
		switch {
		case len(errs) > 0 && !want:
			t.Errorf("cell %d %q: error output %q", c.Index, firstLine(c.Source), errs)
		case len(errs) == 0 && want:
			t.Errorf("cell %d %q: no error output, want one", c.Index, firstLine(c.Source))
		}
	}
}

// checkStopped wants Run All to have stopped at the first failing cell: the
// cells after it were not run (ipykernel's contract with stop_on_error: the
// queued requests are answered "aborted" without running).
func checkStopped(t *testing.T, st pageState, nb uiNotebook) {
	t.Helper()
	for _, c := range st.Cells {
		switch {
		case c.Index < nb.errors[0]:
			if c.Reply != "ok" || len(c.Outputs) == 0 {
				t.Errorf("cell %d before the failure: reply %q, %d outputs; want ok and a result", c.Index, c.Reply, len(c.Outputs))
			}
		case c.Index == nb.errors[0]:
			if c.Reply != "error" {
				t.Errorf("failing cell %d: reply %q, want error", c.Index, c.Reply)
			}
		default:
			if c.Reply != "aborted" || len(c.Outputs) > 0 || isNumber(c.Prompt) {
				t.Errorf("cell %d after the failure ran or was not aborted: reply %q, prompt [%s], outputs %+v; want reply aborted, no prompt number, no output",
					c.Index, c.Reply, c.Prompt, c.Outputs)
			}
		}
	}
}

// checkTablesFigures wants each code cell to show the table or figure its
// source asks for, and no other.
func checkTablesFigures(t *testing.T, st pageState) {
	t.Helper()
	var tables, figures int
	for _, c := range st.Cells {
		table, figure := expectFromSource(c.Source)
		if table {
			tables++
		}
		if figure {
			figures++
		}
		if got := b2i(table); c.Tables != got {
			t.Errorf("cell %d %q: %d tables on the page, want %d", c.Index, lastLine(c.Source), c.Tables, got)
		}
		if got := b2i(figure); c.Figures != got {
			t.Errorf("cell %d %q: %d figures on the page, want %d", c.Index, lastLine(c.Source), c.Figures, got)
		}
	}
	if tables+figures == 0 {
		t.Error("the notebook asks for no table and no figure: the check checks nothing")
	}
	t.Logf("%d tables and %d figures expected", tables, figures)
}

var (
	// The value of a cell that ends with one of these calls is drawn as a
	// figure (a plot, a game graph) or shown as a table (values, a 2-D
	// table, code-word weights, a nimber table); plot(...) at the start of
	// the line is the module-level plot, whose arguments may hold calls.
	figureCall = regexp.MustCompile(`\.(plot|graph)\([^()]*\)$|^plot\(.*\)$`)
	tableCall  = regexp.MustCompile(`(\.(values|table|weights)|^nimbers)\([^()]*\)$`)
	identifier = regexp.MustCompile(`^[A-Za-z_]\w*$`)
)

// expectFromSource says whether a code cell's result is a table or a figure,
// from its last line: the value of the cell (a bare name is looked up in the
// cell's assignments).
func expectFromSource(src string) (table, figure bool) {
	lines := strings.Split(src, "\n")
	expr, at := "", -1
	for i := len(lines) - 1; i >= 0; i-- {
		s := strings.TrimSpace(lines[i])
		if s != "" && !strings.HasPrefix(s, "#") {
			expr, at = lines[i], i
			break
		}
	}
	if expr == "" || expr[0] == ' ' || expr[0] == '\t' {
		return false, false // the cell ends inside a block: no value
	}
	if identifier.MatchString(expr) {
		assign := regexp.MustCompile(`^` + expr + `\s*=[^=](.*)$`)
		for i := at - 1; i >= 0; i-- {
			if m := assign.FindStringSubmatch(lines[i]); m != nil {
				expr = m[1]
				break
			}
		}
	}
	expr = strings.TrimSpace(expr)
	if figureCall.MatchString(expr) {
		return false, true
	}
	return tableCall.MatchString(expr), false
}

// A notebook server and a browser for the whole test.

// startNotebookServer starts `jupyter notebook` on a free port of 127.0.0.1
// serving dir, waits until it answers, and returns its URL. The cleanup shuts
// its kernels down and stops it by its process group.
func startNotebookServer(t *testing.T, env []string, dir string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	cmd := exec.Command("jupyter", "notebook", "--allow-root", "--no-browser",
		"--ip=127.0.0.1", fmt.Sprintf("--port=%d", port), "--port-retries=0",
		"--NotebookApp.token=", "--NotebookApp.password=", "--notebook-dir="+dir)
	cmd.Env, cmd.Dir = env, dir
	log := &e2e.LockedBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("jupyter notebook: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		pid := cmd.Process.Pid
		syscall.Kill(-pid, syscall.SIGTERM) // the server stops its kernels
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("jupyter notebook log:\n%s", log.String())
		}
	})
	deadline := time.Now().Add(e2e.HangGuard)
	for {
		resp, err := http.Get(base + "/api/status")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case <-exited:
			t.Fatalf("jupyter notebook exited: %v\n%s", cmd.ProcessState, log.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("jupyter notebook does not answer on %s after %v\n%s", base, e2e.HangGuard, log.String())
		}
	}
}

// startBrowser starts headless Chromium with a fresh profile and returns its
// chromedp context; each notebook opens in a tab of it.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang guard only
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(uiChromium),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		cancelBrowser()
		cancelAlloc()
		cancel()
		t.Fatalf("starting %s: %v", uiChromium, err)
	}
	proc := chromedp.FromContext(bctx).Browser.Process()
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc() // kills the browser and waits for it
		cancel()
		if proc != nil && proc.Signal(syscall.Signal(0)) == nil {
			proc.Kill()
		}
	})
	return bctx
}

// uiTab is a notebook open in a browser tab.
type uiTab struct {
	ctx    context.Context
	cancel context.CancelFunc
	state  pageState // as loaded

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
	done    chan struct{}
}

// pageState is what collectJS reads from the page.
type pageState struct {
	Kernel  string `json:"kernel"`
	Trusted bool   `json:"trusted"`
	Cells   []struct {
		Index   int    `json:"index"`
		Source  string `json:"source"`
		Prompt  string `json:"prompt"`
		Reply   string `json:"reply"`
		Outputs []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"outputs"`
		Tables  int `json:"tables"`
		Figures int `json:"figures"`
		Texts   int `json:"texts"` // output areas showing plain text, or tables MathJax drew (text/latex)
		// Latex is the text of the output areas MathJax drew
		// (text/latex); LatexRaw counts those showing a command
		// MathJax left as typed (a backslash on the page).
		Latex    string `json:"latex"`
		LatexRaw int    `json:"latexRaw"`
	} `json:"cells"`
}

// loadedJS is true once the notebook is loaded and its outputs are shown;
// kernelReadyJS once its kernel answered kernel_info too.
const (
	loadedJS      = `typeof Jupyter !== 'undefined' && Jupyter.notebook && Jupyter.notebook._fully_loaded`
	kernelReadyJS = loadedJS + ` && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected() &&
	Object.keys(Jupyter.notebook.kernel.info_reply || {}).length > 0`
)

// runAllJS records each code cell's own execute_reply status and the end of
// its iopub messages (finished_execute, on the idle status whose parent is
// the cell's request), then does what Cell > Run All does. The kernel-idle
// icon is not a reliable end signal (JUPYTER.md).
const runAllJS = `(() => {
	const nb = Jupyter.notebook;
	const run = {cells: {}};
	window.__nimbookRun = run;
	nb.clear_all_output(); // what the page shows after is this run's
	nb.get_cells().forEach((c, i) => {
		if (c.cell_type !== 'code' || c.get_text().trim() === '') return;
		const rec = {reply: '', iopub: false};
		run.cells[i] = rec;
		const reply = c._handle_execute_reply;
		c._handle_execute_reply = function (msg) {
			rec.reply = msg.content.status;
			return reply.apply(this, arguments);
		};
	});
	nb.events.on('finished_execute.CodeCell', (ev, data) => {
		const rec = run.cells[nb.find_cell_index(data.cell)];
		if (rec) rec.iopub = true;
	});
	nb.execute_all_cells();
	return Object.keys(run.cells).length;
})()`

// runDoneJS is true when every code cell has its reply and, unless it was
// aborted (no run, so maybe no iopub status), the end of its outputs.
const runDoneJS = `Object.values(window.__nimbookRun.cells).every(r => r.reply !== '' && (r.iopub || r.reply === 'aborted'))`

// runPendingJS names the cells still waiting, for the timeout message.
const runPendingJS = `JSON.stringify(window.__nimbookRun.cells)`

// collectJS reads each code cell: its source, prompt, reply, outputs, and the
// output areas that show a table or a figure (an <svg> or a loaded <img>)
// with a size on the page.
const collectJS = `(() => {
	const nb = Jupyter.notebook;
	const run = window.__nimbookRun || {cells: {}};
	const shown = e => {
		const r = e.getBoundingClientRect();
		if (r.width <= 0 || r.height <= 0) return false;
		return e.tagName.toLowerCase() !== 'img' || (e.complete && e.naturalWidth > 0);
	};
	const cells = [];
	nb.get_cells().forEach((c, i) => {
		if (c.cell_type !== 'code') return;
		c.output_area.element[0].setAttribute('data-nimbook-cell', i); // for close-ups
		const areas = Array.from(c.output_area.element[0].querySelectorAll('.output_subarea'));
		const p = c.input_prompt_number;
		cells.push({
			index: i,
			source: c.get_text(),
			prompt: p === undefined || p === null ? '' : String(p),
			reply: (run.cells[i] || {}).reply || '',
			outputs: c.output_area.outputs.map(o => ({
				type: o.output_type,
				text: o.output_type === 'error' ? o.ename + ': ' + o.evalue : String(o.text || ''),
			})),
			tables: areas.filter(a => Array.from(a.querySelectorAll('table')).some(shown)).length,
			figures: areas.filter(a => Array.from(a.querySelectorAll('svg, img')).some(shown)).length,
			texts: areas.filter(a => (a.classList.contains('output_text') || a.classList.contains('output_latex')) && a.innerText.trim() !== '').length,
			latex: areas.filter(a => a.classList.contains('output_latex')).map(a => a.innerText).join('\n'),
			latexRaw: areas.filter(a => a.classList.contains('output_latex') && a.innerText.includes('\\')).length,
		});
	});
	return {kernel: nb.kernel ? nb.kernel.name : '', trusted: nb.trusted === true, cells: cells};
})()`

// openTab opens url in a new tab, collects its console, and waits until the
// notebook is loaded and, if kernel is set, its kernel is ready.
func openTab(t *testing.T, browser context.Context, url string, kernel bool) *uiTab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	tab := &uiTab{ctx: ctx, cancel: cancel, done: make(chan struct{})}
	messages := chromedp.Console(ctx) // subscribed before the page loads
	go func() {
		defer close(tab.done)
		for m, err := range messages {
			if err != nil {
				return
			}
			tab.mu.Lock()
			tab.console = append(tab.console, m)
			tab.mu.Unlock()
		}
	}()
	t.Cleanup(func() { tab.cancel(); <-tab.done })
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	ready := loadedJS
	if kernel {
		ready = kernelReadyJS
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](ready, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(e2e.HangGuard))); err != nil {
		t.Fatalf("%s: notebook or kernel not ready after %v: %v%s", url, e2e.HangGuard, err, tab.consoleText())
	}
	tab.state = tab.read(t)
	return tab
}

// runAll runs the notebook with Run All and waits for the end; on a timeout
// it saves a screenshot at shot.
func (tab *uiTab) runAll(t *testing.T, shot string) {
	t.Helper()
	n, err := chromedp.Run(tab.ctx, chromedp.Evaluate[int](runAllJS))
	if err != nil || n == 0 {
		t.Fatalf("Run All: %v (%d code cells)", err, n)
	}
	if _, err := chromedp.Run(tab.ctx, chromedp.Poll[bool](runDoneJS, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(e2e.HangGuard))); err != nil {
		pending, _ := chromedp.Run(tab.ctx, chromedp.Evaluate[string](runPendingJS))
		tab.screenshot(t, shot, pageState{})
		t.Fatalf("Run All not finished after %v: %v; cells (reply, iopub idle): %s%s", e2e.HangGuard, err, pending, tab.consoleText())
	}
}

// mathJaxReadyJS is true once MathJax 2 has started (its Hub ready): the
// outputs rendered before then are in its queue.
const mathJaxReadyJS = `typeof MathJax !== 'undefined' && !!MathJax.Hub && MathJax.isReady === true`

// mathJaxIdleJS resolves once MathJax has typeset everything queued so far
// (a callback queued after it runs after it).
const mathJaxIdleJS = `new Promise(done => MathJax.Hub.Queue(() => done(true)))`

// waitMathJax waits until MathJax has typeset the outputs of the page: an
// untrusted notebook's text/latex is typeset after the notebook has
// loaded, later on a loaded machine (a .ci/run read cells 18 and 22 of
// sources-kernel.ipynb before MathJax had drawn them).
func (tab *uiTab) waitMathJax(t *testing.T) {
	t.Helper()
	if _, err := chromedp.Run(tab.ctx, chromedp.Poll[bool](mathJaxReadyJS, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(e2e.HangGuard))); err != nil {
		t.Fatalf("MathJax not ready after %v: %v%s", e2e.HangGuard, err, tab.consoleText())
	}
	if _, err := chromedp.Run(tab.ctx, chromedp.Evaluate[bool](mathJaxIdleJS, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for MathJax to typeset the outputs: %v", err)
	}
}

func (tab *uiTab) read(t *testing.T) pageState {
	t.Helper()
	st, err := chromedp.Run(tab.ctx, chromedp.Evaluate[pageState](collectJS))
	if err != nil {
		t.Fatalf("reading the notebook: %v", err)
	}
	return st
}

// expandJS lets the notebook's scrolling panel (#site) take its full height
// so that a screenshot shows every cell, and returns that height.
const expandJS = `(() => {
	const s = document.createElement('style');
	s.textContent = 'html, body { height: auto !important; overflow: visible !important; } ' +
		'#site { height: auto !important; overflow: visible !important; }';
	document.head.appendChild(s);
	return Math.ceil(Math.max(document.documentElement.scrollHeight, document.body.scrollHeight));
})()`

// mathJaxDoneJS is true when MathJax shows no "Loading" message any more
// (it would hide part of the screenshot).
const mathJaxDoneJS = `(() => {
	const m = document.getElementById('MathJax_Message');
	return !m || m.style.display === 'none' || m.textContent === '';
})()`

// screenshot saves a full-page PNG of the tab at path and, for a reader of
// NIMBOOK_SCREENSHOTS, a close-up at twice the size of each figure next to
// it (path-cellN.png).
func (tab *uiTab) screenshot(t *testing.T, path string, st pageState) {
	t.Helper()
	// Only a picture waits for it: a page still loading MathJax is a page.
	chromedp.Run(tab.ctx, chromedp.Poll[bool](mathJaxDoneJS, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(5*time.Second)))
	h, err := chromedp.Run(tab.ctx, chromedp.Evaluate[float64](expandJS))
	if err != nil {
		t.Errorf("screenshot %s: %v", path, err)
		return
	}
	png, err := chromedp.Run(tab.ctx, func(ctx context.Context, target *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, target, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:                page.CaptureScreenshotFormatPng,
			Clip:                  &page.Viewport{Width: 1280, Height: h, Scale: 1},
			CaptureBeyondViewport: ptrTo(true),
		})
		return r.Data, err
	})
	if err == nil {
		err = os.WriteFile(path, png, 0o644)
	}
	if err != nil {
		t.Errorf("screenshot %s: %v", path, err)
		return
	}
	t.Logf("screenshot %s (%.0f px high)", filepath.Base(path), h)
	for _, c := range st.Cells {
		if c.Figures == 0 || os.Getenv("NIMBOOK_SCREENSHOTS") == "" {
			continue
		}
		sel := chromedp.CSS(fmt.Sprintf(`[data-nimbook-cell="%d"] .output_subarea`, c.Index))
		png, err := chromedp.Run(tab.ctx, chromedp.ScreenshotScale(sel, 2))
		if err == nil {
			err = os.WriteFile(fmt.Sprintf("%s-cell%d.png", strings.TrimSuffix(path, ".png"), c.Index), png, 0o644)
		}
		if err != nil {
			t.Errorf("close-up of cell %d: %v", c.Index, err)
		}
	}
}

// close ends the notebook's kernel session, closes the tab and reports the
// console errors it logged.
func (tab *uiTab) close(t *testing.T) {
	t.Helper()
	// Without an unsaved-changes prompt; the server ends the kernel.
	_, err := chromedp.Run(tab.ctx, chromedp.Evaluate[bool](`new Promise(done => {
		window.onbeforeunload = null;
		Jupyter.notebook.set_dirty(false);
		if (!Jupyter.notebook.session) return done(false); // the server ends it
		Jupyter.notebook.session.delete(() => done(true), () => done(false));
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Errorf("ending the kernel session: %v", err)
	}
	tab.cancel()
	<-tab.done
	for _, m := range tab.console {
		if (m.Type == chromedp.ConsoleError || m.IsException()) && !benignConsole.MatchString(m.Text+" "+m.URL) {
			t.Errorf("browser console: %s (%s:%d)", m, m.URL, m.Line)
		}
	}
}

// benignConsole matches the console errors that come from the Notebook
// itself and not from nimbook, each for a reason:
//   - Notebook 6.4 always tries to load the ipywidgets front end (main.js,
//     "HARDCODED WIDGETS HACK"); without python3-ipywidgets, which
//     jupyter-notebook only recommends, the server answers 404 and Chromium
//     logs the failed load and the refused script. The Notebook catches it
//     and warns "Widgets are not available".
//   - MathJax 2, typesetting a table of a text/latex output, probes for a
//     web font at about:blank, which Chromium refuses; MathJax then uses
//     the next font, and the table shows (the texts checked).
var benignConsole = regexp.MustCompile(`/nbextensions/widgets/notebook/js/extension\.js\b|^Access to font at 'about:blank'|net::ERR_FAILED about:blank$`)

func (tab *uiTab) consoleText() string {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	var b strings.Builder
	for _, m := range tab.console {
		fmt.Fprintf(&b, "\n  console %s", m)
	}
	return b.String()
}

// Small helpers.

func ptrTo[T any](v T) *T { return &v }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isNumber(s string) bool {
	_, err := fmt.Sscanf(s, "%d", new(int))
	return err == nil
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return lines[len(lines)-1]
}
