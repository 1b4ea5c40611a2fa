package reports

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/job"
)

func TestExports(t *testing.T) {
	rep := runJob(t, `title: Exports
sections:
  - title: Kayles
    game: {octal: {code: "0.77", upto: 30}}
    show: [values]
  - title: Wythoff
    game: {wythoff: {size: [4, 5]}}
    show: [table, row-periods]
  - title: Hamming
    game: {coins: {rule: at-most, r: 2, n: 7}}
    show: [values, weights, distribution]
  - title: Graph
    game: {nim: {heaps: [1, 2]}}
    show: [graph]
  - title: Sparse
    game: {octal: {code: "0.051", upto: 60}}
    show: [rare]
`)
	files, err := Exports(context.Background(), rep)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]string{}
	for _, f := range files {
		names = append(names, f.Name)
		byName[f.Name] = string(fileBytes(t, f))
	}
	want := []string{"s01-values.csv", "s01-values.b.txt", "s01-histogram.txt", "s02-table.csv", "s02-row-periods.csv",
		"s03-values.csv", "s03-values.b.txt", "s03-weights.csv", "s03-distribution.csv", "s04-graph.dot",
		"s05-rare.csv"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	// The b-file: "n a(n)" lines, Kayles from n = 0 (OEIS A002186).
	b := strings.Split(strings.TrimSpace(byName["s01-values.b.txt"]), "\n")
	if b[0] != "# Kayles" || b[1] != "0 0" || b[2] != "1 1" || b[4] != "3 3" || len(b) != 32 {
		t.Errorf("b-file starts %q, %d lines", b[:5], len(b))
	}
	// The histogram of g(1..30) of Kayles (0.77, OEIS A002186: 1 2 3 1 4
	// 3 2 1 4 2 6 4 1 2 7 1 4 3 2 1 4 6 7 4 1 2 8 5 4 7): "value count",
	// values ascending, in the form of Rogalski's tables.
	kayles := "1 7\n2 6\n3 3\n4 7\n5 1\n6 2\n7 3\n8 1\n"
	if byName["s01-histogram.txt"] != kayles {
		t.Errorf("histogram.txt:\n%s\nwant\n%s", byName["s01-histogram.txt"], kayles)
	}
	// Coins numbered from 1: f_2(n) = n.
	if !strings.HasPrefix(byName["s03-values.csv"], "n,value\n1,1\n2,2\n") {
		t.Errorf("coins values.csv:\n%s", byName["s03-values.csv"])
	}
	rows, err := csv.NewReader(strings.NewReader(byName["s02-table.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// MATH.md: Wythoff g(1, 2) = 0, a P-position; 4 rows and 5 columns.
	if len(rows) != 5 || len(rows[0]) != 6 || rows[2][3] != "0" || rows[0][1] != "0" || rows[1][0] != "0" {
		t.Errorf("table.csv: %v", rows)
	}
	// Hamming code: 16 words, weights 1, 7, 7, 1 at 0, 3, 4, 7.
	if !strings.Contains(byName["s03-weights.csv"], "3,7\n4,7\n") {
		t.Errorf("weights.csv:\n%s", byName["s03-weights.csv"])
	}
	if !strings.Contains(byName["s04-graph.dot"], "digraph") {
		t.Errorf("graph.dot:\n%s", byName["s04-graph.dot"])
	}

	// Flammenkamp's 0.051: the sparse positions are 0, 3, 7, 13, 17, 27, 37.
	var sparse []string
	rare, err := csv.NewReader(strings.NewReader(byName["s05-rare.csv"])).ReadAll()
	if err != nil || len(rare) != 62 || !reflect.DeepEqual(rare[0], []string{"n", "value", "rare"}) {
		t.Fatalf("rare.csv: %v %v", err, rare[:min(len(rare), 3)])
	}
	for _, r := range rare[1:] {
		if r[2] == "true" {
			sparse = append(sparse, r[0])
		}
	}
	if !reflect.DeepEqual(sparse, []string{"0", "3", "7", "13", "17", "27", "37"}) {
		t.Errorf("rare positions in rare.csv: %v", sparse)
	}

	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteFiles(context.Background(), dir, files); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(files) {
		t.Errorf("%d files written, want %d (no temporary files left)", len(ents), len(files))
	}
	if err := WriteFiles(context.Background(), dir, []File{{Name: "../x", Write: func(io.Writer) error { return nil }}}); err == nil {
		t.Error("a name with a directory was accepted")
	}
}

// fileBytes is what f writes.
func fileBytes(t testing.TB, f File) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	return b.Bytes()
}

// maxCompared bounds the sequences checkStreamedExports compares: the
// reference holds a file whole, several times over, and the rows past it
// take the same path as the rows before.
const maxCompared = 1 << 17

// checkStreamedExports checks that the streamed exports of r are, name for
// name and byte for byte, those of exportsInMemory, the exports as they
// were made whole in memory before they were streamed. Longer sequences
// than maxCompared are cut to it first.
func checkStreamedExports(t *testing.T, r *job.Report) {
	t.Helper()
	cut := *r
	cut.Sections = make([]*job.SectionResult, len(r.Sections))
	for i, sr := range r.Sections {
		if sr == nil {
			continue
		}
		s := *sr
		s.Results.Values = s.Results.Values[:min(len(s.Results.Values), maxCompared)]
		if rr := s.Results.Rare; rr != nil {
			c := *rr
			c.Values = c.Values[:min(len(c.Values), maxCompared)]
			s.Results.Rare = &c
		}
		cut.Sections[i] = &s
	}
	want := exportsInMemory(&cut)
	got, err := Exports(context.Background(), &cut)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d files streamed, %d made in memory", len(got), len(want))
	}
	for i, f := range got {
		if f.Name != want[i].name {
			t.Errorf("file %d is %s, made in memory %s", i, f.Name, want[i].name)
			continue
		}
		if b := fileBytes(t, f); !bytes.Equal(b, want[i].data) {
			n := 0
			for n < min(len(b), len(want[i].data)) && b[n] == want[i].data[n] {
				n++
			}
			t.Errorf("%s: streamed %d bytes, made in memory %d, first difference at byte %d", f.Name, len(b), len(want[i].data), n)
		}
	}
}

type memFile struct {
	name string
	data []byte
}

// exportsInMemory is Exports as it was before exports were streamed, every
// file made whole through encoding/csv and fmt: the reference the streamed
// files must equal.
func exportsInMemory(r *job.Report) []memFile {
	var out []memFile
	csvFile := func(name string, rows [][]string) {
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		_ = w.WriteAll(rows)
		out = append(out, memFile{name, b.Bytes()})
	}
	// The sections as printed: a nil one is not, the sections across a
	// parameter are one.
	n, member := 0, 0
	for i, sr := range r.Sections {
		if sr == nil {
			continue
		}
		if ac := across(sr); i > 0 && ac != nil && across(r.Sections[i-1]) == ac {
			member++
		} else {
			n++
			member = 0
		}
		pre := fmt.Sprintf("s%02d-", n)
		if ac := across(sr); ac != nil {
			pre += figureStem(ac.Stem(member)) + "-"
		}
		res := &sr.Results
		title := sr.Title
		if title == "" {
			title = fmt.Sprintf("section %d", i+1)
		}
		if len(res.Values) > 0 {
			first := firstOf(sr, 0)
			rows := [][]string{{"n", "value"}}
			var b bytes.Buffer
			fmt.Fprintf(&b, "# %s\n", strings.ReplaceAll(title, "\n", " "))
			for k, v := range res.Values {
				rows = append(rows, []string{itoa(first + k), utoa(v)})
				fmt.Fprintf(&b, "%d %d\n", first+k, v)
			}
			csvFile(pre+"values.csv", rows)
			out = append(out, memFile{pre + "values.b.txt", b.Bytes()})
			if sr.Spec != nil && sr.Spec.Heap() != nil {
				counts := map[uint64]int{}
				for k, v := range res.Values {
					if first+k >= 1 {
						counts[v]++
					}
				}
				keys := slices.Sorted(maps.Keys(counts))
				var h bytes.Buffer
				for _, v := range keys {
					fmt.Fprintf(&h, "%d %d\n", v, counts[v])
				}
				out = append(out, memFile{pre + "histogram.txt", h.Bytes()})
			}
		}
		if res.Table != nil {
			if g, ok := grid(res.Table); ok {
				cols := 0
				for _, row := range g {
					cols = max(cols, len(row))
				}
				head := []string{""}
				for j := range cols {
					head = append(head, itoa(firstOf(sr, 1)+j))
				}
				rows := [][]string{head}
				for k, row := range g {
					line := []string{itoa(firstOf(sr, 0) + k)}
					for _, v := range row {
						line = append(line, utoa(v))
					}
					rows = append(rows, line)
				}
				csvFile(pre+"table.csv", rows)
			} else if c, ok := cube(res.Table); ok {
				rows := [][]string{{"i", "j", "k", "value"}}
				for a, layer := range c {
					for b2, row := range layer {
						for k, v := range row {
							rows = append(rows, []string{itoa(firstOf(sr, 0) + a), itoa(firstOf(sr, 1) + b2), itoa(firstOf(sr, 2) + k), utoa(v)})
						}
					}
				}
				csvFile(pre+"table.csv", rows)
			}
		}
		if len(res.Weights) > 0 {
			rows := [][]string{{"heads", "count"}}
			for k, c := range res.Weights {
				rows = append(rows, []string{itoa(k), utoa(c)})
			}
			csvFile(pre+"weights.csv", rows)
		}
		if len(res.Distribution) > 0 {
			rows := [][]string{{"heads", "value", "count"}}
			for w, row := range res.Distribution {
				for v, c := range row {
					if c != 0 {
						rows = append(rows, []string{itoa(w), itoa(v), utoa(c)})
					}
				}
			}
			csvFile(pre+"distribution.csv", rows)
		}
		if len(res.RowPeriods) > 0 {
			rows := [][]string{{"row", "period", "start"}}
			for _, p := range res.RowPeriods {
				rows = append(rows, []string{itoa(p.Row), itoa(p.Period), itoa(p.Start)})
			}
			csvFile(pre+"row-periods.csv", rows)
		}
		if rr := res.Rare; rr != nil && len(rr.Values) > 0 {
			rows := [][]string{{"n", "value", "rare"}}
			for n, v := range rr.Values {
				rows = append(rows, []string{itoa(n), utoa(v), strconv.FormatBool(rr.IsRare(n, v))})
			}
			csvFile(pre+"rare.csv", rows)
		}
		if g := res.Graph; g != nil && g.DOT != "" {
			dot := g.DOT
			if !strings.HasSuffix(dot, "\n") {
				dot += "\n"
			}
			out = append(out, memFile{pre + "graph.dot", []byte(dot)})
		}
	}
	return out
}

// TestExportsEdgeCases compares streamed and in-memory exports on results
// the examples do not have: ragged and empty tables, titles over several
// lines, a DOT graph without a final newline, coins numbered from 5, a
// 3-D table.
func TestExportsEdgeCases(t *testing.T) {
	r := &job.Report{Sections: []*job.SectionResult{
		{Title: "two\nlines", Results: job.Results{Values: []uint64{0, 1, 1 << 63}, First: []int{5},
			Table: [][]uint64{{1, 2, 3}, {}, {4}}, Weights: []uint64{1, 0, 7},
			Distribution: [][]uint64{{0, 2}, {3, 0, 1}},
			Graph:        &job.Graph{DOT: "digraph { a -> b }"}}},
		nil,
		{Results: job.Results{Values: []uint64{3}, Table: [][][]uint64{{{1, 2}, {3}}, {{4}}}}},
		{Results: job.Results{Table: [][]uint64{}}},
	}}
	checkStreamedExports(t, r)
}

// TestExportsStream checks that a long sequence is written without being
// held: writing 2^20 values allocates a small part of the file's size.
func TestExportsStream(t *testing.T) {
	const n = 1 << 20
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = uint64(i) * 977
	}
	r := &job.Report{Sections: []*job.SectionResult{{Title: "long", Results: job.Results{Values: vals,
		Rare: &job.Rare{Mask: 1, Type: "range", Values: vals}}}}}
	files, err := Exports(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		cw := &countWriter{}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := f.Write(cw); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 || alloc > uint64(cw.n)/16 {
			t.Errorf("%s: %d bytes written with %d bytes allocated", f.Name, cw.n, alloc)
		}
	}
}

// countWriter counts the bytes written to it, keeping none; after cancel
// writes, it cancels.
type countWriter struct {
	n, lines int
	cancel   func()
	after    int
}

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	w.lines += bytes.Count(p, []byte("\n"))
	if w.cancel != nil && w.lines >= w.after {
		w.cancel()
	}
	return len(p), nil
}

// TestExportsCancel checks that a done context stops an export between
// rows, within checkEvery of them, and that WriteFiles then leaves no file.
func TestExportsCancel(t *testing.T) {
	vals := make([]uint64, 100000)
	r := &job.Report{Sections: []*job.SectionResult{{Title: "long", Results: job.Results{Values: vals}}}}
	for _, name := range []string{"s01-values.csv", "s01-values.b.txt"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			files, err := Exports(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			stop := errors.New("interrupted")
			cw := &countWriter{cancel: func() { cancel(stop) }, after: 10}
			var f File
			for _, g := range files {
				if g.Name == name {
					f = g
				}
			}
			err = f.Write(cw)
			if !errors.Is(err, stop) {
				t.Errorf("error %v, want the context's cause", err)
			}
			if cw.lines > checkEvery+1 {
				t.Errorf("%d lines written, %d after the context was done", cw.lines, cw.lines-10)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	files, err := Exports(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteFiles(ctx, dir, files); !errors.Is(err, context.Canceled) {
		t.Errorf("WriteFiles after cancel: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d files left after cancel", len(ents))
	}
}

// TestWriteExportsMemory checks that exports are refused, before any file
// is written, when the memory limit is below what writing one costs.
func TestWriteExportsMemory(t *testing.T) {
	r := &job.Report{Sections: []*job.SectionResult{{Title: "x", Results: job.Results{Values: []uint64{1, 2}}}}}
	dir := filepath.Join(t.TempDir(), "out")
	err := WriteExports(context.Background(), dir, r, Options{MaxMemory: 1000})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "--max-memory") {
		t.Errorf("error %v, want a refusal naming --max-memory", err)
	}
	if _, serr := os.Stat(dir); serr == nil {
		t.Error("the directory was made for a refused export")
	}
	if err := WriteExports(context.Background(), dir, r, Options{MaxMemory: 64 << 20}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "s01-values.b.txt"))
	if err != nil || string(got) != "# x\n0 1\n1 2\n" {
		t.Errorf("b-file %q, %v", got, err)
	}
}
