package reports

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
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
		files, err := Exports(context.Background(), r)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			if err := f.Write(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkHandouts is the budget (every example handout, run and
// written as Markdown, HTML and PDF, in under 2 s): one iteration does
// them all.
func BenchmarkHandouts(b *testing.B) {
	files, err := filepath.Glob("../examples/handouts/*.yaml")
	if err != nil || len(files) == 0 {
		b.Fatalf("handouts: %v", err)
	}
	jobs := make([]*job.Job, len(files))
	for i, f := range files {
		if jobs[i], err = job.ParseFile(f); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		for _, j := range jobs {
			rep, err := job.Run(context.Background(), j, job.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for _, render := range []func(io.Writer, *job.Report, Options) error{Markdown, HTML, PDF} {
				if err := render(io.Discard, rep, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
