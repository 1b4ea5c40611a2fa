package reports

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// handoutPages is the most pages each handout of examples/handouts may
// take, in either language and either printed form, set from its
// content: codes (Hamming, extended Hamming, Golay with 2 figures) 3,
// the f_r table with two longer runs and their figures 2, Nim and
// Bouton's four short sections 2, the nim-product table and its heatmap
// 1, four subtraction and octal games (two of 201 values, two figures)
// and the misère quotient of 0.75 with its table of 8 elements 5,
// Wythoff's table, heatmap and row periods 2; games written in Starlark
// (a row of 12 values and its figure, a 4 × 8 table, Chomp's P-positions) 2.
var handoutPages = map[string]int{
	"games":       2,
	"codes":       3,
	"coins-table": 2,
	"nim-bouton":  2,
	"nim-product": 1,
	"subtraction": 5,
	"wythoff":     2,
}

// handoutTotal is the most pages the 14 handouts take in one printed form
// (issue 22: 58 before; at most 30 for the 12 of then, 2 more for games
// written in Starlark, issue 27).
const handoutTotal = 32

// minFill is the least part of a page its content reaches, but on the
// last page of a handout.
const minFill = 1.0 / 3

// needPoppler skips the test when poppler-utils' pdftoppm and pdftotext
// are missing, unless NIMBOOK_E2E=1 asks for the end-to-end tests (then
// it fails).
func needPoppler(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"pdftoppm", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("NIMBOOK_E2E") == "1" {
				t.Fatalf("NIMBOOK_E2E=1 but %s is missing (apt-get install poppler-utils): %v", tool, err)
			}
			t.Skipf("%s is not installed (poppler-utils)", tool)
		}
	}
}

// pageFills renders each page of a PDF at 30 dpi and returns how far down
// the page, as a part of the height between the margins, its content
// reaches: its last row with ink, the footer (page numbers, below
// 283 mm) left out.
func pageFills(t *testing.T, doc []byte) []float64 {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(in, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "pdftoppm", "-r", "30", "-gray", "-png", in, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "page-*.png"))
	num := func(f string) int {
		n, _ := strconv.Atoi(strings.TrimSuffix(f[strings.LastIndex(f, "-")+1:], ".png"))
		return n
	}
	sort.Slice(files, func(i, j int) bool { return num(files[i]) < num(files[j]) })
	var fills []float64
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		fills = append(fills, inkFill(img))
	}
	return fills
}

// inkFill is how far down an A4 page image its last row with ink (grey
// below 200) is, as a part of the height between the margins.
func inkFill(img image.Image) float64 {
	r := img.Bounds()
	mm := 297 / float64(r.Dy())
	last := -1
	for y := r.Min.Y; y < r.Min.Y+int(283/mm); y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			g, _, _, _ := img.At(x, y).RGBA()
			if g>>8 < 200 {
				last = y - r.Min.Y
				break
			}
		}
	}
	f := (float64(last+1)*mm - pdfTop) / printPage
	return max(0, min(1, f))
}

// pageTexts is the text of each page, laid out (pdftotext -layout).
func pageTexts(t *testing.T, doc []byte, pages int) []string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(in, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := 1; i <= pages; i++ {
		b, err := exec.Command("pdftotext", "-layout", "-f", strconv.Itoa(i), "-l", strconv.Itoa(i), in, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext page %d: %v", i, err)
		}
		out = append(out, string(b))
	}
	return out
}

// reFrTable finds the f_r(n) table's first and last rows in a page's
// text: r = 1 (ten 1s) and r = 9 (… 128 256 511).
var reFrTable = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^\s*1(\s+1){10}\s*$`),
	regexp.MustCompile(`(?m)^\s*9\s+1\s+2\s+4\s+8\s+16\s+32\s+64\s+128\s+256\s+511\s*$`),
}

// TestHandoutLayout prints every handout of examples/handouts as a teacher
// would, in both printed forms: the PDF form, and the HTML form printed
// by headless Chromium. It renders each page, measures how far down its
// content reaches, and checks issue 22's rules: no page but the last
// under a third full, each handout within its page budget, the 14 within
// 32 pages per form, and the f_r(n) table for r = 1…9 whole on one page.
func TestHandoutLayout(t *testing.T) {
	needPoppler(t)
	needChromium(t)
	files, err := filepath.Glob("../examples/handouts/*.yaml")
	if err != nil || len(files) != 14 {
		t.Fatalf("%d handouts (%v), want 14", len(files), err)
	}
	type printed struct {
		name  string
		form  string
		fills []float64
	}
	var mu sync.Mutex
	var all []printed
	t.Run("print", func(t *testing.T) {
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".yaml")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				base := strings.TrimSuffix(strings.TrimSuffix(name, ".en"), ".fr")
				budget, ok := handoutPages[base]
				if !ok {
					t.Fatalf("no page budget for %s", base)
				}
				rep := runFile(t, file)
				var pdfb, html bytes.Buffer
				if err := PDF(&pdfb, rep, Options{}); err != nil {
					t.Fatal(err)
				}
				if err := HTML(&html, rep, Options{}); err != nil {
					t.Fatal(err)
				}
				page := filepath.Join(t.TempDir(), name+".html")
				if err := os.WriteFile(page, html.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				chrome, _ := printToPDF(t, page)
				for _, form := range []struct {
					name string
					doc  []byte
				}{{"pdf", pdfb.Bytes()}, {"chromium", chrome}} {
					fills := pageFills(t, form.doc)
					mu.Lock()
					all = append(all, printed{name, form.name, fills})
					mu.Unlock()
					if len(fills) > budget {
						t.Errorf("%s: %d pages, more than the %d its content takes", form.name, len(fills), budget)
					}
					for i, f := range fills[:max(0, len(fills)-1)] {
						if f < minFill {
							t.Errorf("%s: page %d of %d is %.0f %% full, under a third", form.name, i+1, len(fills), 100*f)
						}
					}
					if base == "coins-table" {
						whole := false
						for _, text := range pageTexts(t, form.doc, len(fills)) {
							whole = whole || (reFrTable[0].MatchString(text) && reFrTable[1].MatchString(text))
						}
						if !whole {
							t.Errorf("%s: the f_r(n) table for r = 1…9 is not whole on one page", form.name)
						}
					}
				}
			})
		}
	})
	sort.Slice(all, func(i, j int) bool {
		if all[i].form != all[j].form {
			return all[i].form > all[j].form
		}
		return all[i].name < all[j].name
	})
	total := map[string]int{}
	var log strings.Builder
	for _, p := range all {
		total[p.form] += len(p.fills)
		fmt.Fprintf(&log, "\n%-8s %-16s %d pages:", p.form, p.name, len(p.fills))
		for _, f := range p.fills {
			fmt.Fprintf(&log, " %3.0f%%", 100*f)
		}
	}
	t.Logf("pages, and how far down each one's content reaches:%s", log.String())
	for form, n := range total {
		if len(all) == 24 && n > handoutTotal {
			t.Errorf("%s: the handouts take %d pages, more than %d", form, n, handoutTotal)
		}
	}
}
