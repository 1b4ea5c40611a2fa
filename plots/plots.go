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
	"strconv"

	"codeberg.org/go-fonts/dejavu/dejavusans"
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

func init() {
	face, err := opentype.Parse(dejavusans.TTF)
	if err != nil {
		panic(fmt.Sprintf("plots: the embedded DejaVu Sans: %v", err))
	}
	font.DefaultCache.Add(font.Collection{{Font: Sans, Face: face}})
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
	return p
}

// Values plots a sequence of Grundy values g(first), g(first+1), … as
// points joined by a thin line. A proven period is shaded from its start,
// with a dashed line at the start of each period when there are few.
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
	last := float64(first + len(values) - 1)
	if period != nil && period.Proven && period.Period > 0 && float64(period.Preperiod) <= last {
		lo := float64(period.Preperiod) - 0.5
		shade, err := plotter.NewPolygon(plotter.XYs{{X: lo, Y: -0.5}, {X: last + 0.5, Y: -0.5}, {X: last + 0.5, Y: top + 0.5}, {X: lo, Y: top + 0.5}})
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		shade.Color = paleGrey
		shade.LineStyle.Width = 0
		p.Add(shade)
		if n := (last - lo) / float64(period.Period); n <= 40 {
			for x := lo; x <= last+0.5; x += float64(period.Period) {
				ln, err := plotter.NewLine(plotter.XYs{{X: x, Y: -0.5}, {X: x, Y: top + 0.5}})
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
	line, points, err := plotter.NewLinePoints(pts)
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	line.Color = midGrey
	line.Width = vg.Points(0.5)
	points.Shape = draw.CircleGlyph{}
	points.Color = ink
	points.Radius = vg.Points(math.Max(0.8, math.Min(2, 200/float64(len(values)))))
	p.Add(line, points)
	// P-positions (value 0) get the same × as in the tables.
	var zeros plotter.XYs
	for _, xy := range pts {
		if xy.Y == 0 {
			zeros = append(zeros, xy)
		}
	}
	if len(zeros) > 0 && len(zeros) <= 500 {
		s, err := plotter.NewScatter(zeros)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		s.Shape = draw.CrossGlyph{}
		s.Color = ink
		s.Radius = vg.Points(3)
		p.Add(s)
	}
	p.X.Min, p.X.Max = float64(first)-0.5, last+0.5
	p.Y.Min, p.Y.Max = -0.5, top+0.5
	p.X.Tick.Marker = intTicks{}
	p.Y.Tick.Marker = intTicks{}
	return p, nil
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

// grid adapts a table to plotter.GridXYZ: column j is x, row i is y.
type grid struct {
	t            [][]uint64
	cols         int
	rowLo, colLo int
}

func (g grid) Dims() (c, r int)   { return g.cols, len(g.t) }
func (g grid) X(c int) float64    { return float64(g.colLo + c) }
func (g grid) Y(r int) float64    { return float64(g.rowLo + r) }
func (g grid) Z(c, r int) float64 { return float64(g.value(c, r)) }
func (g grid) value(c, r int) uint64 {
	if c < len(g.t[r]) {
		return g.t[r][c]
	}
	return 0
}

// greys runs from white (0) to a dark grey, so that black marks stay
// visible on every cell.
type greys int

func (n greys) Colors() []color.Color {
	out := make([]color.Color, int(n))
	for i := range out {
		y := 255 - i*(255-60)/max(1, int(n)-1)
		out[i] = color.Gray{Y: uint8(y)}
	}
	return out
}

// Heatmap draws a 2-D table as grey cells, darker for larger values, row
// rowFirst at the top as in the printed tables, and marks every 0 (a
// P-position in a Grundy table) with a cross. Pass mark false for tables
// whose zeros are not positions (nimber tables).
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
	p := newPlot(l)
	h := plotter.NewHeatMap(g, greys(int(min(top+1, 64))))
	h.Min, h.Max = 0, math.Max(1, float64(top))
	p.Add(h)
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
			s.Shape = draw.CrossGlyph{}
			s.Color = ink
			s.Radius = vg.Points(math.Max(1.5, math.Min(4, 120/float64(max(cols, len(table))))))
			p.Add(s)
		}
	}
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
	step := 1.0
	for _, s := range []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 1e5, 2e5, 5e5, 1e6} {
		step = s
		if span/s <= 12 {
			break
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

// grey converts a drawing to 8-bit grey, which loses nothing since every
// plot of this package is drawn in greys (for black-and-white print), and
// makes a third of the pixels to filter and compress.
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
			r, g, bl := uint32(row[4*x]), uint32(row[4*x+1]), uint32(row[4*x+2])
			// color.GrayModel's weights, on 8-bit channels.
			dst[x] = uint8((19595*r + 38470*g + 7471*bl + 1<<15) >> 16)
		}
	}
	return out
}
