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
		return nil, fmt.Errorf("plots: %d positions: %w (at most %d are drawn)", n, ErrTooLarge, MaxGraphNodes)
	}
	xy := graphLayout(g)

	p := plot.New()
	p.Title.Text = l.Title
	p.HideAxes()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -1.15, 1.15, -1.25, 1.15

	for _, m := range g.Moves {
		from, to := xy[m[0]], xy[m[1]]
		dx, dy := to[0]-from[0], to[1]-from[1]
		d := math.Hypot(dx, dy)
		if d == 0 {
			continue
		}
		ux, uy := dx/d, dy/d
		const r = 0.06 // stop short of the circles
		a := [2]float64{from[0] + r*ux, from[1] + r*uy}
		b := [2]float64{to[0] - r*ux, to[1] - r*uy}
		line, err := plotter.NewLine(plotter.XYs{{X: a[0], Y: a[1]}, {X: b[0], Y: b[1]}})
		if err != nil {
			return nil, err
		}
		line.Color = color.Gray{Y: 90}
		line.Width = vg.Points(0.6)
		p.Add(line)
		// The arrowhead: two short strokes back from the tip.
		const h, w = 0.05, 0.025
		for _, s := range []float64{1, -1} {
			tip, err := plotter.NewLine(plotter.XYs{{X: b[0], Y: b[1]}, {X: b[0] - h*ux + s*w*uy, Y: b[1] - h*uy - s*w*ux}})
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
			return draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5), Shape: draw.CircleGlyph{}}
		}
		return draw.GlyphStyle{Color: color.Black, Radius: vg.Points(5), Shape: draw.RingGlyph{}}
	}
	p.Add(nodes)

	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: g.Labels})
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign = draw.XCenter
		labels.TextStyle[i].Font.Size = vg.Points(7)
	}
	labels.Offset = vg.Point{Y: -vg.Points(13)}
	p.Add(labels)
	return p, nil
}

// graphLayout places the positions in [-1, 1]² in layers, as the seeds
// draw game graphs: the start at the top and each position one layer below
// the lowest position that moves to it (longest path from the start, over
// gonum's topological sort). gonum's force-directed and Isomap layouts were
// tried first: they visit nodes in map order, so the same graph came out
// differently from run to run, which golden files and printed handouts
// cannot have.
func graphLayout(g *job.Graph) [][2]float64 {
	n := len(g.Labels)
	out := make([][2]float64, n)
	if n == 1 {
		return out
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
	level := make([]int, n)
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
	return out
}
