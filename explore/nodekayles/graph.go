package nodekayles

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/simple"
)

// MaxVertices bounds the graphs the general solver takes.
const MaxVertices = 1024

// Graph is a finite simple undirected graph on vertices 0 … N−1. Rows and
// Cols are set for an m × n grid (vertex r·n + c is cell (r, c)) and for a
// path (1 × n), whose positions go to the bitboard solver.
type Graph struct {
	N          int
	Adj        []Set // Adj[v]: the neighbours of v
	Rows, Cols int
	Name       string
	Labels     []string // vertex names read from a file, nil otherwise
}

// Set is a set of vertices, one bit each, in words.
type Set []uint64

func newSet(n int) Set { return make(Set, (n+63)/64) }

func (s Set) add(v int)      { s[v>>6] |= 1 << uint(v&63) }
func (s Set) has(v int) bool { return s[v>>6]>>uint(v&63)&1 == 1 }
func (s Set) key() string    { return string(setBytes(s)) }
func setBytes(s Set) []byte {
	b := make([]byte, 0, 8*len(s))
	for _, w := range s {
		for i := 0; i < 8; i++ {
			b = append(b, byte(w>>(8*i)))
		}
	}
	return bytes.TrimRight(b, "\x00")
}

func newGraph(n int, name string) (*Graph, error) {
	if n < 0 || n > MaxVertices {
		return nil, fmt.Errorf("nodekayles: %s: %d vertices; the general solver takes 0 to %d", name, n, MaxVertices)
	}
	g := &Graph{N: n, Adj: make([]Set, n), Name: name}
	for v := range g.Adj {
		g.Adj[v] = newSet(n)
	}
	return g, nil
}

func (g *Graph) addEdge(u, v int) {
	if u == v {
		return // a loop changes nothing: taking u removes u anyway
	}
	g.Adj[u].add(v)
	g.Adj[v].add(u)
}

// Edges returns the number of edges.
func (g *Graph) Edges() int {
	n := 0
	for u := range g.Adj {
		for v := u + 1; v < g.N; v++ {
			if g.Adj[u].has(v) {
				n++
			}
		}
	}
	return n
}

// Grid returns the m × n grid graph.
func Grid(m, n int) (*Graph, error) {
	if m < 1 || n < 1 {
		return nil, fmt.Errorf("nodekayles: grid %d × %d: both sides must be at least 1", m, n)
	}
	g, err := newGraph(m*n, fmt.Sprintf("grid %d × %d", m, n))
	if err != nil {
		return nil, err
	}
	for r := 0; r < m; r++ {
		for c := 0; c < n; c++ {
			if c+1 < n {
				g.addEdge(r*n+c, r*n+c+1)
			}
			if r+1 < m {
				g.addEdge(r*n+c, (r+1)*n+c)
			}
		}
	}
	g.Rows, g.Cols = m, n
	return g, nil
}

// Path returns the path of n vertices.
func Path(n int) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("nodekayles: path %d: negative length", n)
	}
	if n == 0 {
		return newGraph(0, "path 0")
	}
	g, err := Grid(1, n)
	if err == nil {
		g.Name = fmt.Sprintf("path %d", n)
	}
	return g, err
}

// Cycle returns the cycle of n ≥ 3 vertices.
func Cycle(n int) (*Graph, error) {
	if n < 3 {
		return nil, fmt.Errorf("nodekayles: cycle %d: a cycle has at least 3 vertices", n)
	}
	g, err := newGraph(n, fmt.Sprintf("cycle %d", n))
	if err != nil {
		return nil, err
	}
	for v := 0; v < n; v++ {
		g.addEdge(v, (v+1)%n)
	}
	return g, nil
}

// Complete returns the complete graph on n vertices.
func Complete(n int) (*Graph, error) {
	g, err := newGraph(n, fmt.Sprintf("complete %d", n))
	if err != nil {
		return nil, err
	}
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			g.addEdge(u, v)
		}
	}
	return g, nil
}

// ReadFile reads a graph from a file: DOT when its name ends in .dot or
// .gv or its text starts with "graph", "digraph" or "strict", an edge list
// otherwise.
func ReadFile(path string) (*Graph, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nodekayles: %w", err)
	}
	name := filepath.Base(path)
	head := strings.TrimSpace(string(data))
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".dot" || ext == ".gv" || strings.HasPrefix(head, "graph") || strings.HasPrefix(head, "digraph") || strings.HasPrefix(head, "strict") {
		return ReadDOT(path, data)
	}
	return ReadEdgeList(name, bytes.NewReader(data))
}

// ReadDOT reads a graph in DOT with gonum's decoder; edge directions are
// ignored (Node Kayles is played on the underlying simple graph).
func ReadDOT(name string, data []byte) (*Graph, error) {
	dst := simple.NewUndirectedGraph()
	if err := dot.Unmarshal(data, undirected{dst}); err != nil {
		return nil, fmt.Errorf("nodekayles: %s: %w (expected a DOT graph: graph { a -- b })", name, err)
	}
	nodes := gonum.NodesOf(dst.Nodes())
	g, err := newGraph(len(nodes), filepath.Base(name))
	if err != nil {
		return nil, err
	}
	index := map[int64]int{}
	g.Labels = make([]string, len(nodes))
	// gonum's IDs follow the order nodes were met; sort them for a stable
	// numbering.
	ids := make([]int64, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID()
	}
	sortInt64(ids)
	for i, id := range ids {
		index[id] = i
		if d, ok := dst.Node(id).(*dotNode); ok {
			g.Labels[i] = d.name
		} else {
			g.Labels[i] = strconv.FormatInt(id, 10)
		}
	}
	for _, e := range gonum.EdgesOf(dst.Edges()) {
		g.addEdge(index[e.From().ID()], index[e.To().ID()])
	}
	return g, nil
}

// ReadEdgeList reads one edge "u v" a line (names of any non-space
// characters; a line with one name is a vertex alone; # starts a comment).
func ReadEdgeList(name string, r io.Reader) (*Graph, error) {
	index := map[string]int{}
	var labels []string
	var edges [][2]int
	vertex := func(s string) int {
		if i, ok := index[s]; ok {
			return i
		}
		index[s] = len(labels)
		labels = append(labels, s)
		return len(labels) - 1
	}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		switch len(f) {
		case 0:
		case 1:
			vertex(f[0])
		case 2:
			edges = append(edges, [2]int{vertex(f[0]), vertex(f[1])})
		default:
			return nil, fmt.Errorf("nodekayles: %s:%d: %q: an edge is two vertex names (\"u v\")", name, line, sc.Text())
		}
		if len(labels) > MaxVertices {
			return nil, fmt.Errorf("nodekayles: %s:%d: more than %d vertices", name, line, MaxVertices)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("nodekayles: %s: %w", name, err)
	}
	g, err := newGraph(len(labels), name)
	if err != nil {
		return nil, err
	}
	g.Labels = labels
	for _, e := range edges {
		g.addEdge(e[0], e[1])
	}
	return g, nil
}

func sortInt64(a []int64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// undirected lets dot.Unmarshal fill an undirected graph from a digraph
// too, and keeps the names of nodes.
type undirected struct{ *simple.UndirectedGraph }

func (u undirected) NewNode() gonum.Node { return &dotNode{Node: u.UndirectedGraph.NewNode()} }

func (u undirected) SetEdge(e gonum.Edge) {
	if e.From().ID() == e.To().ID() {
		return // loops: see addEdge
	}
	u.UndirectedGraph.SetEdge(e)
}

type dotNode struct {
	gonum.Node
	name string
}

// SetDOTID keeps the node's name from the file.
func (n *dotNode) SetDOTID(id string) { n.name = id }
