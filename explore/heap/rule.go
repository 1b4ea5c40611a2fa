package heap

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/registry"
)

// A Rule is a family of heap games as job files, the JSON game, reports,
// notebook built-ins, play, surveys and the command line know it: its name
// and parameters, how to check them and how to build the game. Each rule
// registers itself once, from its own file (Register, as database/sql
// drivers do); nothing else names it. What only some rules can do is found
// by type assertion on the Game they build (Explainer, PPositioner, …), as
// gonum/plot finds a plotter's optional interfaces.
type Rule struct {
	// Name is the job-file key, the notebook built-in (unless Builtin
	// says otherwise), the play and survey name: "octal".
	Name string
	// Builtin is the notebook built-in's name when it is not Name
	// ("hex_game": hex is a Starlark built-in).
	Builtin string
	// Order places the rule in lists shown to users (SPEC order).
	Order int
	// Params are the rule's parameters, in the order a job file lists
	// them. Every rule also takes play and position, which are not listed.
	Params ParamList
	// Text says in a line what the rule is, by language ("en", "fr").
	Text Text
	// Describe is how reports name a game of the rule, by language: a
	// text/template over the parameters, each under its key in CamelCase
	// (.Heaps, .MaxTake, .AllBut) with its value as it is; reports give
	// it the functions tuple ((1,3,5)), set ({1, 3, 4}), inc (n + 1) and
	// name (a code's usual name, e.g. Kayles). Text is used without it.
	Describe map[string]string
	// Check, when not nil, checks the parameters together once each has
	// passed its own checks; a *ParamError names the key at fault.
	Check func(p Params) error
	// New builds the game. It is called only with checked parameters.
	New func(p Params) (Game, error)
	// Start is the position play starts from when none is given (Nim:
	// seed 001's (1, 3, 5, 7)); nil means a heap of 10.
	Start []int
	// PositionParam names the parameter that is also the position when
	// the section gives none (Nim's heaps), or "".
	PositionParam string
	// NoPeriod says, by language, why no period of the rule's values is
	// proven when no theorem bounds the values a proof needs (Grundy's
	// game); reports print it beside "no period proven".
	NoPeriod map[string]string
	// Analyses lists what show may ask of this rule beyond what every heap
	// rule answers ("rare" for codes).
	Analyses []string
	// Signature and Help document the notebook built-in:
	// "octal(code, upto=100, play=\"normal\", position=None)" and what it
	// does, with its methods.
	Signature, Help string
	// Generators are survey keys that make the values of a parameter
	// (octal's digits: K makes every code with at most K digits).
	Generators []Generator
}

// Kind is the kind of a parameter's value.
type Kind int

const (
	// Int is a whole number in [Min, Max].
	Int Kind = iota
	// Ints is a list of whole numbers, each in [Min, Max].
	Ints
	// String is a word or code; Check says whether it is well formed.
	String
	// File is the path of a file, relative to the job file; Params holds
	// it joined to the job file's folder.
	File
	// Map is a mapping of names to values (int, []int, string, bool),
	// passed on as it is: a Starlark rule's own parameters.
	Map
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Ints:
		return "ints"
	case String:
		return "string"
	case File:
		return "file"
	case Map:
		return "map"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Param is one parameter of a rule.
type Param struct {
	// Key is the job-file key ("max-take"); the notebook keyword is Key
	// with "-" written "_" (Keyword).
	Key  string
	Kind Kind
	// Min and Max bound an Int, or each element of Ints.
	Min, Max int
	// What says what a number (or each number of a list) is, for errors:
	// "the most one may take".
	What string
	// Default is the value in effect when the key is absent; nil leaves
	// the key absent (optional, or required when Missing is set).
	Default any
	// Missing, when set, makes the parameter required and is the error
	// when it is absent, saying what to write.
	Missing string
	// Example is a value as a job file writes it: "[1, 3, 4]".
	Example string
	// Text says what the parameter is, by language.
	Text map[string]string
	// Positional says the notebook built-in takes it as a positional
	// argument (Nim's heaps as *heaps, octal's code first).
	Positional bool
	// OmitZero leaves the key out of the JSON game when it holds its zero
	// value (Nim's max-take 0, "any number").
	OmitZero bool
	// Memo marks a File parameter the family keeps its own work in (a
	// memo file, node-kayles: {memo: nk3.memo}): not an input of the
	// results, so a survey reads nothing of it, leaves it out of its
	// identity, and lets its variants (and shards) share it.
	Memo bool
}

// Keyword is the notebook keyword of the parameter: its key with "-"
// written "_".
func (p Param) Keyword() string { return strings.ReplaceAll(p.Key, "-", "_") }

// Generator is a survey key that is not a parameter and makes the values
// of one: octal's digits: K makes every code 0.d1…dj with j ≤ K. Surveys
// know nothing else of it: they check the keys it excludes (Check), count
// its values before making any (Count, so that too many are refused at
// once), then make one variant of each (Make).
type Generator struct {
	// Key is the survey key ("digits"); Param the parameter it makes
	// ("code").
	Key, Param string
	// With lists other survey keys the generator reads ("size" for
	// subtraction's within); they are not parameters either. Alone is the
	// error when one of them is given without Key.
	With  []string
	Alone string
	// Example is how a survey file writes it: `digits: 3`.
	Example string
	// List makes the generator a non-empty list of the parameter's
	// values, a variant each (octal's codes: ["0.07", "0.77"]); Count and
	// Make are then unused.
	List bool
	// Check, when not nil, refuses the keys that may not be given with
	// Key (has says whether the survey gives one): "give either code or
	// digits, not both".
	Check func(has func(key string) bool) error
	// Count returns how many values Make would make, without making them,
	// and what they are, for the error when they are too many ("codes of
	// up to 6 digits"). A *ParamError is located at the value of its key.
	Count func(args GeneratorArgs) (n int64, what string, err error)
	// Make returns the values, in survey order: a string, int or []int
	// each, as the parameter's Kind says.
	Make func(args GeneratorArgs) ([]any, error)
}

// GeneratorArgs reads the numbers a generator is given, as a survey file
// writes them (its errors are the survey's, located in the file).
type GeneratorArgs interface {
	// Span reads key (the generator's Key or one of With) as a whole
	// number n (lo = hi = n) or a range "A..B" (ranged), within [min, max];
	// what names the number in errors. ok is false when key is not given.
	Span(key, what string, min, max int64) (lo, hi int64, ranged, ok bool, err error)
}

// Params holds a rule's parameter values by key: int, []int, string or
// map[string]any, as Kind says.
type Params map[string]any

// Int returns the int under key, 0 when absent.
func (p Params) Int(key string) int { v, _ := p[key].(int); return v }

// Ints returns the list under key, nil when absent.
func (p Params) Ints(key string) []int { v, _ := p[key].([]int); return v }

// String returns the string under key, "" when absent.
func (p Params) String(key string) string { v, _ := p[key].(string); return v }

// Map returns the mapping under key, nil when absent.
func (p Params) Map(key string) map[string]any { v, _ := p[key].(map[string]any); return v }

// MapValue converts a value decoded from YAML (a job file's or a command
// line's) to one a Map parameter may hold: a whole number, a word, a
// boolean or a list of whole numbers; ok is false for any other.
func MapValue(x any) (v any, ok bool) {
	switch x := x.(type) {
	case int, string, bool:
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

// Has reports whether key is set.
func (p Params) Has(key string) bool { _, ok := p[key]; return ok }

// Clone returns a copy whose lists and maps are copies.
func (p Params) Clone() Params {
	out := make(Params, len(p))
	for k, v := range p {
		switch v := v.(type) {
		case []int:
			out[k] = slices.Clone(v)
		case map[string]any:
			out[k] = maps.Clone(v)
		default:
			out[k] = v
		}
	}
	return out
}

// ParamError is a problem with one parameter: the key and what to change.
type ParamError struct {
	Key string // "" for the parameters as a whole
	Msg string
}

func (e *ParamError) Error() string {
	if e.Key == "" {
		return e.Msg
	}
	return e.Key + ": " + e.Msg
}

// Upto is the key of the largest heap whose value is asked for; every rule
// has it.
const Upto = "upto"

// MaxUpto bounds upto for every rule: past it no sweep could finish.
const MaxUpto = 100_000_000

// Texts is a text in the languages nimbook writes, English and French:
// the form of Rule.Text, Describe and Param.Text, so that a rule's
// registration reads as its two sentences.
func Texts(en, fr string) Text { return Text{"en": en, "fr": fr} }

// UptoParam is the upto parameter with its default.
func UptoParam(def int) Param {
	return Param{Key: Upto, Kind: Int, Min: 0, Max: MaxUpto, What: "the largest heap", Default: def, Example: "1000",
		Text: Texts("the largest heap whose value is computed", "le plus grand tas dont la valeur est calculée")}
}

var rules registry.Registry[*Rule]

// Register makes a rule known by its name. It panics when the name is
// taken, when New is nil, or when the rule has no upto parameter: these
// are programmer errors, found at init.
func Register(r *Rule) {
	if r == nil || r.New == nil || r.Name == "" {
		panic("heap: Register of a rule without a name or New")
	}
	if r.Param(Upto) == nil {
		panic("heap: rule " + r.Name + " has no upto parameter")
	}
	if !rules.Add(r.Name, r) {
		panic("heap: Register called twice for rule " + r.Name)
	}
}

// Lookup returns the rule registered under name.
func Lookup(name string) (*Rule, bool) { return rules.Lookup(name) }

// Rules returns the registered rules by Order, then name.
func Rules() []*Rule { return rules.Sorted(byOrder) }

// RuleNames returns the names of the registered rules by Order.
func RuleNames() []string { return rules.Keys(byOrder) }

func byOrder(a, b *Rule) int { return cmp.Compare(a.Order, b.Order) }

// BuiltinName is the notebook built-in of the rule.
func (r *Rule) BuiltinName() string {
	if r.Builtin != "" {
		return r.Builtin
	}
	return r.Name
}

// Param returns the parameter with key, or nil.
func (r *Rule) Param(key string) *Param { return r.Params.Find(key) }

// Keys lists the parameter keys in order.
func (r *Rule) Keys() []string { return r.Params.Keys() }

// ParamList is the parameters of a rule, or of a game family
// (explore/family), in the order a job file lists them.
type ParamList []Param

// Find returns the parameter with key, or nil.
func (l ParamList) Find(key string) *Param {
	for i := range l {
		if l[i].Key == key {
			return &l[i]
		}
	}
	return nil
}

// Keys lists the parameter keys in order.
func (l ParamList) Keys() []string {
	out := make([]string, len(l))
	for i, p := range l {
		out[i] = p.Key
	}
	return out
}

// Text is a text by language ("en", "fr"): a rule's or a family's line,
// a parameter's.
type Text map[string]string

// In returns the text in lang, English when lang has none.
func (t Text) In(lang string) string {
	if s, ok := t[lang]; ok {
		return s
	}
	return t["en"]
}

// Generator returns the survey generator with key, or nil.
func (r *Rule) Generator(key string) *Generator {
	for i := range r.Generators {
		if r.Generators[i].Key == key {
			return &r.Generators[i]
		}
	}
	return nil
}

// Line returns Text in lang, English when lang has none.
func (r *Rule) Line(lang string) string { return r.Text.In(lang) }

// CheckParams checks p against the rule: each value of the right kind and
// within its bounds, required ones present, then Check. Defaults are filled
// in. The error is a *ParamError.
func (r *Rule) CheckParams(p Params) error {
	for k := range p {
		if r.Param(k) == nil {
			return &ParamError{Key: k, Msg: fmt.Sprintf("unknown parameter; %s takes %s", r.Name, strings.Join(r.Keys(), ", "))}
		}
	}
	for _, q := range r.Params {
		v, ok := p[q.Key]
		if !ok {
			if q.Missing != "" {
				return &ParamError{Key: q.Key, Msg: "missing: " + q.Missing}
			}
			if q.Default != nil {
				p[q.Key] = q.Default
			}
			continue
		}
		if err := q.check(v); err != nil {
			return &ParamError{Key: q.Key, Msg: err.Error()}
		}
	}
	if r.Check != nil {
		if err := r.Check(p); err != nil {
			var pe *ParamError
			if errors.As(err, &pe) {
				return pe
			}
			return &ParamError{Msg: err.Error()}
		}
	}
	return nil
}

func (q Param) check(v any) error {
	inRange := func(x int) error {
		if x < q.Min || x > q.Max {
			return fmt.Errorf("%d is out of range: %s must be from %d to %d", x, q.What, q.Min, q.Max)
		}
		return nil
	}
	switch q.Kind {
	case Int:
		x, ok := v.(int)
		if !ok {
			return fmt.Errorf("want a whole number (%s), not %v", q.What, v)
		}
		return inRange(x)
	case Ints:
		xs, ok := v.([]int)
		if !ok {
			return fmt.Errorf("want a list of whole numbers like %s, not %v", q.Example, v)
		}
		for _, x := range xs {
			if err := inRange(x); err != nil {
				return err
			}
		}
	case String, File:
		if _, ok := v.(string); !ok {
			return fmt.Errorf("want a single value like %s, not %v", q.Example, v)
		}
	case Map:
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("want a mapping like %s, not %v", q.Example, v)
		}
	}
	return nil
}

// NewGame checks p (filling defaults) and builds the rule's game.
func (r *Rule) NewGame(p Params) (Game, error) {
	if err := r.CheckParams(p); err != nil {
		return nil, fmt.Errorf("heap: %s: %w", r.Name, err)
	}
	return r.New(p)
}

// Optional capabilities of a Game, found by type assertion.

// Explainer is a game that explains its rule to a player: what a move is,
// and why taking k tokens from a heap is never a move.
type Explainer interface {
	// Explain says the rule in a sentence: "take 1 to 3 tokens from one heap."
	Explain() string
	// Forbidden says why taking k tokens is never a move, or "" when it
	// may be one.
	Forbidden(k int) string
}

// Splitter is a game whose moves may split a heap: play then reads the
// parts a player leaves. Digit gives what taking k tokens may leave, as
// an octal or hexadecimal digit.
type Splitter interface {
	Digit(k int) int
}

// PPositioner is a game that counts the P-positions of every position with
// heaps at most the given ones (Nim: 48 of 384 under (1,3,5,7)).
type PPositioner interface {
	PPositions(heaps []int, play game.Play, lim Limits) (PPositionSet, error)
}

// PositionSolver is a game that solves positions of several heaps by a
// formula under either play, without the values of its heaps (Nim by
// Bouton's rule and the misère rule of seed 004). Outcome and WinningMoves
// use it; the job layer sizes its work by it.
type PositionSolver interface {
	outcome(heaps []int, play game.Play) game.Outcome
	winningMoves(heaps []int, play game.Play) [][]int
}

// OptionCount returns len(g.Options(n)) without listing them, for the
// games that count them (a heap of 2^31 in Nim has 2^31 options); ok is
// false for other games. Callers size a listing of moves by it.
func OptionCount(g Game, n int) (count int64, ok bool) { return optionCount(g, n) }

// ProvesPeriods reports whether Period can prove a period of g's values
// from finitely many of them (subtraction and octal games, bounded Nim);
// for other games no number of values proves one, so a search for a
// period by ever larger upto would never end.
func ProvesPeriods(g Game) bool {
	_, _, ok := window(g, 0, 1)
	return ok
}
