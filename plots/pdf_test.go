package plots

import (
	"bytes"
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
