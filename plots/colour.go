package plots

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The colour of the heat maps. One perceptual map from gonum/plot,
// Moreland's extended black body (black, blue, red, orange, yellow),
// whose lightness grows steadily with the value: the order of the
// values survives a black-and-white print, and no value is white, the
// colour of the paper.

var mapStops = func() []color.Color {
	m := moreland.ExtendedBlackBody()
	m.SetMin(0)
	m.SetMax(1)
	// The map sampled once: each colour is then interpolated in RGB
	// between close stops, far cheaper than a CIELAB conversion per cell.
	out := make([]color.Color, 257)
	for i := range out {
		c, err := m.At(float64(i) / 256)
		if err != nil {
			panic(err)
		}
		out[i] = c
	}
	return out
}()

// Where the values above 0 start and end on the map: 1 (or the least
// value) clearly lighter than the black of 0, the largest short of white.
const (
	mapLow  = 0.24
	mapHigh = 0.9
)

// mapAt is the map's colour at t in [0, 1], as 8-bit RGB.
func mapAt(t float64) color.RGBA {
	t = math.Max(0, math.Min(1, t)) * 256
	i := min(int(t), 255)
	f := t - float64(i)
	a, b := rgba(mapStops[i]), rgba(mapStops[i+1])
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	return color.RGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 255}
}

func rgba(c color.Color) color.RGBA {
	r, g, b, _ := c.RGBA()
	return color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 255}
}

var (
	black = color.RGBA{A: 255}
	white = color.RGBA{R: 255, G: 255, B: 255, A: 255}
	// colourUnknown fills a cell without a value: a grey the map never takes.
	colourUnknown = color.RGBA{R: 0xc8, G: 0xc8, B: 0xc8, A: 255}
)

// ramp colours natural numbers: 0 black (a P-position in a Grundy
// table: the darkest cell, never the paper), lo..hi along the map from
// mapLow to mapHigh, on a log scale when log is set (counts, where 1 and
// 2576 must both show).
type ramp struct {
	lo, hi uint64
	log    bool
}

// valueRamp colours the values 0..top of a table.
func valueRamp(top uint64) ramp { return ramp{lo: 1, hi: max(top, 1)} }

// countRamp colours counts up to top, on a log scale from 16 on: counts
// grow by factors (1, 15, 2576), and 1, 2 and 4 must not look alike.
func countRamp(top uint64) ramp { return ramp{lo: 1, hi: max(top, 1), log: top >= 16} }

func (r ramp) at(x uint64) color.RGBA {
	switch {
	case x == 0:
		return black
	case r.hi <= r.lo:
		return mapAt(mapLow)
	case r.log:
		return mapAt(mapLow + (mapHigh-mapLow)*math.Log(float64(x)/float64(r.lo))/math.Log(float64(r.hi)/float64(r.lo)))
	}
	return mapAt(mapLow + (mapHigh-mapLow)*(float64(x)-float64(r.lo))/float64(r.hi-r.lo))
}

// key is the scale beside a figure coloured by r: lo..hi as a bar and,
// when zero is set, 0 in a swatch of its own below it (the jump from
// black to the map).
func (r ramp) key(zero bool) *colourKey {
	k := &colourKey{lo: float64(r.lo), hi: float64(r.hi), log: r.log}
	k.at = func(x float64) color.Color { return r.at(uint64(math.Round(x))) }
	switch {
	case r.log:
		k.ticks = logTicks{}
	default:
		k.ticks = intTicks{}
		k.discrete = r.hi-r.lo < 64
	}
	if zero {
		k.extra = []swatch{{black, "0"}}
	}
	return k
}

// swatch is a colour of a key shown apart from its bar, with its label.
type swatch struct {
	c     color.Color
	label string
}

// colourKey is a figure's colour scale, drawn as a plotter to the right of
// the data area (its glyph box makes the room): a bar from lo (bottom) to
// hi (top) with ticks, and below it the swatches of the colours off the
// bar (0, a value not known). A key without colours (at nil) has no bar.
type colourKey struct {
	lo, hi   float64
	at       func(v float64) color.Color
	discrete bool // a step per integer, else a gradient
	log      bool
	ticks    plot.Ticker
	extra    []swatch
}

const (
	keyGap   = 10 // points between the data area and the key
	keyWidth = 9  // points: the bar's width, and a swatch's side
	keyFont  = 8  // points: the key's labels
)

// labels are the key's tick labels on its bar, in value order.
func (k *colourKey) labels() []plot.Tick {
	if k.ticks == nil {
		return nil
	}
	var out []plot.Tick
	for _, t := range k.ticks.Ticks(k.lo, k.hi) {
		if t.Label != "" && t.Value >= k.lo && t.Value <= k.hi {
			out = append(out, t)
		}
	}
	return out
}

// pos places v on the bar, 0 at its foot and 1 at its top.
func (k *colourKey) pos(v float64) float64 {
	switch {
	case k.discrete:
		return (v - k.lo + 0.5) / (k.hi - k.lo + 1)
	case k.hi == k.lo:
		return 0.5
	case k.log:
		return math.Log(v/k.lo) / math.Log(k.hi/k.lo)
	}
	return (v - k.lo) / (k.hi - k.lo)
}

// GlyphBoxes asks plot.Plot for room on the right of the data area.
func (k *colourKey) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	sty := textStyle(keyFont)
	var w vg.Length
	for _, t := range k.labels() {
		w = max(w, sty.Width(t.Label))
	}
	for _, s := range k.extra {
		w = max(w, sty.Width(s.label))
	}
	return []plot.GlyphBox{{X: 1, Y: 0.5, Rectangle: vg.Rectangle{Max: vg.Point{X: vg.Points(keyGap+keyWidth+4) + w}}}}
}

func (k *colourKey) Plot(c draw.Canvas, _ *plot.Plot) {
	sty := textStyle(keyFont)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	edge := draw.LineStyle{Color: midGrey, Width: vg.Points(0.5)}
	x0 := c.Max.X + vg.Points(keyGap)
	x1 := x0 + vg.Points(keyWidth)
	rect := func(y0, y1 vg.Length, col color.Color) {
		c.SetColor(col)
		c.Fill(vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}.Path())
	}
	frame := func(y0, y1 vg.Length) {
		c.StrokeLines(edge, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	}
	// The swatches at the foot, the lowest first.
	y := c.Min.Y
	side, gap := vg.Points(keyWidth), vg.Points(5)
	for _, s := range k.extra {
		rect(y, y+side, s.c)
		frame(y, y+side)
		c.FillText(sty, vg.Point{X: x1 + vg.Points(4), Y: y + side/2}, s.label)
		y += side + gap
	}
	if k.at == nil || y >= c.Max.Y {
		return
	}
	y0, y1 := y, c.Max.Y
	at := func(p float64) vg.Length { return y0 + vg.Length(p)*(y1-y0) }
	// Each step overlaps the next by a hair, as the cells do.
	hair := vg.Points(0.3)
	if k.discrete {
		for v := k.lo; v <= k.hi; v++ {
			rect(at(k.pos(v-0.5)), min(y1, at(k.pos(v+0.5))+hair), k.at(v))
		}
	} else {
		// 128 steps, those of one colour (integers: 1 over a long
		// stretch of a log bar) drawn as one.
		const steps = 128
		from := 0
		var col color.Color
		for i := 0; i <= steps; i++ {
			var c color.Color
			if i < steps {
				p := (float64(i) + 0.5) / steps
				v := k.lo + p*(k.hi-k.lo)
				if k.log {
					v = k.lo * math.Pow(k.hi/k.lo, p)
				}
				c = k.at(v)
			}
			if i > 0 && (i == steps || c != col) {
				rect(at(float64(from)/steps), min(y1, at(float64(i)/steps)+hair), col)
				from = i
			}
			col = c
		}
	}
	frame(y0, y1)
	// Labels no closer than their height, from the foot up.
	last := vg.Length(math.Inf(-1))
	for _, t := range k.labels() {
		ty := at(k.pos(t.Value))
		if ty-last < sty.Height(t.Label) {
			continue
		}
		last = ty
		c.StrokeLine2(edge, x1, ty, x1+vg.Points(2), ty)
		c.FillText(sty, vg.Point{X: x1 + vg.Points(4), Y: ty}, t.Label)
	}
}

// logTicks labels the powers of ten, written 10⁴ from ten thousand on,
// and 2 and 5 times them too over three decades or less; 2…9 times them
// are marked without a label.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	if hi <= 0 {
		return nil
	}
	fine := hi <= 1000*lo
	for e := math.Floor(math.Log10(math.Max(lo, 1e-300))); math.Pow(10, e) <= hi; e++ {
		d := math.Pow(10, e)
		for m := 1.0; m <= 9; m++ {
			v := m * d
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			switch p := powerOfTen(int(e)); {
			case m == 1:
				t.Label = p
			case fine && (m == 2 || m == 5) && e <= 3:
				t.Label = strconv.FormatFloat(v, 'f', 0, 64)
			case fine && (m == 2 || m == 5):
				t.Label = strconv.Itoa(int(m)) + "·" + p
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// powerOfTen writes 10^e: 1, 10, 100, 1000, then 10⁴, 10⁵, …
func powerOfTen(e int) string {
	if e >= 0 && e <= 3 {
		return strconv.FormatFloat(math.Pow(10, float64(e)), 'f', 0, 64)
	}
	const sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	digits := []rune(sup)
	s := "10"
	if e < 0 {
		s += "⁻"
		e = -e
	}
	for _, d := range strconv.Itoa(e) {
		s += string(digits[d-'0'])
	}
	return s
}

// cell is one square of a heat map: centred on (x, y), one unit wide,
// with an optional text (a number) written in it.
type cell struct {
	x, y float64
	c    color.Color
	text string
}

// cellMap draws the squares of a heat map. Each spills a hair over its
// neighbours, so that no thread of paper shows between two cells where a
// renderer smooths their edges.
type cellMap struct {
	cs       []cell
	fontSize float64 // points; the texts
}

func (cs *cellMap) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	hair := vg.Points(0.3)
	for _, e := range cs.cs {
		x0, x1 := trX(e.x-0.5), trX(e.x+0.5)
		y0, y1 := trY(e.y-0.5), trY(e.y+0.5)
		if x0 > x1 {
			x0, x1 = x1, x0
		}
		if y0 > y1 {
			y0, y1 = y1, y0
		}
		c.SetColor(e.c)
		c.Fill(vg.Rectangle{Min: vg.Point{X: x0 - hair, Y: y0 - hair}, Max: vg.Point{X: x1 + hair, Y: y1 + hair}}.Path())
	}
	sty := textStyle(cs.fontSize)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for _, e := range cs.cs {
		if e.text == "" {
			continue
		}
		// Black on light cells, white on dark ones.
		sty.Color = ink
		if color.GrayModel.Convert(e.c).(color.Gray).Y < 120 {
			sty.Color = white
		}
		c.FillText(sty, vg.Point{X: trX(e.x), Y: trY(e.y)}, e.text)
	}
}
