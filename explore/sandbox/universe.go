package sandbox

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The built-ins of the Starlark universe that materialise or scan an
// iterable run in one step of the interpreter: list(range(1000000000))
// would fill 16 GB, min(range(10**12)) would scan for hours, and neither
// would see an interrupt. Guarded code sees versions of them that check the
// memory a result needs before allocating it (from the iterable's length)
// and iterate through a tickingIterable, which counts the steps and ends
// the iteration as soon as the thread is stopped.

// perItem is the memory one element of each built-in's result takes, about.
var perItem = map[string]int64{
	"list": 16, "tuple": 16, "reversed": 16, "sorted": 16,
	"set": 64, "dict": 80, "enumerate": 64, "zip": 64,
	"min": 0, "max": 0, "any": 0, "all": 0,
}

// universeBuiltins are the guarded versions of Starlark's built-ins, by
// name.
func universeBuiltins() map[string]builtinFunc {
	m := map[string]builtinFunc{
		"sorted":  guardedSorted,
		"str":     guardedText,
		"repr":    guardedText,
		"print":   guardedText,
		"int":     guardedInt,
		"getattr": guardedGetattr,
	}
	for name := range perItem {
		if name != "sorted" {
			m[name] = guardedIterating
		}
	}
	return m
}

// guardedIterating is a universe built-in that walks its iterable
// arguments: list, tuple, set, dict, enumerate, zip, reversed, min, max,
// any, all.
func guardedIterating(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := b.Name()
	if per := perItem[name]; per > 0 {
		n := int64(-1)
		for _, a := range args {
			if _, ok := a.(starlark.Iterable); !ok {
				continue
			}
			l := int64(starlark.Len(a))
			if name == "zip" && (n < 0 || l < n) || name != "zip" && l > n {
				n = l
			}
		}
		if n > 0 {
			if err := NeedMemory(th, fmt.Sprintf("%s() of %d items", name, n), n*per); err != nil {
				return nil, err
			}
		}
	}
	v, err := starlark.Call(th, starlark.Universe[name], tickingArgs(th, args), kwargs)
	if err == nil {
		err = Tick(th, 0) // a stopped thread drops what the iteration left
	}
	return v, err
}

// tickingArgs wraps the iterable arguments that are not mappings (which
// built-ins read by their items).
func tickingArgs(th *starlark.Thread, args starlark.Tuple) starlark.Tuple {
	var out starlark.Tuple
	for i, a := range args {
		it, ok := a.(starlark.Iterable)
		if _, mapping := a.(starlark.IterableMapping); !ok || mapping {
			continue
		}
		if out == nil {
			out = append(starlark.Tuple(nil), args...)
		}
		out[i] = &tickingIterable{Iterable: it, th: th}
	}
	if out == nil {
		return args
	}
	return out
}

// tickingIterable is an iterable whose iterator counts the thread's steps
// and ends early once the thread is stopped (the caller then reports the
// stop, not the partial result). It passes for its iterable otherwise.
type tickingIterable struct {
	starlark.Iterable
	th *starlark.Thread
}

func (t *tickingIterable) Len() int { return starlark.Len(t.Iterable) }

func (t *tickingIterable) Iterate() starlark.Iterator {
	return &tickingIterator{Iterator: t.Iterable.Iterate(), th: t.th}
}

type tickingIterator struct {
	starlark.Iterator
	th *starlark.Thread
	n  int
}

func (t *tickingIterator) Next(p *starlark.Value) bool {
	t.n++
	if t.n%chunk == 0 && Tick(t.th, chunk) != nil {
		return false
	}
	return t.Iterator.Next(p)
}

// errSortStopped unwinds a sort when its thread is stopped.
type errSortStopped struct{}

// guardedSorted is sorted(iterable, key=None, reverse=False), stable as
// Starlark's, whose comparisons count steps and stop with the thread.
func guardedSorted(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (v starlark.Value, err error) {
	var iterable starlark.Iterable
	var key starlark.Callable
	var reverse bool
	if err := starlark.UnpackArgs("sorted", args, kwargs, "iterable", &iterable, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	values, err := collect(th, "sorted", iterable)
	if err != nil {
		return nil, err
	}
	var keys []starlark.Value
	if key != nil {
		keys = make([]starlark.Value, len(values))
		for i, v := range values {
			k, err := starlark.Call(th, key, starlark.Tuple{v}, nil)
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
	}
	s := &sortSlice{th: th, keys: keys, values: values}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errSortStopped); !ok {
				panic(r)
			}
			v, err = nil, ErrStopped
		}
	}()
	if reverse {
		sort.Stable(sort.Reverse(s))
	} else {
		sort.Stable(s)
	}
	return starlark.NewList(s.values), s.err
}

// collect materialises an iterable within the budgets.
func collect(th *starlark.Thread, fn string, it starlark.Iterable) ([]starlark.Value, error) {
	n := starlark.Len(it)
	if n > 0 {
		if err := NeedMemory(th, fmt.Sprintf("%s() of %d items", fn, n), int64(n)*16); err != nil {
			return nil, err
		}
	}
	out := make([]starlark.Value, 0, max(n, 0))
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		out = append(out, x)
		if len(out)%chunk == 0 {
			if err := Tick(th, chunk); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

type sortSlice struct {
	th           *starlark.Thread
	keys, values []starlark.Value // keys nil: the values are their own keys
	err          error
	n            int
}

func (s *sortSlice) Len() int { return len(s.values) }
func (s *sortSlice) Less(i, j int) bool {
	s.n++
	if s.n%chunk == 0 && Tick(s.th, chunk) != nil {
		panic(errSortStopped{})
	}
	if s.err != nil {
		return false
	}
	x, y := s.values[i], s.values[j]
	if s.keys != nil {
		x, y = s.keys[i], s.keys[j]
	}
	ok, err := starlark.Compare(syntax.LT, x, y)
	if err != nil {
		s.err = err
	}
	return ok
}
func (s *sortSlice) Swap(i, j int) {
	s.values[i], s.values[j] = s.values[j], s.values[i]
	if s.keys != nil {
		s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	}
}

// guardedText is str, repr and print, refused when the text would be
// larger than MaxText (its time and memory grow with it). The text is
// written by WriteText: in time linear in its length however deep the
// value, counted in the thread's steps and stopped with the thread.
func guardedText(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var size int64
	for _, a := range args {
		size += ReprSize(a, MaxText)
		if size > MaxText {
			return nil, textTooLong(b.Name())
		}
	}
	name := b.Name()
	if name == "print" {
		sep := " "
		if err := starlark.UnpackArgs("print", nil, kwargs, "sep?", &sep); err != nil {
			return nil, err
		}
		var buf strings.Builder
		for i, v := range args {
			if i > 0 {
				buf.WriteString(sep)
			}
			if x, ok := v.(starlark.Bytes); ok {
				buf.WriteString(string(x))
				continue
			}
			if err := writeChecked(th, &buf, v, true, name); err != nil {
				return nil, err
			}
		}
		if th.Print != nil {
			th.Print(th, buf.String())
		} else {
			fmt.Fprintln(os.Stderr, buf.String())
		}
		return starlark.None, nil
	}
	if len(args) != 1 || len(kwargs) > 0 {
		return starlark.Call(th, starlark.Universe[name], args, kwargs) // the usual error
	}
	switch x := args[0].(type) {
	case starlark.Bytes:
		return starlark.Call(th, starlark.Universe[name], args, kwargs)
	case starlark.String:
		if name == "str" {
			return x, nil
		}
	}
	var buf strings.Builder
	if err := writeChecked(th, &buf, args[0], name == "str", name); err != nil {
		return nil, err
	}
	return starlark.String(buf.String()), nil
}

// writeChecked writes v's text for fn, at most MaxText long, counting the
// thread's steps.
func writeChecked(th *starlark.Thread, b *strings.Builder, v starlark.Value, str bool, fn string) error {
	cut, err := WriteText(b, v, str, TextOptions{MaxLen: MaxText, Check: ThreadCheck(th)})
	if err != nil {
		return err
	}
	if cut {
		return textTooLong(fn)
	}
	return nil
}

func textTooLong(fn string) error {
	return fmt.Errorf("%s: the text would be more than %d characters long; print a part (e.g. x[:100]) or a summary (len(x))", fn, MaxText)
}

// shownText stands for a value in the arguments of % and format: its text,
// written beforehand by WriteText, with the value's type for messages.
type shownText struct {
	text, typ string
}

func (s shownText) String() string        { return s.text }
func (s shownText) Type() string          { return s.typ }
func (s shownText) Freeze()               {}
func (s shownText) Truth() starlark.Bool  { return true }
func (s shownText) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: %s", s.typ) }

// shownArgs is the right operand of % with its containers replaced by
// their text (shownArg): a tuple's elements, a dict's values (for
// %(key)s), or the operand itself.
func shownArgs(th *starlark.Thread, y starlark.Value) (starlark.Value, error) {
	switch y := y.(type) {
	case starlark.Tuple:
		out := make(starlark.Tuple, len(y))
		for i, a := range y {
			v, err := shownArg(th, a, "%")
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *starlark.Dict:
		out := starlark.NewDict(y.Len())
		for _, kv := range y.Items() {
			v, err := shownArg(th, kv[1], "%")
			if err != nil {
				return nil, err
			}
			if err := out.SetKey(kv[0], v); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return shownArg(th, y, "%")
}

// shownArg replaces a container by its text, written by WriteText, for
// % and format (which write it as repr does with Starlark's quadratic,
// uninterruptible writer otherwise); other values are kept.
func shownArg(th *starlark.Thread, v starlark.Value, fn string) (starlark.Value, error) {
	switch v.(type) {
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set:
	default:
		return v, nil
	}
	var b strings.Builder
	if err := writeChecked(th, &b, v, false, fn); err != nil {
		return nil, err
	}
	return shownText{text: b.String(), typ: v.Type()}, nil
}

// guardedInt is int(x, base): reading a decimal string takes time that
// grows faster than its length, so long ones are refused.
func guardedInt(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		if s, ok := args[0].(starlark.String); ok && int64(len(s))*3 > maxIntBits {
			return nil, intTooLarge("int()", len(s)*10/3)
		}
	}
	return starlark.Call(th, starlark.Universe["int"], args, kwargs)
}

// guardedGetattr is getattr, which returns the methods of guardedMethods
// checked as x.name does.
func guardedGetattr(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := starlark.Call(th, starlark.Universe["getattr"], args, kwargs)
	if err != nil || len(args) < 2 {
		return v, err
	}
	if name, ok := args[1].(starlark.String); ok && guardedMethods[string(name)] {
		if _, ok := v.(*starlark.Builtin); ok {
			return guardAttr(th, nil, starlark.Tuple{args[0], name}, nil)
		}
	}
	return v, nil
}
