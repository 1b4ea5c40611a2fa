package paper

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }

// need skips the test when a tool is missing (or fails it under
// NIMBOOK_E2E=1), naming the Debian package that has it.
func need(t *testing.T, tool, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		e2e.Missing(t, tool+" (apt-get install "+pkg+")", nil, err)
	}
	return p
}

// pdflatex compiles dir/name.tex twice (the second run resolves the
// citations) and returns its log.
func pdflatex(t *testing.T, dir, name string) string {
	t.Helper()
	for range 2 {
		cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", name+".tex")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pdflatex %s.tex: %v\n%s", name, err, tail(out))
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(log)
}

func tail(b []byte) string {
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

// pdfText is the text of a PDF (pdftotext), page by page.
func pdfText(t *testing.T, file string) []string {
	t.Helper()
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", file, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", file, err)
	}
	pages := strings.Split(string(out), "\f")
	if len(pages) > 1 && strings.TrimSpace(pages[len(pages)-1]) == "" {
		pages = pages[:len(pages)-1]
	}
	return pages
}

// pageFills renders each page of a LaTeX article (A4, margins of 2.5 cm)
// at 30 dpi and returns how far down its text block, as a part of it, the
// page's content reaches: its last row with ink above the page number.
func pageFills(t *testing.T, file string) []float64 {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("pdftoppm", "-r", "30", "-gray", "-png", file, filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "p-*.png"))
	num := func(f string) int {
		n, _ := strconv.Atoi(strings.TrimSuffix(f[strings.LastIndex(f, "-")+1:], ".png"))
		return n
	}
	sort.Slice(files, func(i, j int) bool { return num(files[i]) < num(files[j]) })
	var fills []float64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fills = append(fills, inkFill(img))
	}
	return fills
}

// The text block of the article: from 25 mm to 272 mm down the page; the
// page number sits below it.
const textTop, textBottom = 25.0, 272.0

func inkFill(img image.Image) float64 {
	r := img.Bounds()
	mm := 297 / float64(r.Dy())
	last := -1
	for y := r.Min.Y; y < r.Min.Y+int((textBottom+2)/mm); y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			g, _, _, _ := img.At(x, y).RGBA()
			if g>>8 < 200 {
				last = y - r.Min.Y
				break
			}
		}
	}
	f := (float64(last+1)*mm - textTop) / (textBottom - textTop)
	return max(0, min(1, f))
}

// overfull finds the boxes a pdflatex log reports too wide, by points.
var overfull = regexp.MustCompile(`Overfull \\hbox \(([0-9.]+)pt too wide\)[^\n]*`)

// texErrors are the lines of a log that say something went wrong.
var texErrors = regexp.MustCompile(`(?m)^!.*$|Undefined control sequence|Missing character|There were undefined references|Citation .* undefined|LaTeX Error`)
