package reports

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
	files, err := Exports(rep)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]string{}
	for _, f := range files {
		names = append(names, f.Name)
		byName[f.Name] = string(f.Data)
	}
	want := []string{"s01-values.csv", "s01-values.b.txt", "s02-table.csv", "s02-row-periods.csv",
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
	if err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(files) {
		t.Errorf("%d files written, want %d (no temporary files left)", len(ents), len(files))
	}
	if err := WriteFiles(dir, []File{{Name: "../x", Data: nil}}); err == nil {
		t.Error("a name with a directory was accepted")
	}
}
