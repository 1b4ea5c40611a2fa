package family

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/registry"
)

// The parameter vocabulary is heap's: one way to read, check, document
// and complete the parameters of any family.
type (
	// Param is one parameter: key, kind, bounds, default, example, text.
	Param = heap.Param
	// Kind is the kind of a parameter's value.
	Kind = heap.Kind
	// Params holds parameter values by key.
	Params = heap.Params
	// ParamError is a problem with one parameter, by key.
	ParamError = heap.ParamError
)

// The kinds of parameters.
const (
	Int    = heap.Int
	Ints   = heap.Ints
	String = heap.String
	File   = heap.File
	Map    = heap.Map
)

// Texts is a text in English and French.
func Texts(en, fr string) heap.Text { return heap.Texts(en, fr) }

// PositionAnalyses are the analyses of a game given by its moves, which
// the job layer answers for every family whose New builds a Game (SPEC.md
// "Games of your own"): the value and outcome of the start, the positions
// its winning moves reach, the P-positions among those reachable from it,
// its graph (small games), and figures.
var PositionAnalyses = []string{"value", "outcome", "moves", "p-positions", "graph", "plot"}

// Family is a game family as every way into nimbook knows it.
type Family struct {
	// Key is the job-file key, the survey and play name: "starlark".
	Key string
	// Order places the family in lists shown to users, after the heap
	// rules (whose orders are below 100).
	Order int
	// Params are the family's parameters in the order a job file lists
	// them; every family also takes play (normal or misere), not listed.
	Params heap.ParamList
	// Text says in a line what the family is, by language ("en", "fr").
	Text heap.Text
	// Check, when not nil, checks the parameters together once each has
	// passed its own checks: a broken file or function is reported here,
	// before any work starts. A *ParamError names the key at fault.
	Check func(p Params) error
	// Analyses lists what show may ask of the family, in the order
	// reports print them (PositionAnalyses for games given by moves).
	Analyses []string
	// Ranged lists the parameters that may take several values in a job
	// section (a section per value, a table across them in reports) and
	// in surveys. A Map parameter listed here ranges over its entries
	// (the params of a Starlark game: cols: "1..16").
	Ranged []string
	// New builds the game of checked parameters, within env.
	New func(p Params, env Env) (Game, error)
	// Cost, when not nil, estimates the work of the analyses of a game
	// of checked parameters before it starts (a bitboard engine's
	// positions, 2^cells at most), for job files and surveys to plan and
	// refuse; nil: unknown before the work. It stops early when ctx is
	// done (the estimate of a Starlark game samples it).
	Cost func(ctx context.Context, p Params, show []string) Cost
	// Release, when not nil, drops what the family keeps for the games
	// of a run (the memo a range's terms share); the job layer calls it
	// when no run is left, so that a long-lived process (the kernel) does
	// not hold every memo it ever built.
	Release func()
	// Signature and Help document the family for the notebook's help and
	// the command line's.
	Signature, Help string
	// Job, when not nil, is how the job layer reads and runs a family
	// whose games are not given by their moves (Wythoff's game, coin
	// turning, tartan products, nimber tables: their own tables and
	// formulas); package job sets and reads it. The other layers find
	// what they need of such a family through the type of its games
	// (job.SpecOf): reports through the optional interfaces its spec
	// implements (job.Describer, job.Tabler, …), play through the player
	// registered for that type.
	Job any
}

// Env is what a game may use while it is analysed: the cancellation and
// the budgets of the run, and where its files are.
type Env struct {
	Context context.Context
	// MaxSteps bounds the steps of code the game runs (a Starlark move
	// function), over the whole analysis; 0: the family's default.
	MaxSteps int64
	// MaxMemory bounds the memory the game's code may allocate; 0: none.
	MaxMemory int64
}

// Game is a game given by its moves, its positions named by keys: strings
// equal exactly when the positions are equal. It is used by one goroutine
// at a time; Close releases what it holds.
type Game interface {
	// Moves lists the positions one move from the position key. It is a
	// game.Mover[string].
	Moves(key string) ([]string, error)
	// Start is the key of the start position.
	Start() string
	// Play is the game's convention (normal or misère).
	Play() game.Play
	// JSON is the position key as a JSON value (ints, strings, lists).
	JSON(key string) any
	// Show is the position key as play and reports print it.
	Show(key string) string
	// String names the game: "node_kayles(cols=3, rows=3) from grids.star".
	String() string
	// Close releases the game's resources (its thread); it may be called
	// more than once.
	Close()
}

// Splitter is a game whose positions may be sums of independent
// components: the value of a position is the nim-sum of theirs. A
// position that is not a sum is its own only component. Its method set
// is game.Splitter[string]'s.
type Splitter interface {
	Components(key string) ([]string, error)
}

// Canonicalizer is a game whose positions fall into symmetry classes of
// equal values: Canonical returns one representative of key's class. Its
// method set is game.Canonicalizer[string]'s.
type Canonicalizer interface {
	Canonical(key string) (string, error)
}

// Cost is the estimated work of an analysis: positions (each listed
// once), bytes, and steps of the game's code; 0 means unknown.
type Cost struct {
	Positions int64
	Memory    int64
	Steps     int64
	// What names the work in a refusal: "Node Kayles on 3 × 24".
	What string
	// Exact is set when the figures were measured (a small game solved
	// whole), not predicted.
	Exact bool
}

var families registry.Registry[*Family]

// Register makes a family known by its key. It panics when the key is
// taken (by another family or a heap rule) or when the family has no key:
// programmer errors, found at init.
func Register(f *Family) {
	if f == nil || f.Key == "" {
		panic("family: Register of a family without a key")
	}
	if _, dup := heap.Lookup(f.Key); dup {
		panic("family: " + f.Key + " is a heap rule's name")
	}
	for _, k := range f.Ranged {
		if f.Param(k) == nil {
			panic("family: " + f.Key + " ranges over " + k + ", which is not a parameter")
		}
	}
	if !families.Add(f.Key, f) {
		panic("family: Register called twice for " + f.Key)
	}
}

// Lookup returns the family registered under key.
func Lookup(key string) (*Family, bool) { return families.Lookup(key) }

// Families returns the registered families by Order, then key.
func Families() []*Family { return families.Sorted(byOrder) }

// Keys returns the keys of the registered families by Order.
func Keys() []string { return families.Keys(byOrder) }

func byOrder(a, b *Family) int { return cmp.Compare(a.Order, b.Order) }

// UnknownError is the error for a family key that nothing registered:
// it lists the keys known (known, the heap rules and the other families
// a caller knows, then the registered ones) and says how to write a game
// of one's own.
func UnknownError(key string, known []string) error {
	return fmt.Errorf("unknown game family %q; known families: %s; %s", key, strings.Join(known, ", "), OwnGame)
}

// Param returns the parameter with key, or nil.
func (f *Family) Param(key string) *Param { return f.Params.Find(key) }

// Keys lists the parameter keys in order.
func (f *Family) Keys() []string { return f.Params.Keys() }

// Line returns Text in lang, English when lang has none.
func (f *Family) Line(lang string) string { return f.Text.In(lang) }

// Has says whether show may ask the family for analysis a.
func (f *Family) Has(a string) bool { return slices.Contains(f.Analyses, a) }

// CheckParams checks p against the family: each value of its kind and
// within its bounds, required ones present, then Check; defaults are
// filled in. The error is a *ParamError. The checks are heap.Rule's, for
// one behaviour across families.
func (f *Family) CheckParams(p Params) error {
	r := heap.Rule{Name: f.Key, Params: f.Params, Check: f.Check}
	err := r.CheckParams(p)
	var pe *ParamError
	if err != nil && !errors.As(err, &pe) {
		return &ParamError{Msg: err.Error()}
	}
	return err
}

// NewGame checks p (filling defaults) and builds the family's game.
func (f *Family) NewGame(p Params, env Env) (Game, error) {
	if f.New == nil {
		return nil, fmt.Errorf("family: %s builds no game", f.Key)
	}
	if err := f.CheckParams(p); err != nil {
		return nil, fmt.Errorf("family: %s: %w", f.Key, err)
	}
	return f.New(p, env)
}

// OwnGame says how to write a game of one's own, for the errors that
// list the families.
const OwnGame = "a game of your own is written in Starlark: starlark: {file: games.star, name: f, params: {…}}"
