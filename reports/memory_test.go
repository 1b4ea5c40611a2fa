package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// bigReport holds a sequence of n values and a side × side table: what a
// long run gives, far past what any document shows.
func bigReport(n, side int) *job.Report {
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = uint64(i % 1000)
	}
	tab := make([][]uint64, side)
	for i := range tab {
		tab[i] = make([]uint64, side)
		for k := range tab[i] {
			tab[i][k] = uint64(i ^ k)
		}
	}
	oc := &job.Section{Title: "A long run", Family: "octal", Play: "normal",
		Game: heapGame("octal", heap.Params{"code": "0.07", "upto": n - 1}), Show: []string{"values", "period", "p-positions", "plot"}}
	wy := &job.Section{Title: "A large table", Family: "wythoff", Play: "normal",
		Game: &job.WythoffSpec{Size: [2]int{side, side}}, Show: []string{"table", "plot"}}
	return &job.Report{Title: "Large", Lang: "en", Sections: []*job.SectionResult{
		{Title: oc.Title, Spec: oc, Results: job.Results{Values: vals,
			Period:     &job.Period{Proven: true, Preperiod: 0, Period: 1000, CheckedTo: 2000},
			PPositions: &job.PPositions{Count: uint64(n / 1000)}}},
		{Title: wy.Title, Spec: wy, Results: job.Results{Table: tab}},
	}}
}

// allocated is the number of bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Rendering a large result costs memory in proportion to what the document
// shows, not to the result: the JSON of 4·10^6 values and a 1500 × 1500
// table (some 60 MB of text) is written as it goes. Bytes allocated bound
// the peak, and do not depend on the garbage collector's timing.
func TestRenderingMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates some 100 MB")
	}
	r := bigReport(4_000_000, 1500)
	const limit = 16 << 20
	for _, tc := range []struct {
		name   string
		render func(io.Writer) error
	}{
		{"json", func(w io.Writer) error { return JSON(w, r) }},
		{"markdown", func(w io.Writer) error { return Markdown(w, r, Options{}) }},
		{"html", func(w io.Writer) error { return HTML(w, r, Options{}) }},
		{"ipynb", func(w io.Writer) error { return Notebook(w, r, Options{}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			n := allocated(func() { err = tc.render(io.Discard) })
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %.1f MiB allocated", tc.name, float64(n)/(1<<20))
			if n > limit {
				t.Errorf("rendering allocated %.1f MiB, want at most %d MiB", float64(n)/(1<<20), limit>>20)
			}
		})
	}
}

// The streamed JSON is encoding/json's, byte for byte, on every shape the
// results take.
func TestJSONSameAsEncodingJSON(t *testing.T) {
	reports := fixtures()
	reports["big"] = bigReport(3000, 40)
	reports["empty"] = &job.Report{}
	// Values of every width, past the writer's buffer many times.
	wide := make([]uint64, 40_000)
	for i := range wide {
		wide[i] = ^uint64(0) >> (i % 64)
	}
	reports["wide"] = &job.Report{Sections: []*job.SectionResult{{Results: job.Results{Values: wide, Table: [][]uint64{wide[:3], {}, wide[5:6]}}}}}
	reports["nil-section"] = &job.Report{Title: "x", Sections: []*job.SectionResult{nil, {}}}
	reports["cube"] = &job.Report{Sections: []*job.SectionResult{{Results: job.Results{
		Table: [][][]uint64{{{0, 1}, {1, 0}}, {}}, Moves: []any{[]int{}, [2]int{1, 2}, "a<b>&"},
		Rare: &job.Rare{Type: "range", Positions: []int{}}, Distribution: [][]uint64{{1}, nil}}}}}
	for name, r := range reports {
		t.Run(name, func(t *testing.T) {
			type sec struct {
				Title   string         `json:"title"`
				Game    map[string]any `json:"game,omitempty"`
				Results *job.Results   `json:"results"`
			}
			doc := struct {
				Format   string `json:"format"`
				Title    string `json:"title"`
				Sections []*sec `json:"sections"`
			}{Format: JSONFormat, Title: r.Title, Sections: []*sec{}}
			for _, sr := range r.Sections {
				if sr == nil {
					doc.Sections = append(doc.Sections, nil)
					continue
				}
				doc.Sections = append(doc.Sections, &sec{sr.Title, sr.Spec.GameJSON(), &sr.Results})
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(doc); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := JSON(&got, r); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("got\n%s\nwant\n%s", got.Bytes(), want.Bytes())
			}
		})
	}
}

// Past Options.MaxMemory, a rendering is refused before it writes, with
// the limit and how to raise it named; under it, it runs.
func TestRenderingRefusedOverLimit(t *testing.T) {
	r := bigReport(200_000, 400)
	for _, tc := range []struct {
		name   string
		limit  string
		render func(io.Writer, Options) error
	}{
		{"markdown", "32 MiB", func(w io.Writer, o Options) error { return Markdown(w, r, o) }},
		{"html", "64 MiB", func(w io.Writer, o Options) error { return HTML(w, r, o) }},
		{"ipynb", "64 MiB", func(w io.Writer, o Options) error { return Notebook(w, r, o) }},
		{"pdf", "64 MiB", func(w io.Writer, o Options) error { return PDF(w, r, o) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limit, err := budget.ParseSize(strings.ReplaceAll(tc.limit, " ", ""))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			err = tc.render(&b, Options{MaxValues: 200_000, MaxSide: 400, MaxMemory: limit})
			if !errors.Is(err, budget.ErrMemory) {
				t.Fatalf("err = %v, want a refusal for the memory limit", err)
			}
			for _, want := range []string{tc.limit, "--max-memory"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q does not say %q", err, want)
				}
			}
			if tc.name != "html" && tc.name != "markdown" && b.Len() > 0 {
				t.Errorf("%d bytes written before the refusal", b.Len())
			}
			// The default limits of a document render it under the same limit.
			if err := tc.render(io.Discard, Options{MaxMemory: limit}); err != nil {
				t.Errorf("with the default caps: %v", err)
			}
		})
	}
}
