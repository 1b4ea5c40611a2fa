package chomp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
)

// Key is the family's job-file key.
const Key = "chomp"

const keyRows = "rows"

func init() {
	family.Register(&family.Family{
		Key:   Key,
		Order: 112,
		Text: family.Texts(
			"Chomp: a move takes a cell and every cell above and right of it; the poisoned corner loses",
			"Chomp : un coup prend une case et toutes celles au-dessus et à droite ; le coin empoisonné perd"),
		Params: []family.Param{{
			Key: keyRows, Kind: family.Ints, Min: 0, Max: 4096, What: "a row length",
			Example: "[7, 4, 3]", Missing: "the row lengths, bottom (poisoned) row first, e.g. rows: [7, 4, 3]",
			Text: family.Texts("the row lengths, non-increasing, the poisoned row first",
				"les longueurs des rangées, décroissantes, la rangée empoisonnée d’abord"),
		}},
		Analyses: family.PositionAnalyses,
		Check: func(p family.Params) error {
			if err := Check(p.Ints(keyRows)); err != nil {
				return &family.ParamError{Key: keyRows, Msg: err.Error()}
			}
			return nil
		},
		New: func(p family.Params, env family.Env) (family.Game, error) {
			return NewGame(p.Ints(keyRows), env)
		},
		Cost: func(_ context.Context, p family.Params, show []string) family.Cost {
			rows := p.Ints(keyRows)
			sp, err := newSpace(rows, 0)
			if err != nil {
				return family.Cost{}
			}
			// the table of values: every tuple below the start, a move per cell
			cells := int64(0)
			for _, x := range rows {
				cells += int64(x)
			}
			return family.Cost{Positions: int64(sp.size), Memory: 2 * int64(sp.size), Steps: int64(sp.size) * cells, What: fmt.Sprintf("Chomp on rows %v", rows)}
		},
		Signature: `chomp: {rows: [7, 4, 3]}`,
		Help:      "Chomp on rows of the given lengths (non-increasing, the poisoned corner in the first): a move takes a cell and all above and right of it.",
	})
}

// Game is Chomp from one start as a family.Game: positions keyed by their
// row lengths ("7,4,3"), values from the dynamic programme over every
// position below the start (made on first use).
type Game struct {
	start Position
	env   family.Env
	s     *Solver
}

var _ family.Game = (*Game)(nil)

// NewGame returns the game from start within env's memory limit.
func NewGame(start Position, env family.Env) (*Game, error) {
	if err := Check(start); err != nil {
		return nil, err
	}
	if env.Context == nil {
		env.Context = context.Background()
	}
	// the values' table is refused before it is made when it needs more
	// than the memory limit
	if _, err := newSpace(start, env.MaxMemory); err != nil {
		return nil, err
	}
	return &Game{start: start, env: env}, nil
}

func posKey(p Position) string {
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

func (gm *Game) position(k string) (Position, error) {
	parts := strings.Split(k, ",")
	if len(parts) != len(gm.start) {
		return nil, fmt.Errorf("chomp: %q is not a position of %v", k, []int(gm.start))
	}
	p := make(Position, len(parts))
	for i, s := range parts {
		x, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("chomp: %q is not a position", k)
		}
		p[i] = x
	}
	return p, Check(p)
}

// Start is the start's rows.
func (gm *Game) Start() string { return posKey(gm.start) }

// Play is normal play (taking the poisoned cell is the move never made).
func (gm *Game) Play() game.Play { return game.Normal }

// Moves lists the positions after each bite.
func (gm *Game) Moves(k string) ([]string, error) {
	p, err := gm.position(k)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, q := range Moves(p) {
		out = append(out, posKey(q))
	}
	return out, nil
}

// Value is the position's Grundy value.
func (gm *Game) Value(k string) (uint64, error) {
	p, err := gm.position(k)
	if err != nil {
		return 0, err
	}
	if gm.s == nil {
		if gm.s, err = NewSolver(gm.env.Context, gm.start, gm.env.MaxMemory); err != nil {
			return 0, err
		}
	}
	return gm.s.Value(p)
}

// JSON is the row lengths, the start's number of rows (zeros kept).
func (gm *Game) JSON(k string) any {
	p, err := gm.position(k)
	if err != nil {
		return nil
	}
	return []int(p)
}

// Show draws the rows on one line, the poisoned row first (☠ the poisoned
// cell): "☠■■■ / ■■ / ■".
func (gm *Game) Show(k string) string {
	p, err := gm.position(k)
	if err != nil {
		return "?"
	}
	var rows []string
	for i, x := range p {
		if x == 0 {
			continue
		}
		line := strings.Repeat("■", x)
		if i == 0 {
			line = "☠" + strings.Repeat("■", x-1)
		}
		rows = append(rows, line)
	}
	return strings.Join(rows, " / ")
}

// String names the game.
func (gm *Game) String() string { return fmt.Sprintf("Chomp on rows %v", []int(gm.start)) }

// Close releases nothing.
func (gm *Game) Close() {}
