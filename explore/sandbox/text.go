package sandbox

import (
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Starlark writes a value's text (str, repr, print, %, format, and every
// String method) recursively, and checks at each list and dict whether it
// is already being written by scanning the chain of its enclosing ones:
// the text of a list nested 400 000 deep takes minutes (the depth squared)
// in one step of the interpreter, which neither an interrupt nor the step
// budget reaches. WriteText writes the same text in time linear in its
// length, without recursion, counting what it writes against the thread's
// budget; Text bounds its depth and length for display.

// TextOptions bound the text of a value.
type TextOptions struct {
	// MaxDepth is the deepest nesting of containers (lists, tuples, dicts,
	// sets) written out; a non-empty container below it shows as […].
	// 0: no limit.
	MaxDepth int
	// MaxLen is the length of the text, about, after which writing stops
	// with "…" and the open containers are closed. 0: no limit.
	MaxLen int
	// Check, when not nil, is called with the number of values written
	// since its last call, every textCheckEvery values; an error stops the
	// writing and is returned.
	Check func(n int) error
}

// textCheckEvery is how many values the writer writes between two calls of
// TextOptions.Check.
const textCheckEvery = 1024

// ThreadCheck is a TextOptions.Check that counts the values written as
// steps of th and stops when th must stop (Tick).
func ThreadCheck(th *starlark.Thread) func(int) error {
	return func(n int) error { return Tick(th, n) }
}

// WriteText appends to b the text of v as repr writes it (Starlark's
// syntax: a string is quoted), or as str does when str is set (a string
// is itself). truncated tells that MaxLen cut the text (MaxDepth shows
// as […] where it applies).
func WriteText(b *strings.Builder, v starlark.Value, str bool, opts TextOptions) (truncated bool, err error) {
	if s, ok := v.(starlark.String); ok && str {
		if opts.MaxLen > 0 && len(s) > opts.MaxLen {
			b.WriteString(cutUTF8(string(s), opts.MaxLen))
			b.WriteString("…")
			return true, nil
		}
		b.WriteString(string(s))
		return false, nil
	}
	w := &textWriter{b: b, opts: opts, start: b.Len()}
	defer w.done()
	err = w.write(v)
	return w.truncated, err
}

// Text is the text of v as repr writes it, within opts.
func Text(v starlark.Value, opts TextOptions) (text string, truncated bool, err error) {
	var b strings.Builder
	truncated, err = WriteText(&b, v, false, opts)
	return b.String(), truncated, err
}

// textFrame is a container being written.
type textFrame struct {
	c    starlark.Value    // the list, tuple, dict or set
	iter starlark.Iterator // the keys of a dict, the elements of a set
	key  starlark.Value    // a dict's key whose value comes next
	i    int               // elements written
}

type textWriter struct {
	b         *strings.Builder
	opts      TextOptions
	start     int // b's length before the value
	stack     []textFrame
	open      map[starlark.Value]bool // lists and dicts on the stack
	count     int                     // values since the last check
	scratch   starlark.Value          // where iterators write (a local would escape)
	truncated bool
}

// done releases the iterators still open (a stop or a cut left them).
func (w *textWriter) done() {
	for i := range w.stack {
		if it := w.stack[i].iter; it != nil {
			it.Done()
		}
	}
	w.stack = nil
}

func (w *textWriter) full() bool {
	return w.opts.MaxLen > 0 && w.b.Len()-w.start >= w.opts.MaxLen
}

func (w *textWriter) write(v starlark.Value) error {
	if err := w.value(v); err != nil {
		return err
	}
	for len(w.stack) > 0 {
		f := &w.stack[len(w.stack)-1]
		next, ok := w.next(f)
		if ok && w.full() {
			w.cut()
			return nil
		}
		if !ok {
			w.b.WriteString(closer(f.c))
			if f.iter != nil {
				f.iter.Done()
			}
			switch f.c.(type) {
			case *starlark.List, *starlark.Dict:
				delete(w.open, f.c)
			}
			w.stack = w.stack[:len(w.stack)-1]
			continue
		}
		if err := w.value(next); err != nil {
			return err
		}
	}
	return nil
}

// closer is the text that closes a container.
func closer(c starlark.Value) string {
	switch c.(type) {
	case *starlark.List:
		return "]"
	case starlark.Tuple:
		return ")"
	case *starlark.Dict:
		return "}"
	}
	return "])" // a set
}

// cut ends a text that reached MaxLen: "…", then the open containers
// closed.
func (w *textWriter) cut() {
	w.truncated = true
	w.b.WriteString("…")
	for i := len(w.stack) - 1; i >= 0; i-- {
		w.b.WriteString(closer(w.stack[i].c))
	}
	w.done()
}

// next writes the separator before the next element of f and returns the
// element; false when f has no more.
func (w *textWriter) next(f *textFrame) (starlark.Value, bool) {
	var x starlark.Value
	switch c := f.c.(type) {
	case *starlark.List:
		if f.i >= c.Len() {
			return nil, false
		}
		x = c.Index(f.i)
	case starlark.Tuple:
		if f.i >= len(c) {
			if len(c) == 1 {
				w.b.WriteByte(',')
			}
			return nil, false
		}
		x = c[f.i]
	case *starlark.Dict:
		if f.key != nil {
			k := f.key
			f.key = nil
			w.b.WriteString(": ")
			v, _, _ := c.Get(k)
			return v, true
		}
		if !f.iter.Next(&w.scratch) {
			return nil, false
		}
		x = w.scratch
		f.key = x
	default: // a set
		if !f.iter.Next(&w.scratch) {
			return nil, false
		}
		x = w.scratch
	}
	if f.i > 0 {
		w.b.WriteString(", ")
	}
	f.i++
	return x, true
}

// value writes a scalar whole, or the opening of a container (pushed on
// the stack).
func (w *textWriter) value(v starlark.Value) error {
	w.count++
	if w.count >= textCheckEvery && w.opts.Check != nil {
		n := w.count
		w.count = 0
		if err := w.opts.Check(n); err != nil {
			return err
		}
	}
	deep := w.opts.MaxDepth > 0 && len(w.stack) >= w.opts.MaxDepth
	switch x := v.(type) {
	case nil:
		w.b.WriteString("<nil>")
	case starlark.String:
		w.quote(string(x))
	case *starlark.List:
		switch {
		case w.open[x]:
			w.b.WriteString("[...]") // the list contains itself
		case deep && x.Len() > 0:
			w.b.WriteString("[…]")
		default:
			w.b.WriteByte('[')
			w.push(textFrame{c: x})
		}
	case starlark.Tuple:
		if deep && len(x) > 0 {
			w.b.WriteString("(…)")
			break
		}
		w.b.WriteByte('(')
		w.push(textFrame{c: x})
	case *starlark.Dict:
		switch {
		case w.open[x]:
			w.b.WriteString("{...}")
		case deep && x.Len() > 0:
			w.b.WriteString("{…}")
		default:
			w.b.WriteByte('{')
			w.push(textFrame{c: x, iter: x.Iterate()})
		}
	case *starlark.Set:
		if deep && x.Len() > 0 {
			w.b.WriteString("set([…])")
			break
		}
		w.b.WriteString("set([")
		w.push(textFrame{c: x, iter: x.Iterate()})
	case starlark.Bytes:
		if w.opts.MaxLen > 0 && len(x)+3 > w.left() {
			q := starlark.Bytes(cutUTF8(string(x), max(w.left()-2, 0))).String()
			w.b.WriteString(q[:len(q)-1])
			w.cut()
			break
		}
		w.b.WriteString(x.String())
	default:
		t := v.String()
		if w.opts.MaxLen > 0 && len(t) > w.left() {
			w.b.WriteString(cutUTF8(t, max(w.left(), 0)))
			w.cut()
			break
		}
		w.b.WriteString(t)
	}
	return nil
}

// left is what MaxLen leaves of the text.
func (w *textWriter) left() int { return w.opts.MaxLen - (w.b.Len() - w.start) }

func (w *textWriter) push(f textFrame) {
	switch f.c.(type) {
	case *starlark.List, *starlark.Dict:
		if w.open == nil {
			w.open = map[starlark.Value]bool{}
		}
		w.open[f.c] = true
	}
	w.stack = append(w.stack, f)
}

// quote writes a string as Starlark quotes it; past MaxLen, only its
// beginning, without the closing quote (the cut follows).
func (w *textWriter) quote(s string) {
	if w.opts.MaxLen > 0 {
		if left := w.left(); len(s)+2 > left {
			q := syntax.Quote(cutUTF8(s, max(left-1, 0)), false)
			w.b.WriteString(q[:len(q)-1])
			w.cut()
			return
		}
	}
	w.b.WriteString(syntax.Quote(s, false))
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a character.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
