package plots

import (
	"bytes"
	"math"
	"testing"

	"gonum.org/v1/plot/vg"
)

// A figure's PDF: in vectors with its words in Windows-1252 (é a byte, not
// UTF-8's two), as an image when a word is outside it; the same bytes
// every time.
func TestPDF(t *testing.T) {
	tests := []struct {
		name, label string
		vector      bool
	}{
		{"ascii", "value", true},
		{"french", "période", true},
		{"outside cp1252", "g₂(n) ⊕ 1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var first []byte
			for range 2 {
				p, err := Values([]uint64{0, 1, 2, 0, 1, 2}, 0, nil, Labels{X: "n", Y: tc.label})
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if err := PDF(&b, p, 10*vg.Centimeter, 6*vg.Centimeter); err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) {
					t.Fatalf("not a PDF: %.10q", b.Bytes())
				}
				if first != nil && !bytes.Equal(first, b.Bytes()) {
					t.Error("two renderings differ")
				}
				first = b.Bytes()
			}
			font := bytes.Contains(first, []byte("/FontFile2"))
			if font != tc.vector {
				t.Errorf("embedded font %v, want vector %v", font, tc.vector)
			}
			if bytes.Contains(first, []byte("Ã©")) {
				t.Error("é written as UTF-8 bytes")
			}
		})
	}
}

// The slant of italic words in a PDF figure is the shear of DejaVu Sans
// Oblique, made of the rotations and scaling a canvas knows.
func TestShear(t *testing.T) {
	s := newShear(obliqueAngle)
	k := math.Tan(obliqueAngle)
	rot := func(a, x, y float64) (float64, float64) {
		return x*math.Cos(a) - y*math.Sin(a), x*math.Sin(a) + y*math.Cos(a)
	}
	for _, p := range [][2]float64{{1, 0}, {0, 1}, {3, -2}, {-0.5, 7}} {
		x, y := rot(s.v, p[0], p[1])
		x, y = rot(s.u, s.sx*x, s.sy*y)
		if math.Abs(x-(p[0]+k*p[1])) > 1e-12 || math.Abs(y-p[1]) > 1e-12 {
			t.Errorf("%v ↦ (%g, %g), want (%g, %g)", p, x, y, p[0]+k*p[1], p[1])
		}
	}
}
