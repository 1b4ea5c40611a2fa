package starrule

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// Options has no limits of its own: each of its calls of the function
// may take CallSteps steps and allocate CallMemory bytes above the memory
// in use when it starts. A heap's options need far less.
const (
	CallSteps  = 100_000_000
	CallMemory = 1 << 30
)

// maxCached bounds the heaps (parts of options) the cache of Options
// keeps, so that a long game of play cannot grow it without end.
const maxCached = 1 << 20

// ThreadFunc makes the thread a computation of the rule runs on, within
// lim, and a function that releases it. sandbox.NewThread is one (Load
// uses it); a notebook passes one that caps lim with its session's limits
// and sends print to the cell.
type ThreadFunc func(ctx context.Context, lim sandbox.Limits) (th *starlark.Thread, release func())

// Game is a heap game whose options are given by a Starlark function: a
// heap.Game. Options of a heap are computed once and kept.
type Game struct {
	fn      starlark.Callable
	kwargs  []starlark.Tuple // the rule's parameters, sorted by name
	name    string           // "squares(k=3)"
	from    string           // "rules.star", or "" when unknown
	threads ThreadFunc

	mu       sync.Mutex
	cache    map[int][][]int
	cached   int   // heaps held by cache
	firstErr error // the first error of Options, OptionsErr or Values

	valuesMu sync.Mutex
	values   []uint64 // g(0..len-1), computed by Values
}

var _ heap.Game = (*Game)(nil)

// FromCallable returns the game whose options are fn(n, **kwargs), fn a
// Starlark callable already defined (in a notebook cell, say): the same
// checks as a rule file's function apply when fn is a def or a lambda.
// threads makes the threads of its computations; nil means
// sandbox.NewThread. The function should compute its options from its
// arguments alone: Options keeps what it returns for each n.
func FromCallable(fn starlark.Callable, kwargs []starlark.Tuple, threads ThreadFunc) (*Game, error) {
	names := make([]string, len(kwargs))
	for i, kv := range kwargs {
		k, ok := kv[0].(starlark.String)
		if !ok {
			return nil, fmt.Errorf("starrule: parameter name %v is not a string", kv[0])
		}
		names[i] = string(k)
	}
	if f, ok := fn.(*starlark.Function); ok {
		if err := checkSignature(f, names); err != nil {
			return nil, fmt.Errorf("starrule: %w", err)
		}
	}
	if threads == nil {
		threads = func(ctx context.Context, lim sandbox.Limits) (*starlark.Thread, func()) {
			return sandbox.NewThread(ctx, "rule "+fn.Name(), lim)
		}
	}
	return newGame(fn, kwargs, threads), nil
}

// newGame returns the game of fn called with kwargs, checked.
func newGame(fn starlark.Callable, kwargs []starlark.Tuple, threads ThreadFunc) *Game {
	kw := slices.Clone(kwargs)
	sort.Slice(kw, func(i, j int) bool { return kw[i][0].(starlark.String) < kw[j][0].(starlark.String) })
	from := ""
	if f, ok := fn.(*starlark.Function); ok {
		from = filepath.Base(f.Position().Filename())
	}
	return &Game{fn: fn, kwargs: kw, name: callName(fn.Name(), kw), from: from, threads: threads, cache: map[int][][]int{}}
}

// callName writes the function and its parameters: "squares(k=3)".
func callName(fn string, kwargs []starlark.Tuple) string {
	parts := make([]string, len(kwargs))
	for i, kv := range kwargs {
		parts[i] = fmt.Sprintf("%s=%s", string(kv[0].(starlark.String)), kv[1].String())
	}
	return fn + "(" + strings.Join(parts, ", ") + ")"
}

// String names the game: "rule squares(k=3) from rules.star".
func (g *Game) String() string {
	if g.from == "" {
		return "rule " + g.name
	}
	return "rule " + g.name + " from " + g.from
}

// Options lists the options of a heap of n, as OptionsErr does, or nil
// when the rule fails: the error is then kept, for Err (and OptionsErr
// returns it). A nil list is also that of a heap without moves: callers
// that must tell them apart call OptionsErr.
func (g *Game) Options(n int) [][]int {
	opts, err := g.OptionsErr(n)
	if err != nil {
		return nil
	}
	return opts
}

// OptionsErr lists the options of a heap of n: what the function returns
// for n, each option's heaps sorted smaller first with the zeros dropped,
// the options sorted and without repeats. Each call of the function runs
// on its own thread within CallSteps steps and CallMemory bytes. The error names the function, n, and the file
// and line at fault.
func (g *Game) OptionsErr(n int) ([][]int, error) {
	if n < 0 {
		return nil, fmt.Errorf("starrule: %v: negative heap size %d", g, n)
	}
	g.mu.Lock()
	opts, ok := g.cache[n]
	g.mu.Unlock()
	if ok {
		return opts, nil
	}
	th, release := g.threads(context.Background(), sandbox.Limits{MaxSteps: callSteps(), MaxMemory: threadMemory(CallMemory)})
	defer release()
	opts, err := g.call(th, n)
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil {
		g.keep(err)
		return nil, err
	}
	if g.cached < maxCached {
		g.cache[n] = opts
		for _, o := range opts {
			g.cached += len(o) + 1
		}
	}
	return opts, nil
}

// keep records the first error; g.mu is held.
func (g *Game) keep(err error) {
	if g.firstErr == nil {
		g.firstErr = err
	}
}

// Err returns the first error of the rule (of Options, OptionsErr or
// Values), or nil.
func (g *Game) Err() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.firstErr
}

// call calls the function for a heap of n on th and reads its options.
func (g *Game) call(th *starlark.Thread, n int) ([][]int, error) {
	v, err := sandbox.Call(th, g.fn, starlark.Tuple{starlark.MakeInt(n)}, g.kwargs)
	if err != nil {
		return nil, g.callError(n, err)
	}
	opts, err := readOptions(v, n)
	if err != nil {
		return nil, fmt.Errorf("starrule: %v: %s(%d): %w", g, g.fn.Name(), n, err)
	}
	return opts, nil
}

// callError wraps an error of the function for n; one of a step budget
// also wraps heap.ErrTooManySteps, so that callers see a limit, not a
// failure.
func (g *Game) callError(n int, err error) error {
	msg := fmt.Sprintf("starrule: %v: %s(%d): %v", g, g.fn.Name(), n, err)
	if errors.Is(err, sandbox.ErrSteps) {
		return &multiError{msg: msg + "; lower upto, or raise the step limit", errs: []error{err, heap.ErrTooManySteps}}
	}
	return &multiError{msg: msg, errs: []error{err}}
}

// multiError is an error with its own message that wraps others.
type multiError struct {
	msg  string
	errs []error
}

func (e *multiError) Error() string   { return e.msg }
func (e *multiError) Unwrap() []error { return e.errs }

// readOptions reads what the function returned for a heap of n: a list
// (or tuple) of lists of heaps, each heap smaller than n so that every
// game ends.
func readOptions(v starlark.Value, n int) ([][]int, error) {
	if !isList(v) {
		return nil, fmt.Errorf("returned %s %s, not a list of options (each a list of heaps, [] to remove the heap)", article(v.Type()), short(v))
	}
	list := v.(starlark.Indexable)
	if n == 0 && list.Len() > 0 {
		// A move must take something: positions hold no empty heaps.
		return nil, fmt.Errorf("returned %s for a heap of 0, which has no options (return [] when n is 0)", short(v))
	}
	opts := make([][]int, 0, list.Len())
	for i := 0; i < list.Len(); i++ {
		o := list.Index(i)
		if !isList(o) {
			return nil, fmt.Errorf("option %d is %s %s, not a list of heaps (write [%s] for one heap, [] to remove the heap)", i+1, article(o.Type()), short(o), short(o))
		}
		parts := o.(starlark.Indexable)
		heaps := make([]int, 0, parts.Len())
		for j := 0; j < parts.Len(); j++ {
			var h int
			if err := starlark.AsInt(parts.Index(j), &h); err != nil {
				return nil, fmt.Errorf("option %d, %s: %s is not a heap size (a whole number)", i+1, short(o), short(parts.Index(j)))
			}
			if h < 0 || h >= n {
				return nil, fmt.Errorf("option %d, %s: a heap of %d is not smaller than %d; every heap an option leaves must be smaller than the heap it replaces, so that every game ends", i+1, short(o), h, n)
			}
			if h > 0 {
				heaps = append(heaps, h)
			}
		}
		slices.Sort(heaps)
		opts = append(opts, heaps)
	}
	slices.SortFunc(opts, slices.Compare)
	return slices.CompactFunc(opts, slices.Equal), nil
}

func isList(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, starlark.Tuple:
		return true
	}
	return false
}

func article(typ string) string {
	if strings.ContainsRune("aeiou", rune(typ[0])) {
		return "an " + typ
	}
	return "a " + typ
}

// short is v's text, cut to a line.
func short(v starlark.Value) string {
	if sandbox.ReprSize(v, 60) > 60 {
		return v.Type() + " value"
	}
	return v.String()
}

// Values returns the Grundy values g(0..upto): the mex, heap by heap, of
// the values of the options the function lists, an option being worth the
// nim-sum of its heaps' values. upto is refused, as by package heap, at
// lim.MaxPositions heaps and past lim.MaxMemory; the function's steps and
// the options examined count against lim.MaxSteps, and lim.Context stops
// the work (within a call of the function too). Values already computed
// are kept and not computed again. The error is the first the function
// causes, naming it, the heap and the file and line at fault.
func (g *Game) Values(upto int, lim heap.Limits) ([]uint64, error) {
	if _, err := heap.Estimate(g, upto, lim); err != nil {
		return nil, err
	}
	if err := budget.Exceeds(fmt.Sprintf("computing the values of %v up to %d", g, upto), 8*(int64(upto)+1), lim.MaxMemory); err != nil {
		return nil, fmt.Errorf("starrule: %w (raise it with --max-memory or limits.memory)", err)
	}
	g.valuesMu.Lock()
	defer g.valuesMu.Unlock()
	if upto < len(g.values) {
		return slices.Clone(g.values[:upto+1]), nil
	}
	vs, err := g.sweep(upto, lim)
	if err != nil {
		g.mu.Lock()
		g.keep(err)
		g.mu.Unlock()
		return nil, err
	}
	return slices.Clone(vs[:upto+1]), nil
}

// sweep extends g.values to upto; g.valuesMu is held.
func (g *Game) sweep(upto int, lim heap.Limits) ([]uint64, error) {
	ctx := lim.Context
	if ctx == nil {
		ctx = context.Background()
	}
	steps := lim.MaxSteps
	if steps <= 0 {
		steps = heap.DefaultMaxSteps
	}
	th, release := g.threads(ctx, sandbox.Limits{MaxSteps: uint64(steps), MaxMemory: threadMemory(lim.MaxMemory)})
	defer release()
	st := sandbox.StateOf(th)
	end := th.ExecutionSteps() + st.MaxSteps() // each call has CallSteps at most
	p := budget.From(ctx)
	p.Start(fmt.Sprintf("values of %v", g), int64(upto+1))
	p.Set(int64(len(g.values)))
	var seen []bool
	for n := len(g.values); n <= upto; n++ {
		if err := budget.Err(st.Context()); err != nil {
			return nil, fmt.Errorf("starrule: %v: %w", g, err)
		}
		g.mu.Lock()
		opts, ok := g.cache[n]
		g.mu.Unlock()
		if !ok {
			var err error
			if opts, err = g.callWithin(th, n, end); err != nil {
				return nil, err
			}
		}
		// The mex of len(opts) values is at most len(opts).
		seen = slices.Grow(seen[:0], len(opts)+1)[:len(opts)+1]
		clear(seen)
		for _, o := range opts {
			var x uint64
			for _, h := range o {
				x ^= g.values[h]
			}
			if x < uint64(len(seen)) {
				seen[x] = true
			}
		}
		mex := uint64(0)
		for mex < uint64(len(seen)) && seen[mex] {
			mex++
		}
		g.values = append(g.values, mex)
		p.Add(1)
		if err := sandbox.Tick(th, len(opts)); err != nil {
			if st.Exceeded() {
				return nil, &multiError{
					msg:  fmt.Sprintf("starrule: %v: the values up to %d need more than the limit of %d steps (the function's steps and the options examined), reached at heap %d: lower upto, or raise the limit", g, upto, steps, n),
					errs: []error{sandbox.ErrSteps, heap.ErrTooManySteps}}
			}
			return nil, fmt.Errorf("starrule: %v: %w", g, budget.Err(st.Context()))
		}
	}
	return g.values, nil
}
