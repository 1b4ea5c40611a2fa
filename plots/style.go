package plots

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Style is what a notebook's plot(title=, xlabel=, ylabel=, size=, log=)
// asks of a figure, as matplotlib's keywords do: its words, its size and
// logarithmic axes. Zero fields keep the figure's own.
type Style struct {
	Title, X, Y string
	// Width and Height are the figure's size (the notebook reads inches,
	// as matplotlib's figsize).
	Width, Height vg.Length
	// LogX and LogY draw an axis on a logarithmic scale (gonum's
	// plot.LogScale, ticks at powers of ten by plot.LogTicks).
	LogX, LogY bool
	// Join joins the points of Points with a thin line, as matplotlib's
	// plot does with plain data; values of positions are dots alone (a
	// line between g(n) and g(n+1) means nothing).
	Join bool
}

// Apply sets the words of s on p.
func (s Style) Apply(p *plot.Plot) {
	if s.Title != "" {
		p.Title.Text = s.Title
	}
	if s.X != "" {
		p.X.Label.Text = s.X
	}
	if s.Y != "" {
		p.Y.Label.Text = s.Y
	}
	labelFaces(p)
}

// Size is the figure's size: s's, else width × height.
func (s Style) Size(width, height vg.Length) (vg.Length, vg.Length) {
	if s.Width > 0 {
		width = s.Width
	}
	if s.Height > 0 {
		height = s.Height
	}
	return width, height
}

// Points draws the points (xs[i], ys[i]) as dots, joined by a thin line
// with st.Join when there are at most 200, with the axes of st: on a log
// axis, plot.LogScale and plot.LogTicks (logTicks labels more of them
// when the values span less than two decades). A log axis has no place for 0 or a negative number:
// such points are skipped, as matplotlib masks them, and their number is
// returned so that the caller says so. All points skipped is an error.
func Points(xs, ys []float64, st Style) (p *plot.Plot, skipped int, err error) {
	if len(xs) != len(ys) {
		return nil, 0, fmt.Errorf("plots: %d x values for %d y values", len(xs), len(ys))
	}
	if len(ys) == 0 {
		return nil, 0, errors.New("plots: no values to draw")
	}
	if len(ys) > MaxPoints {
		return nil, 0, &TooLargeError{Kind: "values", N: len(ys), Limit: MaxPoints}
	}
	p = newPlot(Labels{Title: st.Title, X: st.X, Y: st.Y})
	var pts plotter.XYs
	for i := range xs {
		x, y := xs[i], ys[i]
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return nil, 0, fmt.Errorf("plots: point %d is (%v, %v): draw finite numbers", i, x, y)
		}
		if (st.LogX && x <= 0) || (st.LogY && y <= 0) {
			skipped++
			continue
		}
		pts = append(pts, plotter.XY{X: x, Y: y})
	}
	if len(pts) == 0 {
		axis := "y"
		if st.LogX && !st.LogY {
			axis = "x"
		}
		return nil, skipped, fmt.Errorf("plots: every point has %s ≤ 0, which a log axis cannot show", axis)
	}
	if st.Join && len(pts) <= 200 {
		ln, err := plotter.NewLine(pts)
		if err != nil {
			return nil, 0, fmt.Errorf("plots: %w", err)
		}
		ln.Color = midGrey
		ln.Width = vg.Points(0.6)
		p.Add(ln)
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, 0, fmt.Errorf("plots: %w", err)
	}
	sc.Shape = draw.CircleGlyph{}
	sc.Color = ink
	sc.Radius = vg.Points(math.Max(1, math.Min(2.2, 250/float64(len(pts)))))
	p.Add(sc)
	integral := func(axis func(plotter.XY) float64) bool {
		for _, q := range pts {
			if v := axis(q); v != math.Trunc(v) {
				return false
			}
		}
		return true
	}
	if st.LogX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, fewDecades{}
	} else if integral(func(q plotter.XY) float64 { return q.X }) {
		p.X.Tick.Marker = intTicks{}
	}
	if st.LogY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, fewDecades{}
	} else if integral(func(q plotter.XY) float64 { return q.Y }) {
		p.Y.Tick.Marker = intTicks{}
	}
	return p, skipped, nil
}

// fewDecades is gonum's plot.LogTicks, labels at powers of ten, with
// more labels where the axis spans few decades, which would otherwise
// show one label or none: 2 and 5 times a power of ten under two
// decades, every minor tick under one.
type fewDecades struct{}

func (fewDecades) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	span := hi / lo
	for i, t := range ts {
		if t.Label != "" {
			continue
		}
		m := t.Value / math.Pow(10, math.Floor(math.Log10(t.Value)+1e-9))
		m = math.Round(m*1e6) / 1e6
		if span < 10 || (span < 100 && (m == 2 || m == 5)) {
			ts[i].Label = strconv.FormatFloat(t.Value, 'g', -1, 64)
		}
	}
	return ts
}
