package plots

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// TestPointsGolden draws a notebook's plot(xs, ys, title=, xlabel=,
// ylabel=, size=(6, 4), log="xy"): the words, the size in inches, both
// axes logarithmic (gonum's LogScale), the points with a 0 skipped.
func TestPointsGolden(t *testing.T) {
	// Values that double, 2^(n-1), spanning decades as a coin game's
	// do: a straight line on log-log axes they are not, on log y they are.
	var xs, ys []float64
	for n := 0; n <= 16; n++ {
		xs = append(xs, float64(n))
		y := 0.0
		if n > 0 {
			y = float64(uint64(1) << (n - 1))
		}
		ys = append(ys, y)
	}
	st := Style{Title: "Values by heap", X: "heap n", Y: "g(n)", Width: 6 * vg.Inch, Height: 4 * vg.Inch, LogX: true, LogY: true}
	p, skipped, err := Points(xs, ys, st)
	if err != nil {
		t.Fatal(err)
	}
	if skipped != 1 {
		t.Errorf("%d points skipped, want 1 (n = 0, where both are 0)", skipped)
	}
	if _, ok := p.Y.Scale.(plot.LogScale); !ok {
		t.Errorf("y scale %T, want plot.LogScale", p.Y.Scale)
	}
	var b bytes.Buffer
	w, h := st.Size(Width, Height)
	if err := SVG(&b, p, w, h); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Values by heap", "heap n", "g(n)", `width="432pt"`, `height="288pt"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the SVG has no %q", want)
		}
	}
	look(t, "points-log", p, w, h)
	golden(t, "points-log.svg", b.Bytes())
}

// TestPointsErrors: what a log axis cannot show, and bad data, are
// errors that say so.
func TestPointsErrors(t *testing.T) {
	tests := []struct {
		name   string
		xs, ys []float64
		st     Style
		err    string
	}{
		{"all zero on log y", []float64{0, 1}, []float64{0, 0}, Style{LogY: true}, "every point has y ≤ 0"},
		{"negative on log x", []float64{-1, -2}, []float64{1, 2}, Style{LogX: true}, "every point has x ≤ 0"},
		{"lengths", []float64{1}, []float64{1, 2}, Style{}, "1 x values for 2 y values"},
		{"nothing", nil, nil, Style{}, "no values"},
		{"not a number", []float64{1, 2}, []float64{1, nan()}, Style{}, "draw finite numbers"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Points(tc.xs, tc.ys, tc.st)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
	// Linear axes keep every point, negatives too.
	if _, skipped, err := Points([]float64{-1, 0, 1}, []float64{-2, 0, 2}, Style{}); err != nil || skipped != 0 {
		t.Errorf("linear: %d skipped, %v", skipped, err)
	}
}

func nan() float64 { var z float64; return z / z }
