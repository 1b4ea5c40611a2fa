package notebook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/kernel"
)

// display runs cells and returns the last one's display.
func display(t *testing.T, s *Session, cells ...string) (*kernel.Display, error) {
	t.Helper()
	var d *kernel.Display
	var err error
	for _, c := range cells {
		d, err = s.Execute(context.Background(), c, &recorder{})
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

// TestPlotStyle draws figures with matplotlib's keywords: the words, the
// size in inches and log axes are in the SVG, and the caption says which
// points a log axis skipped (counted here from the values themselves).
func TestPlotStyle(t *testing.T) {
	tests := []struct {
		name    string
		cells   []string
		caption string
		svg     []string // in the SVG
	}{
		{"family plot", []string{`octal("0.07").plot(30, title="Dawson's Kayles", xlabel="heap", ylabel="g(n)", size=(6, 4))`},
			"Dawson's Kayles", []string{"Dawson&#39;s Kayles", ">heap<", ">g(n)<", `width="432pt"`, `height="288pt"`}},
		{"log y skips the P-positions", []string{`v = octal("0.07").values(30)`, `zeros = len([x for x in v if x == 0])`, `octal("0.07").plot(30, log="y", title="zeros: %d" % zeros)`},
			"zeros: 8 (8 points ≤ 0 not drawn: a log axis has no place for them)", []string{"zeros: 8"}},
		{"log True is y", []string{`plot([1, 10, 100, 1000], log=True)`}, "plot of 4 points", []string{">1000<"}},
		{"log xy", []string{`plot([1, 2, 4, 8], [1, 10, 100, 1000], log="xy", xlabel="x")`}, "plot of 4 points", []string{">x<"}},
		{"plain points keep negatives", []string{`plot([-1, 0, 1], [-3, 0, 3], title="line")`}, "line", []string{">-3<"}},
		{"a result's plot()", []string{`coins(r=2, n=20).values().plot(ylabel="value of a head")`}, "Grundy values", []string{">value of a head<"}},
		{"restyle a plot", []string{`p = octal("0.77").plot(20)`, `plot(p, title="Kayles")`}, "Kayles", []string{">Kayles<"}},
		{"restyle a styled plot", []string{`p = octal("0.77").plot(20, title="Kayles")`, `plot(p, size=(4, 3))`}, "Kayles", []string{`width="288pt"`}},
		{"a table", []string{`wythoff(6, 6).plot(title="Wythoff", size=(5, 5))`}, "Wythoff", []string{`width="360pt"`}},
		{"a game of the cell", []string{`game(moves=lambda n: [n - k for k in [1, 2, 3] if k <= n], start=9).plot(12, title="subtraction {1,2,3}", log="y")`},
			"subtraction {1,2,3} (4 points ≤ 0 not drawn: a log axis has no place for them)", nil},
		{"a registered family's graph", []string{`chomp(rows=[2, 1]).plot(title="Chomp")`}, "Chomp", []string{">Chomp<"}},
		// Rows of numbers are a heatmap, as imshow draws them: Node Kayles
		// on m × n grids, m = 1, 2 (1 × n is Dawson's chess, 0.137: 1, 1,
		// 2, 0; 2 × n alternates 1, 0), rows and columns from 1.
		{"rows are a heatmap", []string{`plot([[node_kayles(graph={"grid": [m, n]}).value() for n in range(1, 5)] for m in [1, 2]], first=(1, 1), title="Node Kayles", xlabel="n", ylabel="m")`},
			"Node Kayles", []string{">Node Kayles<", ">n<", ">m<", ">4<"}},
		{"a heatmap's default words", []string{`plot([[0, 1], [1, 0]])`}, "Values, 0 marked ×", []string{">row<", ">column<"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			d, err := display(t, s, tc.cells...)
			if err != nil {
				t.Fatal(err)
			}
			if d == nil {
				t.Fatal("no display")
			}
			if got := d.Data["text/plain"]; got != tc.caption {
				t.Errorf("caption %q, want %q", got, tc.caption)
			}
			svg, _ := d.Data["image/svg+xml"].(string)
			for _, want := range tc.svg {
				if !strings.Contains(svg, want) {
					t.Errorf("the SVG has no %q", want)
				}
			}
			for _, mime := range []string{"image/png", "application/pdf"} {
				if x, _ := d.Data[mime].(string); x == "" {
					t.Errorf("no %s", mime)
				}
			}
		})
	}
}

func TestPlotErrors(t *testing.T) {
	tests := []struct{ cell, err string }{
		{`wythoff(5, 5).plot(log="y")`, "a table's heatmap has none"},
		{`octal("0.07").plot(10, size=(6,))`, "size is (width, height) in inches"},
		{`octal("0.07").plot(10, size=(100, 4))`, "each side from 1 to 40 inches"},
		{`octal("0.07").plot(10, log="z")`, `write log="x", "y" or "xy"`},
		{`octal("0.07").plot(10, title=3)`, "title must be a string"},
		{`plot("abc")`, "must be a list of numbers"},
		{`plot([1, 2], [1])`, "2 x values for 1 y values"},
		{`plot([0, 0], log="y")`, "every point has y ≤ 0"},
		{`plot([1], colour="red")`, `unexpected keyword argument "colour"`},
		{`plot(octal("0.07").period(20))`, "has no figure"},
		{`plot()`, "want plot(result), plot(ys) or plot(xs, ys)"},
		{`plot([[1, -2]])`, "cell (0, 1) of a heatmap is -2"},
		{`plot([[1, 2], "ab"])`, "row 1 of a heatmap is a string"},
		{`plot([[1.5]])`, "cell (0, 0) of a heatmap is a float"},
		{`plot([[1]], first=(1,))`, "first= is (row, column)"},
		{`plot([1, 2], first=(1, 1))`, "a list of numbers has none"},
		{`plot([[1]], log="y")`, "plot: log= draws values on a logarithmic axis; a heatmap has none"},
	}
	for _, tc := range tests {
		s := newSession(t)
		if _, err := display(t, s, tc.cell); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error about %q", tc.cell, err, tc.err)
		}
	}
}

// TestPlotGolden pins the SVG of a notebook's styled plot: Kayles's values
// on a log axis, with a title, axis labels and a size in inches.
func TestPlotGolden(t *testing.T) {
	s := newSession(t)
	d, err := display(t, s, `octal("0.77").plot(60, title="Kayles, g(n) on a log scale", xlabel="heap n", ylabel="g(n)", size=(6, 3), log="y")`)
	if err != nil {
		t.Fatal(err)
	}
	got := []byte(d.Data["image/svg+xml"].(string))
	path := filepath.Join("testdata", "plot-style.svg")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the SVG differs from %s (go test -update rewrites it)", path)
	}
}

// figRenderer draws every result as a figure without a legend, as the
// report renderer draws a game graph.
type figRenderer struct{}

func (figRenderer) Bundle(v any) (*kernel.Display, error) {
	return &kernel.Display{Data: map[string]any{"image/svg+xml": "<svg>no legend</svg>", "image/png": "cG5n"}}, nil
}

// TestGraphLegend: a game graph shown in a notebook carries the legend of
// its marks, whichever way it was asked for.
func TestGraphLegend(t *testing.T) {
	for _, cell := range []string{
		`nim(1, 2, 3).graph()`,
		`game(moves=lambda n: [n - k for k in [1, 2] if k <= n], start=5).graph()`,
		`chomp(rows=[2, 1]).graph()`,
		`chomp(rows=[2, 1]).plot()`,
		`chomp(rows=[3, 1]).plot(title="Chomp")`,
	} {
		s, err := New(Options{Renderer: figRenderer{}})
		if err != nil {
			t.Fatal(err)
		}
		d, err := display(t, s, cell)
		if err != nil {
			t.Fatalf("%s: %v", cell, err)
		}
		svg, _ := d.Data["image/svg+xml"].(string)
		for _, want := range []string{"P-position: the player to move loses", "N-position: the player to move wins", "start (ringed)"} {
			if !strings.Contains(svg, want) {
				t.Errorf("%s: the figure has no %q", cell, want)
			}
		}
		if png, _ := d.Data["image/png"].(string); png == "cG5n" || png == "" {
			t.Errorf("%s: the PNG is not the figure with its legend", cell)
		}
	}
	// A graph too large to draw keeps the renderer's bundle.
	s, _ := New(Options{Renderer: figRenderer{}})
	d, err := display(t, s, `nim(6, 7, 8).graph()`)
	if err != nil {
		t.Fatal(err)
	}
	if d.Data["image/svg+xml"] != "<svg>no legend</svg>" {
		t.Errorf("a large graph redrawn: %.80v", d.Data["image/svg+xml"])
	}
}
