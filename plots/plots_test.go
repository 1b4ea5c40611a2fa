package plots

import (
	"bytes"
	"errors"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/nimbook/nimbook/explore/job"
)

var (
	update = flag.Bool("update", false, "rewrite the golden files in testdata/")
	pngDir = flag.String("png", "", "also draw each golden figure as a PNG in this directory, to look at")
)

// look writes p as name.png in the -png directory, if any: golden SVGs
// pin the bytes, but legibility is judged by eye.
func look(t *testing.T, name string, p *plot.Plot, width, height vg.Length) {
	t.Helper()
	if *pngDir == "" {
		return
	}
	var b bytes.Buffer
	if err := PNG(&b, p, width, height, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*pngDir, name+".png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)", name)
	}
}

// Data for the figures, computed from the definitions (MATH.md).
func mex(s map[uint64]bool) uint64 {
	var m uint64
	for s[m] {
		m++
	}
	return m
}

func kayles(upto int) []uint64 {
	g := make([]uint64, upto+1)
	for n := 1; n <= upto; n++ {
		opts := map[uint64]bool{}
		for take := 1; take <= 2 && take <= n; take++ {
			for a := 0; a <= (n-take)/2; a++ {
				opts[g[a]^g[n-take-a]] = true
			}
		}
		g[n] = mex(opts)
	}
	return g
}

func wythoff(n int) [][]uint64 {
	t := make([][]uint64, n)
	for a := range t {
		t[a] = make([]uint64, n)
		for b := range t[a] {
			o := map[uint64]bool{}
			for k := 0; k < a; k++ {
				o[t[k][b]] = true
			}
			for k := 0; k < b; k++ {
				o[t[a][k]] = true
			}
			for k := 1; k <= min(a, b); k++ {
				o[t[a-k][b-k]] = true
			}
			t[a][b] = mex(o)
		}
	}
	return t
}

func nimProduct(n int) [][]uint64 {
	t := make([][]uint64, n)
	for a := range t {
		t[a] = make([]uint64, n)
		for b := range t[a] {
			o := map[uint64]bool{}
			for a2 := 0; a2 < a; a2++ {
				for b2 := 0; b2 < b; b2++ {
					o[t[a2][b]^t[a][b2]^t[a2][b2]] = true
				}
			}
			t[a][b] = mex(o)
		}
	}
	return t
}

// octal051 returns g(0..upto) of the octal game 0.051: take 2 and leave
// nothing or two heaps, or take a whole heap of 3.
func octal051(upto int) []uint64 {
	g := make([]uint64, upto+1)
	for n := 1; n <= upto; n++ {
		opts := map[uint64]bool{}
		if n == 2 || n == 3 {
			opts[0] = true
		}
		for a := 1; a < n-2-a; a++ {
			opts[g[a]^g[n-2-a]] = true
		}
		if n-2 >= 2 && (n-2)%2 == 0 {
			opts[0] = true // a split into two equal heaps
		}
		g[n] = mex(opts)
	}
	return g
}

// seed 000 (Madore 2017): the extended Golay code's weight distribution.
var golayWeights = []uint64{1, 0, 0, 0, 0, 0, 0, 0, 759, 0, 0, 0, 2576, 0, 0, 0, 759, 0, 0, 0, 0, 0, 0, 0, 1}

// Mogul's f(1..24) (turn over at most seven of 24 coins), as the reports'
// fixture gives them: 1 to 4004, the first six under 40.
var mogulValues = []uint64{1, 2, 4, 8, 16, 32, 64, 127, 128, 256, 512, 911, 1024, 1459, 1749, 1897, 2048, 2518, 2787, 2874, 3320, 3357, 3662, 4004}

func figures(t *testing.T) map[string]*plot.Plot {
	t.Helper()
	must := func(p *plot.Plot, err error) *plot.Plot {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// MATH.md: Kayles, period 12 from n = 71, checked with values up to 167.
	kp := &job.Period{Proven: true, Preperiod: 71, Period: 12, CheckedTo: 167}
	// A. Flammenkamp's table of 0.051: domain type, t = 2, mask 0.
	two := 2
	rare051 := &job.Rare{Mask: 0, Type: "domain", T: &two}
	return map[string]*plot.Plot{
		"rare051": must(RareCommon(octal051(200), 0, rare051.IsRare, Labels{Title: "0.051: rare (black) and common (grey)", X: "n", Y: "g(n)"})),
		"kayles":  must(Values(kayles(100), 0, kp, Labels{Title: "Kayles (0.77)", X: "n", Y: "g(n)"})),
		"wythoff": must(Heatmap(wythoff(10), 0, 0, true, Labels{Title: "Wythoff", X: "b", Y: "a"})),
		"nimprod": must(Heatmap(nimProduct(16), 0, 0, false, Labels{Title: "Nim-product 0..15", X: "b", Y: "a"})),
		"golay":   must(Bars(golayWeights, Labels{Title: "Golay code", X: "heads", Y: "P-positions"})),
		// On a log axis, with a 0 on the baseline below it.
		"mogul": must(Values(append([]uint64{0}, mogulValues...), 0, nil, Labels{Title: "Mogul, f(n) (f(0) = 0 added)", X: "n", Y: "f(n)"})),
	}
}

// figureSize is the size reports draw a figure at: tables square.
func figureSize(name string) (w, h vg.Length) {
	if name == "wythoff" || name == "nimprod" {
		return SquareHeight, SquareHeight
	}
	return Width, Height
}

func TestSVGGolden(t *testing.T) {
	for name, p := range figures(t) {
		t.Run(name, func(t *testing.T) {
			w, h := figureSize(name)
			var a, b bytes.Buffer
			if err := SVG(&a, p, w, h); err != nil {
				t.Fatal(err)
			}
			// Drawing the same plot twice, and a fresh plot of the
			// same data, must give the same bytes.
			if err := SVG(&b, figures(t)[name], w, h); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("SVG bytes differ between two runs")
			}
			s := a.String()
			if !strings.Contains(s, "<svg") || !strings.HasSuffix(s, "</svg>\n") {
				t.Errorf("not an SVG document")
			}
			golden(t, name+".svg", a.Bytes())
			look(t, name, p, w, h)
		})
	}
}

func TestLogAxis(t *testing.T) {
	nim := make([]uint64, 1001)
	for i := range nim {
		nim[i] = uint64(i)
	}
	doubling := make([]uint64, 24)
	for i := range doubling {
		doubling[i] = 1 << i
	}
	tests := []struct {
		name   string
		values []uint64
		log    bool
		scale  logScale
	}{
		{"kayles", kayles(200), false, logScale{}},
		{"nim: decades, evenly", nim, false, logScale{}},
		{"mogul", mogulValues, true, logScale{lo: 1, hi: 1e4}},
		{"doubling, with 0", append([]uint64{0}, doubling...), true, logScale{lo: 1, hi: 1e7, zero: true}},
		{"all zero", make([]uint64, 5), false, logScale{}},
		{"ten times", []uint64{5, 50}, false, logScale{}},
		// A tenth of the values under a hundredth of the largest: they
		// would lie on 0.
		{"a tenth flattened", append([]uint64{1, 2, 3, 4, 5, 6, 7, 8, 9}, slices.Repeat([]uint64{1000}, 81)...), true, logScale{lo: 1, hi: 1000}},
		{"less than a tenth", append([]uint64{1, 2, 3, 4, 5, 6, 7, 8, 9}, slices.Repeat([]uint64{1000}, 82)...), false, logScale{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, ok := logAxis(tc.values)
			if ok != tc.log || s != tc.scale {
				t.Errorf("logAxis = %+v, %v; want %+v, %v", s, ok, tc.scale, tc.log)
			}
		})
	}
	var labels []string
	for _, tk := range (logScale{lo: 1, hi: 1e7, zero: true}).Ticks(0, 0) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0 1 10 100 1000 10⁴ 10⁵ 10⁶ 10⁷" {
		t.Errorf("ticks %s", got)
	}
	s := logScale{lo: 1, hi: 100, zero: true}
	for _, c := range []struct{ x, want float64 }{{0, 0}, {1, zeroGap}, {10, zeroGap + (1-zeroGap)/2}, {100, 1}} {
		if got := s.Normalize(0, 100, c.x); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Normalize(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestMarks(t *testing.T) {
	var b bytes.Buffer
	p, _ := Heatmap([][]uint64{{0, 1}, {1, 0}}, 0, 0, true, Labels{})
	if err := SVG(&b, p, 5*vg.Centimeter, 5*vg.Centimeter); err != nil {
		t.Fatal(err)
	}
	marked := b.Len()
	b.Reset()
	p, _ = Heatmap([][]uint64{{0, 1}, {1, 0}}, 0, 0, false, Labels{})
	if err := SVG(&b, p, 5*vg.Centimeter, 5*vg.Centimeter); err != nil {
		t.Fatal(err)
	}
	if marked <= b.Len() {
		t.Errorf("marking P-positions drew nothing more (%d ≤ %d bytes)", marked, b.Len())
	}
}

func TestPNG(t *testing.T) {
	p := figures(t)["wythoff"]
	var b bytes.Buffer
	if err := PNG(&b, p, 8*vg.Centimeter, 8*vg.Centimeter, 96); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w < 290 || w > 310 {
		t.Errorf("width %d px, want about 302 (8 cm at 96 dpi)", w)
	}
}

// TestPNGPixels: the figures drawn in greys (all but the heat maps, the
// game graph included) are written as 8-bit grey pixels, the heat maps in
// colour; either way the PNG holds the drawing's pixels exactly.
func TestPNGPixels(t *testing.T) {
	figs := figures(t)
	g, err := Graph(seed003Graph(t), Labels{Title: "(1,2,3)"})
	if err != nil {
		t.Fatal(err)
	}
	figs["graph"] = g
	for name, p := range surveyFigures(t) {
		figs[name] = p
	}
	colour := map[string]bool{"wythoff": true, "nimprod": true, "survey-values": true, "survey-counts": true, "survey-map": true, "survey-map-large": true}
	for name, p := range figs {
		t.Run(name, func(t *testing.T) {
			c := vgimg.NewWith(vgimg.UseWH(8*vg.Centimeter, 6*vg.Centimeter), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))
			p.Draw(draw.New(c))
			img := c.Image().(*image.RGBA)
			inked, grey := 0, true
			for i := 0; i < len(img.Pix); i += 4 {
				r, g, b := img.Pix[i], img.Pix[i+1], img.Pix[i+2]
				grey = grey && r == g && g == b
				if r < 128 {
					inked++
				}
			}
			if inked == 0 {
				t.Fatal("nothing drawn")
			}
			if grey == colour[name] {
				t.Fatalf("drawn in greys: %v, want %v", grey, !colour[name])
			}
			var b bytes.Buffer
			if err := PNG(&b, p, 8*vg.Centimeter, 6*vg.Centimeter, 96); err != nil {
				t.Fatal(err)
			}
			dec, err := png.Decode(&b)
			if err != nil {
				t.Fatal(err)
			}
			if gr, ok := dec.(*image.Gray); ok != grey {
				t.Fatalf("PNG decodes to %T, drawn in greys: %v", dec, grey)
			} else if ok {
				for i, y := range gr.Pix {
					if y != img.Pix[4*i] {
						t.Fatalf("pixel %d: %d in the PNG, %d drawn", i, y, img.Pix[4*i])
					}
				}
				return
			}
			bounds := img.Bounds()
			for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
				for x := bounds.Min.X; x < bounds.Max.X; x++ {
					r0, g0, b0, _ := img.At(x, y).RGBA()
					r1, g1, b1, _ := dec.At(x, y).RGBA()
					if r0 != r1 || g0 != g1 || b0 != b1 {
						t.Fatalf("pixel (%d, %d) differs in the PNG", x, y)
					}
				}
			}
		})
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"values", func() error { _, err := Values(make([]uint64, MaxPoints+1), 0, nil, Labels{}); return err }()},
		{"heatmap", func() error {
			big := make([][]uint64, 65)
			for i := range big {
				big[i] = make([]uint64, 65)
			}
			_, err := Heatmap(big, 0, 0, true, Labels{})
			return err
		}()},
		{"rare", func() error {
			_, err := RareCommon(make([]uint64, MaxPoints+1), 0, func(int, uint64) bool { return false }, Labels{})
			return err
		}()},
		{"bars", func() error { _, err := Bars(make([]uint64, MaxBars+1), Labels{}); return err }()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, ErrTooLarge) || !strings.HasPrefix(tc.err.Error(), "plots: ") || !strings.Contains(tc.err.Error(), "are drawn)") {
				t.Errorf("err = %v", tc.err)
			}
		})
	}
	for name, err := range map[string]error{
		"no values": func() error { _, err := Values(nil, 0, nil, Labels{}); return err }(),
		"no table":  func() error { _, err := Heatmap(nil, 0, 0, true, Labels{}); return err }(),
		"no bars":   func() error { _, err := Bars(nil, Labels{}); return err }(),
		"no rare":   func() error { _, err := RareCommon(nil, 0, nil, Labels{}); return err }(),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// The fixture is 0.051 as A. Flammenkamp's table gives it (G(0..47)), and
// its sparse positions by the definition are the table's 0, 3, 7, 13, 17,
// 27, 37, none later.
func TestRareFixture(t *testing.T) {
	want := []uint64{0, 0, 1, 1, 1, 0, 2, 2, 1, 3, 4, 0, 1, 1, 1, 3, 2, 2, 2, 3, 4, 0, 1, 5, 4, 3, 2, 2, 2, 3, 1, 0, 1, 0, 4, 3, 2, 2, 2, 0, 1, 0, 1, 0, 4, 3, 2, 5}
	g := octal051(200)
	if !slices.Equal(g[:48], want) {
		t.Fatalf("0.051: %v", g[:48])
	}
	two := 2
	r := &job.Rare{Type: "domain", T: &two}
	var got []int
	for n, v := range g {
		if r.IsRare(n, v) {
			got = append(got, n)
		}
	}
	if !slices.Equal(got, []int{0, 3, 7, 13, 17, 27, 37}) {
		t.Errorf("sparse positions %v", got)
	}
}

// Rare dots are drawn bigger and black: splitting the same values
// differently changes the picture.
func TestRareCommonMarks(t *testing.T) {
	vals := octal051(60)
	draw := func(isRare func(int, uint64) bool) string {
		p, err := RareCommon(vals, 0, isRare, Labels{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := SVG(&b, p, Width, Height); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	none := draw(func(int, uint64) bool { return false })
	all := draw(func(int, uint64) bool { return true })
	// The grey of common dots (midGrey) appears only where some are common.
	if none == all || !strings.Contains(none, "fill:#707070") || strings.Contains(all, "fill:#707070") {
		t.Error("rare and common dots look the same")
	}
}

// An axis named by mathematics (a letter, or a function of letters) is
// set in italics, as the handouts set those letters; an axis named by a
// word is not. Style.Apply decides again for the labels it sets.
func TestLabelFaces(t *testing.T) {
	for _, tc := range []struct {
		label  string
		italic bool
	}{
		{"n", true},
		{"b", true},
		{"g(n)", true},
		{"g(a, b)", true},
		{"g(a,b)", true},
		{"value", false},
		{"P-positions", false},
		{"heads", false},
		{"n (heap)", false},
		{"", false},
	} {
		t.Run(tc.label, func(t *testing.T) {
			p := newPlot(Labels{X: tc.label, Y: "value"})
			if got := p.X.Label.TextStyle.Font.Style == xfont.StyleItalic; got != tc.italic {
				t.Errorf("axis %q italic %v, want %v", tc.label, got, tc.italic)
			}
			if p.Y.Label.TextStyle.Font.Style == xfont.StyleItalic {
				t.Errorf("axis %q set in italics", "value")
			}
			q := newPlot(Labels{X: "words", Y: "words"})
			Style{X: tc.label}.Apply(q)
			if got := q.X.Label.TextStyle.Font.Style == xfont.StyleItalic; got != tc.italic {
				t.Errorf("Style.Apply: axis %q italic %v, want %v", tc.label, got, tc.italic)
			}
		})
	}
}
