package cram

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/cellgame"
	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
)

// Key is the family's job-file key.
const Key = "cram"

const (
	keyBoard  = "board"
	keyMemo   = "memo"
	keyMethod = "method"
)

// The values of the method key: the full mex of every component (the
// default), or the pruning search (Searcher) for the value of a board too
// large for the full memo.
const (
	methodExact  = "exact"
	methodSearch = "search"
)

func init() {
	family.Register(&family.Family{
		Release: shared.Release,
		Key:     Key,
		Order:   111,
		Text: family.Texts(
			"Cram: a move covers two free adjacent cells of the board with a domino",
			"Cram : un coup couvre d’un domino deux cases libres voisines du damier"),
		Params: []family.Param{{
			Key: keyBoard, Kind: family.Ints, Min: 1, Max: cellgame.MaxCols, What: "a side of the board",
			Example: "[4, 7]", Missing: "the board's sides, e.g. board: [4, 7]",
			Text: family.Texts("the board: [rows, columns]", "le damier : [lignes, colonnes]"),
		}, {
			Key: keyMemo, Kind: family.File, Example: "cram4.memo", Memo: true,
			Text: family.Texts("a file that keeps the memo between runs: loaded at the start, saved after each board solved and when the run stops",
				"un fichier qui garde la mémoire d’une exécution à l’autre : lue au début, écrite après chaque damier résolu et à l’arrêt"),
		}, {
			Key: keyMethod, Kind: family.String, Example: methodSearch,
			Text: family.Texts("how values are found: exact (the default), the value of every component in a memo; search, a pruning search for boards whose memo would not fit (6 × 7, 7 × 7), its tables bounded by the memory limit",
				"comment les valeurs sont trouvées : exact (par défaut), la valeur de chaque composante dans une mémoire ; search, une recherche avec coupes pour les damiers dont la mémoire ne tiendrait pas (6 × 7, 7 × 7), ses tables bornées par la limite de mémoire"),
		}},
		Ranged:   []string{keyBoard},
		Analyses: family.PositionAnalyses,
		Check: func(p family.Params) error {
			mn := p.Ints(keyBoard)
			if len(mn) != 2 {
				return &family.ParamError{Key: keyBoard, Msg: fmt.Sprintf("want [rows, columns], two sides, not %v", mn)}
			}
			if _, err := NewBoard(mn[0], mn[1]); err != nil {
				return &family.ParamError{Key: keyBoard, Msg: err.Error()}
			}
			if p.Has(keyMethod) {
				switch m := p.String(keyMethod); m {
				case methodExact:
				case methodSearch:
					if p.Has(keyMemo) {
						return &family.ParamError{Key: keyMemo, Msg: "the search keeps no memo file: leave memo out, or use method: exact"}
					}
				default:
					return &family.ParamError{Key: keyMethod, Msg: fmt.Sprintf("want exact or search, not %q", m)}
				}
			}
			return nil
		},
		New: func(p family.Params, env family.Env) (family.Game, error) {
			mn := p.Ints(keyBoard)
			b, err := NewBoard(mn[0], mn[1])
			if err != nil {
				return nil, err
			}
			if p.Has(keyMethod) && p.String(keyMethod) == methodSearch {
				return NewGameSearch(b, env)
			}
			if p.Has(keyMemo) {
				return NewGameMemo(b, env, p.String(keyMemo))
			}
			return NewGame(b, env)
		},
		Cost:      cost,
		Signature: `cram: {board: [4, 7]}`,
		Help:      "Cram on an m × n board: a move covers two free adjacent cells with a domino.",
	})
}

// Game is Cram on one board as a family.Game: positions keyed by the bytes
// of their rows of free cells.
type Game struct {
	start Board
	s     *Solver
	ctx   context.Context
	// memo is the solver's memo file, or nil.
	memo *cellgame.Kept
	// search, when not nil, gives the values in s's stead (method: search).
	search *Searcher
}

var (
	_ family.Game          = (*Game)(nil)
	_ family.Splitter      = (*Game)(nil)
	_ family.Canonicalizer = (*Game)(nil)
)

// shared holds one solver per memory limit and memo file for the games
// of the runs in progress, so that the sections of a range (4 × 4 … 4 × 10)
// share one memo.
var shared = cellgame.Pool[*Solver]{
	New: func(limit int64, _ string) (*Solver, error) {
		return NewSolver(Options{Workers: 2, MaxMemory: limit})
	},
	Keep: func(s *Solver, file string) (*cellgame.Kept, error) {
		k, err := cellgame.Keep(file, s.LoadMemo, s.SaveMemo, func() int64 { return s.Stats().Entries })
		if err != nil {
			return nil, fmt.Errorf("cram: %w", err)
		}
		return k, nil
	},
}

// NewGame returns the game from the empty board b within env's memory
// limit; its solver is shared with the process's other games of the same
// limit.
func NewGame(b Board, env family.Env) (*Game, error) {
	return NewGameMemo(b, env, "")
}

// NewGameMemo is NewGame with the memo kept in file (none when ""): the
// file is loaded when the process first uses it (a run continues where the
// last stopped; a file of another game or folding is refused, naming it),
// and saved, atomically, by Save and Close (after each board solved, and
// when a run stops on a limit or Ctrl-C). The games of one file share a
// solver.
func NewGameMemo(b Board, env family.Env, file string) (*Game, error) {
	kp, err := shared.Get(env.MaxMemory, file)
	if err != nil {
		return nil, err
	}
	s := kp.Solver
	ctx := env.Context
	if ctx == nil {
		ctx = context.Background()
	}
	// a board whose memo is estimated past the memory limit is refused
	// before any work, naming the limit
	if env.MaxMemory > 0 {
		est, err := EstimateBoard(ctx, b.M, b.N, 20000)
		if err != nil {
			return nil, err
		}
		if err := CheckEstimate(fmt.Sprintf("Cram on %d × %d", b.M, b.N), est, env.MaxMemory); err != nil {
			return nil, err
		}
	}
	return &Game{start: b, s: s, ctx: ctx, memo: kp.File}, nil
}

// searchExact is the most cells of a component the family's search
// values in full: the memo of every component up to 16 cells of a 7 × 7
// board stays far below the default memory limit, where up to 20 cells
// (cellgame.DefaultExact) it might not; on 4 × 9 the search's CPU is the
// same from 10 to 16 cells and grows past them.
const searchExact = 16

// NewGameSearch returns the game from the empty board b whose values are
// found by the pruning search (Searcher), its tables bounded by env's
// memory limit: the search's table replaces its cheapest entries when
// full (a cache of outcomes), and the search stops, naming the limit, if
// the memo of small components' exact values fills. Its size is not
// known before the work, so no board is refused before it; the context
// stops it within a second.
func NewGameSearch(b Board, env family.Env) (*Game, error) {
	s, err := NewSearcher(SearchOptions{Exact: searchExact, MaxMemory: env.MaxMemory, Replace: true})
	if err != nil {
		return nil, err
	}
	ctx := env.Context
	if ctx == nil {
		ctx = context.Background()
	}
	return &Game{start: b, ctx: ctx, search: s}, nil
}

// key writes a position: its rows ("." a free cell, "#" a covered one)
// joined by "/", so that play and errors can print it.
func (gm *Game) key(b Board) string { return strings.Join(rows(b, '.', '#'), "/") }

func (gm *Game) board(key string) (Board, error) {
	b := gm.start
	bad := fmt.Errorf("cram: %q is not a position of the %d × %d board", key, b.M, b.N)
	rs := strings.Split(key, "/")
	if len(rs) != b.M {
		return b, bad
	}
	b.Free = cellgame.Board{}
	for r, row := range rs {
		if len(row) != b.N {
			return b, bad
		}
		for c := 0; c < len(row); c++ {
			switch row[c] {
			case '.':
				b.Free[r] |= 1 << uint(c)
			case '#':
			default:
				return b, bad
			}
		}
	}
	return b, nil
}

// Start is the empty board.
func (gm *Game) Start() string { return gm.key(gm.start) }

// Play is normal play.
func (gm *Game) Play() game.Play { return game.Normal }

// Moves lists the positions after each domino.
func (gm *Game) Moves(key string) ([]string, error) {
	b, err := gm.board(key)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range Moves(b) {
		next, _ := Play(b, m)
		out = append(out, gm.key(next))
	}
	return out, nil
}

// Value is the position's Grundy value from the bitboard solver.
func (gm *Game) Value(key string) (uint64, error) {
	b, err := gm.board(key)
	if err != nil {
		return 0, err
	}
	if gm.search != nil {
		return gm.search.Value(gm.ctx, b)
	}
	if gm.memo != nil {
		defer gm.memo.Use()()
	}
	return gm.s.Value(gm.ctx, b)
}

// Components splits the free cells into connected regions.
func (gm *Game) Components(key string) ([]string, error) {
	b, err := gm.board(key)
	if err != nil {
		return nil, err
	}
	var out []string
	cellgame.Components(b.Free, b.M, func(k cellgame.Board) {
		c := b
		c.Free = k
		out = append(out, gm.key(c))
	})
	return out, nil
}

// Canonical moves each region to its representative under the board's
// symmetries, regions stacked left to right with a gap, in a fixed order.
func (gm *Game) Canonical(key string) (string, error) {
	b, err := gm.board(key)
	if err != nil {
		return "", err
	}
	type piece struct {
		b    cellgame.Board
		h, w int
	}
	var ps []piece
	cellgame.Components(b.Free, b.M, func(k cellgame.Board) {
		c, h, w := cellgame.Canonical(k, b.M, true)
		ps = append(ps, piece{c, h, w})
	})
	slices.SortFunc(ps, func(x, y piece) int {
		if x.w != y.w {
			return x.w - y.w
		}
		return slices.Compare(x.b[:], y.b[:])
	})
	out := b
	out.Free = cellgame.Board{}
	col := 0
	for _, p := range ps {
		if p.h > b.M || col+p.w > b.N {
			return key, nil // no room: the position is its own representative
		}
		for r := 0; r < p.h; r++ {
			out.Free[r] |= p.b[r] << uint(col)
		}
		col += p.w + 1
	}
	return gm.key(out), nil
}

// JSON is the board's rows: "." a free cell, "#" a covered one.
func (gm *Game) JSON(key string) any {
	b, err := gm.board(key)
	if err != nil {
		return nil
	}
	return rows(b, '.', '#')
}

func rows(b Board, free, covered byte) []string {
	var out []string
	for r := 0; r < b.M; r++ {
		line := make([]byte, b.N)
		for c := range line {
			line[c] = covered
			if b.Free.Has(r, c) {
				line[c] = free
			}
		}
		out = append(out, string(line))
	}
	return out
}

// Show draws the board on one line, row after row: · a free cell, ■ a
// covered one.
func (gm *Game) Show(key string) string {
	b, err := gm.board(key)
	if err != nil {
		return "?"
	}
	s := strings.Join(rows(b, '.', '#'), " / ")
	return strings.NewReplacer(".", "·", "#", "■").Replace(s)
}

// String names the game.
func (gm *Game) String() string { return fmt.Sprintf("Cram on %d × %d", gm.start.M, gm.start.N) }

// Close saves the memo to its file, if it has one (Save reports the error).
func (gm *Game) Close() { _ = gm.Save() }

// Save writes the memo to the game's memo file when it grew since the
// last save; nothing without one.
func (gm *Game) Save() error {
	if gm.memo == nil {
		return nil
	}
	if err := gm.memo.Save(); err != nil {
		return fmt.Errorf("cram: %w", err)
	}
	return nil
}

// cost estimates the memo from the smaller boards of the same height, for
// job files and surveys to plan and refuse.
func cost(ctx context.Context, p family.Params, show []string) family.Cost {
	mn := p.Ints(keyBoard)
	if len(mn) != 2 {
		return family.Cost{}
	}
	c := family.Cost{What: fmt.Sprintf("Cram on %d × %d", mn[0], mn[1])}
	if p.Has(keyMethod) && p.String(keyMethod) == methodSearch {
		// the search's tables take what the memory limit gives them, and
		// its nodes are not known before it runs: no figure to refuse by
		c.What += " by the search"
		return c
	}
	if est, err := EstimateBoard(ctx, mn[0], mn[1], 20000); err == nil {
		// each component lists up to two dominoes per cell
		c.Positions, c.Memory, c.Steps = est.Entries, est.Bytes, est.Entries*int64(2*mn[0]*mn[1])
		c.Exact = est.Sampled >= max(mn[0], mn[1])
	}
	return c
}
