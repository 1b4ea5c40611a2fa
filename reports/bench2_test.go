package reports

import (
	"io"
	"testing"
)

func BenchmarkPDF(b *testing.B) {
	for _, name := range []string{"golay", "wythoff", "kayles"} {
		r := fixtures()[name]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := PDF(io.Discard, r, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNotebook(b *testing.B) {
	r := fixtures()["golay"]
	for b.Loop() {
		if err := Notebook(io.Discard, r, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookupOEIS(b *testing.B) {
	vals := kayles(1000)
	for b.Loop() {
		lookupOEIS(vals, 0)
	}
}

func BenchmarkExports(b *testing.B) {
	r := fixtures()["wythoff"]
	for b.Loop() {
		if _, err := Exports(r); err != nil {
			b.Fatal(err)
		}
	}
}
