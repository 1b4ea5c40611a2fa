package graph

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/encoding/dot"
	gdot "gonum.org/v1/gonum/graph/formats/dot"
	"gonum.org/v1/gonum/graph/formats/dot/ast"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// multiset is a Nim position drawn as seeds 001 and 003 draw it: an
// unordered multiset of non-zero heaps, kept sorted in decreasing order so
// that the empty heaps trail.
type multiset [4]int

func (p multiset) String() string {
	var parts []string
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] > 0 {
			parts = append(parts, fmt.Sprint(p[i]))
		}
	}
	return "(" + strings.Join(parts, ",") + ")"
}

func newMultiset(heaps ...int) multiset {
	var p multiset
	copy(p[:], heaps)
	slices.SortFunc(p[:], func(a, b int) int { return b - a })
	return p
}

// multisetNim takes any number of tokens from one heap; equal heaps give
// the same option, listed once.
var multisetNim = game.MoveFunc[multiset](func(p multiset) ([]multiset, error) {
	var out []multiset
	for i, h := range p {
		if i > 0 && h == p[i-1] {
			continue
		}
		for k := h - 1; k >= 0; k-- {
			q := p
			q[i] = k
			out = append(out, newMultiset(q[:]...))
		}
	}
	return out, nil
})

// tupleNim is Nim on ordered heaps, as counted for the (1,3,5,7) table.
var tupleNim = game.MoveFunc[[4]int](func(p [4]int) ([][4]int, error) {
	var out [][4]int
	for i, h := range p {
		for k := h - 1; k >= 0; k-- {
			q := p
			q[i] = k
			out = append(out, q)
		}
	}
	return out, nil
})

func labels(ns []Node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Label)
	}
	return out
}

func TestMultisetNim123(t *testing.T) {
	g, err := Build(multisetNim, newMultiset(1, 2, 3), Options[multiset]{})
	if err != nil {
		t.Fatal(err)
	}
	// seed 003 ("Nim Games"), section "Game Graph": the core of the graph of
	// (1,2,3) is (1,2,3), (2,2), (1,1) and the empty position; seed 001
	// (Degraeve), section 3: "Les 4 positions encadrées sont perdantes".
	got := labels(g.Kernel())
	slices.Sort(got)
	want := []string{"()", "(1,1)", "(1,2,3)", "(2,2)"}
	if !slices.Equal(got, want) {
		t.Errorf("kernel = %v, want %v", got, want)
	}
	// seed 003, section "Game Graph": from (1,1,2) the rules allow (1,1,1),
	// (1,2) or (1,1).
	var from int64 = -1
	for _, n := range g.Nodes() {
		if n.Label == "(1,1,2)" {
			from = n.ID
		}
	}
	if from < 0 {
		t.Fatal("(1,1,2) is not in the graph")
	}
	var succ []string
	for _, id := range g.Successors(from) {
		n, _ := g.Node(id)
		succ = append(succ, n.Label)
	}
	slices.Sort(succ)
	if want := []string{"(1,1)", "(1,1,1)", "(1,2)"}; !slices.Equal(succ, want) {
		t.Errorf("options of (1,1,2) = %v, want %v", succ, want)
	}
	checkKernel(t, g)
}

func TestTupleNim(t *testing.T) {
	tests := []struct {
		name                 string
		start                [4]int
		positions, p, degree int
	}{
		// MATH.md "Game graphs": ordered tuples give 24 positions for (1,2,3).
		{name: "(1,2,3)", start: [4]int{1, 2, 3}, positions: 24, p: 6, degree: 6},
		// seed 001 (Degraeve), section 3: 384 positions, 48 of them losing,
		// 16 moves from the start.
		{name: "(1,3,5,7)", start: [4]int{1, 3, 5, 7}, positions: 384, p: 48, degree: 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Build(tupleNim, tt.start, Options[[4]int]{})
			if err != nil {
				t.Fatal(err)
			}
			if g.Len() != tt.positions || len(g.Nodes()) != tt.positions {
				t.Errorf("%d positions, want %d", g.Len(), tt.positions)
			}
			if k := len(g.Kernel()); k != tt.p {
				t.Errorf("%d P-positions, want %d", k, tt.p)
			}
			if d := len(g.Successors(0)); d != tt.degree {
				t.Errorf("%d moves from the start, want %d", d, tt.degree)
			}
			// Cross-check with Bouton's rule: g = nim-sum of the heaps.
			pos, err := mustSolver(t).Reachable(tt.start)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range pos {
				n, _ := g.Node(int64(i))
				if want := uint64(p[0] ^ p[1] ^ p[2] ^ p[3]); n.Grundy != want {
					t.Errorf("g%v = %d, want %d", p, n.Grundy, want)
				}
				if n.Label != fmt.Sprint(p) {
					t.Errorf("node %d is %q, want %v (breadth-first order)", i, n.Label, p)
				}
			}
			checkKernel(t, g)
		})
	}
}

func mustSolver(t *testing.T) *game.Solver[[4]int] {
	s, err := game.NewSolver[[4]int](tupleNim, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBudget(t *testing.T) {
	start := [4]int{1, 2, 3}
	if _, err := Build(tupleNim, start, Options[[4]int]{MaxPositions: 24}); err != nil {
		t.Errorf("budget 24 for 24 positions: %v", err)
	}
	_, err := Build(tupleNim, start, Options[[4]int]{MaxPositions: 23})
	if !errors.Is(err, game.ErrTooManyPositions) || !strings.Contains(err.Error(), "23") {
		t.Errorf("budget 23 for 24 positions: err = %v, want one naming 23 and wrapping ErrTooManyPositions", err)
	}
	if _, err := Build(tupleNim, start, Options[[4]int]{MaxPositions: -1}); err == nil {
		t.Error("negative budget accepted")
	}
	if _, err := Build[int](nil, 0, Options[int]{}); err == nil {
		t.Error("nil mover accepted")
	}
}

// wythoffLike is Wythoff's game, which has many moves per position:
// a + b + min(a, b) from (a, b).
var wythoffLike = game.MoveFunc[[2]int](func(p [2]int) ([][2]int, error) {
	var out [][2]int
	for x := range p[0] {
		out = append(out, [2]int{x, p[1]})
		if d := p[0] - x; d <= p[1] {
			out = append(out, [2]int{x, p[1] - d})
		}
	}
	for y := range p[1] {
		out = append(out, [2]int{p[0], y})
	}
	return out, nil
})

func TestMoveAndMemoryBudgets(t *testing.T) {
	// (99, 99) reaches 10 000 positions with 1.3 million moves.
	_, err := Build(wythoffLike, [2]int{99, 99}, Options[[2]int]{})
	if err == nil || !strings.Contains(err.Error(), "have more than 200000 moves, too many to draw") {
		t.Errorf("(99, 99): %v", err)
	}
	_, err = Build(wythoffLike, [2]int{20, 20}, Options[[2]int]{MaxMemory: 1 << 20})
	if !errors.Is(err, budget.ErrMemory) || !strings.Contains(err.Error(), "graph: a graph of 441 positions and 11690 moves needs about 3.1 MiB, more than the memory limit of 1 MiB") {
		t.Errorf("(20, 20) in 1 MiB: %v", err)
	}
	if _, err := Build(wythoffLike, [2]int{20, 20}, Options[[2]int]{MaxMemory: budget.Reserve + 4<<20}); err != nil {
		t.Errorf("(20, 20) in 4 MiB beside the reserve: %v", err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted"))
	_, err := Build(wythoffLike, [2]int{60, 60}, Options[[2]int]{Context: ctx})
	if !errors.Is(err, context.Canceled) || !strings.HasSuffix(err.Error(), "interrupted") {
		t.Errorf("cancelled: %v", err)
	}
}

func TestErrors(t *testing.T) {
	cycle := game.MoveFunc[int](func(n int) ([]int, error) { return []int{(n + 1) % 3}, nil })
	if _, err := Build(cycle, 0, Options[int]{}); err == nil || !strings.HasPrefix(err.Error(), "graph: ") {
		t.Errorf("cycle: err = %v", err)
	}
	broken := game.MoveFunc[int](func(n int) ([]int, error) {
		if n == 0 {
			return nil, errors.New("no such position")
		}
		return []int{n - 1}, nil
	})
	if _, err := Build(broken, 3, Options[int]{}); err == nil {
		t.Error("failing move function: no error")
	}
}

// checkKernel verifies that the P-positions are the kernel of the graph
// (under misère play, of the graph without its terminal positions): an
// independent set that every other node has an edge into.
func checkKernel(t *testing.T, g *Graph) {
	t.Helper()
	inKernel := make(map[int64]bool)
	for _, n := range g.Kernel() {
		inKernel[n.ID] = true
	}
	for _, n := range g.Nodes() {
		if g.Play() == game.Misere && n.Terminal {
			if inKernel[n.ID] {
				t.Errorf("misère: terminal node %d is a P-position", n.ID)
			}
			continue
		}
		hit := false
		for _, s := range g.Successors(n.ID) {
			sn, _ := g.Node(s)
			if g.Play() == game.Misere && sn.Terminal {
				continue
			}
			if inKernel[s] {
				hit = true
				if inKernel[n.ID] {
					t.Errorf("kernel nodes %d and %d are joined by a move", n.ID, s)
				}
			}
		}
		if !inKernel[n.ID] && !hit {
			t.Errorf("node %d (%s) is outside the kernel and has no move into it", n.ID, n.Label)
		}
	}
}

// randomDAG returns a move function on 0..n-1 where moves only go to larger
// numbers, so play always ends.
func randomDAG(r *rand.Rand, n int, density float64) (game.MoveFunc[int], [][]int) {
	succ := make([][]int, n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if r.Float64() < density {
				succ[i] = append(succ[i], j)
			}
		}
	}
	return func(p int) ([]int, error) { return succ[p], nil }, succ
}

func TestKernelRandomDAGs(t *testing.T) {
	r := rand.New(rand.NewPCG(2017, 1901))
	for trial := range 200 {
		n := 1 + r.IntN(14)
		m, succ := randomDAG(r, n, r.Float64())
		for _, play := range []game.Play{game.Normal, game.Misere} {
			g, err := Build(m, 0, Options[int]{Play: play})
			if err != nil {
				t.Fatal(err)
			}
			checkKernel(t, g)
			// Reference values by a backward sweep over the numbering,
			// independent of the solver.
			grundy := make([]uint64, n)
			misereP := make([]bool, n)
			for i := n - 1; i >= 0; i-- {
				var vs []uint64
				misereP[i] = len(succ[i]) > 0
				for _, j := range succ[i] {
					vs = append(vs, grundy[j])
					if misereP[j] {
						misereP[i] = false
					}
				}
				grundy[i] = game.Mex(vs)
			}
			for _, nd := range g.Nodes() {
				p, err := strconvAtoi(nd.Label)
				if err != nil {
					t.Fatal(err)
				}
				isP := grundy[p] == 0
				if play == game.Misere {
					isP = misereP[p]
				}
				if nd.Grundy != grundy[p] || (nd.Outcome == game.P) != isP {
					t.Errorf("trial %d, %v: node %d = (g %d, %v), want (g %d, P %v)", trial, play, p, nd.Grundy, nd.Outcome, grundy[p], isP)
				}
			}
		}
	}
}

func strconvAtoi(s string) (int, error) {
	var n int
	_, err := fmt.Sscan(s, &n)
	return n, err
}

func TestEdgesSortedAndWinning(t *testing.T) {
	g, err := Build(multisetNim, newMultiset(1, 2, 3), Options[multiset]{})
	if err != nil {
		t.Fatal(err)
	}
	es := g.Edges()
	if !slices.IsSortedFunc(es, func(a, b Edge) int {
		if a.From != b.From {
			return cmpInt64(a.From, b.From)
		}
		return cmpInt64(a.To, b.To)
	}) {
		t.Error("edges are not sorted")
	}
	got := 0
	for _, n := range g.Nodes() {
		got += g.Directed().From(n.ID).Len()
	}
	if got != len(es) {
		t.Errorf("gonum graph has %d edges, Edges %d", got, len(es))
	}
	for _, e := range es {
		to, _ := g.Node(e.To)
		if e.Winning != (to.Outcome == game.P) {
			t.Errorf("edge %d→%d: Winning %v, destination %v", e.From, e.To, e.Winning, to.Outcome)
		}
	}
}

func TestDOTGolden(t *testing.T) {
	tests := []struct {
		name string
		play game.Play
	}{
		{"nim123", game.Normal},
		{"nim123_misere", game.Misere},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Build(multisetNim, newMultiset(1, 2, 3), Options[multiset]{Play: tt.play})
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.DOT(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := g.DOT(tt.name)
			if !bytes.Equal(got, again) {
				t.Error("two DOT calls differ")
			}
			path := filepath.Join("testdata", tt.name+".dot")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("DOT differs from %s (run go test -update if intended):\n%s", path, got)
			}
			// The output parses back to the same shape.
			back := simple.NewDirectedGraph()
			if err := dot.Unmarshal(got, back); err != nil {
				t.Fatal(err)
			}
			if back.Nodes().Len() != g.Len() || back.Edges().Len() != len(g.Edges()) {
				t.Errorf("parsed back %d nodes, %d edges; want %d, %d", back.Nodes().Len(), back.Edges().Len(), g.Len(), len(g.Edges()))
			}
			if n := strings.Count(string(got), "doublecircle"); n != len(g.Kernel()) {
				t.Errorf("%d double circles, want %d", n, len(g.Kernel()))
			}
		})
	}
}

func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		if _, err := Build(tupleNim, [4]int{1, 3, 5, 7}, Options[[4]int]{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDOT(b *testing.B) {
	g, err := Build(tupleNim, [4]int{1, 3, 5, 7}, Options[[4]int]{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := g.DOT("nim1357"); err != nil {
			b.Fatal(err)
		}
	}
}

// chain is the game n → n − 1 on 0..len(labels)−1, labelled by labels.
type chain struct{}

func (chain) Moves(n int) ([]int, error) {
	if n == 0 {
		return nil, nil
	}
	return []int{n - 1}, nil
}

// Labels and names are DOT IDs whatever they hold: each reads back as
// itself (line breaks as DOT's \n), nothing becomes an HTML label, a
// keyword or a second statement, and plain names stay bare.
func TestDOTQuoting(t *testing.T) {
	labels := []string{
		`plain`, `12`, `(1,2,3)`, `"quoted"`, `back\slash \l \N`, `<b>html</b>`, `node`,
		"two\nlines", "tab\tand \x1b[31mescape\x07", `a"; evil [shape=box]; "b`, `é ⊕ ●`, "",
	}
	want := []string{
		`plain`, `12`, `(1,2,3)`, `"quoted"`, `back\slash \l \N`, `<b>html</b>`, `node`,
		"two\nlines", "tab and [31mescape", `a"; evil [shape=box]; "b`, `é ⊕ ●`, "",
	}
	g, err := Build(chain{}, len(labels)-1, Options[int]{Label: func(n int) string { return labels[len(labels)-1-n] }})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"game", `my "game" <x>`, "graph"} {
		b, err := g.DOT(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := gdot.ParseBytes(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		gr := f.Graphs[0]
		if got, err := strconv.Unquote(gr.ID); gr.ID != name && (err != nil || got != name) {
			t.Errorf("graph name %q, want %q", gr.ID, name)
		}
		var got []string
		for _, st := range gr.Stmts {
			ns, ok := st.(*ast.NodeStmt)
			if !ok {
				continue
			}
			for _, a := range ns.Attrs {
				if a.Key == "shape" && a.Val == "box" {
					t.Error("a label added an attribute")
				}
				if a.Key != "label" {
					continue
				}
				if strings.HasPrefix(a.Val, "<") {
					t.Errorf("HTML label %s", a.Val)
				}
				v := a.Val
				if u, err := strconv.Unquote(v); err == nil {
					v = u
				}
				got = append(got, v)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("labels read back\n%q\nwant\n%q", got, want)
		}
		if !strings.Contains(string(b), "\n\t11 [\n\t\tlabel=\"\"\n") || !strings.Contains(string(b), "label=plain") || !strings.Contains(string(b), "label=12") {
			t.Errorf("plain labels should stay bare and the empty one quoted:\n%s", b)
		}
	}
}
