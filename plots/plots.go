package plots

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"regexp"
	"strconv"

	"codeberg.org/go-fonts/dejavu/dejavusans"
	"codeberg.org/go-fonts/dejavu/dejavusansoblique"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/nimbook/nimbook/explore/job"
)

// Limits on what a figure draws: past them a figure would be unreadable
// on paper and heavy in a page, so the functions refuse with an error
// naming the limit instead.
const (
	MaxPoints = 20000   // values in a sequence plot
	MaxCells  = 64 * 64 // cells in a heat map (each is an SVG rectangle)
	MaxBars   = 200     // bars in a bar chart
)

// ErrTooLarge is wrapped by the errors for data past a limit.
var ErrTooLarge = errors.New("too large to draw")

// TooLargeError is the refusal of a figure past a limit: N things of a
// Kind ("values", "cells", "bars" or "positions") where at most Limit are
// drawn. It wraps ErrTooLarge; documents word it in their own language.
type TooLargeError struct {
	Kind     string
	N, Limit int
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("plots: %d %s: %v (at most %d are drawn)", e.N, e.Kind, ErrTooLarge, e.Limit)
}

func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// Labels are the words of a figure, in the reader's language.
type Labels struct {
	Title string
	X, Y  string
	// Rows names the rows of ValueRows and CountRows, top first: the
	// variants' codes or sets. Without names the rows are numbered.
	Rows []string
	// Legend gives a game graph (Graph) a legend of its marks: filled
	// P-positions, open N-positions and the start, ringed (a notebook's
	// figure, which has no caption beside it to say so).
	Legend bool
}

// Default sizes: a full-width figure on A4 with 16 mm margins.
const (
	Width        = 16 * vg.Centimeter
	Height       = 7 * vg.Centimeter
	SquareHeight = 12 * vg.Centimeter
)

var (
	ink      = color.Gray{Y: 0}
	midGrey  = color.Gray{Y: 0x70}
	paleGrey = color.Gray{Y: 0xe4}
)

// Sans is the face of every figure: DejaVu Sans, the face of the PDF
// handouts and of the HTML page, so that a figure's words look like the
// text around them (gonum/plot's default is a serif face). It is embedded:
// a PNG needs no font installed, and an SVG names the family, which the
// page's stylesheet also asks for.
var Sans = font.Font{Typeface: "DejaVu", Variant: "Sans"}

// SansItalic is Sans's oblique face: an axis named by the letters of the
// mathematics around the figure (n, g(n), a, b) is set in it, as the
// handouts set those letters in italics.
var SansItalic = font.Font{Typeface: "DejaVu", Variant: "Sans", Style: xfont.StyleItalic}

func init() {
	for _, f := range []struct {
		font font.Font
		ttf  []byte
	}{{Sans, dejavusans.TTF}, {SansItalic, dejavusansoblique.TTF}} {
		face, err := opentype.Parse(f.ttf)
		if err != nil {
			panic(fmt.Sprintf("plots: the embedded DejaVu Sans (%v): %v", f.font.Style, err))
		}
		font.DefaultCache.Add(font.Collection{{Font: f.font, Face: face}})
	}
}

// mathLabel matches an axis label that is mathematics: a letter, or a
// function of letters, as n, g(n) or g(a, b).
var mathLabel = regexp.MustCompile(`^\pL(\(\pL(, ?\pL)*\))?$`)

// labelFaces sets the axis labels of p that are mathematics in SansItalic,
// the others in Sans.
func labelFaces(p *plot.Plot) {
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		face := Sans
		if mathLabel.MatchString(ax.Label.Text) {
			face = SansItalic
		}
		ax.Label.TextStyle.Font = font.From(face, ax.Label.TextStyle.Font.Size)
	}
}

// textStyle is the style of a figure's words at size points.
func textStyle(size float64) draw.TextStyle {
	return draw.TextStyle{Color: ink, Font: font.From(Sans, vg.Points(size)), Handler: plot.DefaultTextHandler}
}

func newPlot(l Labels) *plot.Plot {
	p := plot.New()
	p.Title.Text = l.Title
	p.X.Label.Text = l.X
	p.Y.Label.Text = l.Y
	for _, st := range []*draw.TextStyle{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Font = font.From(Sans, st.Font.Size)
	}
	labelFaces(p)
	return p
}

// Values plots a sequence of values g(first), g(first+1), … as dots, one
// per n: they are integers, and a line joining them would draw a
// zig-zag that means nothing. A proven period is shaded from its start,
// with a dashed line at the start of each period when there are few.
// Values spanning decades (logAxis) get a logarithmic axis, with 0 on a
// baseline of its own below it.
func Values(values []uint64, first int, period *job.Period, l Labels) (*plot.Plot, error) {
	if len(values) == 0 {
		return nil, errors.New("plots: no values to draw")
	}
	if len(values) > MaxPoints {
		return nil, &TooLargeError{Kind: "values", N: len(values), Limit: MaxPoints}
	}
	p := newPlot(l)
	pts := make(plotter.XYs, len(values))
	var top float64
	for i, v := range values {
		pts[i] = plotter.XY{X: float64(first + i), Y: float64(v)}
		top = math.Max(top, float64(v))
	}
	p.Y.Min, p.Y.Max = -0.5, top+0.5
	p.Y.Tick.Marker = intTicks{}
	if s, ok := logAxis(values); ok {
		p.Y.Scale, p.Y.Tick.Marker = s, s
		p.Y.Min, p.Y.Max = s.lo, s.hi
		if s.zero {
			p.Y.Min = 0
		}
	}
	last := float64(first + len(values) - 1)
	if period != nil && period.Proven && period.Period > 0 && float64(period.Preperiod) <= last {
		lo := float64(period.Preperiod) - 0.5
		shade, err := plotter.NewPolygon(plotter.XYs{{X: lo, Y: p.Y.Min}, {X: last + 0.5, Y: p.Y.Min}, {X: last + 0.5, Y: p.Y.Max}, {X: lo, Y: p.Y.Max}})
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		shade.Color = paleGrey
		shade.LineStyle.Width = 0
		p.Add(shade)
		if n := (last - lo) / float64(period.Period); n <= 40 {
			for x := lo; x <= last+0.5; x += float64(period.Period) {
				ln, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
				if err != nil {
					return nil, fmt.Errorf("plots: %w", err)
				}
				ln.Color = midGrey
				ln.Width = vg.Points(0.5)
				ln.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
				p.Add(ln)
			}
		}
	}
	// P-positions (value 0) get the same × as in the tables, the
	// others a dot.
	var zeros, others plotter.XYs
	for _, xy := range pts {
		if xy.Y == 0 {
			zeros = append(zeros, xy)
		} else {
			others = append(others, xy)
		}
	}
	if len(zeros) > 500 {
		// Too many crosses would blot the figure: dots for all.
		others, zeros = pts, nil
	}
	for _, set := range []struct {
		xys    plotter.XYs
		shape  draw.GlyphDrawer
		radius float64
	}{
		{others, draw.CircleGlyph{}, math.Max(1, math.Min(2.2, 250/float64(len(values))))},
		{zeros, draw.CrossGlyph{}, 3},
	} {
		if len(set.xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(set.xys)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		s.Shape = set.shape
		s.Color = ink
		s.Radius = vg.Points(set.radius)
		p.Add(s)
	}
	p.X.Min, p.X.Max = float64(first)-0.5, last+0.5
	p.X.Tick.Marker = intTicks{}
	return p, nil
}

// logScale is a logarithmic axis from lo to hi (powers of ten), with a
// baseline for 0 below lo when zero is set: a log axis has no place for
// 0, and dropping those values would hide them.
type logScale struct {
	lo, hi float64
	zero   bool
}

// zeroGap is the part of a log axis below lo that holds the baseline of 0.
const zeroGap = 0.1

func (s logScale) Normalize(_, _, x float64) float64 {
	base := 0.0
	if s.zero {
		base = zeroGap
	}
	if x <= 0 {
		return 0
	}
	return base + (1-base)*math.Log(x/s.lo)/math.Log(s.hi/s.lo)
}

func (s logScale) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	if s.zero {
		ts = append(ts, plot.Tick{Value: 0, Label: "0"})
	}
	return append(ts, logTicks{}.Ticks(s.lo, s.hi)...)
}

// logAxis says whether values span decades enough to need a log axis, and
// which: the largest is 100 times the least positive one or more, and a
// tenth of the positive values or more lie under a hundredth of the
// largest, where a linear axis flattens them onto 0 (the values of a coin
// game, doubling from 1 to 2^23). Nim's g(n) = n spans decades too, but
// evenly: a linear axis shows it well.
func logAxis(values []uint64) (logScale, bool) {
	var lo, hi uint64
	zero, pos := false, 0
	for _, v := range values {
		switch {
		case v == 0:
			zero = true
		case lo == 0 || v < lo:
			lo = v
		}
		hi = max(hi, v)
	}
	if lo == 0 || hi < 100*lo {
		return logScale{}, false
	}
	low := 0
	for _, v := range values {
		if v > 0 {
			pos++
			if float64(v) < float64(hi)/100 {
				low++
			}
		}
	}
	if 10*low < pos {
		return logScale{}, false
	}
	return logScale{
		lo:   math.Pow(10, math.Floor(math.Log10(float64(lo)))),
		hi:   math.Pow(10, math.Ceil(math.Log10(float64(hi)))),
		zero: zero,
	}, true
}

// RareCommon draws the values g(first), g(first+1), … as a scatter of
// (n, g(n)) split by isRare (heap.SparseSpace.IsRare, job.Rare.IsRare):
// common positions as small grey dots, rare ones as larger black dots on
// top, so that the split reads in black and white. isRare must not be nil.
func RareCommon(values []uint64, first int, isRare func(n int, g uint64) bool, l Labels) (*plot.Plot, error) {
	if len(values) == 0 {
		return nil, errors.New("plots: no values to draw")
	}
	if len(values) > MaxPoints {
		return nil, &TooLargeError{Kind: "values", N: len(values), Limit: MaxPoints}
	}
	var rare, common plotter.XYs
	var top float64
	for i, v := range values {
		xy := plotter.XY{X: float64(first + i), Y: float64(v)}
		if isRare(first+i, v) {
			rare = append(rare, xy)
		} else {
			common = append(common, xy)
		}
		top = math.Max(top, float64(v))
	}
	p := newPlot(l)
	// Common first, so that the rare dots are drawn over them.
	for _, set := range []struct {
		xys    plotter.XYs
		c      color.Color
		radius vg.Length
	}{
		{common, midGrey, vg.Points(math.Max(0.9, math.Min(1.5, 150/float64(len(values)))))},
		{rare, ink, vg.Points(math.Max(1.8, math.Min(3, 300/float64(len(values)))))},
	} {
		if len(set.xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(set.xys)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		s.Shape = draw.CircleGlyph{}
		s.Color = set.c
		s.Radius = set.radius
		p.Add(s)
	}
	last := float64(first + len(values) - 1)
	p.X.Min, p.X.Max = float64(first)-0.5, last+0.5
	p.Y.Min, p.Y.Max = -0.5, top+0.5
	p.X.Tick.Marker = intTicks{}
	p.Y.Tick.Marker = intTicks{}
	return p, nil
}

// grid places a table's cells: column j at x = colLo + j, row i at y = rowLo + i.
type grid struct {
	t            [][]uint64
	cols         int
	rowLo, colLo int
}

func (g grid) X(c int) float64 { return float64(g.colLo + c) }
func (g grid) Y(r int) float64 { return float64(g.rowLo + r) }
func (g grid) value(c, r int) uint64 {
	if c < len(g.t[r]) {
		return g.t[r][c]
	}
	return 0
}

// Heatmap draws a 2-D table as coloured cells, row rowFirst at the top as
// in the printed tables, with its colour scale on the right: 0 black,
// larger values lighter along a perceptual map (colour.go). Every 0 (a
// P-position in a Grundy table) is marked with a white cross; pass mark
// false for tables whose zeros are not positions (nimber tables).
func Heatmap(table [][]uint64, rowFirst, colFirst int, mark bool, l Labels) (*plot.Plot, error) {
	cols := 0
	for _, r := range table {
		cols = max(cols, len(r))
	}
	if len(table) == 0 || cols == 0 {
		return nil, errors.New("plots: empty table")
	}
	if len(table)*cols > MaxCells {
		return nil, &TooLargeError{Kind: "cells", N: len(table) * cols, Limit: MaxCells}
	}
	g := grid{t: table, cols: cols, rowLo: rowFirst, colLo: colFirst}
	var top uint64
	for r := range table {
		for c := 0; c < cols; c++ {
			top = max(top, g.value(c, r))
		}
	}
	vc := valueRamp(top)
	p := newPlot(l)
	cs := &cellMap{cs: make([]cell, 0, len(table)*cols)}
	for r := range table {
		for c := 0; c < cols; c++ {
			cs.cs = append(cs.cs, cell{x: g.X(c), y: g.Y(r), c: vc.at(g.value(c, r))})
		}
	}
	p.Add(cs)
	if mark {
		var zeros plotter.XYs
		for r := range table {
			for c := 0; c < cols; c++ {
				if g.value(c, r) == 0 {
					zeros = append(zeros, plotter.XY{X: g.X(c), Y: g.Y(r)})
				}
			}
		}
		if len(zeros) > 0 {
			s, err := plotter.NewScatter(zeros)
			if err != nil {
				return nil, fmt.Errorf("plots: %w", err)
			}
			// White on the black of 0.
			s.Shape = draw.CrossGlyph{}
			s.Color = white
			s.Radius = vg.Points(math.Max(1.5, math.Min(4, 120/float64(max(cols, len(table))))))
			p.Add(s)
		}
	}
	p.Add(vc.key(true))
	p.X.Min, p.X.Max = float64(colFirst)-0.5, float64(colFirst+cols)-0.5
	p.Y.Min, p.Y.Max = float64(rowFirst)-0.5, float64(rowFirst+len(table))-0.5
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
	p.X.Tick.Marker = intTicks{}
	p.Y.Tick.Marker = intTicks{}
	return p, nil
}

// Bars draws counts[i] as a bar at i, labelling only the bars that are
// not zero (a weight distribution has few).
func Bars(counts []uint64, l Labels) (*plot.Plot, error) {
	if len(counts) == 0 {
		return nil, errors.New("plots: no counts to draw")
	}
	if len(counts) > MaxBars {
		return nil, &TooLargeError{Kind: "bars", N: len(counts), Limit: MaxBars}
	}
	vals := make(plotter.Values, len(counts))
	names := make([]string, len(counts))
	for i, c := range counts {
		vals[i] = float64(c)
		if c != 0 {
			names[i] = strconv.Itoa(i)
		}
	}
	p := newPlot(l)
	w := vg.Length(math.Min(20, 360/float64(len(counts))))
	bars, err := plotter.NewBarChart(vals, w)
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	bars.Color = midGrey
	bars.LineStyle.Color = ink
	bars.LineStyle.Width = vg.Points(0.5)
	p.Add(bars)
	p.NominalX(names...)
	if err := countLabels(p, counts); err != nil {
		return nil, err
	}
	p.Y.Tick.Marker = intTicks{}
	var top uint64
	for _, c := range counts {
		top = max(top, c)
	}
	p.Y.Min, p.Y.Max = 0, float64(top)*1.12+1
	return p, nil
}

// intTicks puts ticks on whole numbers only: the data are integers.
type intTicks struct{}

func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	// The least of 1, 2, 5, 10, 20, 50, … giving at most 12 ticks.
	step := 1.0
	for d := 1.0; span/step > 12; d *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if step = m * d; span/step <= 12 {
				break
			}
		}
	}
	var ts []plot.Tick
	for x := math.Ceil(lo/step) * step; x <= hi; x += step {
		if x == 0 {
			x = 0 // never "-0"
		}
		ts = append(ts, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', 0, 64)})
	}
	return ts
}

// SVG writes p as an SVG document of the given size.
func SVG(w io.Writer, p *plot.Plot, width, height vg.Length) error {
	c := vgsvg.New(width, height)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	// An image (ValueRows, CountRows) fills the rectangle it is drawn in,
	// with its cells sharp: SVG would otherwise keep its aspect ratio
	// (centring it) and smooth it.
	svg := bytes.ReplaceAll(b.Bytes(), []byte("<image "), []byte(`<image preserveAspectRatio="none" style="image-rendering:pixelated" `))
	if _, err := w.Write(svg); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// PNG writes p as a PNG image of the given size at dpi dots per inch
// (0 means 150).
func PNG(w io.Writer, p *plot.Plot, width, height vg.Length, dpi int) error {
	if dpi <= 0 {
		dpi = 150
	}
	c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	p.Draw(draw.New(c))
	// Fast compression: a handout's figures are re-read at once (the PDF
	// writer copies the compressed data as it is), and the default level
	// spends most of a PDF's time for a few per cent of bytes.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(w, grey(c.Image())); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// grey converts a drawing to 8-bit grey when every pixel is grey (every
// figure but the heat maps): a third of the pixels to filter and compress.
// A drawing in colour is returned as it is.
func grey(img image.Image) image.Image {
	src, ok := img.(*image.RGBA)
	if !ok {
		return img
	}
	b := src.Bounds()
	out := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := src.Pix[(y-b.Min.Y)*src.Stride:]
		dst := out.Pix[(y-b.Min.Y)*out.Stride:]
		for x := 0; x < b.Dx(); x++ {
			r, g, bl := row[4*x], row[4*x+1], row[4*x+2]
			if r != g || g != bl {
				return img
			}
			dst[x] = r
		}
	}
	return out
}
