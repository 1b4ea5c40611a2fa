package job

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/graph"
	"github.com/nimbook/nimbook/explore/internal/yamlfile"
	"github.com/nimbook/nimbook/explore/record"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// Wythoff's game in job files, registered with package family: its key,
// parameters, analyses and texts there; how a job file writes its game and
// position, and how its analyses run, here (a jobFamily). Nothing else in
// the package names it.

// wythoffFamily is the registration of Wythoff's game.
var wythoffFamily = &family.Family{
	Key:   "wythoff",
	Order: 70,
	Text: family.Texts("Wythoff's game: take any number from one heap, or the same number from both",
		"jeu de Wythoff : retirer autant d’objets qu’on veut d’un des deux tas, ou le même nombre des deux"),
	Params: []family.Param{{Key: "size", Kind: family.Ints, Min: 1, Max: maxSide, What: "a table side", Default: []int{10, 10}, Example: "[20, 20]",
		Text: family.Texts("the table's bounds: 0 ≤ a < A, 0 ≤ b < B", "les bornes de la table : 0 ≤ a < A, 0 ≤ b < B")}},
	Analyses:  []string{"table", "p-positions", "row-periods", "outcome", "moves", "graph", "record", "plot"},
	Signature: "wythoff: {size: [20, 20], position: [a, b]}",
	Job: &jobFamily{
		parse:    parseWythoff,
		position: wythoffPosition,
		example:  []any{3, 5},
		what:     "two heaps",
		zero:     func() GameSpec { return &WythoffSpec{Size: [2]int{10, 10}} },
		spec:     (*WythoffSpec)(nil),
	},
}

func init() { family.Register(wythoffFamily) }

// WythoffSpec bounds a Wythoff table: 0 ≤ a < Size[0], 0 ≤ b < Size[1].
type WythoffSpec struct {
	Size [2]int
}

func (w *WythoffSpec) params(p map[string]any) { p["size"] = []int{w.Size[0], w.Size[1]} }
func (w *WythoffSpec) clone() GameSpec         { c := *w; return &c }

func (w *WythoffSpec) run(r *runner) error    { return r.wythoff() }
func (w *WythoffSpec) memory(r *runner) int64 { return r.wythoffEstimate() }
func (w *WythoffSpec) cost() Cost {
	a, b := int64(w.Size[0]), int64(w.Size[1])
	return Cost{Positions: a * b, Steps: float64(a*b) * float64(a+b), Memory: 16 * a * b}
}

// Describe words the game for reports: Wythoff's game on its table.
func (w *WythoffSpec) Describe(tx Tx, _ string, _ *Results) (string, bool) {
	return tx("game.wythoff", map[string]any{"A": strconv.Itoa(w.Size[0]), "B": strconv.Itoa(w.Size[1])}), true
}

// TableTexts are the corner and the introduction of its table in reports.
func (w *WythoffSpec) TableTexts(tx Tx) (corner, intro string) {
	return tx("table.corner.wythoff", nil), tx("table.intro.wythoff", nil)
}

// PPositionsOver says what its P-positions were counted over.
func (w *WythoffSpec) PPositionsOver(tx Tx) string { return tx("ppos.over.wythoff", nil) }

// Wythoff returns the section's Wythoff table bounds, or nil.
func (s *Section) Wythoff() *WythoffSpec { w, _ := s.Game.(*WythoffSpec); return w }

// parseWythoff reads the game's parameters.
func parseWythoff(p *parser, fm *yamlfile.Mapping, fp string) (GameSpec, error) {
	ws := &WythoffSpec{Size: [2]int{10, 10}}
	if sn, ok := fm.Nodes["size"]; ok {
		sz, err := p.IntList(sn, yamlfile.Join(fp, "size"), 1, maxSide, "a table side")
		if err != nil {
			return nil, err
		}
		if len(sz) != 2 {
			return nil, p.Errf(sn, yamlfile.Join(fp, "size"), "want two sides, e.g. size: [20, 20]")
		}
		ws.Size = [2]int{sz[0], sz[1]}
	}
	return ws, nil
}

// wythoffPosition reads a position: two heaps.
func wythoffPosition(p *parser, s *Section, n *yaml.Node, path string) (any, error) {
	hs, err := p.IntList(n, path, 0, wythoff.MaxHeap, "a heap")
	if err != nil {
		return nil, err
	}
	if len(hs) != 2 {
		return nil, p.Errf(n, path, "Wythoff's game has two heaps; write e.g. [3, 5]")
	}
	return hs, nil
}

func (r *runner) wythoffOptions() wythoff.Options {
	return wythoff.Options{MaxCells: clampInt(r.lim.Positions), MaxMemory: r.lim.Memory, Context: r.ctx}
}

func (r *runner) wythoff() error {
	ws := r.s.Wythoff()
	r.res.Game = "Wythoff's game"
	cells := int64(ws.Size[0]) * int64(ws.Size[1])
	if cells > r.lim.Positions {
		return fmt.Errorf("a %d×%d table has %d cells, more than the limit of %d positions; %s", ws.Size[0], ws.Size[1], cells, r.lim.Positions, limitHint)
	}
	var t *wythoff.Table
	if r.wants("table") || r.wants("p-positions") || r.wants("row-periods") {
		need := wythoff.TableBytes(ws.Size[0], ws.Size[1])
		if r.wants("table") {
			need += cells*8 + int64(ws.Size[0])*24 // the copy in the results
		}
		if err := r.checkMemory(fmt.Sprintf("a %d×%d Wythoff table", ws.Size[0], ws.Size[1]), need); err != nil {
			return err
		}
		var err error
		t, err = wythoff.NewTableOptions(ws.Size[0], ws.Size[1], r.wythoffOptions())
		if err != nil {
			return limitErr(err)
		}
	}
	if r.wants("table") {
		r.res.Table = t.Values()
	}
	if r.wants("p-positions") {
		ps := t.PPositions()
		pp := &PPositions{Count: uint64(len(ps)), Of: uint64(cells)}
		if len(ps) <= MaxListed {
			pp.List = pairs(ps)
		}
		r.res.PPositions = pp
	}
	if r.wants("row-periods") {
		rps, err := t.RowPeriods(r.ctx)
		if err != nil {
			return err
		}
		for _, rp := range rps {
			r.res.RowPeriods = append(r.res.RowPeriods, RowPeriod{Row: rp.Row, Period: rp.Period, Start: rp.Start})
		}
		if r.res.RowPeriods == nil {
			r.res.RowPeriods = []RowPeriod{}
		}
	}
	if pos, ok := r.s.Position.([]int); ok {
		opts := r.wythoffOptions()
		if r.wants("outcome") {
			o, err := wythoff.OutcomeOptions(pos[0], pos[1], r.play(), opts)
			if err != nil {
				return limitErr(err)
			}
			r.res.Outcome = o.String()
		}
		if r.wants("moves") {
			ms, err := wythoff.WinningMovesOptions(pos[0], pos[1], r.play(), opts)
			if err != nil {
				return limitErr(err)
			}
			r.res.Moves = pairs(ms)
		}
	}
	if r.wants("record") {
		if err := r.wythoffRecord(); err != nil {
			return err
		}
	}
	if r.wants("graph") {
		if err := r.wythoffGraph(); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) wythoffEstimate() int64 {
	whole := r.lim.Memory
	ws := r.s.Wythoff()
	rows, cols := int64(ws.Size[0]), int64(ws.Size[1])
	need := int64(sectionOverhead)
	if r.wants("table") || r.wants("p-positions") || r.wants("row-periods") {
		if rows*cols > r.lim.Positions {
			return sectionOverhead // refused at once, nothing held
		}
		need += wythoff.TableBytes(ws.Size[0], ws.Size[1])
		if r.wants("table") {
			need += rows*cols*8 + rows*24
		}
		if r.wants("p-positions") {
			// At most one P-position a row and a column, as pairs.
			need += (rows + cols) * 64
		}
		if r.wants("row-periods") {
			need += rows * 48
		}
	}
	if (r.wants("outcome") || r.wants("moves")) && r.play() == game.Misere {
		return whole // solves the whole rectangle below the position
	}
	return need
}

func (r *runner) wythoffRecord() error {
	var ps [][2]int
	for _, p := range r.s.Record {
		h := p.([]int)
		ps = append(ps, [2]int{h[0], h[1]})
	}
	// The solver visits every position below the start.
	if n := wythoff.Reachable(ps[0][0], ps[0][1]); n > uint64(r.lim.Positions) {
		return fmt.Errorf("the record is solved on every position below its start (%d, %d), %s, more than the limit of %d positions; %s",
			ps[0][0], ps[0][1], countOf(n), r.lim.Positions, limitHint)
	}
	a, err := record.Analyse(wythoff.NewMover(r.wythoffOptions()), ps, r.recordOptions())
	if err != nil {
		return limitErr(err)
	}
	r.res.Record = RecordOf(a, func(p [2]int) any { return []int{p[0], p[1]} })
	return nil
}

func (r *runner) wythoffGraph() error {
	pos, ok := r.s.Position.([]int)
	if !ok {
		return fmt.Errorf("graph needs a position to start from: add position: [a, b]")
	}
	if n := wythoff.Reachable(pos[0], pos[1]); n > uint64(r.graphMax()) {
		return fmt.Errorf("the graph from (%d, %d) holds every position below it, %s, more than the limit of %d positions of a graph; start from a smaller position", pos[0], pos[1], countOf(n), r.graphMax())
	}
	gr, err := graph.Build(wythoff.NewMover(r.wythoffOptions()), [2]int{pos[0], pos[1]}, graph.Options[[2]int]{MaxPositions: r.graphMax(), Play: r.play(), MaxMemory: r.lim.Memory, Context: r.ctx,
		Label: func(p [2]int) string { return fmt.Sprintf("(%d,%d)", p[0], p[1]) }})
	if err != nil {
		return limitErr(err)
	}
	r.res.Graph, err = GraphResult(gr, "game")
	return err
}
