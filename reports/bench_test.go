package reports

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

func BenchmarkMarkdown(b *testing.B) {
	r := golayReport("en")
	for b.Loop() {
		if err := Markdown(io.Discard, r, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHTML(b *testing.B) {
	for _, name := range []string{"golay", "wythoff", "kayles"} {
		r := fixtures()[name]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := HTML(io.Discard, r, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzProse feeds arbitrary titles and prose through both renderers: no
// error, and no markup from the input survives into the HTML.
func FuzzProse(f *testing.F) {
	f.Add("Nim", "Take *any* number.\n\n| a | b |\n|---|---|\n| 1 | 2 |")
	f.Add("<script>x</script>", "<img src=x onerror=alert(1)> [a](javascript:alert(1))")
	f.Add("a \\ b", "```\ncode\n```")
	f.Fuzz(func(t *testing.T, title, text string) {
		r := &job.Report{Title: title, Sections: []*job.SectionResult{{Title: title, Text: text, Results: job.Results{Values: []uint64{0, 1}}}}}
		if err := Markdown(io.Discard, r, Options{}); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := HTML(&b, r, Options{}); err != nil {
			t.Fatal(err)
		}
		low := strings.ToLower(b.String())
		for _, bad := range []string{"<script", "<iframe", "<img src=x", "href=\"javascript:"} {
			if strings.Contains(low, bad) {
				t.Fatalf("%q in HTML from title %q, text %q", bad, title, text)
			}
		}
	})
}

// BenchmarkJSONValues: a section of 2^20 values (Officers to 2^20 − 1), as
// JSON, every value on its own line.
func BenchmarkJSONValues(b *testing.B) {
	vs := make([]uint64, 1<<20)
	for i := range vs {
		vs[i] = uint64(i*2654435761) % 300
	}
	r := &job.Report{Title: "p", Sections: []*job.SectionResult{{Title: "t", Results: job.Results{Values: vs}}}}
	for b.Loop() {
		if err := JSON(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}
