package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/play"
	"github.com/nimbook/nimbook/explore/stargame"
)

// playUsage is nimbook play --help; the heap rules' lines come from the
// registry.
var playUsage = `Usage: nimbook play GAME [options]

Play a game against the computer, which never misses a winning move.

Games:
` + ruleUsage() + `  wythoff [--position 7,12]                   two heaps; from one, or both alike
  coins [--rule at-most|exactly|ruler] [--r 3] [--n 10] [--first-coin 1]
        [--heads 2,5,9]                       turning coins (default: all heads)
  product [--factors at-most:2,ruler] [--size 8,8] [--first-coin 1]
          [--position 2,4,6,6]                a tartan product of 2 or 3 coin
                                              games on a grid (default Nim ×
                                              Nim, 8×8, a head at the corner);
                                              a factor is RULE or RULE:R
  FILE.yaml[#SECTION]                         the game of a job file's section
                                              (number from 1, or title)
  FILE.star[#NAME]                            a game a Starlark file defines
                                              with NAME = game(moves=f,
                                              start=p); #NAME when it defines
                                              several. Example:
                                              examples/turning-turtles.star
  misere-GAME                                 a heap game under misère play
Options:
  --misere            misère play: whoever makes the last move loses
  --position LIST     the starting position (heaps, a,b, or heads), any game;
                      for a product (job file), the heads' coordinates one
                      after the other: 2,4,6,6 is the cells (2,4) and (6,6);
                      for a Starlark game, a Starlark value, e.g. "(3, 4)"
  --first human|computer   who moves first (default human)
  --level perfect|beginner the computer's level (beginner errs 2 moves in 5)
  --hint              show the Grundy values and the winning moves each turn
  --seed N            make the computer's choices reproducible
  --save FILE         save the game as a job file (FILE.yaml or .yml);
                      analyse it with nimbook run FILE; a Starlark game is
                      saved as a Markdown notebook (FILE.md) that nimbook
                      run analyses
  --max-positions N   the most positions a table, a solver or a list of
                      moves may hold (default 100000000, or the job file's
                      limits:); larger games are refused before they start
  --max-memory SIZE   the most memory the game may use, e.g. 512MiB
                      (default 4GiB)
  --quiet             no progress line: on a terminal, work that takes over
                      a second (a large start, a hint, the computer's
                      reply) shows one on standard error while it runs

During the game type help for the move notation; undo, hint, quit.
`

// ruleUsage writes a line for each heap rule: its name, the word it may
// take after it (octal CODE), its flags with their examples (in brackets
// when optional) and its default start, then what the rule is.
func ruleUsage() string {
	var b strings.Builder
	for _, r := range heap.Rules() {
		line := "  " + r.Name
		word := ruleWord(r)
		for _, q := range ruleFlags(r) {
			item := "--" + q.Key + " " + play.ParamExample(q)
			if word != nil && q.Key == word.Key {
				item = strings.ToUpper(q.Key)
			}
			if q.Missing == "" {
				item = "[" + item + "]"
			}
			line += " " + item
		}
		line += " [--heaps " + strings.Trim(strings.ReplaceAll(fmt.Sprint(play.DefaultStart(r)), " ", ","), "[]") + "]"
		b.WriteString(line + "\n")
		b.WriteString(fill(r.Line("en"), "      ", 78))
	}
	return b.String()
}

// fill wraps text in lines of at most width columns, each after indent.
func fill(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(text) {
		if line != indent && len([]rune(line))+1+len([]rune(w)) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	if line != indent {
		b.WriteString(line + "\n")
	}
	return b.String()
}

type playFlags struct {
	heaps, position, heads, rule string
	factors, size                string
	r, n, firstCoin              int
	misere, hint, quiet          bool
	first, level, save           string
	seed                         uint64
	maxPositions                 int64
	maxMemory                    string
	limits                       job.Limits // from the two flags; zero fields: not given
	// values holds each flag given as it was written: a heap rule reads
	// its parameters from it.
	values map[string]string
}

// parsePlayFlags reads the command line of nimbook play: the positional
// arguments, the flags and which flags were given. Every parameter of
// every heap rule is a flag (--set 1,3,4), of the kind the rule says.
func parsePlayFlags(args []string) ([]string, *playFlags, map[string]bool, error) {
	fs := newFlagSet("play")
	var f playFlags
	fs.StringVar(&f.heaps, "heaps", "", "heaps, e.g. 1,3,5,7")
	fs.StringVar(&f.position, "position", "", "starting position")
	fs.StringVar(&f.rule, "rule", "at-most", "coin rule")
	fs.IntVar(&f.r, "r", 3, "coins turned")
	fs.IntVar(&f.n, "n", 10, "number of coins")
	fs.IntVar(&f.firstCoin, "first-coin", 1, "number of the leftmost coin")
	fs.StringVar(&f.heads, "heads", "", "coins showing heads")
	fs.StringVar(&f.factors, "factors", "at-most:2,at-most:2", "the factors of a product")
	fs.StringVar(&f.size, "size", "8,8", "the grid of a product")
	fs.BoolVar(&f.misere, "misere", false, "misère play")
	fs.BoolVar(&f.hint, "hint", false, "show hints")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress line on standard error")
	fs.StringVar(&f.first, "first", "human", "who moves first")
	fs.StringVar(&f.level, "level", "perfect", "computer level")
	fs.Uint64Var(&f.seed, "seed", 0, "random seed")
	fs.StringVar(&f.save, "save", "", "save the game as a job file")
	fs.Int64Var(&f.maxPositions, "max-positions", 0, "most positions")
	fs.StringVar(&f.maxMemory, "max-memory", "", "most memory")
	for _, r := range heap.Rules() {
		for _, q := range ruleFlags(r) {
			if fs.Lookup(q.Key) != nil {
				continue // another game's flag, or another rule's: read as written
			}
			if q.Kind == heap.Int {
				fs.Int(q.Key, 0, q.Key)
			} else {
				fs.String(q.Key, "", q.Key)
			}
		}
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, nil, nil, err
	}
	if f.limits, err = limitFlags(fs, f.maxPositions, f.maxMemory); err != nil {
		return nil, nil, nil, err
	}
	set := map[string]bool{}
	f.values = map[string]string{}
	fs.Visit(func(fl *flag.Flag) {
		set[fl.Name] = true
		f.values[fl.Name] = fl.Value.String()
	})
	return pos, &f, set, nil
}

func runPlay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	for _, a := range args {
		if a == "help" {
			fmt.Fprint(stdout, playUsage)
			return nil
		}
	}
	pos, f, set, err := parsePlayFlags(args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fmt.Fprint(stderr, playUsage)
		return usagef("play needs a game: %s, a job file or a Starlark file", strings.Join(play.Families(), ", "))
	}
	// The memory watchdog and Ctrl-C stop the solving as well as the game.
	ctx, stop := budget.Watch(ctx, memoryLimit(f.limits))
	defer stop()
	// On a terminal, work that takes over a second (solving a start, the
	// computer's reply, a hint) shows a progress line, erased before the
	// game prints anything or waits for a move; none in a pipe or --quiet.
	prog := budget.NewProgress()
	ctx = budget.WithProgress(ctx, prog)
	line := newProgressLine(stderr, prog, f.quiet)
	defer line.stop()
	stdout, stderr = line.writer(stdout), line.writer(stderr)
	line.resume()
	// What the game shows quotes titles, files and moves typed: cleaned
	// of terminal escapes, on a terminal or in a transcript.
	out := cleanAlways(stdout)
	defer out.Flush()
	var g play.Game
	var start []int
	var star *starSource
	// Refuse --save before the game rather than lose it after.
	file, _, _ := strings.Cut(pos[0], "#")
	var inputs []string
	if isStarFile(pos[0]) || isJobFile(pos[0]) {
		inputs = []string{file}
	}
	if f.save != "" {
		// nimbook run tells a job file from a notebook by its extension:
		// a record saved under another name could not be analysed.
		ext := strings.ToLower(filepath.Ext(f.save))
		base := strings.TrimSuffix(f.save, filepath.Ext(f.save))
		switch {
		case isStarFile(pos[0]) && ext != ".md":
			return usagef("--save %s: a game defined in Starlark is saved as a Markdown notebook (its moves are a function, which a job file cannot hold); write --save %s.md", f.save, base)
		case !isStarFile(pos[0]) && ext != ".yaml" && ext != ".yml":
			return usagef("--save %s: a game is saved as a job file, which nimbook run reads by its extension .yaml or .yml; write --save %s.yaml", f.save, base)
		}
	}
	if f.save != "" {
		if err := atomicfile.Check(f.save, atomicfile.Options{Inputs: inputs}); err != nil {
			return fmt.Errorf("--save: %w", err)
		}
	}
	if isStarFile(pos[0]) {
		g, start, star, err = starGame(ctx, pos, f, set, out, stderr)
	} else {
		g, start, err = playGame(ctx, pos, f, set)
	}
	if err != nil {
		return stopped(ctx, err)
	}
	if f.save != "" && star == nil && g.JobGame(start) == "" {
		return usagef("--save: a record of %s cannot be analysed by nimbook run; play it without --save", g)
	}
	var opts play.Options
	if opts.First, err = play.ParsePlayer(f.first); err != nil {
		return usagef("--first %q: write human or computer", f.first)
	}
	if opts.Level, err = play.ParseLevel(f.level); err != nil {
		return usagef("--level %q: write perfect or beginner", f.level)
	}
	opts.Hint = f.hint
	opts.Seed = f.seed
	if !set["seed"] {
		opts.Seed = rand.Uint64() // a new game each time; the record keeps the seed
	}
	// The start is checked, against the limits too, before the first
	// prompt.
	if err := g.Check(start); err != nil {
		return stopped(ctx, errors.New(strings.TrimPrefix(err.Error(), "play: ")))
	}
	in := play.NewLines(ctx, stdin, out)
	in.Echo = !isTerminal(stdin)
	rec, err := play.Run(ctx, g, start, line.readLines(in), out, opts)
	switch {
	case err == nil:
	case errors.Is(err, budget.ErrMemory) || ctx.Err() != nil && errors.Is(budget.Err(ctx), budget.ErrMemory):
		err = budget.Err(ctx)
		fmt.Fprintf(out, "\nStopped: %v.\n", err)
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(out, "\nInterrupted.")
		err = nil
	default:
		err = errors.New(strings.TrimPrefix(err.Error(), "play: "))
	}
	if f.save != "" && rec != nil {
		if len(rec.Positions) < 2 {
			fmt.Fprintf(out, "No move was played: %s not written.\n", f.save)
		} else if werr := atomicfile.Write(context.WithoutCancel(ctx), f.save, atomicfile.Options{Inputs: inputs}, star.writer(rec)); werr != nil {
			return errors.Join(err, fmt.Errorf("saving the game: %w", werr))
		} else {
			fmt.Fprintf(out, "Game saved to %s; analyse it with: nimbook run %s\n", f.save, f.save)
		}
	}
	return err
}

// isJobFile reports whether a game argument names a job file,
// FILE.yaml[#SECTION].
func isJobFile(name string) bool {
	return strings.Contains(name, ".yaml") || strings.Contains(name, ".yml")
}

// playLimits are the limits of a game: the flags, else the job file's,
// else the defaults of job files.
func playLimits(ctx context.Context, flags, file job.Limits) play.Limits {
	lim := job.DefaultLimits
	if file.Positions > 0 {
		lim.Positions = file.Positions
	}
	if file.Memory > 0 {
		lim.Memory = file.Memory
	}
	if flags.Positions > 0 {
		lim.Positions = flags.Positions
	}
	if flags.Memory > 0 {
		lim.Memory = flags.Memory
	}
	return play.Limits{Positions: lim.Positions, Memory: lim.Memory, Context: ctx}
}

// gameError is a game the flags describe that cannot be made: bad usage,
// unless it is work the limits refuse.
func gameError(err error, prefix string) error {
	msg := strings.TrimPrefix(err.Error(), prefix)
	if play.IsRefusal(err) {
		return errors.New(msg)
	}
	return usagef("%s", msg)
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// generalFlags are play's own (--heaps: a heap rule's start): a rule's
// parameter of the same name is not a flag.
var generalFlags = []string{"position", "heaps", "misere", "hint", "quiet", "first", "level", "seed", "save", "max-positions", "max-memory"}

// familyFlags says which flags belong to which game: every heap rule's
// parameters (ruleFlags) and --heaps, its start; the other games' flags.
func familyFlags() map[string][]string {
	out := map[string][]string{}
	for fl, fams := range play.CommandFlags() { // coins' and products'
		out[fl] = fams
	}
	for _, r := range heap.Rules() {
		out["heaps"] = append(out["heaps"], r.Name)
		for _, q := range ruleFlags(r) {
			out[q.Key] = append(out[q.Key], r.Name)
		}
	}
	return out
}

// ruleFlags are the parameters of a heap rule given by flags: all but upto
// (a player needs no values table), the one that is the position (given
// by --heaps) and those named as a general flag.
func ruleFlags(r *heap.Rule) []heap.Param {
	var out []heap.Param
	for _, q := range r.Params {
		if q.Key != heap.Upto && q.Key != r.PositionParam && !slices.Contains(generalFlags, q.Key) {
			out = append(out, q)
		}
	}
	return out
}

// ruleWord is the parameter of a rule that may be written after its name
// (nimbook play octal 0.77): its first positional word, or nil.
func ruleWord(r *heap.Rule) *heap.Param {
	for _, q := range ruleFlags(r) {
		if q.Positional && (q.Kind == heap.String || q.Kind == heap.File) {
			return &q
		}
	}
	return nil
}

// playGame builds the game named on the command line and its start.
func playGame(ctx context.Context, pos []string, f *playFlags, set map[string]bool) (play.Game, []int, error) {
	lim := playLimits(ctx, f.limits, job.Limits{})
	name := pos[0]
	family := strings.ToLower(name)
	if _, ok := heap.Lookup(family); !ok {
		// misere-nim: any heap rule under misère play.
		if base, ok := strings.CutPrefix(family, "misere-"); ok {
			if _, ok := heap.Lookup(base); ok {
				family, f.misere = base, true
			}
		}
	}
	isJob := isJobFile(name)
	for fl, fams := range familyFlags() {
		if set[fl] && (isJob || !slices.Contains(fams, family)) {
			if isJob && (fl == "heaps" || fl == "heads") {
				continue
			}
			return nil, nil, usagef("--%s applies to %s only", fl, strings.Join(fams, ", "))
		}
	}
	if isJob {
		if len(pos) > 1 {
			return nil, nil, usagef("play takes one job file, got %d arguments", len(pos))
		}
		if set["misere"] {
			return nil, nil, usagef("--misere: the job file's play: key decides; edit the section instead")
		}
		return jobGame(ctx, name, f)
	}
	pl := game.Normal
	if f.misere {
		pl = game.Misere
	}
	if r, ok := heap.Lookup(family); ok {
		return ruleGame(r, pos, f, set, pl, lim)
	}
	if len(pos) > 1 {
		return nil, nil, usagef("unexpected %q after %s", pos[1], name)
	}
	startFlag := func(def string) ([]int, error) {
		s := def
		for _, k := range []string{"position", "heaps", "heads"} {
			if set[k] {
				s = map[string]string{"position": f.position, "heaps": f.heaps, "heads": f.heads}[k]
			}
		}
		return intList(s)
	}
	// A family with a player (package play) and default parameters:
	// Wythoff's game.
	if g, def, ok, err := play.Named(family, pl, lim); ok {
		if err != nil {
			return nil, nil, gameError(err, "play: ")
		}
		start, err := startFlag(strings.Trim(strings.ReplaceAll(fmt.Sprint(def), " ", ","), "[]"))
		if err != nil {
			return nil, nil, usagef("--position: %v", err)
		}
		return g, start, nil
	}
	// A family with a command line of its own (package play): coins,
	// products.
	values := map[string]string{"rule": f.rule, "r": strconv.Itoa(f.r), "n": strconv.Itoa(f.n), "first-coin": strconv.Itoa(f.firstCoin),
		"heads": f.heads, "factors": f.factors, "size": f.size, "position": f.position}
	flags := play.Flags{
		Get:   func(name string) (string, bool) { return values[name], set[name] },
		Ints:  intList,
		Start: startFlag,
	}
	if g, start, ok, err := play.Command(family, flags, pl, lim); ok {
		if msg, bad := play.IsFlagError(err); bad {
			return nil, nil, usagef("%s", msg)
		}
		if err != nil {
			return nil, nil, gameError(err, "play: ")
		}
		return g, start, nil
	}
	return nil, nil, usagef("unknown game %q: write %s, a job file (.yaml) or a Starlark file (.star)", name, strings.Join(play.Families(), ", "))
}

// ruleGame builds nimbook play RULE: each flag named after a parameter of
// the rule sets it, read by its kind, and the rule's word may follow its
// name (nimbook play octal 0.77); the start is --heaps or --position,
// else the rule's.
func ruleGame(r *heap.Rule, pos []string, f *playFlags, set map[string]bool, pl game.Play, lim play.Limits) (play.Game, []int, error) {
	given := map[string]string{}
	for _, q := range ruleFlags(r) {
		if set[q.Key] {
			given[q.Key] = f.values[q.Key]
		}
	}
	word, fromArg := ruleWord(r), false
	if word != nil && len(pos) == 2 && !set[word.Key] {
		given[word.Key], fromArg = pos[1], true
		pos = pos[:1]
	}
	if len(pos) > 1 {
		return nil, nil, usagef("unexpected %q after %s", pos[1], pos[0])
	}
	params := heap.Params{}
	for _, q := range ruleFlags(r) {
		s, ok := given[q.Key]
		if !ok {
			continue
		}
		v, err := play.ParseParam(q, s)
		if err != nil {
			return nil, nil, usagef("--%s: %v", q.Key, err)
		}
		if q.OmitZero && v == any(0) {
			continue // its zero value is its absence: --max-take 0, any number
		}
		params[q.Key] = v
	}
	g, err := play.NewHeapRule(r, params, pl, lim.Heap())
	if err != nil {
		var pe *heap.ParamError
		if !errors.As(err, &pe) {
			return nil, nil, gameError(err, "play: ")
		}
		q := r.Param(pe.Key)
		switch {
		case q == nil:
			return nil, nil, usagef("%s: %s", r.Name, pe.Msg)
		case !params.Has(q.Key) && word != nil && q.Key == word.Key:
			return nil, nil, usagef("%s needs a %s, e.g. nimbook play %s %s", r.Name, q.Key, r.Name, play.ParamExample(*q))
		case !params.Has(q.Key):
			return nil, nil, usagef("%s needs --%s, e.g. --%s %s", r.Name, q.Key, q.Key, play.ParamExample(*q))
		case fromArg && q.Key == word.Key:
			return nil, nil, usagef("%s %s: %s", r.Name, given[q.Key], pe.Msg)
		}
		return nil, nil, usagef("--%s: %s", q.Key, pe.Msg)
	}
	start := play.DefaultStart(r)
	for _, fl := range []string{"position", "heaps"} {
		if set[fl] {
			if start, err = intList(f.values[fl]); err != nil {
				return nil, nil, usagef("--%s: %v", fl, err)
			}
		}
	}
	return g, start, nil
}

// jobGame reads FILE.yaml#SECTION.
func jobGame(ctx context.Context, name string, f *playFlags) (play.Game, []int, error) {
	file, sel, _ := strings.Cut(name, "#")
	data, err := readInput(file, maxJobFile)
	if err != nil {
		return nil, nil, err
	}
	j, err := parseJob(ctx, file, data, f.limits.Memory)
	if err != nil {
		return nil, nil, err
	}
	s, err := play.FindSection(j, sel)
	if err != nil {
		return nil, nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "play: "))
	}
	g, start, err := play.FromSectionLimits(s, playLimits(ctx, f.limits, j.Limits))
	if err != nil {
		return nil, nil, fmt.Errorf("%s:%d: %s", file, s.Line, strings.TrimPrefix(err.Error(), "play: "))
	}
	for _, v := range []string{f.position, f.heaps, f.heads} {
		if v != "" {
			if start, err = intList(v); err != nil {
				return nil, nil, usagef("starting position: %v", err)
			}
			// A product's heads are cells: --position 2,4,6,6 is (2,4), (6,6).
			if pg, ok := g.(*play.Product); ok {
				if start, err = pg.Position(start); err != nil {
					return nil, nil, usagef("starting position: %s", strings.TrimPrefix(err.Error(), "play: "))
				}
			}
		}
	}
	if start == nil {
		return nil, nil, fmt.Errorf("%s:%d: the section has no position to start from: add position: to it, or give --position", file, s.Line)
	}
	return g, start, nil
}

// intList reads 1,3,5,7 (blanks allowed); "" is the empty list.
func intList(s string) ([]int, error) {
	s = strings.Trim(strings.TrimSpace(s), "()[]")
	if s == "" {
		return []int{}, nil
	}
	var out []int
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%q is not a whole number ≥ 0; write e.g. 1,3,5,7", p)
		}
		out = append(out, v)
	}
	return out, nil
}

// isStarFile reports whether a game argument names a Starlark file,
// FILE.star or FILE.star#NAME.
func isStarFile(name string) bool {
	file, _, _ := strings.Cut(name, "#")
	return strings.HasSuffix(strings.ToLower(file), ".star")
}

// starSource is the Starlark file a game was defined in, kept to save its
// records as notebooks.
type starSource struct {
	file, name string
	src        []byte
}

// writer writes rec as a job file, or as a notebook for a game of a
// Starlark file (s not nil).
func (s *starSource) writer(rec *play.Record) func(io.Writer) error {
	if s == nil {
		return rec.WriteJob
	}
	return func(w io.Writer) error { return rec.WriteNotebook(w, s.file, s.src, s.name) }
}

// starGame runs FILE.star[#NAME] in a notebook session and returns the
// user-defined game NAME (or the file's only one), solved, and its start.
// What the file prints goes to stdout.
func starGame(ctx context.Context, pos []string, f *playFlags, set map[string]bool, stdout, stderr io.Writer) (play.Game, []int, *starSource, error) {
	if len(pos) > 1 {
		return nil, nil, nil, usagef("play takes one Starlark file, got %d arguments", len(pos))
	}
	for fl := range familyFlags() {
		if set[fl] {
			return nil, nil, nil, usagef("--%s does not apply to a Starlark game: the file's game(moves=...) decides the rules; give the start with --position", fl)
		}
	}
	if set["misere"] {
		return nil, nil, nil, usagef("--misere: the game's play= decides; define it with game(..., play=\"misere\")")
	}
	file, name, _ := strings.Cut(pos[0], "#")
	// Read as every Starlark file is (a regular .star file of a sane
	// size: /dev/zero, a FIFO or a folder is refused at once, naming it).
	src, err := stargame.ReadSource(file, "")
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := newSession("en", f.limits, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	// The file runs without input: the game reads the terminal later.
	out := &cliOutput{stdout: stdout, stderr: stderr, in: bufio.NewReader(strings.NewReader(""))}
	if err := s.ExecFile(ctx, file, src, out); err != nil {
		return nil, nil, nil, err
	}
	// FILE.star#f(3, 5): a function of the file that returns a game (a
	// file of job-file games), called; the game is then the call's.
	if strings.HasSuffix(name, ")") && strings.Contains(name, "(") {
		if err := s.ExecFile(ctx, file+"#"+name, []byte("played = "+name+"\n"), out); err != nil {
			return nil, nil, nil, err
		}
		name = "played"
	}
	games := s.UserGames()
	switch {
	case name != "":
	case len(games) == 1:
		name = games[0]
	case len(games) == 0:
		return nil, nil, nil, fmt.Errorf("%s defines no game: define one with e.g. g = game(moves=f, start=p), where f(p) returns the list of positions one move from p", file)
	default:
		return nil, nil, nil, fmt.Errorf("%s defines %d games (%s): choose one with %s#%s", file, len(games), strings.Join(games, ", "), file, games[0])
	}
	if !slices.Contains(s.Globals(), name) {
		if len(games) == 0 {
			return nil, nil, nil, fmt.Errorf("%s defines no %s, and no game: define one with %s = game(moves=f, start=p)", file, name, name)
		}
		return nil, nil, nil, fmt.Errorf("%s defines no %s; its games: %s", file, name, strings.Join(games, ", "))
	}
	g, start, err := s.PlayGame(ctx, name, f.position)
	if err != nil {
		msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "notebook: "), "play: ")
		if !strings.HasPrefix(msg, file+":") {
			msg = fmt.Sprintf("%s#%s: %s", file, name, msg)
		}
		return nil, nil, nil, errors.New(msg)
	}
	return g, start, &starSource{file: file, name: name, src: src}, nil
}
