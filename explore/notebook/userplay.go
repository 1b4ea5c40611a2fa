package notebook

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/play"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// A user-defined game (game(moves=f, start=p), or a sum) is played through
// package play by solving it once, before the first move: every position
// reachable from the start is numbered, and a play position is the
// one-element list holding that number. The loop then never calls the
// user's Starlark again, so that the game goes on whatever the cell's
// context and step budget do after the start.

// maxRendered bounds the options Render lists; ParseMove reads the others
// all the same.
const maxRendered = 40

// userPlay is a solved user-defined game as a play.Game.
type userPlay struct {
	name    string
	rule    game.Play
	reprs   []string // the Starlark repr of each position
	norms   []string // the reprs as matched against typed moves
	moves   [][]int  // the options of each position, in the move function's order, without repeats
	grundy  []uint64
	outcome []game.Outcome
	height  []int         // the longest play left from each position
	parts   [][]play.Part // of a sum under normal play: each term's value
	shows   []string      // show(p) of each position, when the game has show=
}

var _ play.Game = (*userPlay)(nil)

// newUserPlay solves g from start on thread th (whose session, context and
// step budget bound the work) and numbers its positions. fn names the
// caller in errors. A cycle, a position budget exceeded or an error of the
// move function is reported before any play.
func newUserPlay(th *starlark.Thread, g *Game, start starlark.Value, fn string) (*userPlay, error) {
	sol, err := g.prepare(th)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fn, err)
	}
	k, err := g.key(fn, start)
	if err != nil {
		return nil, err
	}
	// Solving first finds cycles and enforces the position budget, with
	// the messages of the game's methods.
	if _, err := sol.Grundy(k); err != nil {
		return nil, g.solveErr(fn, err)
	}
	_, ctx, _ := sessionOf(th)
	u := &userPlay{name: g.name, rule: g.play}
	index := map[string]int{k: 0}
	keys := []string{k}
	for i := 0; i < len(keys); i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		ms, err := g.moves(th, g.pos[keys[i]])
		if err != nil {
			return nil, g.solveErr(fn, &moveError{err})
		}
		var opts []int
		seen := map[int]bool{}
		for _, q := range ms {
			qk, err := positionKey(q)
			if err != nil {
				return nil, fmt.Errorf("%s: a move from %s: %w", fn, g.pos[keys[i]], err)
			}
			j, ok := index[qk]
			if !ok {
				j = len(keys)
				index[qk] = j
				keys = append(keys, qk)
				if _, ok := g.pos[qk]; !ok {
					g.pos[qk] = q
				}
			}
			if !seen[j] {
				seen[j] = true
				opts = append(opts, j)
			}
		}
		u.moves = append(u.moves, opts)
	}
	n := len(keys)
	u.reprs = make([]string, n)
	u.norms = make([]string, n)
	u.grundy = make([]uint64, n)
	u.outcome = make([]game.Outcome, n)
	for i, key := range keys {
		u.reprs[i] = g.pos[key].String()
		u.norms[i] = normalize(u.reprs[i])
		if u.grundy[i], err = sol.Grundy(key); err != nil {
			return nil, g.solveErr(fn, err)
		}
		if u.outcome[i], err = sol.Outcome(key); err != nil {
			return nil, g.solveErr(fn, err)
		}
	}
	if g.show != nil {
		u.shows = make([]string, n)
		for i, key := range keys {
			u.shows[i] = g.showText(th, g.pos[key])
		}
	}
	u.height = heights(u.moves)
	// A sum's hint shows each term's value and their nim-sum, the
	// Sprague–Grundy theorem at work.
	if len(g.terms) == 2 && g.play == game.Normal {
		solvers := map[playable]*Game{}
		u.parts = make([][]play.Part, n)
		for i, key := range keys {
			if u.parts[i], err = termValues(th, g, g.pos[key], solvers); err != nil {
				return nil, fmt.Errorf("%s: %w", fn, err)
			}
		}
	}
	return u, nil
}

// heights returns the length of the longest play from each position of an
// acyclic game given by its options (the solver has ruled out cycles).
func heights(moves [][]int) []int {
	h := make([]int, len(moves))
	done := make([]bool, len(moves))
	type frame struct{ i, next int }
	for root := range moves {
		if done[root] {
			continue
		}
		stack := []frame{{root, 0}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(moves[top.i]) {
				j := moves[top.i][top.next]
				top.next++
				if !done[j] {
					stack = append(stack, frame{j, 0})
				}
				continue
			}
			for _, j := range moves[top.i] {
				h[top.i] = max(h[top.i], h[j]+1)
			}
			done[top.i] = true
			stack = stack[:len(stack)-1]
		}
	}
	return h
}

// normalize is how typed moves and reprs are compared: without blanks,
// single quotes read as double ones.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
		case r == '\'':
			b.WriteByte('"')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// at returns the index that p holds, or -1.
func (u *userPlay) at(p []int) int {
	if len(p) != 1 || p[0] < 0 || p[0] >= len(u.reprs) {
		return -1
	}
	return p[0]
}

func (u *userPlay) String() string  { return u.name }
func (u *userPlay) Play() game.Play { return u.rule }

func (u *userPlay) Check(p []int) error {
	if u.at(p) < 0 {
		return fmt.Errorf("play: %v is not a position of %s: positions are numbered 0 to %d", p, u.name, len(u.reprs)-1)
	}
	return nil
}

func (u *userPlay) Moves(p []int) ([][]int, error) {
	i := u.at(p)
	if i < 0 {
		return nil, u.Check(p)
	}
	out := make([][]int, len(u.moves[i]))
	for k, j := range u.moves[i] {
		out[k] = []int{j}
	}
	return out, nil
}

func (u *userPlay) WinningMoves(p []int) ([][]int, error) {
	i := u.at(p)
	if i < 0 {
		return nil, u.Check(p)
	}
	var out [][]int
	for _, j := range u.moves[i] {
		if u.outcome[j] == game.P {
			out = append(out, []int{j})
		}
	}
	return out, nil
}

func (u *userPlay) Outcome(p []int) (game.Outcome, error) {
	i := u.at(p)
	if i < 0 {
		return game.N, u.Check(p)
	}
	return u.outcome[i], nil
}

// Values is the position as one part, a user's game having no heaps to
// split it into; a sum's position is split into its terms.
func (u *userPlay) Values(p []int) ([]play.Part, error) {
	i := u.at(p)
	if i < 0 {
		return nil, u.Check(p)
	}
	if u.parts != nil {
		return u.parts[i], nil
	}
	return []play.Part{{Label: u.reprs[i], Value: u.grundy[i]}}, nil
}

// ParseMove reads the number of a move in Render's list, or the position
// moved to as Starlark writes it; when every move leads to a number, a
// number is the position. A bare number that could be read both ways is
// refused: "#N" is the list's move N, "=X" the position X.
func (u *userPlay) ParseMove(p []int, s string) ([]int, error) {
	i := u.at(p)
	if i < 0 {
		return nil, u.Check(p)
	}
	opts := u.moves[i]
	if len(opts) == 0 {
		return nil, &play.IllegalMove{Reason: fmt.Sprintf("no move is possible from %s", u.reprs[i])}
	}
	t := strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(t, "#"); ok {
		if j, ok := u.byNumber(opts, rest); ok {
			return []int{j}, nil
		}
		return nil, &play.IllegalMove{Reason: fmt.Sprintf("%q: after # comes the number of a move, 1 to %d", t, len(opts))}
	}
	if rest, ok := strings.CutPrefix(t, "="); ok {
		if j, ok := u.byRepr(opts, rest); ok {
			return []int{j}, nil
		}
		return nil, u.notAnOption(i, rest)
	}
	jr, okR := u.byRepr(opts, t)
	if u.numeric(i) {
		// The moves lead to numbers: a number is the position.
		if okR {
			return []int{jr}, nil
		}
		return nil, u.notAnOption(i, t)
	}
	jn, okN := u.byNumber(opts, t)
	switch {
	case okN && okR && jn != jr:
		return nil, &play.IllegalMove{Reason: fmt.Sprintf("%s is both move %s of the list (to %s) and a position you can move to: type #%s for the list's move, =%s for the position", t, t, u.reprs[jn], t, t)}
	case okN:
		return []int{jn}, nil
	case okR:
		return []int{jr}, nil
	}
	return nil, u.notAnOption(i, t)
}

// numeric reports whether every option of position i is a number: the
// moves are then written and typed as the numbers they lead to, so that no
// list number can be mistaken for a position.
func (u *userPlay) numeric(i int) bool {
	for _, j := range u.moves[i] {
		if _, err := strconv.Atoi(u.reprs[j]); err != nil {
			return false
		}
	}
	return true
}

func (u *userPlay) byNumber(opts []int, s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > len(opts) {
		return 0, false
	}
	return opts[n-1], true
}

func (u *userPlay) byRepr(opts []int, s string) (int, bool) {
	t := normalize(s)
	for _, j := range opts {
		if u.norms[j] == t {
			return j, true
		}
	}
	// A string position may be typed without its quotes.
	for _, j := range opts {
		if n := u.norms[j]; len(n) >= 2 && n[0] == '"' && n[len(n)-1] == '"' && n[1:len(n)-1] == t {
			return j, true
		}
	}
	return 0, false
}

// notAnOption says why s is not a move from position i, and what can be
// typed instead.
func (u *userPlay) notAnOption(i int, s string) error {
	opts := u.moves[i]
	t := normalize(s)
	for j, n := range u.norms {
		if n == t && t != "" {
			if j == i {
				return &play.IllegalMove{Reason: fmt.Sprintf("%s is the position itself: a move must change it", u.reprs[j])}
			}
			return &play.IllegalMove{Reason: fmt.Sprintf("%s cannot be reached in one move from %s", u.reprs[j], u.reprs[i])}
		}
	}
	var can []string
	for k, j := range opts {
		if k == 8 {
			can = append(can, fmt.Sprintf("and %d more", len(opts)-k))
			break
		}
		can = append(can, u.reprs[j])
	}
	if u.numeric(i) {
		return &play.IllegalMove{Reason: fmt.Sprintf("%q is not a move from %s: type the position you move to: %s", strings.TrimSpace(s), u.reprs[i], strings.Join(can, ", "))}
	}
	return &play.IllegalMove{Reason: fmt.Sprintf("%q is not a move from %s: type a number from 1 to %d, or a position: %s", strings.TrimSpace(s), u.reprs[i], len(opts), strings.Join(can, ", "))}
}

// FormatMove writes the position moved to, with "=" when a bare number
// would name another move of the list.
func (u *userPlay) FormatMove(from, to []int) string {
	i, j := u.at(from), u.at(to)
	if j < 0 {
		return fmt.Sprint(to)
	}
	r := u.reprs[j]
	if i >= 0 && !u.numeric(i) {
		if k, ok := u.byNumber(u.moves[i], r); ok && k != j {
			return "=" + r
		}
	}
	return r
}

func (u *userPlay) Describe(from, to []int) string {
	if j := u.at(to); j >= 0 {
		return "move to " + u.reprs[j]
	}
	return fmt.Sprintf("move to %v", to)
}

// Render writes the position and its numbered moves.
func (u *userPlay) Render(p []int) string {
	i := u.at(p)
	if i < 0 {
		return fmt.Sprintf("position %v\n", p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "position %s\n", u.reprs[i])
	if i < len(u.shows) && u.shows[i] != "" {
		b.WriteString(u.shows[i] + "\n")
	}
	opts := u.moves[i]
	if len(opts) == 0 {
		b.WriteString("moves: none\n")
		return b.String()
	}
	// The list wraps at renderWidth columns, continued under its first
	// move. Moves to numbers are not numbered.
	head := "moves: "
	numeric := u.numeric(i)
	if numeric {
		head = "moves to: "
	}
	b.WriteString(head)
	col := len(head)
	for k, j := range opts {
		item := fmt.Sprintf("%d) %s", k+1, u.reprs[j])
		if numeric {
			item = u.reprs[j]
		}
		if k == maxRendered {
			item = fmt.Sprintf("… and %d more (up to %d)", len(opts)-k, len(opts))
		}
		w := utf8.RuneCountInString(item)
		switch {
		case k == 0:
		case col+3+w > renderWidth:
			b.WriteString("\n" + strings.Repeat(" ", len(head)))
			col = len(head)
		default:
			b.WriteString("   ")
			col += 3
		}
		b.WriteString(item)
		col += w
		if k == maxRendered {
			break
		}
	}
	b.WriteString("\n")
	return b.String()
}

// renderWidth is the width Render wraps the list of moves at.
const renderWidth = 78

func (u *userPlay) Notation() string {
	return `How to move: type the number of a move in the list ("2"), or the position
you move to as the list writes it ("(2, 3)"; blanks do not matter, and a
string may be typed without its quotes). When the moves lead to numbers
("moves to: 19   17   16"), type the number you move to. When a number
could be read both ways, #N is the list's move N and =X the position X.`
}

// Size is the longest play left, so that a lost game lasts.
func (u *userPlay) Size(p []int) float64 {
	if i := u.at(p); i >= 0 {
		return float64(u.height[i])
	}
	return 0
}

// JobGame is empty: a job file cannot hold a Starlark move function, so a
// game of a user-defined game cannot be saved as a job.
func (u *userPlay) JobGame([]int) string { return "" }

// StarlarkPosition is the repr of the position, which the game's move
// function reads back: records of user games are saved as notebooks.
func (u *userPlay) StarlarkPosition(p []int) string {
	if i := u.at(p); i >= 0 {
		return u.reprs[i]
	}
	return "None" // not a position of the game: the analysis says so
}

// playUserGame builds the play.Game of g from start (g's own start when
// start is nil or None); howStart tells how to give a start.
func playUserGame(th *starlark.Thread, g *Game, start starlark.Value, fn, howStart string) (*userPlay, []int, error) {
	if start == nil || start == starlark.None {
		if g.start == nil {
			return nil, nil, fmt.Errorf("%s: from which position? %s has no start: %s, or define it with game(moves=..., start=...)", fn, g.name, howStart)
		}
		start = g.start
	}
	if err := checkHashable(start); err != nil {
		return nil, nil, fmt.Errorf("%s: position: %w", fn, err)
	}
	u, err := newUserPlay(th, g, start, fn)
	if err != nil {
		return nil, nil, err
	}
	return u, []int{0}, nil
}

// UserGames returns the names of the globals that are user-defined games
// (game(moves=..., start=...) or sums of games), sorted.
func (s *Session) UserGames() []string {
	var names []string
	for name, v := range s.globals {
		if _, ok := v.(*Game); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// ExecFile runs a Starlark file in the session, as one cell whose globals
// stay defined. Errors name the file and line: "games.star:3: ...".
func (s *Session) ExecFile(ctx context.Context, filename string, src []byte, out kernel.Output) error {
	if ctx == nil {
		ctx = context.Background()
	}
	f, err := fileOptions.Parse(filename, src, 0)
	if err != nil {
		return sandbox.FileError(nil, filename, err)
	}
	th, _, stop := s.newThread(ctx, filename, out)
	defer stop()
	sandbox.Guard(f)
	if err := starlark.ExecREPLChunk(f, th, s.globals); err != nil {
		return sandbox.FileError(th, filename, err)
	}
	return nil
}

// PlayGame returns the global name, a user-defined game, ready to be played
// by play.Run, with its start: the game's own, or position, a Starlark
// expression, when it is not "". The game is solved first, within the
// session's budgets: a cycle or an error of the move function is reported
// here, naming the file and line of the Starlark at fault.
func (s *Session) PlayGame(ctx context.Context, name, position string) (play.Game, []int, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	v, ok := s.globals[name]
	if !ok {
		return nil, nil, fmt.Errorf("notebook: no global %s", name)
	}
	g, ok := v.(*Game)
	if !ok {
		return nil, nil, fmt.Errorf("notebook: %s is a %s, not a game defined with game(moves=..., start=...)", name, v.Type())
	}
	th, _, stop := s.newThread(ctx, "play "+name, nil)
	defer stop()
	var start starlark.Value
	if position != "" {
		var err error
		start, err = starlark.EvalOptions(fileOptions, th, "position", position, s.globals)
		if err != nil {
			var ee *starlark.EvalError
			if errors.As(err, &ee) {
				err = errors.New(ee.Msg)
			}
			return nil, nil, fmt.Errorf("position %s: %v", position, err)
		}
	}
	u, p, err := playUserGame(th, g, start, "play", "give one with --position")
	if err != nil {
		return nil, nil, sandbox.FileError(th, "", err)
	}
	// The name a file gives the game says more than game(moves=f).
	if strings.HasPrefix(u.name, "game(moves=") {
		u.name = name
	}
	return u, p, nil
}

// newThread is a thread of the session, for a cell or for code run outside
// one: the sandbox's thread under the session's step budget and memory
// limit, ctx's interrupt, print to out. The returned state's Context is
// the context to pass on to the engine; stop releases the watchdog.
func (s *Session) newThread(ctx context.Context, name string, out kernel.Output) (*starlark.Thread, *sandbox.State, func()) {
	if out == nil {
		out = discard{}
	}
	th, stop := sandbox.NewThread(ctx, name, sandbox.Limits{MaxSteps: s.opts.MaxSteps, MaxMemory: s.opts.Limits.Memory})
	st := sandbox.StateOf(th)
	th.Print = func(_ *starlark.Thread, msg string) { out.Stream("stdout", msg+"\n") }
	th.SetLocal(localSession, s)
	th.SetLocal(localCtx, st.Context())
	th.SetLocal(localOut, out)
	return th, st, stop
}
