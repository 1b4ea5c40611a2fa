package nodekayles

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/cellgame"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
)

// Key is the family's job-file key.
const Key = "node-kayles"

const (
	keyGraph = "graph"
	keyMemo  = "memo"
)

// graphKinds are the entries of graph: one of them says the graph.
var graphKinds = []string{"grid", "path", "cycle", "complete", "file"}

func init() {
	family.Register(&family.Family{
		Release: shared.Release,
		Key:     Key,
		Order:   110,
		Text: family.Texts(
			"Node Kayles: a move takes a vertex and removes it with its neighbours",
			"Kayles des sommets : un coup prend un sommet et l’ôte avec ses voisins"),
		Params: []family.Param{{
			Key: keyGraph, Kind: family.Map, Example: "{grid: [3, 12]}",
			Missing: "the graph, e.g. graph: {grid: [3, 12]} (or path: n, cycle: n, complete: n, file: g.dot)",
			Text: family.Texts("the graph: grid: [m, n], path: n, cycle: n, complete: n, or file: g.dot (DOT or an edge list)",
				"le graphe : grid: [m, n], path: n, cycle: n, complete: n, ou file: g.dot (DOT ou liste d’arêtes)"),
		}, {
			Key: keyMemo, Kind: family.File, Example: "nk3.memo", Memo: true,
			Text: family.Texts("a file that keeps the grids' memo between runs: loaded at the start, saved after each game solved and when the run stops; processes may share it (a survey's Slurm array): each save merges what the others wrote",
				"un fichier qui garde la mémoire des grilles d’une exécution à l’autre : lue au début, écrite après chaque jeu résolu et à l’arrêt ; plusieurs processus peuvent la partager (les tâches Slurm d’un survey) : chaque écriture fusionne ce que les autres ont écrit"),
		}},
		Ranged:   []string{keyGraph},
		Analyses: family.PositionAnalyses,
		Check: func(p family.Params) error {
			g, err := GraphOf(p.Map(keyGraph))
			if err != nil {
				return &family.ParamError{Key: keyGraph, Msg: err.Error()}
			}
			if p.Has(keyMemo) && g.Rows == 0 {
				return &family.ParamError{Key: keyMemo, Msg: "only the memo of grids is kept in a file; leave memo out for " + g.Name}
			}
			return nil
		},
		New: func(p family.Params, env family.Env) (family.Game, error) {
			g, err := GraphOf(p.Map(keyGraph))
			if err != nil {
				return nil, err
			}
			if p.Has(keyMemo) {
				return NewGameMemo(g, env, p.String(keyMemo))
			}
			return NewGame(g, env)
		},
		Cost:      cost,
		Signature: `node-kayles: {graph: {grid: [3, 12]}}`,
		Help:      "Node Kayles on a graph: grid: [m, n], path: n, cycle: n, complete: n or file: g.dot (DOT or an edge list).",
	})
}

// GraphOf reads the graph a job file's graph: map names.
func GraphOf(m map[string]any) (*Graph, error) {
	if len(m) != 1 {
		return nil, fmt.Errorf("want one of %s, e.g. {grid: [3, 12]}", strings.Join(graphKinds, ", "))
	}
	for k, v := range m {
		n, isInt := v.(int)
		switch k {
		case "grid":
			mn, ok := ints(v)
			if !ok || len(mn) != 2 {
				return nil, fmt.Errorf("grid: want [m, n], two sides, not %v", v)
			}
			return Grid(mn[0], mn[1])
		case "path", "cycle", "complete":
			if !isInt {
				return nil, fmt.Errorf("%s: want a number of vertices, not %v", k, v)
			}
			return map[string]func(int) (*Graph, error){"path": Path, "cycle": Cycle, "complete": Complete}[k](n)
		case "file":
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("file: want a file name, not %v", v)
			}
			return ReadFile(s)
		}
		return nil, fmt.Errorf("%q is not a graph; want one of %s", k, strings.Join(graphKinds, ", "))
	}
	return nil, nil
}

func ints(v any) ([]int, bool) {
	switch x := v.(type) {
	case []int:
		return x, true
	case []any:
		out := make([]int, len(x))
		for i, e := range x {
			n, ok := e.(int)
			if !ok {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	}
	return nil, false
}

// Game is Node Kayles on one graph as a family.Game: positions keyed by
// their vertex sets' bytes, values from this package's solvers.
type Game struct {
	g   *Graph
	s   *Solver
	ctx context.Context
	// memo is the solver's memo file, or nil.
	memo *cellgame.Kept
}

var (
	_ family.Game          = (*Game)(nil)
	_ family.Splitter      = (*Game)(nil)
	_ family.Canonicalizer = (*Game)(nil)
)

// shared holds one solver per memory limit and memo file for the games
// of the runs in progress, so that the sections of a range (3 × 1 … 3 × 30)
// share one memo.
var shared = cellgame.Pool[*Solver]{
	// A memo file holds cellgame's memo: with one, three-row grids stay
	// there rather than in the strip engine's, which is not saved.
	New: func(limit int64, file string) (*Solver, error) {
		return NewSolver(Options{Workers: 2, MaxMemory: limit, NoStrip: file != ""})
	},
	Keep: func(s *Solver, file string) (*cellgame.Kept, error) {
		k, err := cellgame.Keep(file, s.LoadMemo, s.SaveMemo, func() int64 { return s.Stats().Entries })
		if err != nil {
			return nil, fmt.Errorf("nodekayles: %w", err)
		}
		return k, nil
	},
}

// NewGame returns the game of g within env's memory limit; its solver is
// shared with the process's other games of the same limit.
// A grid whose memo is estimated (from its smaller grids) past the memory
// limit is refused before any work, naming the limit.
func NewGame(g *Graph, env family.Env) (*Game, error) {
	return NewGameMemo(g, env, "")
}

// NewGameMemo is NewGame with the grids' memo kept in file (none when
// ""): the file is loaded when the process first uses it (a run continues
// where the last stopped; a file of another game or folding is refused,
// naming it), and saved, atomically, by Close (after each game solved,
// and when a run stops on a limit or Ctrl-C). The games of one file share
// a solver.
func NewGameMemo(g *Graph, env family.Env, file string) (*Game, error) {
	kp, err := shared.Get(env.MaxMemory, file)
	if err != nil {
		return nil, err
	}
	s := kp.Solver
	ctx := env.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if env.MaxMemory > 0 && g.Rows > 0 {
		est, err := EstimateGrid(ctx, g.Rows, g.Cols, 20000, Options{})
		if err != nil {
			return nil, err
		}
		if err := CheckEstimate("Node Kayles on "+g.Name, est, env.MaxMemory); err != nil {
			return nil, err
		}
	}
	return &Game{g: g, s: s, ctx: ctx, memo: kp.File}, nil
}

// key writes a position: a grid's rows ("#" a vertex still there, "." a
// removed one) joined by "/", another graph's vertex set in hexadecimal
// (bytes from vertex 0), so that play and errors can print it.
func (gm *Game) key(s Set) string {
	if gm.g.Rows > 0 {
		return strings.Join(gm.rows(s, '#', '.'), "/")
	}
	b := make([]byte, (gm.g.N+7)/8)
	for i := range b {
		b[i] = byte(s[i/8] >> (8 * uint(i%8)))
	}
	return hex.EncodeToString(b)
}

func (gm *Game) set(key string) (Set, error) {
	bad := fmt.Errorf("nodekayles: %q is not a position of %s", key, gm.g.Name)
	s := newSet(gm.g.N)
	if gm.g.Rows > 0 {
		rows := strings.Split(key, "/")
		if len(rows) != gm.g.Rows {
			return nil, bad
		}
		for r, row := range rows {
			if len(row) != gm.g.Cols {
				return nil, bad
			}
			for c := 0; c < len(row); c++ {
				switch row[c] {
				case '#':
					s.add(r*gm.g.Cols + c)
				case '.':
				default:
					return nil, bad
				}
			}
		}
		return s, nil
	}
	b, err := hex.DecodeString(key)
	if err != nil || len(b) != (gm.g.N+7)/8 {
		return nil, bad
	}
	for i, x := range b {
		s[i/8] |= uint64(x) << (8 * uint(i%8))
	}
	return s, nil
}

// Start is the whole graph.
func (gm *Game) Start() string { return gm.key(Full(gm.g)) }

// Play is normal play.
func (gm *Game) Play() game.Play { return game.Normal }

// Moves lists the positions after taking each vertex of the position.
func (gm *Game) Moves(key string) ([]string, error) {
	s, err := gm.set(key)
	if err != nil {
		return nil, err
	}
	var out []string
	for v := 0; v < gm.g.N; v++ {
		if s.has(v) {
			next, _ := Move(gm.g, s, v)
			out = append(out, gm.key(next))
		}
	}
	return out, nil
}

// Value is the position's Grundy value from the fast solvers.
func (gm *Game) Value(key string) (uint64, error) {
	s, err := gm.set(key)
	if err != nil {
		return 0, err
	}
	if gm.memo != nil {
		defer gm.memo.Use()()
	}
	return gm.s.ValueOf(gm.ctx, gm.g, s)
}

// Components splits the position into its connected components.
func (gm *Game) Components(key string) ([]string, error) {
	s, err := gm.set(key)
	if err != nil {
		return nil, err
	}
	gs := &general{g: gm.g}
	var out []string
	for {
		v := lowest(s)
		if v < 0 {
			return out, nil
		}
		c := gs.component(s, v)
		for i := range s {
			s[i] &^= c[i]
		}
		out = append(out, gm.key(c))
	}
}

// Canonical moves a component of a grid to the corner, turned to the
// representative of its symmetry class; other graphs' positions are their
// own representatives.
func (gm *Game) Canonical(key string) (string, error) {
	s, err := gm.set(key)
	if err != nil || gm.g.Rows == 0 || count(s) == 0 {
		return key, err
	}
	b, h, _ := toBoard(gm.g, s)
	// components one by one, each to its representative, stacked along
	// the long side (a gap between): the sum is the same game
	tr := gm.g.Rows > gm.g.Cols
	out := newSet(gm.g.N)
	col := 0
	var k0 []cellgame.Board
	cellgame.Components(b, h, func(k cellgame.Board) { k0 = append(k0, k) })
	type piece struct {
		b cellgame.Board
		w int
	}
	var ps []piece
	for _, k := range k0 {
		c, _, cw := cellgame.Canonical(k, h, true)
		ps = append(ps, piece{c, cw})
	}
	// in a fixed order, so that the representative is the same for every
	// position of the class
	slices.SortFunc(ps, func(a, b piece) int {
		if a.w != b.w {
			return a.w - b.w
		}
		return slices.Compare(a.b[:], b.b[:])
	})
	for _, p := range ps {
		c, cw := p.b, p.w
		for r := 0; r < h; r++ {
			for x := c[r]; x != 0; x &= x - 1 {
				cc := col + trailing(x)
				rr := r
				if tr {
					rr, cc = cc, rr
				}
				if rr >= gm.g.Rows || cc >= gm.g.Cols {
					return key, nil // no room for the gaps: keep it as it is
				}
				out.add(rr*gm.g.Cols + cc)
			}
		}
		col += cw + 1
	}
	return gm.key(out), nil
}

func trailing(x uint64) int {
	n := 0
	for x&1 == 0 {
		x >>= 1
		n++
	}
	return n
}

// JSON is a grid's rows ("#" a vertex still there, "." one removed) or
// the names of the vertices still there.
func (gm *Game) JSON(key string) any {
	s, err := gm.set(key)
	if err != nil {
		return nil
	}
	if gm.g.Rows > 0 {
		return gm.rows(s, '#', '.')
	}
	out := []string{}
	for v := 0; v < gm.g.N; v++ {
		if s.has(v) {
			out = append(out, gm.label(v))
		}
	}
	return out
}

func (gm *Game) rows(s Set, on, off byte) []string {
	var out []string
	for r := 0; r < gm.g.Rows; r++ {
		b := make([]byte, gm.g.Cols)
		for c := range b {
			b[c] = off
			if s.has(r*gm.g.Cols + c) {
				b[c] = on
			}
		}
		out = append(out, string(b))
	}
	return out
}

func (gm *Game) label(v int) string {
	if gm.g.Labels != nil {
		return gm.g.Labels[v]
	}
	return fmt.Sprint(v)
}

// Show draws a grid on one line, row after row (o a vertex, · a removed
// one), or lists the vertices still there.
func (gm *Game) Show(key string) string {
	s, err := gm.set(key)
	if err != nil {
		return "?"
	}
	if gm.g.Rows > 0 {
		rs := gm.rows(s, 'o', '.')
		return strings.ReplaceAll(strings.Join(rs, " / "), ".", "·")
	}
	return "{" + strings.Join(gm.JSON(key).([]string), ", ") + "}"
}

// String names the game.
func (gm *Game) String() string { return "Node Kayles on " + gm.g.Name }

// Close saves the memo to its file, if it has one (Save, which reports
// the error).
func (gm *Game) Close() { _ = gm.Save() }

// Save writes the grids' memo to the game's memo file when it grew since
// the last save; nothing without one.
func (gm *Game) Save() error {
	if gm.memo == nil {
		return nil
	}
	if err := gm.memo.Save(); err != nil {
		return fmt.Errorf("nodekayles: %w", err)
	}
	return nil
}

// cost estimates the memo of a grid from its smaller grids (other graphs:
// unknown before the work), for job files and surveys to plan and refuse.
func cost(ctx context.Context, p family.Params, show []string) family.Cost {
	g, err := GraphOf(p.Map(keyGraph))
	if err != nil || g.Rows == 0 {
		return family.Cost{}
	}
	c := family.Cost{What: "Node Kayles on " + g.Name}
	if est, err := EstimateGrid(ctx, g.Rows, g.Cols, 20000, Options{}); err == nil {
		// each component lists a move per cell
		c.Positions, c.Memory, c.Steps = est.Entries, est.Bytes, est.Entries*int64(g.N)
		c.Exact = est.Sampled >= max(g.Rows, g.Cols)
	}
	return c
}
