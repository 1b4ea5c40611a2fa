package reports

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"rsc.io/pdf"

	"github.com/nimbook/nimbook/explore/job"
)

const chromiumPath = "/usr/bin/chromium"

// needChromium skips the test when Debian's chromium is missing, unless
// NIMBOOK_E2E=1 asks for the end-to-end tests to run (then it fails).
func needChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("NIMBOOK_E2E") == "1" {
			t.Fatalf("NIMBOOK_E2E=1 but %s is missing (apt-get install chromium): %v", chromiumPath, err)
		}
		t.Skip("chromium is not installed")
	}
	if testing.Short() && os.Getenv("NIMBOOK_E2E") != "1" {
		t.Skip("headless chromium is slow; skipped in -short mode")
	}
}

// printToPDF opens page in headless chromium, prints it to PDF and returns
// the PDF and chromium's log (console messages included).
func printToPDF(t *testing.T, page string) ([]byte, string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "print.pdf")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromiumPath,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"),
		"--enable-logging=stderr", "--v=0",
		"--print-to-pdf="+out, "--no-pdf-header-footer",
		"file://"+page)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, log.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("chromium wrote no PDF: %v\n%s", err, log.String())
	}
	return b, log.String()
}

// consoleErrors picks out of chromium's log the page's script errors and
// failed loads (a handout must load nothing from anywhere).
var consoleErrors = regexp.MustCompile(`(?m)^.*(CONSOLE.*(Uncaught|Error|error)|ERROR:CONSOLE|Failed to load resource|net::ERR_).*$`)

func pageCount(t *testing.T, b []byte) int {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("chromium's PDF does not parse: %v", err)
	}
	return r.NumPage()
}

// TestChromiumPrintsHandouts prints example handouts with headless
// chromium, as a reader would, and checks the page count (sections follow
// one another; TestHandoutLayout measures every handout's pages) and that
// the page logs no console error and fetches nothing.
func TestChromiumPrintsHandouts(t *testing.T) {
	needChromium(t)
	tests := []struct {
		file               string
		minPages, maxPages int
	}{
		// Four short sections, following one another: two pages.
		{file: "nim-bouton.fr.yaml", minPages: 2, maxPages: 2},
		// Hamming (its 16 words listed), extended Hamming, Golay (24
		// values, weights, two figures): three pages.
		{file: "codes.fr.yaml", minPages: 3, maxPages: 3},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			j, err := job.ParseFile(filepath.Join("..", "examples", "handouts", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := job.Run(context.Background(), j, job.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var h bytes.Buffer
			if err := HTML(&h, rep, Options{}); err != nil {
				t.Fatal(err)
			}
			page := filepath.Join(t.TempDir(), "handout.html")
			if err := os.WriteFile(page, h.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			b, log := printToPDF(t, page)
			if n := pageCount(t, b); n < tc.minPages || n > tc.maxPages {
				t.Errorf("%d pages, want %d to %d", n, tc.minPages, tc.maxPages)
			}
			if errs := consoleErrors.FindAllString(log, -1); len(errs) > 0 {
				t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
			}
		})
	}
}

// The check above must be able to fail: a page with a script error and a
// fetch is caught.
func TestChromiumConsoleCheck(t *testing.T) {
	needChromium(t)
	page := filepath.Join(t.TempDir(), "bad.html")
	bad := `<!DOCTYPE html><html><body><p>x</p><img src="missing.png"><script>noSuchFunction()</script></body></html>`
	if err := os.WriteFile(page, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, log := printToPDF(t, page)
	if errs := consoleErrors.FindAllString(log, -1); len(errs) == 0 {
		t.Fatalf("a script error went unnoticed; chromium's log:\n%s", log)
	}
}
