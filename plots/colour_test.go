package plots

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// luma is a colour's lightness as color.GrayModel sees it.
func luma(c color.Color) uint8 { return color.GrayModel.Convert(c).(color.Gray).Y }

// The ramps: 0 black, then lighter with every value, never the white of
// the paper, so that the order survives a grey print.
func TestRamp(t *testing.T) {
	tests := []struct {
		name string
		r    ramp
		upto uint64
	}{
		{"one value", valueRamp(1), 1},
		{"Wythoff 10 × 10", valueRamp(17), 17},
		{"nim-product 0..63", valueRamp(255), 255},
		{"counts", countRamp(2576), 2576},
		{"periods 2..30", ramp{lo: 2, hi: 30}, 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if c := tc.r.at(0); c != black {
				t.Errorf("0 is %v, want black", c)
			}
			// The map is monotone in CIELAB's L*; luma, its sRGB
			// estimate, may step back by a unit or two.
			prev := luma(black)
			for v := tc.r.lo; v <= tc.upto; v++ {
				y := luma(tc.r.at(v))
				if int(y) < int(prev)-2 || (v == tc.r.lo && y < prev+40) {
					t.Fatalf("value %d: lightness %d after %d", v, y, prev)
				}
				if y > 235 {
					t.Fatalf("value %d: lightness %d, too close to the paper", v, y)
				}
				prev = y
			}
		})
	}
}

// pixelAt is the colour drawn at data point (x, y) of p drawn at w × h.
func pixelAt(t *testing.T, p *plot.Plot, w, h vg.Length, pts ...[2]float64) []color.Color {
	t.Helper()
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(c)
	p.Draw(dc)
	data := p.DataCanvas(dc)
	trX, trY := p.Transforms(&data)
	img := c.Image().(*image.RGBA)
	scale := 96 / vg.Inch.Points()
	var out []color.Color
	for _, pt := range pts {
		px := int(trX(pt[0]).Points() * scale)
		py := img.Bounds().Dy() - 1 - int(trY(pt[1]).Points()*scale)
		out = append(out, img.At(px, py))
	}
	return out
}

// Row and column 0 of a nim-product table are black and sit on their
// ticks: the cells are centred on the axes' whole numbers, no shift.
func TestHeatmapAligned(t *testing.T) {
	p, err := Heatmap(nimProduct(16), 0, 0, false, Labels{X: "b", Y: "a"})
	if err != nil {
		t.Fatal(err)
	}
	vc := valueRamp(15)
	tests := []struct {
		at   [2]float64 // (column, row)
		want color.Color
	}{
		{[2]float64{0, 0}, black},
		{[2]float64{0.3, 15.3}, black},
		{[2]float64{15.3, 0}, black},
		{[2]float64{1, 1}, vc.at(1)},
		{[2]float64{15, 1}, vc.at(15)},
		{[2]float64{1, 15}, vc.at(15)},
		{[2]float64{2, 2}, vc.at(3)}, // 2 ⊗ 2 = 3
		{[2]float64{15, 15}, vc.at(nimProduct(16)[15][15])},
	}
	var pts [][2]float64
	for _, tc := range tests {
		pts = append(pts, tc.at)
	}
	got := pixelAt(t, p, SquareHeight, SquareHeight, pts...)
	for i, tc := range tests {
		if rgba(got[i]) != rgba(tc.want) {
			t.Errorf("cell %v: %v, want %v", tc.at, got[i], tc.want)
		}
	}
}

// The figures carry their scale: 0's swatch and the values' labels.
func TestColourKey(t *testing.T) {
	svg := func(p *plot.Plot, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := SVG(&b, p, SquareHeight, SquareHeight); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	tests := []struct {
		name string
		svg  string
		want []string
	}{
		{"wythoff", svg(Heatmap(wythoff(10), 0, 0, true, Labels{})), []string{">0<", ">16<"}},
		{"counts", svg(CountRows([][]uint64{golayWeights}, 0, Labels{})), []string{">0<", ">1<", ">1000<"}},
		{"map", svg(ParamMap(pairPeriods(12, 60), Labels{})), []string{">?<", ">14<"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range tc.want {
				if !strings.Contains(tc.svg, w) {
					t.Errorf("%q missing", w)
				}
			}
		})
	}
}

func TestParamMap(t *testing.T) {
	// Small maps write the values; large ones ring the unknown cells.
	small, err := ParamMap([]MapCell{{X: 1, Y: 2, Value: 3, Known: true}, {X: 2, Y: 3}}, Labels{})
	if err != nil {
		t.Fatal(err)
	}
	got := pixelAt(t, small, Width, SquareHeight, [2]float64{1.4, 2.4}, [2]float64{2.4, 2.4}, [2]float64{2.4, 3.4})
	if rgba(got[0]) != (ramp{lo: 3, hi: 3}).at(3) || rgba(got[1]) != white || rgba(got[2]) != colourUnknown {
		t.Errorf("cells %v, want the map's, white (no variant), grey (unknown)", got)
	}
	var b bytes.Buffer
	if err := SVG(&b, small, Width, SquareHeight); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, ">3<") || strings.Count(s, ">?<") != 2 {
		t.Error("the value or the two ? (cell and key) are missing")
	}
	for name, cells := range map[string][]MapCell{
		"none":      nil,
		"twice":     {{X: 1, Y: 1, Known: true, Value: 2}, {X: 1, Y: 1}},
		"too large": {{X: 0, Y: 0}, {X: 100, Y: 100}},
	} {
		if _, err := ParamMap(cells, Labels{}); err == nil || !strings.HasPrefix(err.Error(), "plots: ") {
			t.Errorf("%s: %v", name, err)
		} else if name == "too large" && !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v does not wrap ErrTooLarge", name, err)
		}
	}
}

func TestRowNames(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{3, "a0 a1 a2"},
		{41, "a0 a2 a4 a6 a8 a10 a12 a14 a16 a18 a20 a22 a24 a26 a28 a30 a32 a34 a36 a38 a40"},
	}
	for _, tc := range tests {
		var names rowNames
		for i := range tc.n {
			names = append(names, "a"+strconv.Itoa(i))
		}
		var got []string
		for _, tk := range names.Ticks(-float64(tc.n)+0.5, 0.5) {
			got = append(got, tk.Label)
			if tk.Value > 0 {
				t.Errorf("%s at %v: rows run downwards", tk.Label, tk.Value)
			}
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%d rows: %s", tc.n, s)
		}
	}
}
