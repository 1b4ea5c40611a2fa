package nodekayles

import (
	"context"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/cellgame"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

// a316632 is the Grundy value of Node Kayles on the 3 × n grid, n = 1…16:
// OEIS A316632 (https://oeis.org/A316632); S. Brown, S. Daugherty,
// E. Fiorini, B. Maldonado, D. Manzano-Ruiz, S. Rainville, R. Waechter and
// T. W. H. Wong, "Nimber sequences of Node-Kayles games", J. Integer Seq.
// 23 (2020), Article 20.3.5.
var a316632 = []uint64{2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3}

func gridValues(t *testing.T, s *Solver, m, upto int) []uint64 {
	t.Helper()
	var vs []uint64
	for n := 1; n <= upto; n++ {
		g, err := Grid(m, n)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.Value(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	return vs
}

// The 16 published terms, the work pinned (measured; about a tenth of a
// second each), one memo for the range: by the solver, whose three-row
// grids go to the strip engine (33 829 memo entries and 676 narrow
// components), and by cellgame folded (34 013 components).
func TestGrid3Published(t *testing.T) {
	s, _ := NewSolver(Options{Workers: 2})
	got := gridValues(t, s, 3, 16)
	if !equal(got, a316632) {
		t.Fatalf("3 × n = %v, want %v (A316632)", got, a316632)
	}
	if st := s.Stats(); st.Entries != 34505 {
		t.Errorf("memo of 3 × 1…16: %d entries, want 34505", st.Entries)
	}
	cg, _ := cellgame.New(GridRule{}, cellgame.Options{Fold: true, Workers: 2})
	for n := 1; n <= 16; n++ {
		v, err := cg.Value(context.Background(), cellgame.Full(3, n), 3, n)
		if err != nil || v != a316632[n-1] {
			t.Fatalf("cellgame: 3 × %d = %d (%v), want %d (A316632)", n, v, err, a316632[n-1])
		}
	}
	if st := cg.Stats(); st.Entries != 34013 {
		t.Errorf("cellgame's memo of 3 × 1…16: %d entries, want 34013", st.Entries)
	}
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// 1 × n is Dawson's chess: heap n of octal 0.137 (an end vertex takes two,
// an inner one three, leaving one or two paths).
func TestPathIsDawsonsChess(t *testing.T) {
	dawson, err := heap.ParseOctal("0.137")
	if err != nil {
		t.Fatal(err)
	}
	want, err := dawson.Values(60, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSolver(Options{})
	for n := 0; n <= 60; n++ {
		g, _ := Path(n)
		v, err := s.Value(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if v != want[n] {
			t.Errorf("path %d: %d, want %d (0.137)", n, v, want[n])
		}
		g1, _ := Grid(n+1, 1) // a column is a path too
		if v1, _ := s.Value(context.Background(), g1); n+1 <= 60 && n+1 < len(want) && v1 != want[n+1] {
			t.Errorf("grid %d × 1: %d, want %d", n+1, v1, want[n+1])
		}
	}
}

// 2 × n alternates 1, 0 (OEIS A316632's comment; the ladder's central
// symmetry answers every move when n is even).
func TestGrid2Alternates(t *testing.T) {
	s, _ := NewSolver(Options{})
	for i, v := range gridValues(t, s, 2, 30) {
		if want := uint64((i + 1) % 2); v != want {
			t.Errorf("2 × %d: %d, want %d", i+1, v, want)
		}
	}
}

// cycles and complete graphs by the general solver: one move leaves a path
// of n − 3 vertices, or nothing.
func TestCycleAndComplete(t *testing.T) {
	dawson, _ := heap.ParseOctal("0.137")
	want, _ := dawson.Values(40, heap.Limits{})
	s, _ := NewSolver(Options{})
	for n := 3; n <= 40; n++ {
		g, err := Cycle(n)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.Value(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if w := game.Mex([]uint64{want[n-3]}); v != w {
			t.Errorf("cycle %d: %d, want %d", n, v, w)
		}
	}
	for n := 0; n <= 12; n++ {
		g, _ := Complete(n)
		v, _ := s.Value(context.Background(), g)
		if want := uint64(min(n, 1)); v != want {
			t.Errorf("complete %d: %d, want %d", n, v, want)
		}
	}
}

// maskGame is Node Kayles on a graph of at most 32 vertices, positions as
// masks, moves from the adjacency lists: nothing shared with the solvers.
func maskGame(n int, edges [][2]int) game.MoveFunc[uint32] {
	nbr := make([]uint32, n)
	for _, e := range edges {
		nbr[e[0]] |= 1 << uint(e[1])
		nbr[e[1]] |= 1 << uint(e[0])
	}
	return func(p uint32) ([]uint32, error) {
		var out []uint32
		for v := 0; v < n; v++ {
			if p>>uint(v)&1 == 1 {
				out = append(out, p&^(nbr[v]|1<<uint(v)))
			}
		}
		return out, nil
	}
}

func graphEdges(g *Graph) [][2]int {
	var es [][2]int
	for u := 0; u < g.N; u++ {
		for v := u + 1; v < g.N; v++ {
			if g.Adj[u].has(v) {
				es = append(es, [2]int{u, v})
			}
		}
	}
	return es
}

func fromMask(m uint32, n int) Set {
	s := newSet(n)
	for v := 0; v < n; v++ {
		if m>>uint(v)&1 == 1 {
			s.add(v)
		}
	}
	return s
}

// Every position of small grids, cycles, complete and random graphs,
// folded and not, against the generic mex solver.
func TestAgainstGenericSolver(t *testing.T) {
	var graphs []*Graph
	for _, mn := range [][2]int{{1, 9}, {2, 6}, {3, 4}, {4, 3}, {4, 4}} {
		g, _ := Grid(mn[0], mn[1])
		graphs = append(graphs, g)
	}
	c, _ := Cycle(11)
	k, _ := Complete(6)
	graphs = append(graphs, c, k)
	rng := rand.New(rand.NewSource(28))
	for i := 0; i < 6; i++ {
		n := 8 + i
		var sb strings.Builder
		for u := 0; u < n; u++ {
			for v := u + 1; v < n; v++ {
				if rng.Intn(4) == 0 {
					sb.WriteString(string(rune('a'+u)) + " " + string(rune('a'+v)) + "\n")
				}
			}
			sb.WriteString(string(rune('a'+u)) + "\n")
		}
		g, err := ReadEdgeList("random", strings.NewReader(sb.String()))
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, g)
	}
	if testing.Short() {
		graphs = graphs[:4]
	}
	for _, g := range graphs {
		ref, _ := game.NewSolver[uint32](maskGame(g.N, graphEdges(g)), game.Options{})
		for _, opts := range []Options{{}, {NoFold: true}, {Workers: 2}} {
			s, _ := NewSolver(opts)
			for m := uint32(0); m < 1<<uint(g.N); m++ {
				want, _ := ref.Grundy(m)
				got, err := s.ValueOf(context.Background(), g, fromMask(m, g.N))
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("%s %+v position %x: %d, want %d", g.Name, opts, m, got, want)
				}
			}
		}
	}
}

// The general solver on a grid (no bitboards, no folding of the grid's
// symmetries) agrees with the bitboard solver: 3 × n for n ≤ 9.
func TestGeneralSolverOnGrids(t *testing.T) {
	s, _ := NewSolver(Options{})
	for n := 1; n <= 9; n++ {
		g, _ := Grid(3, n)
		gen := &Graph{N: g.N, Adj: g.Adj, Name: "grid as a graph"}
		v, err := s.Value(context.Background(), gen)
		if err != nil {
			t.Fatal(err)
		}
		if v != a316632[n-1] {
			t.Errorf("3 × %d by the general solver: %d, want %d", n, v, a316632[n-1])
		}
	}
}

func TestReadGraphs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// the Petersen graph, whose Node Kayles value is computed both ways
	petersen := "graph petersen {\n  a -- b -- c -- d -- e -- a\n  a -- f; b -- g; c -- h; d -- i; e -- j\n  f -- h -- j -- g -- i -- f\n}\n"
	g, err := ReadFile(write("petersen.dot", petersen))
	if err != nil {
		t.Fatal(err)
	}
	if g.N != 10 || g.Edges() != 15 || g.Labels[0] != "a" {
		t.Fatalf("petersen: %d vertices, %d edges, labels %v", g.N, g.Edges(), g.Labels)
	}
	var el strings.Builder
	for _, e := range graphEdges(g) {
		el.WriteString(g.Labels[e[0]] + " " + g.Labels[e[1]] + " # an edge\n")
	}
	h, err := ReadFile(write("petersen.txt", el.String()))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSolver(Options{})
	v1, _ := s.Value(context.Background(), g)
	v2, _ := s.Value(context.Background(), h)
	ref, _ := game.NewSolver[uint32](maskGame(g.N, graphEdges(g)), game.Options{})
	want, _ := ref.Grundy(1<<10 - 1)
	if v1 != want || v2 != want {
		t.Errorf("petersen: %d (DOT), %d (edge list), want %d", v1, v2, want)
	}
	// a digraph is read as its underlying graph; loops change nothing
	d, err := ReadFile(write("d.gv", "digraph { x -> y; y -> x; y -> y }"))
	if err != nil || d.N != 2 || d.Edges() != 1 {
		t.Errorf("digraph: %v, %+v", err, d)
	}
	for name, text := range map[string]string{
		"bad.txt": "a b\na b c\n",
		"bad.dot": "graph { a -- }",
	} {
		_, err := ReadFile(write(name, text))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
	}
	if _, err := ReadFile(write("bad.txt", "a b\na b c\n")); err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
		t.Errorf("edge list error %v, want the line", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.dot")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestMovesAndWinningMoves(t *testing.T) {
	g, _ := Path(5) // 0.137 heap 5: value 2; taking the middle leaves two single vertices (0)
	s, _ := NewSolver(Options{})
	win, err := s.WinningMoves(context.Background(), g, Full(g))
	if err != nil {
		t.Fatal(err)
	}
	if len(win) != 1 || win[0] != 2 {
		t.Errorf("winning moves of path 5: %v, want [2]", win)
	}
	if _, err := Move(g, Full(g), 7); err == nil {
		t.Error("move outside the graph: no error")
	}
	next, _ := Move(g, Full(g), 0)
	if _, err := Move(g, next, 1); err == nil {
		t.Error("move on a removed vertex: no error")
	}
}

func TestLimitsEstimateCancel(t *testing.T) {
	s, _ := NewSolver(Options{MaxMemory: 100 * cellgame.EntryBytes})
	g, _ := Grid(3, 12)
	if _, err := s.Value(context.Background(), g); !errors.Is(err, cellgame.ErrMemoFull) {
		t.Errorf("memo of 100 entries: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ = NewSolver(Options{})
	g, _ = Grid(3, 15)
	if _, err := s.Value(ctx, g); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	c, _ := Cycle(30)
	if _, err := s.Value(ctx, c); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled (general): %v", err)
	}
	// the estimate of 3 × 16 from samples up to 2 000 entries is within a
	// factor of 2 of the 34 013 entries it takes
	est, err := EstimateGrid(context.Background(), 3, 16, 2000, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if est.Entries < 34013/2 || est.Entries > 34013*2 || est.Sampled >= 16 {
		t.Errorf("estimate of 3 × 16: %+v, want about 34013 entries", est)
	}
	if err := CheckEstimate("Node Kayles on 3 × 40", Estimate{Entries: 1e9, Bytes: 32e9}, 1<<30); err == nil || !strings.Contains(err.Error(), "1.0GiB") && !strings.Contains(err.Error(), "limit") {
		t.Errorf("refusal: %v", err)
	}
}

// A run continues from a saved memo: 4 × 6 solved, saved, loaded into a
// new solver, and 4 × 7 solves only the components 4 × 6 did not meet
// (grids of four rows: those of three go to the strip engine, whose memo
// is not saved).
func TestMemoFile(t *testing.T) {
	s, _ := NewSolver(Options{})
	g12, _ := Grid(4, 6)
	if _, err := s.Value(context.Background(), g12); err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := s.SaveMemo(&buf); err != nil {
		t.Fatal(err)
	}
	l, _ := NewSolver(Options{})
	if err := l.LoadMemo(strings.NewReader(buf.String())); err != nil {
		t.Fatal(err)
	}
	g13, _ := Grid(4, 7)
	v, err := l.Value(context.Background(), g13)
	fresh, _ := NewSolver(Options{})
	want, _ := fresh.Value(context.Background(), g13)
	if err != nil || v != want {
		t.Fatalf("4 × 7: %d, %v; want %d", v, err, want)
	}
	loaded := s.Stats().Entries
	if st := l.Stats(); st.Entries != loaded+st.Solved || st.Solved >= fresh.Stats().Solved {
		t.Errorf("4 × 7 after 4 × 6's memo (%d entries): %+v; alone: %+v", loaded, st, fresh.Stats())
	}
}
