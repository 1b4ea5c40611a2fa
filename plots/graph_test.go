package plots

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

// seed003Graph runs the graphs example: Nim from (1,2,3) drawn with
// unordered heaps, whose kernel is (1,2,3), (2,2), (1,1) and () (seed 003).
func seed003Graph(t *testing.T) *job.Graph {
	t.Helper()
	j, err := job.Parse("graph.yaml", []byte("sections:\n  - game: {nim: {heaps: [1, 2, 3]}}\n    show: [graph]\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background(), j, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Sections[0].Results.Graph
}

func TestGraphSVG(t *testing.T) {
	g := seed003Graph(t)
	if len(g.Labels) != len(g.P) || len(g.Moves) == 0 {
		t.Fatalf("graph fields not filled: %+v", g)
	}
	p, err := Graph(g, Labels{Title: "Nim (1,2,3)"})
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := SVG(&a, p, Width, SquareHeight); err != nil {
		t.Fatal(err)
	}
	p2, _ := Graph(g, Labels{Title: "Nim (1,2,3)"})
	SVG(&b, p2, Width, SquareHeight)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two drawings of the same graph differ")
	}
	for _, label := range []string{"(1,2,3)", "(2,2)", "(1,1)", "()"} {
		if !strings.Contains(a.String(), label) {
			t.Errorf("label %s missing from the drawing", label)
		}
	}
	golden := filepath.Join("testdata", "graph-nim123.svg")
	if *update {
		os.WriteFile(golden, a.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(a.Bytes(), want) {
		t.Errorf("drawing differs from %s (run go test -update if intended)", golden)
	}
}

func TestGraphDeterministic(t *testing.T) {
	jobs := []string{
		"sections:\n  - game: {nim: {heaps: [1, 2, 3]}}\n    show: [graph]\n",
		"sections:\n  - game: {subtraction: {set: [1, 2, 3]}}\n    position: [7]\n    show: [graph]\n",
		"sections:\n  - game: {wythoff: {size: [4, 4]}}\n    position: [2, 3]\n    show: [graph]\n",
		"sections:\n  - game: {nim: {heaps: [2, 2, 2]}}\n    show: [graph]\n",
	}
	for _, src := range jobs {
		j, err := job.Parse("graph.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := job.Run(context.Background(), j, job.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g := rep.Sections[0].Results.Graph
		var first []byte
		for range 20 {
			p, err := Graph(g, Labels{})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			SVG(&b, p, Width, SquareHeight)
			if first == nil {
				first = b.Bytes()
			} else if !bytes.Equal(first, b.Bytes()) {
				t.Fatalf("%s: drawings differ from run to run", src)
			}
		}
	}
}

func TestGraphTooLarge(t *testing.T) {
	g := &job.Graph{Labels: make([]string, MaxGraphNodes+1), P: make([]bool, MaxGraphNodes+1)}
	if _, err := Graph(g, Labels{}); err == nil {
		t.Error("a graph past the limit was drawn")
	}
}

// TestGraphLegend draws the same graph with its legend: the marks are
// named, the start ringed; without Legend the drawing is the report's.
func TestGraphLegend(t *testing.T) {
	g := seed003Graph(t)
	p, err := Graph(g, Labels{Title: "Nim (1,2,3)", Legend: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := SVG(&b, p, SquareHeight, SquareHeight); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"P-position: the player to move loses", "N-position: the player to move wins", "start (ringed)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the legend has no %q", want)
		}
	}
	look(t, "graph-legend", p, SquareHeight, SquareHeight)
	golden(t, "graph-legend.svg", b.Bytes())
	plain, _ := Graph(g, Labels{Title: "Nim (1,2,3)"})
	var c bytes.Buffer
	SVG(&c, plain, SquareHeight, SquareHeight)
	if strings.Contains(c.String(), "P-position: the player") {
		t.Error("a graph without Legend has one")
	}
}
