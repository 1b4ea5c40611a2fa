package play

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/nimbook/nimbook/explore/budget"
	registry "github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/job"
)

// maxFamilyPositions bounds the positions a game of a registered family
// may have to be played: each is numbered and solved before play.
const maxFamilyPositions = 1_000_000

// familyGame is a game of a registered family (package family: a game
// written in Starlark, say) made playable: every position reachable from
// the start is numbered and solved first; a position of play is [i], its
// number. Moves are typed as their number in the list or as the position
// they reach, as the game shows it or as its key.
type familyGame struct {
	name    string
	job     string // the game in a job file's flow form
	rule    game.Play
	keys    []string
	shows   []string
	moves   [][]int
	grundy  []uint64
	outcome []game.Outcome
	height  []int
}

var _ Game = (*familyGame)(nil)

// fromFamily numbers and solves the positions of g reachable from its
// start, within lim.
func fromFamily(g registry.Game, play game.Play, jobGame string, lim Limits) (*familyGame, error) {
	max := maxFamilyPositions
	if p := lim.positions(); p > 0 {
		max = min(max, p)
	}
	sol, err := game.NewSolver[string](g, game.Options{Play: play, MaxPositions: max, MaxMemory: lim.Memory, Context: lim.Context})
	if err != nil {
		return nil, err
	}
	all, err := sol.Reachable(g.Start())
	if err != nil {
		return nil, fmt.Errorf("play: %v: %w", g, err)
	}
	f := &familyGame{name: g.String(), job: jobGame, rule: play, keys: all}
	if n, ok := g.(interface{ Name() string }); ok {
		f.name = n.Name()
	}
	index := make(map[string]int, len(all))
	for i, k := range all {
		index[k] = i
	}
	for i, k := range all {
		if i&1023 == 1023 && lim.Context != nil {
			if err := budget.Err(lim.Context); err != nil {
				return nil, err
			}
		}
		ms, err := g.Moves(k)
		if err != nil {
			return nil, err
		}
		var opts []int
		seen := map[int]bool{}
		for _, q := range ms {
			if j := index[q]; !seen[j] {
				seen[j] = true
				opts = append(opts, j)
			}
		}
		f.moves = append(f.moves, opts)
		f.shows = append(f.shows, g.Show(k))
		v, err := sol.Grundy(k)
		if err != nil {
			return nil, err
		}
		o, err := sol.Outcome(k)
		if err != nil {
			return nil, err
		}
		f.grundy = append(f.grundy, v)
		f.outcome = append(f.outcome, o)
	}
	f.height = longestPlays(f.moves)
	return f, nil
}

// longestPlays is the length of the longest play from each position of
// an acyclic game given by its numbered options.
func longestPlays(moves [][]int) []int {
	h := make([]int, len(moves))
	done := make([]bool, len(moves))
	var visit func(i int)
	visit = func(i int) {
		if done[i] {
			return
		}
		for _, j := range moves[i] {
			visit(j)
			h[i] = max(h[i], h[j]+1)
		}
		done[i] = true
	}
	for i := range moves {
		visit(i)
	}
	return h
}

// FromFamily returns the game of a section of a registered family and
// its start, [0].
func fromFamilySection(s *job.Section, play game.Play, lim Limits) (Game, []int, error) {
	fs := s.Registered()
	g, err := fs.Family.New(fs.Params.Clone(), registry.Env{Context: lim.Context, MaxMemory: lim.Memory})
	if err != nil {
		return nil, nil, fmt.Errorf("play: %w", err)
	}
	defer g.Close()
	if g.Play() == game.Misere {
		play = game.Misere
	}
	flow, _ := json.Marshal(s.GameJSON()) // JSON is a YAML flow form
	f, err := fromFamily(g, play, string(flow), lim)
	if err != nil {
		return nil, nil, err
	}
	return f, []int{0}, nil
}

func (f *familyGame) String() string  { return f.name }
func (f *familyGame) Play() game.Play { return f.rule }

func (f *familyGame) at(p []int) int {
	if len(p) != 1 || p[0] < 0 || p[0] >= len(f.keys) {
		return -1
	}
	return p[0]
}

func (f *familyGame) Check(p []int) error {
	if f.at(p) < 0 {
		return fmt.Errorf("play: %v is not a position of %s: it starts from its own start", p, f.name)
	}
	return nil
}

func (f *familyGame) Moves(p []int) ([][]int, error) {
	i := f.at(p)
	if i < 0 {
		return nil, f.Check(p)
	}
	out := make([][]int, len(f.moves[i]))
	for k, j := range f.moves[i] {
		out[k] = []int{j}
	}
	return out, nil
}

func (f *familyGame) WinningMoves(p []int) ([][]int, error) {
	i := f.at(p)
	if i < 0 {
		return nil, f.Check(p)
	}
	var out [][]int
	for _, j := range f.moves[i] {
		if f.outcome[j] == game.P {
			out = append(out, []int{j})
		}
	}
	return out, nil
}

func (f *familyGame) Outcome(p []int) (game.Outcome, error) {
	i := f.at(p)
	if i < 0 {
		return game.N, f.Check(p)
	}
	return f.outcome[i], nil
}

func (f *familyGame) Values(p []int) ([]Part, error) {
	i := f.at(p)
	if i < 0 {
		return nil, f.Check(p)
	}
	return []Part{{Label: f.shows[i], Value: f.grundy[i]}}, nil
}

// blank removes blanks, so that "(1, 2)" and "(1,2)" are one move.
func blank(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func (f *familyGame) ParseMove(p []int, s string) ([]int, error) {
	i := f.at(p)
	if i < 0 {
		return nil, f.Check(p)
	}
	opts := f.moves[i]
	if len(opts) == 0 {
		return nil, illegal("no move is possible from %s", f.shows[i])
	}
	t := strings.TrimSpace(s)
	if k, err := strconv.Atoi(t); err == nil {
		if k < 1 || k > len(opts) {
			return nil, illegal("there are moves 1 to %d, not %d", len(opts), k)
		}
		return []int{opts[k-1]}, nil
	}
	for _, j := range opts {
		if blank(t) == blank(f.shows[j]) || blank(t) == blank(f.keys[j]) {
			return []int{j}, nil
		}
	}
	return nil, illegal("%q is not a move from %s: type the number of a move of the list, or the position it reaches", t, f.shows[i])
}

func (f *familyGame) FormatMove(from, to []int) string {
	if j := f.at(to); j >= 0 {
		return f.keys[j]
	}
	return fmt.Sprint(to)
}

func (f *familyGame) Describe(from, to []int) string {
	if j := f.at(to); j >= 0 {
		return "move to " + f.shows[j]
	}
	return fmt.Sprint(to)
}

func (f *familyGame) Render(p []int) string {
	i := f.at(p)
	if i < 0 {
		return fmt.Sprintf("position %v\n", p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "position %s\n", f.shows[i])
	if len(f.moves[i]) == 0 {
		b.WriteString("moves: none\n")
		return b.String()
	}
	b.WriteString("moves:")
	for k, j := range f.moves[i] {
		fmt.Fprintf(&b, " %d) %s ", k+1, f.shows[j])
	}
	b.WriteString("\n")
	return b.String()
}

func (f *familyGame) Notation() string {
	return "type the number of a move of the list, or the position it reaches"
}

func (f *familyGame) Size(p []int) float64 {
	if i := f.at(p); i >= 0 {
		return float64(f.height[i])
	}
	return 0
}

func (f *familyGame) JobGame(start []int) string { return f.job }
