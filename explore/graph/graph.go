package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/controlchar"
	"github.com/nimbook/nimbook/explore/game"
)

// DefaultMaxPositions is the position budget of Build when
// Options.MaxPositions is zero. A drawing with more nodes than this is
// unreadable anyway.
const DefaultMaxPositions = 10_000

// MovesPerPosition bounds the moves of a graph: at most this many per
// position on average (Options.MaxPositions of them), beyond which the
// drawing is a smudge and building it takes seconds.
const MovesPerPosition = 20

// Bytes a graph holds per edge and per node beyond its labels: the gonum
// graph's maps, Edge and Node, and their line in the DOT drawing.
const (
	edgeBytes = 256
	nodeBytes = 512
)

// Options tune Build. The zero value draws the game under normal play,
// labels positions with fmt.Sprint and allows DefaultMaxPositions positions.
type Options[T comparable] struct {
	// MaxPositions bounds the number of positions reachable from the
	// start; a larger game is refused with an error naming the limit.
	// 0 means DefaultMaxPositions.
	MaxPositions int
	// Label names a position in the graph and its drawing; nil means
	// fmt.Sprint. Labels need not be distinct: nodes are told apart by ID.
	Label func(T) string
	// Play decides which positions are P-positions.
	Play game.Play
	// MaxMemory bounds the bytes of the solver and the graph, estimated
	// before they are allocated; 0 means no bound.
	MaxMemory int64
	// Context, when not nil, stops the work once it is done, with an error
	// wrapping budget.Err of it.
	Context context.Context
}

// Node is one position of a Graph.
type Node struct {
	// ID is the position's rank in breadth-first order from the start
	// (the start is 0), the order of game.Solver.Reachable.
	ID int64
	// Label is the position's name given by Options.Label.
	Label string
	// Grundy is the normal-play Grundy value, whatever the play.
	Grundy uint64
	// Outcome is P or N under the graph's play.
	Outcome game.Outcome
	// Terminal reports a position without moves.
	Terminal bool
}

// Edge is one move of a Graph.
type Edge struct {
	From, To int64
	// Winning reports a move to a P-position.
	Winning bool
}

// Graph is the explicit game graph of the positions reachable from a start
// position: one node per position, one edge per move. It is read-only once
// built.
type Graph struct {
	play  game.Play
	g     *simple.DirectedGraph
	nodes []Node
	edges []Edge
}

// Build solves the game m from start and returns its graph. It returns an
// error wrapping game.ErrTooManyPositions when more than opts.MaxPositions
// positions are reachable, and the solver's error (a cycle, a failing move
// function) otherwise.
func Build[T comparable](m game.Mover[T], start T, opts Options[T]) (*Graph, error) {
	if m == nil {
		return nil, errors.New("graph: nil move function")
	}
	if opts.MaxPositions < 0 {
		return nil, fmt.Errorf("graph: negative position budget %d", opts.MaxPositions)
	}
	limit := opts.MaxPositions
	if limit == 0 {
		limit = DefaultMaxPositions
	}
	label := opts.Label
	if label == nil {
		label = func(p T) string { return fmt.Sprint(p) }
	}
	stopped := func() error {
		if opts.Context == nil {
			return nil
		}
		if err := budget.Err(opts.Context); err != nil {
			return fmt.Errorf("graph: %w", err)
		}
		return nil
	}
	s, err := game.NewSolver(m, game.Options{Play: opts.Play, MaxPositions: limit, MaxMemory: opts.MaxMemory, Context: opts.Context})
	if err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	order, err := s.Reachable(start)
	if err != nil {
		if errors.Is(err, game.ErrTooManyPositions) {
			return nil, fmt.Errorf("graph: more than %d positions reachable from %s, the graph budget (raise it with --max-positions or limits.positions in the job file): %w",
				limit, label(start), game.ErrTooManyPositions)
		}
		return nil, fmt.Errorf("graph: %w", err)
	}

	// List the moves first: their number decides whether the graph is
	// drawn at all, before its maps are allocated.
	moves := make([][]T, len(order))
	edges := 0
	for i, p := range order {
		if i&255 == 255 {
			if err := stopped(); err != nil {
				return nil, err
			}
		}
		ms, err := m.Moves(p)
		if err != nil {
			return nil, fmt.Errorf("graph: moves of %s: %w", label(p), err)
		}
		moves[i] = ms
		if edges += len(ms); edges > MovesPerPosition*limit {
			return nil, fmt.Errorf("graph: the %d positions reachable from %s have more than %d moves, too many to draw (%d per position at most, for a budget of %d positions); start from a smaller position",
				len(order), label(start), MovesPerPosition*limit, MovesPerPosition, limit)
		}
	}
	need := int64(edges)*edgeBytes + int64(len(order))*nodeBytes
	if err := budget.Exceeds(fmt.Sprintf("a graph of %d positions and %d moves", len(order), edges), need, opts.MaxMemory); err != nil {
		return nil, fmt.Errorf("graph: %w (raise it with --max-memory or limits.memory)", err)
	}

	gr := &Graph{play: opts.Play, g: simple.NewDirectedGraph(), nodes: make([]Node, len(order))}
	ids := make(map[T]int64, len(order))
	for i, p := range order {
		ids[p] = int64(i)
	}
	for i, p := range order {
		// The solver has solved every reachable position, so these calls
		// only read its memo.
		gv, err := s.Grundy(p)
		if err != nil {
			return nil, fmt.Errorf("graph: %w", err)
		}
		o, err := s.Outcome(p)
		if err != nil {
			return nil, fmt.Errorf("graph: %w", err)
		}
		ms := moves[i]
		gr.nodes[i] = Node{ID: int64(i), Label: label(p), Grundy: gv, Outcome: o, Terminal: len(ms) == 0}
	}
	dnodes := make([]dotNode, len(order))
	for i := range gr.nodes {
		dnodes[i] = dotNode{n: &gr.nodes[i], play: opts.Play}
		gr.g.AddNode(dnodes[i])
	}
	for i, ms := range moves {
		if i&255 == 255 {
			if err := stopped(); err != nil {
				return nil, err
			}
		}
		seen := make(map[int64]bool, len(ms))
		for _, q := range ms {
			j := ids[q]
			if seen[j] {
				continue // a move function may list an option twice
			}
			seen[j] = true
			e := Edge{From: int64(i), To: j, Winning: gr.nodes[j].Outcome == game.P}
			gr.edges = append(gr.edges, e)
			gr.g.SetEdge(dotEdge{from: dnodes[i], to: dnodes[j], winning: e.Winning})
		}
	}
	slices.SortFunc(gr.edges, func(a, b Edge) int {
		if a.From != b.From {
			return cmpInt64(a.From, b.From)
		}
		return cmpInt64(a.To, b.To)
	})
	return gr, nil
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Play returns the convention that decided the outcomes.
func (g *Graph) Play() game.Play { return g.play }

// Len returns the number of positions.
func (g *Graph) Len() int { return len(g.nodes) }

// Node returns the node with the given ID; ok is false if there is none.
func (g *Graph) Node(id int64) (n Node, ok bool) {
	if id < 0 || id >= int64(len(g.nodes)) {
		return Node{}, false
	}
	return g.nodes[id], true
}

// Nodes returns every position in ID order (breadth-first from the start).
func (g *Graph) Nodes() []Node { return slices.Clone(g.nodes) }

// Edges returns every move, sorted by origin then destination ID.
func (g *Graph) Edges() []Edge { return slices.Clone(g.edges) }

// Successors returns the IDs of the options of node id, in increasing order.
func (g *Graph) Successors(id int64) []int64 {
	lo, _ := slices.BinarySearchFunc(g.edges, id, func(e Edge, id int64) int { return cmpInt64(e.From, id) })
	var out []int64
	for _, e := range g.edges[lo:] {
		if e.From != id {
			break
		}
		out = append(out, e.To)
	}
	return out
}

// Kernel returns the P-positions in ID order. Under normal play they are
// the kernel ("core") of the graph: no move joins two of them, and every
// other position has a move to one of them. Under misère play they are the
// kernel of the graph with its terminal positions removed, since moving to
// a terminal position loses.
func (g *Graph) Kernel() []Node {
	var k []Node
	for _, n := range g.nodes {
		if n.Outcome == game.P {
			k = append(k, n)
		}
	}
	return k
}

// Directed returns the graph as a gonum directed graph, for gonum's
// algorithms. Its nodes have the IDs of Nodes; it must not be modified.
func (g *Graph) Directed() gonum.Directed { return g.g }

// DOT returns the graph in Graphviz's DOT language, named name. P-positions
// are filled double circles and winning moves bold; the graph's label is a
// legend saying so. The bytes depend only on the graph.
//
// The graph's name and the positions' labels are written as DOT quoted
// strings when they are not plain identifiers or numbers, whatever they
// hold (quotes, backslashes, "<…>" that DOT would read as HTML, line
// breaks, keywords), so that each reads back as itself.
func (g *Graph) DOT(name string) ([]byte, error) {
	b, err := dot.Marshal(dotGraph{DirectedGraph: g.g, play: g.play}, quoteDOT(name), "", "\t")
	if err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	return append(b, '\n'), nil
}

// dotGraph adds the drawing-wide attributes to the gonum graph.
type dotGraph struct {
	*simple.DirectedGraph
	play game.Play
}

func (g dotGraph) DOTAttributers() (graph, node, edge encoding.Attributer) {
	legend := "P-positions (the kernel): filled double circles; N-positions: circles; bold arrows: winning moves; g: Grundy value"
	if g.play == game.Misere {
		legend = "misère play. P-positions: filled double circles; N-positions: circles; bold arrows: winning moves"
	}
	return attrs{{Key: "label", Value: legend}, {Key: "labelloc", Value: "b"}},
		attrs{{Key: "shape", Value: "circle"}},
		nil
}

type attrs []encoding.Attribute

func (a attrs) Attributes() []encoding.Attribute { return a }

// dotNode is the gonum node of a position; it carries its own drawing
// attributes.
type dotNode struct {
	n    *Node
	play game.Play
}

func (n dotNode) ID() int64 { return n.n.ID }

func (n dotNode) Attributes() []encoding.Attribute {
	a := []encoding.Attribute{{Key: "label", Value: quoteDOT(n.n.Label)}}
	if n.play == game.Normal {
		// Under misère play the Grundy value does not decide the outcome,
		// so it would mislead beside the P marking.
		a = append(a, encoding.Attribute{Key: "xlabel", Value: fmt.Sprintf("g=%d", n.n.Grundy)})
	}
	if n.n.Outcome == game.P {
		a = append(a,
			encoding.Attribute{Key: "shape", Value: "doublecircle"},
			encoding.Attribute{Key: "style", Value: "filled"},
			encoding.Attribute{Key: "fillcolor", Value: "lightgrey"})
	}
	return a
}

type dotEdge struct {
	from, to dotNode
	winning  bool
}

func (e dotEdge) From() gonum.Node { return e.from }
func (e dotEdge) To() gonum.Node   { return e.to }
func (e dotEdge) ReversedEdge() gonum.Edge {
	return dotEdge{from: e.to, to: e.from, winning: e.winning}
}

func (e dotEdge) Attributes() []encoding.Attribute {
	if e.winning {
		return []encoding.Attribute{{Key: "style", Value: "bold"}}
	}
	return nil
}

// quoteDOT writes s as a DOT double-quoted string. gonum's encoder quotes
// only what is not already a DOT ID, so that a label "<b>x</b>" would
// become an HTML label and a label "\"x\"" lose its quotes: an ID quoted
// here is left as it is. Inside, a quote and a backslash are escaped (DOT
// reads "\\" in a label as one backslash, and "\l", "\N"… as escapes
// otherwise), a line break is DOT's "\n", a tab a space, and other
// control characters and invalid UTF-8 are dropped. The result is also a
// valid Go string literal, which is how gonum recognises a quoted ID.
//
// A plain ASCII identifier or number (not a DOT keyword) stays bare, as
// gonum writes it.
func quoteDOT(s string) string {
	if plainDOT(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(s[i:]); n > 1 {
				b.WriteRune(r)
			}
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteByte(' ')
		case controlchar.Is(r):
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// plainDOT reports whether s is a DOT ID without quotes: an ASCII
// identifier that is not a keyword, or a numeral.
func plainDOT(s string) bool {
	if s == "" {
		return false
	}
	switch strings.ToLower(s) {
	case "node", "edge", "graph", "digraph", "subgraph", "strict":
		return false
	}
	ident, digits, dots := true, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
			if i == 0 {
				ident = false
			}
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c == '.':
			dots++
			ident = false
		case c == '-' && i == 0:
			ident = false
		default:
			return false
		}
	}
	if ident {
		return true
	}
	// A numeral: [-]?(.[0-9]+ | [0-9]+(.[0-9]*)?), so no letter.
	return digits > 0 && dots <= 1 && strings.Trim(strings.TrimPrefix(s, "-"), "0123456789.") == ""
}
