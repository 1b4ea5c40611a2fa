package plots

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figures across the variants of a survey: a histogram of their periods,
// their preperiods against their periods, and their value sequences (or
// weight distributions) as one image, a row per variant.

// MaxRowCells bounds the cells of ValueRows and CountRows: they are drawn
// as one image (a pixel or a few per cell), not one rectangle each, so
// that 4095 variants of 100 values still make a light figure.
const MaxRowCells = 1 << 20

// linearBins is the widest range of values a histogram draws with one bar
// per value; wider ones get a bar per power of two.
const linearBins = 40

// Histogram draws how many of xs take each value: one bar per value when
// they span at most 40, else one bar per range (2^(k−1), 2^k] (1, 2, 3–4,
// 5–8, …), a logarithmic scale that keeps a few long periods from
// flattening the many short ones. Values below 1 are counted in a first
// bar of their own.
func Histogram(xs []int, l Labels) (*plot.Plot, error) {
	if len(xs) == 0 {
		return nil, errors.New("plots: no values to count")
	}
	names, counts := histogramBins(xs)
	if len(counts) > MaxBars {
		return nil, &TooLargeError{Kind: "bars", N: len(counts), Limit: MaxBars}
	}
	vals := make(plotter.Values, len(counts))
	for i, c := range counts {
		vals[i] = float64(c)
	}
	p := newPlot(l)
	bars, err := plotter.NewBarChart(vals, vg.Length(math.Min(20, 300/float64(len(counts)))))
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	bars.Color = midGrey
	bars.LineStyle.Color = ink
	bars.LineStyle.Width = vg.Points(0.5)
	p.Add(bars)
	// Label every bar when they are few, else every few, so that the
	// labels never overlap.
	step := (len(names) + 19) / 20
	for i := range names {
		if i%step != 0 {
			names[i] = ""
		}
	}
	p.NominalX(names...)
	// Room for the last label, centred on the last bar.
	p.X.Max = float64(len(counts)) - 0.3
	var top uint64
	for _, c := range counts {
		top = max(top, c)
	}
	if len(counts) <= 40 {
		if err := countLabels(p, counts); err != nil {
			return nil, err
		}
	}
	p.Y.Tick.Marker = intTicks{}
	p.Y.Min, p.Y.Max = 0, float64(top)*1.12+1
	return p, nil
}

// histogramBins counts xs (not empty) in the bars Histogram draws, and
// names each bar.
func histogramBins(xs []int) (names []string, counts []uint64) {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	if hi-lo < linearBins {
		counts = make([]uint64, hi-lo+1)
		for _, x := range xs {
			counts[x-lo]++
		}
		for x := lo; x <= hi; x++ {
			names = append(names, strconv.Itoa(x))
		}
	} else {
		// bin 0 holds x ≤ 1 (1 itself, and 0 when a value is 0),
		// bin k ≥ 1 holds 2^(k−1) < x ≤ 2^k.
		bin := func(x int) int {
			k := 0
			for x > 1<<k {
				k++
			}
			return k
		}
		counts = make([]uint64, bin(hi)+1)
		for _, x := range xs {
			counts[bin(max(x, 1))]++
		}
		for k := range counts {
			a, b := 1<<max(k-1, 0)+1, 1<<k
			switch {
			case k == 0 && lo < 1:
				names = append(names, "≤ 1")
			case k == 0:
				names = append(names, "1")
			case a == b:
				names = append(names, strconv.Itoa(b))
			default:
				names = append(names, strconv.Itoa(a)+"–"+strconv.Itoa(b))
			}
		}
	}
	return names, counts
}

// countLabels writes the non-zero counts above their bars, so that the
// numbers survive a photocopy.
func countLabels(p *plot.Plot, counts []uint64) error {
	var xys plotter.XYs
	var labels []string
	for i, c := range counts {
		if c != 0 {
			xys = append(xys, plotter.XY{X: float64(i), Y: float64(c)})
			labels = append(labels, strconv.FormatUint(c, 10))
		}
	}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].XAlign = draw.XCenter
		lb.TextStyle[i].YAlign = draw.YBottom
		lb.TextStyle[i].Font = font.From(Sans, vg.Points(8))
	}
	lb.Offset = vg.Point{Y: vg.Points(2)}
	p.Add(lb)
	return nil
}

// Scatter draws the points (xs[i], ys[i]) of natural numbers, one ring per
// distinct point, its area growing with the number of variants there (the
// most crowded point gets a ring of 12 points). An
// axis whose values span more than two decades is drawn on a log(1 + v)
// scale, which keeps 0 on the axis.
func Scatter(xs, ys []int, l Labels) (*plot.Plot, error) {
	if len(xs) == 0 || len(xs) != len(ys) {
		return nil, fmt.Errorf("plots: %d x values and %d y values to draw", len(xs), len(ys))
	}
	type pt struct{ x, y int }
	count := map[pt]int{}
	var order []pt
	xhi, yhi := 0, 0
	for i := range xs {
		if xs[i] < 0 || ys[i] < 0 {
			return nil, fmt.Errorf("plots: negative point (%d, %d)", xs[i], ys[i])
		}
		q := pt{xs[i], ys[i]}
		if count[q] == 0 {
			order = append(order, q)
		}
		count[q]++
		xhi, yhi = max(xhi, xs[i]), max(yhi, ys[i])
	}
	// Largest dots first, so that small ones stay visible on top; ties
	// in a fixed order for stable output.
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		if a.x != b.x {
			return a.x < b.x
		}
		return a.y < b.y
	})
	most := count[order[0]]
	p := newPlot(l)
	for _, q := range order {
		s, err := plotter.NewScatter(plotter.XYs{{X: float64(q.x), Y: float64(q.y)}})
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		s.Shape = draw.RingGlyph{}
		s.Color = ink
		// Area proportional to the count, up to a ring of 12 points.
		s.Radius = vg.Points(2 + 10*math.Sqrt(float64(count[q]-1)/float64(max(most-1, 1))))
		p.Add(s)
	}
	axis := func(a *plot.Axis, hi int) {
		if hi >= 100 {
			a.Scale = log1pScale{}
			a.Tick.Marker = log1pTicks{}
			a.Min, a.Max = 0, float64(hi)*1.5
			return
		}
		a.Tick.Marker = intTicks{}
		a.Min, a.Max = -0.5, float64(max(hi, 5))*1.04+1
	}
	axis(&p.X, xhi)
	axis(&p.Y, yhi)
	return p, nil
}

// log1pScale places v at log(1 + v): a log scale that holds 0.
type log1pScale struct{}

func (log1pScale) Normalize(lo, hi, x float64) float64 {
	a, b := math.Log1p(math.Max(lo, 0)), math.Log1p(math.Max(hi, 0))
	if b == a {
		return 0
	}
	return (math.Log1p(math.Max(x, 0)) - a) / (b - a)
}

// log1pTicks puts ticks at 0, 1, 2, 5, 10, 20, 50, … within the range.
type log1pTicks struct{}

func (log1pTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	add := func(v float64) {
		if v >= lo && v <= hi {
			ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
		}
	}
	add(0)
	for d := 1.0; d <= hi; d *= 10 {
		for _, m := range []float64{1, 2, 5} {
			add(m * d)
		}
	}
	return ts
}

// ValueRows draws rows of Grundy values as one image, a row per variant
// (row 0 at the top, named by l.Rows when given) and a column per n from
// colFirst, coloured as Heatmap colours a table: value 0 (a P-position)
// black, larger values lighter; cells past the end of a row (or a nil
// row, a variant without values) are left white, the paper.
func ValueRows(rows [][]uint64, colFirst int, l Labels) (*plot.Plot, error) {
	var top uint64
	for _, r := range rows {
		for _, v := range r {
			top = max(top, v)
		}
	}
	vc := valueRamp(top)
	return rowImage(rows, colFirst, vc.at, vc.key(true), l)
}

// CountRows draws rows of counts (a weight distribution per variant) as
// one image: 0 (no word of that weight) black, the others along the
// colour map, by the logarithm of the count once counts reach 100, so
// that 1 and 2576 both show; cells past the end of a row white.
func CountRows(rows [][]uint64, colFirst int, l Labels) (*plot.Plot, error) {
	var top uint64
	for _, r := range rows {
		for _, v := range r {
			top = max(top, v)
		}
	}
	cc := countRamp(top)
	return rowImage(rows, colFirst, cc.at, cc.key(true), l)
}

// rowImage draws rows as an image coloured by colour, with its key;
// missing cells are white. Rows run downwards: row i lies at y = −i,
// and the ticks are labelled i, or l.Rows[i].
func rowImage(rows [][]uint64, colFirst int, colour func(uint64) color.RGBA, key *colourKey, l Labels) (*plot.Plot, error) {
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	if len(rows) == 0 || cols == 0 {
		return nil, errors.New("plots: no rows to draw")
	}
	if len(rows)*cols > MaxRowCells {
		return nil, &TooLargeError{Kind: "cells", N: len(rows) * cols, Limit: MaxRowCells}
	}
	// A few pixels per cell, so that a viewer that smooths the scaled
	// image blurs only the edges of the cells.
	sx, sy := max(1, 600/cols), max(1, 600/len(rows))
	img := image.NewRGBA(image.Rect(0, 0, cols*sx, len(rows)*sy))
	for i, r := range rows {
		for j := 0; j < cols; j++ {
			c := white
			if j < len(r) {
				c = colour(r[j])
			}
			for y := i * sy; y < (i+1)*sy; y++ {
				for x := j * sx; x < (j+1)*sx; x++ {
					img.SetRGBA(x, y, c)
				}
			}
		}
	}
	p := newPlot(l)
	x0, x1 := float64(colFirst)-0.5, float64(colFirst+cols)-0.5
	y0, y1 := -float64(len(rows))+0.5, 0.5
	p.Add(plotter.NewImage(img, x0, y0, x1, y1))
	// A thin frame: white cells at the edge would otherwise merge with
	// the page.
	frame, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	frame.Color = midGrey
	frame.Width = vg.Points(0.5)
	p.Add(frame, key)
	p.X.Min, p.X.Max = x0, x1
	p.Y.Min, p.Y.Max = y0, y1
	p.X.Tick.Marker = intTicks{}
	p.Y.Tick.Marker = downTicks{}
	if len(l.Rows) > 0 {
		p.Y.Tick.Marker = rowNames(l.Rows[:min(len(l.Rows), len(rows))])
		p.Y.Tick.Label.Font.Size = vg.Points(rowFont(len(rows)))
	}
	return p, nil
}

// rowFont is the size in points of the names of n rows: smaller as they
// crowd, never below 6.
func rowFont(n int) float64 {
	return math.Max(6, math.Min(9, 300/float64(max(n, 1))))
}

// rowNames labels the rows of a figure drawn downwards by their names
// (the variants' codes), every row when they are few, else every k-th so
// that at most maxRowNames show.
type rowNames []string

const maxRowNames = 40

func (r rowNames) Ticks(lo, hi float64) []plot.Tick {
	step := (len(r) + maxRowNames - 1) / maxRowNames
	var ts []plot.Tick
	for i := 0; i < len(r); i += step {
		if y := -float64(i); y >= lo && y <= hi {
			if y == 0 {
				y = 0 // never "-0"
			}
			ts = append(ts, plot.Tick{Value: y, Label: r[i]})
		}
	}
	return ts
}

// MapCell is a variant placed on a map across two integer parameters: at
// (X, Y), with its Value (a period) when Known.
type MapCell struct {
	X, Y  int
	Value uint64
	Known bool
}

// Limits of ParamMap: the cells it draws, and the most cells a side that
// still get their value written in them.
const (
	MaxMapCells = MaxCells
	mapNumbers  = 24
)

// ParamMap draws a value of the variants of a survey across two integer
// parameters (the period of every subtraction set {a, b}) as a map: a
// cell per variant at (X, Y), y upwards, coloured as Heatmap colours a
// table (on a log scale when the values span decades), with the value
// written in it when the cells are few; a variant without a known value
// (a period not proven) is grey with a "?", a place without a variant is
// left white. The scale on the right shows both.
func ParamMap(cells []MapCell, l Labels) (*plot.Plot, error) {
	if len(cells) == 0 {
		return nil, errors.New("plots: no variants to place")
	}
	x0, x1, y0, y1 := cells[0].X, cells[0].X, cells[0].Y, cells[0].Y
	var lo, hi uint64
	zero, unknown, known := false, false, false
	for _, c := range cells {
		x0, x1, y0, y1 = min(x0, c.X), max(x1, c.X), min(y0, c.Y), max(y1, c.Y)
		switch {
		case !c.Known:
			unknown = true
		case c.Value == 0:
			zero = true
		default:
			if !known || c.Value < lo {
				lo = c.Value
			}
			hi, known = max(hi, c.Value), true
		}
	}
	w, h := x1-x0+1, y1-y0+1
	if n := w * h; n > MaxMapCells || n <= 0 {
		return nil, &TooLargeError{Kind: "cells", N: n, Limit: MaxMapCells}
	}
	if !known {
		lo, hi = 1, 1
	}
	r := ramp{lo: lo, hi: hi, log: hi >= 100*lo}
	number := w <= mapNumbers && h <= mapNumbers
	cs := &cellMap{fontSize: math.Max(5, math.Min(9, 170/float64(max(w, h))))}
	seen := map[[2]int]bool{}
	for _, c := range cells {
		at := [2]int{c.X, c.Y}
		if seen[at] {
			return nil, fmt.Errorf("plots: two variants at (%d, %d)", c.X, c.Y)
		}
		seen[at] = true
		e := cell{x: float64(c.X), y: float64(c.Y), c: colourUnknown}
		if c.Known {
			e.c = r.at(c.Value)
		}
		if number {
			e.text = "?"
			if c.Known {
				e.text = strconv.FormatUint(c.Value, 10)
			}
		}
		cs.cs = append(cs.cs, e)
	}
	// The cells in a fixed order: the caller's order may vary.
	sort.Slice(cs.cs, func(i, j int) bool {
		a, b := cs.cs[i], cs.cs[j]
		if a.y != b.y {
			return a.y < b.y
		}
		return a.x < b.x
	})
	p := newPlot(l)
	p.Add(cs)
	if !number && unknown {
		// Too small for a "?": a ring on each unknown cell.
		var xys plotter.XYs
		for _, c := range cells {
			if !c.Known {
				xys = append(xys, plotter.XY{X: float64(c.X), Y: float64(c.Y)})
			}
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		s.Shape = draw.RingGlyph{}
		s.Color = ink
		s.Radius = vg.Points(math.Max(1, math.Min(3, 100/float64(max(w, h)))))
		p.Add(s)
	}
	fx0, fx1 := float64(x0)-0.5, float64(x1)+0.5
	fy0, fy1 := float64(y0)-0.5, float64(y1)+0.5
	frame, err := plotter.NewLine(plotter.XYs{{X: fx0, Y: fy0}, {X: fx1, Y: fy0}, {X: fx1, Y: fy1}, {X: fx0, Y: fy1}, {X: fx0, Y: fy0}})
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	frame.Color = midGrey
	frame.Width = vg.Points(0.5)
	key := r.key(zero)
	if !known {
		key = &colourKey{}
	}
	if unknown {
		key.extra = append(key.extra, swatch{colourUnknown, "?"})
	}
	p.Add(frame, key)
	p.X.Min, p.X.Max = fx0, fx1
	p.Y.Min, p.Y.Max = fy0, fy1
	p.X.Tick.Marker = intTicks{}
	p.Y.Tick.Marker = intTicks{}
	return p, nil
}

// downTicks labels the rows of a figure drawn downwards (row i at y = −i).
type downTicks struct{}

func (downTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := intTicks{}.Ticks(-hi, -lo)
	for i := range ts {
		ts[i].Value = -ts[i].Value
		if ts[i].Value == 0 {
			ts[i].Value = 0 // never "-0"
		}
	}
	return ts
}
