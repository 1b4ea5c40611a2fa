package plots

import (
	"bytes"
	"errors"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/nimbook/nimbook/explore/job"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

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

// seed 000 (Madore 2017): the extended Golay code's weight distribution.
var golayWeights = []uint64{1, 0, 0, 0, 0, 0, 0, 0, 759, 0, 0, 0, 2576, 0, 0, 0, 759, 0, 0, 0, 0, 0, 0, 0, 1}

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
	return map[string]*plot.Plot{
		"kayles":  must(Values(kayles(100), 0, kp, Labels{Title: "Kayles (0.77)", X: "n", Y: "g(n)"})),
		"wythoff": must(Heatmap(wythoff(10), 0, 0, true, Labels{Title: "Wythoff", X: "b", Y: "a"})),
		"nimprod": must(Heatmap(nimProduct(16), 0, 0, false, Labels{Title: "Nim-product 0..15", X: "b", Y: "a"})),
		"golay":   must(Bars(golayWeights, Labels{Title: "Golay code", X: "heads", Y: "P-positions"})),
	}
}

func TestSVGGolden(t *testing.T) {
	for name, p := range figures(t) {
		t.Run(name, func(t *testing.T) {
			var a, b bytes.Buffer
			if err := SVG(&a, p, Width, Height); err != nil {
				t.Fatal(err)
			}
			// Drawing the same plot twice, and a fresh plot of the
			// same data, must give the same bytes.
			if err := SVG(&b, figures(t)[name], Width, Height); err != nil {
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
		})
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
		{"bars", func() error { _, err := Bars(make([]uint64, MaxBars+1), Labels{}); return err }()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, ErrTooLarge) || !strings.HasPrefix(tc.err.Error(), "plots: ") || !strings.Contains(tc.err.Error(), "plots.Max") {
				t.Errorf("err = %v", tc.err)
			}
		})
	}
	for name, err := range map[string]error{
		"no values": func() error { _, err := Values(nil, 0, nil, Labels{}); return err }(),
		"no table":  func() error { _, err := Heatmap(nil, 0, 0, true, Labels{}); return err }(),
		"no bars":   func() error { _, err := Bars(nil, Labels{}); return err }(),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
