package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nimbook/nimbook/explore/job"
)

// MaxGraphNodes bounds the positions of a drawn game graph: beyond it the
// labels overlap and the drawing says nothing a table does not.
const MaxGraphNodes = 60

// Graph draws a small game graph: positions as circles, P-positions (the
// kernel) filled black, moves as lines with an arrowhead at the position
// moved to, laid out in layers from the start at the top (see graphLayout).
func Graph(g *job.Graph, l Labels) (*plot.Plot, error) {
	n := len(g.Labels)
	if n == 0 {
		return nil, fmt.Errorf("plots: the graph has no positions")
	}
	if n > MaxGraphNodes {
		return nil, &TooLargeError{Kind: "positions", N: n, Limit: MaxGraphNodes}
	}
	xy, level := graphLayout(g)

	p := newPlot(l)
	p.HideAxes()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -1.15, 1.15, -1.25, 1.15

	for _, m := range g.Moves {
		path := edgePath(xy, m[0], m[1], abs(level[m[1]]-level[m[0]]))
		if len(path) < 2 {
			continue
		}
		line, err := plotter.NewLine(path)
		if err != nil {
			return nil, err
		}
		line.Color = color.Gray{Y: 90}
		line.Width = vg.Points(0.6)
		p.Add(line)
		// The arrowhead: two short strokes back from the tip, along the
		// last piece of the path.
		b, before := path[len(path)-1], path[len(path)-2]
		dx, dy := b.X-before.X, b.Y-before.Y
		d := math.Hypot(dx, dy)
		if d == 0 {
			continue
		}
		ux, uy := dx/d, dy/d
		const h, w = 0.05, 0.025
		for _, s := range []float64{1, -1} {
			tip, err := plotter.NewLine(plotter.XYs{b, {X: b.X - h*ux + s*w*uy, Y: b.Y - h*uy - s*w*ux}})
			if err != nil {
				return nil, err
			}
			tip.Color = line.Color
			tip.Width = line.Width
			p.Add(tip)
		}
	}

	pts := make(plotter.XYs, n)
	for i, c := range xy {
		pts[i] = plotter.XY{X: c[0], Y: c[1]}
	}
	nodes, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	nodes.GlyphStyleFunc = func(i int) draw.GlyphStyle {
		if g.P[i] {
			return draw.GlyphStyle{Color: color.Black, Radius: nodeGlyph, Shape: draw.CircleGlyph{}}
		}
		return draw.GlyphStyle{Color: color.Black, Radius: nodeGlyph, Shape: draw.RingGlyph{}}
	}

	// Labels after the edges, so that their white ground hides the
	// edges that run under them; the circles last.
	p.Add(nodeLabels{xy: pts, labels: g.Labels, style: textStyle(7)})
	p.Add(nodes)
	if l.Legend {
		if err := graphLegend(p, pts[0]); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// graphLegend rings the start (the first position, the top of the
// layout) and adds a legend of the marks under the drawing, in room made
// below its lowest layer.
func graphLegend(p *plot.Plot, start plotter.XY) error {
	ring := draw.GlyphStyle{Color: color.Black, Radius: 1.9 * nodeGlyph, Shape: draw.RingGlyph{}}
	s, err := plotter.NewScatter(plotter.XYs{start})
	if err != nil {
		return err
	}
	s.GlyphStyle = ring
	p.Add(s)
	p.Y.Min -= 0.35
	small := 0.7 * nodeGlyph
	for _, e := range []struct {
		text string
		th   plot.Thumbnailer
	}{
		{"P-position: the player to move loses", glyphThumb{draw.GlyphStyle{Color: color.Black, Radius: small, Shape: draw.CircleGlyph{}}}},
		{"N-position: the player to move wins", glyphThumb{draw.GlyphStyle{Color: color.Black, Radius: small, Shape: draw.RingGlyph{}}}},
		{"start (ringed); an arrow is a move", glyphThumb{draw.GlyphStyle{Color: color.Black, Radius: small, Shape: draw.RingGlyph{}}, draw.GlyphStyle{Color: color.Black, Radius: 1.9 * small, Shape: draw.RingGlyph{}}}},
	} {
		p.Legend.Add(e.text, e.th)
	}
	p.Legend.Top, p.Legend.Left = false, true
	p.Legend.Padding = vg.Points(3)
	p.Legend.ThumbnailWidth = vg.Points(14)
	p.Legend.TextStyle = textStyle(7)
	return nil
}

// glyphThumb is a legend's mark: glyphs drawn at the middle of its box.
type glyphThumb []draw.GlyphStyle

func (g glyphThumb) Thumbnail(c *draw.Canvas) {
	at := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	for _, st := range g {
		c.DrawGlyph(st, at)
	}
}

// nodeLabels writes each position's label centred below its circle, a
// little apart from it, on a white ground: the edges leaving a position
// downwards would otherwise run through its label, and a label set
// closer would touch the circle.
type nodeLabels struct {
	xy     plotter.XYs
	labels []string
	style  draw.TextStyle
}

const (
	labelGap = 1.5 // points between a circle and its label
	labelPad = 1.0 // points of white around a label
)

func (l nodeLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := l.style
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	for i, s := range l.labels {
		if s == "" {
			continue
		}
		x, y := trX(l.xy[i].X), trY(l.xy[i].Y)
		top := y - nodeGlyph - vg.Points(labelGap)
		w, h := sty.Width(s), sty.Height(s)
		pad := vg.Points(labelPad)
		c.FillPolygon(color.White, []vg.Point{
			{X: x - w/2 - pad, Y: top}, {X: x + w/2 + pad, Y: top},
			{X: x + w/2 + pad, Y: top - h - pad}, {X: x - w/2 - pad, Y: top - h - pad},
		})
		c.FillText(sty, vg.Point{X: x, Y: top}, s)
	}
}

// nodeGlyph is the radius of a position's circle.
var nodeGlyph = vg.Points(5)

// Edges are straight unless a straight line would pass over another
// position, which would read as two moves through it (in Nim (1,2,3) the
// move (1,2,3) → (1,3) would cross (1,2,2)); then the edge bows sideways,
// as little as keeps it clear of every position.
const (
	nodeRadius   = 0.06 // where an edge stops short of a position
	edgeSamples  = 24   // points along a bowed edge
	clearanceMin = 0.08 // how far an edge keeps from other positions
)

// edgePath is the polyline of the move from → to: the straight segment or
// the least-bowed quadratic Bézier curve that keeps clearanceMin from the
// other positions (else the clearest one tried), trimmed at both circles.
func edgePath(xy [][2]float64, from, to, span int) plotter.XYs {
	a, b := xy[from], xy[to]
	dx, dy := b[0]-a[0], b[1]-a[1]
	d := math.Hypot(dx, dy)
	if d == 0 {
		return nil
	}
	nx, ny := -dy/d, dx/d // unit normal
	var best plotter.XYs
	bestClear := -1.0
	// Bow outwards, away from the middle of the drawing where the other
	// edges are; on the middle line, alternate sides with the number of
	// layers the edge spans, so that parallel long edges do not overlap.
	side := 1.0
	mid := (a[0] + b[0]) / 2
	switch {
	case math.Abs(mid) > 1e-9:
		if (mid > 0) != (nx > 0) {
			side = -1
		}
	case span%2 == 1:
		side = -1
	}
	for _, k := range []float64{0, 0.2, -0.2, 0.4, -0.4, 0.6, -0.6, 0.8, -0.8} {
		bow := side * k
		c := [2]float64{(a[0]+b[0])/2 + bow*nx, (a[1]+b[1])/2 + bow*ny}
		path := make(plotter.XYs, 0, edgeSamples+1)
		steps := edgeSamples
		if bow == 0 {
			steps = 1
		}
		for k := 0; k <= steps; k++ {
			t := float64(k) / float64(steps)
			u := 1 - t
			path = append(path, plotter.XY{
				X: u*u*a[0] + 2*u*t*c[0] + t*t*b[0],
				Y: u*u*a[1] + 2*u*t*c[1] + t*t*b[1],
			})
		}
		clear := math.Inf(1)
		for i, q := range xy {
			if i == from || i == to {
				continue
			}
			clear = min(clear, distanceToPath(q, path))
		}
		if clear > bestClear {
			best, bestClear = path, clear
		}
		if clear >= clearanceMin {
			break
		}
	}
	return trimPath(best, a, b)
}

// distanceToPath is the distance from q to the nearest point of a polyline.
func distanceToPath(q [2]float64, path plotter.XYs) float64 {
	best := math.Inf(1)
	for i := 1; i < len(path); i++ {
		p0, p1 := path[i-1], path[i]
		vx, vy := p1.X-p0.X, p1.Y-p0.Y
		t := 0.0
		if l2 := vx*vx + vy*vy; l2 > 0 {
			t = min(max(((q[0]-p0.X)*vx+(q[1]-p0.Y)*vy)/l2, 0), 1)
		}
		best = min(best, math.Hypot(q[0]-p0.X-t*vx, q[1]-p0.Y-t*vy))
	}
	return best
}

// trimPath cuts a polyline where it enters the circles around its ends, so
// that lines and arrowheads stop at the circles' edges.
func trimPath(path plotter.XYs, a, b [2]float64) plotter.XYs {
	cut := func(path plotter.XYs, centre [2]float64) plotter.XYs {
		// Walk from the start until the path leaves the circle; replace
		// the points inside by the crossing point.
		for i := 1; i < len(path); i++ {
			p0, p1 := path[i-1], path[i]
			d1 := math.Hypot(p1.X-centre[0], p1.Y-centre[1])
			if d1 < nodeRadius {
				continue
			}
			d0 := math.Hypot(p0.X-centre[0], p0.Y-centre[1])
			t := (nodeRadius - d0) / (d1 - d0) // along p0 → p1, by distance
			x := plotter.XY{X: p0.X + t*(p1.X-p0.X), Y: p0.Y + t*(p1.Y-p0.Y)}
			return append(plotter.XYs{x}, path[i:]...)
		}
		return nil
	}
	path = cut(path, a)
	slices.Reverse(path)
	path = cut(path, b)
	slices.Reverse(path)
	return path
}

// graphLayout places the positions in [-1, 1]² in layers, as the seeds
// draw game graphs: the start at the top and each position one layer below
// the lowest position that moves to it (longest path from the start, over
// gonum's topological sort). gonum's force-directed and Isomap layouts were
// tried first: they visit nodes in map order, so the same graph came out
// differently from run to run, which golden files and printed handouts
// cannot have.
func graphLayout(g *job.Graph) (xy [][2]float64, level []int) {
	n := len(g.Labels)
	out := make([][2]float64, n)
	if n == 1 {
		return out, make([]int, 1)
	}
	d := simple.NewDirectedGraph()
	for i := 0; i < n; i++ {
		d.AddNode(simple.Node(i))
	}
	for _, m := range g.Moves {
		if m[0] != m[1] {
			d.SetEdge(simple.Edge{F: simple.Node(m[0]), T: simple.Node(m[1])})
		}
	}
	level = make([]int, n)
	if order, err := topo.Sort(d); err == nil {
		for _, v := range order {
			for _, w := range graph.NodesOf(d.From(v.ID())) {
				level[w.ID()] = max(level[w.ID()], level[v.ID()]+1)
			}
		}
	}
	depth := slices.Max(level)
	layers := make([][]int, depth+1)
	for i, l := range level {
		layers[l] = append(layers[l], i)
	}
	// Order each layer by the mean place of the positions that move to it
	// (the barycentre heuristic of layered drawings), ties by breadth-first
	// order, which keeps crossings few and the drawing deterministic.
	place := make([]float64, n)
	preds := make([][]int, n)
	for _, m := range g.Moves {
		if m[0] != m[1] {
			preds[m[1]] = append(preds[m[1]], m[0])
		}
	}
	for _, nodes := range layers {
		key := make(map[int]float64, len(nodes))
		for _, i := range nodes {
			sum := 0.0
			for _, q := range preds[i] {
				sum += place[q]
			}
			if len(preds[i]) > 0 {
				key[i] = sum / float64(len(preds[i]))
			}
		}
		slices.SortStableFunc(nodes, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
		for k, i := range nodes {
			place[i] = float64(k) / float64(max(len(nodes)-1, 1))
		}
	}
	for l, nodes := range layers {
		y := 1.0
		if depth > 0 {
			y = 1 - 2*float64(l)/float64(depth)
		}
		for k, i := range nodes {
			x := 0.0
			if len(nodes) > 1 {
				x = -1 + 2*float64(k)/float64(len(nodes)-1)
			}
			out[i] = [2]float64{x, y}
		}
	}
	return out, level
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
