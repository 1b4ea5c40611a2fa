package paper

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// hundred is examples/misere.yaml's position of 100 heaps, as the
// notebook testdata/long-positions.ipynb writes it too.
var hundred = func() []string {
	var hs []string
	for h := 1000; h >= 20; h -= 10 {
		hs = append(hs, strconv.Itoa(h))
	}
	return append(hs, "7")
}()

// tuples finds the positions of a printed text: a tuple of numbers, which
// may break after a comma (a new line there is read as nothing).
var tuples = regexp.MustCompile(`[(\[]\d+(?:,\d+)+[)\]]`)

// TestLongPositionsWhole prints examples/misere.yaml (a position of 100
// heaps and its 100 winning moves) and a notebook with the same long
// outputs in every printed form — the PDF, the HTML printed by Chromium,
// LaTeX compiled by pdflatex — and reads the text back: every position
// of 100 heaps is there whole, its numbers unbroken, so a line broke only
// after a comma; each winning move changes one heap, to less.
func TestLongPositionsWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test")
	}
	need(t, "pdftotext", "poppler-utils")
	forms := []string{"pdf", "tex"}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil || os.Getenv("NIMBOOK_E2E") == "1" {
		forms = append(forms, "html")
	}
	for _, in := range []string{"../../../../../examples/misere.yaml", "testdata/long-positions.ipynb"} {
		for _, form := range forms {
			t.Run(filepath.Base(in)+"/"+form, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				out := filepath.Join(dir, "doc."+form)
				if _, _, err := e2e.Run(t, "run", in, "-o", out, "--quiet"); err != nil {
					t.Fatal(err)
				}
				pdf := out
				switch form {
				case "tex":
					need(t, "pdflatex", "texlive-latex-base")
					pdflatex(t, dir, "doc")
					pdf = filepath.Join(dir, "doc.pdf")
				case "html":
					pdf = filepath.Join(dir, "print.pdf")
					cmd := exec.Command("/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
						"--user-data-dir="+filepath.Join(dir, "profile"), "--print-to-pdf="+pdf, "--no-pdf-header-footer", "file://"+out)
					if b, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("chromium: %v\n%s", err, tail(b))
					}
				}
				text := strings.Join(pdfText(t, pdf), "\n")
				text = strings.ReplaceAll(text, "\u200b", "")
				text = strings.ReplaceAll(text, ",\n", ",")
				whole, moves := 0, 0
				for _, m := range tuples.FindAllString(text, -1) {
					hs := strings.Split(m[1:len(m)-1], ",")
					if len(hs) != len(hundred) {
						continue
					}
					diff := 0
					for i := range hs {
						if hs[i] != hundred[i] {
							diff++
							if len(hs[i]) > len(hundred[i]) || len(hs[i]) == len(hundred[i]) && hs[i] > hundred[i] {
								t.Errorf("heap %d of a move grows: %s", i+1, m)
							}
						}
					}
					switch diff {
					case 0:
						whole++
					case 1:
						moves++
					default:
						t.Errorf("a position of 100 heaps that is neither the start nor a move from it (a number split?): %s", m)
					}
				}
				// The start is written twice (its outcome, its moves)
				// and, in the notebook, once more in the code.
				if whole < 2 || moves < 20 {
					t.Errorf("%d whole copies of the position and %d moves found in the text: a number was split across lines?\n%.3000s", whole, moves, text)
				}
			})
		}
	}
}
