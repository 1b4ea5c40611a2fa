package sandbox

import (
	"fmt"

	"go.starlark.net/starlark"
)

// Starlark's dicts and sets are hash tables of buckets of eight entries
// (a hash, a key, a value and two links: 56 bytes each) and a link to an
// overflow bucket. A table of b buckets (a power of two) doubles when an
// insertion finds 8 or more entries and at least 6.5·b: the new table and
// the old one are both alive while the entries are moved, and the new
// one is written all over. A dict of 1 703 936 keys thus goes from a
// table of 114 MiB to one of 228 MiB in one insertion.
const bucketBytes = 8*56 + 8

// hashBuckets is the number of buckets of a table grown one insertion at
// a time to n entries.
func hashBuckets(n int) int64 {
	b := int64(1)
	for m := int64(n) - 1; m >= 8 && float64(m) >= 6.5*float64(b); {
		b <<= 1
	}
	return b
}

// hashGrowth returns the bytes of the new table that the insertion of a
// new key into a dict or set of n entries allocates, 0 when that
// insertion does not make the table grow. Tables grow at n = 8 (from one
// bucket) and n = 6.5·2^k (from 2^k buckets), whatever size they were
// made with, as their bucket counts are powers of two.
func hashGrowth(n int) int64 {
	if n == 8 {
		return 2 * bucketBytes
	}
	if n < 13 || n%13 != 0 {
		return 0
	}
	b := int64(n / 13) // 2^(k-1)
	if b&(b-1) != 0 {
		return 0
	}
	return 4 * b * bucketBytes // 2^(k+1) buckets
}

// hashNeed returns what a dict or set of from entries allocates to grow
// to to entries (from 0: a new one): the last table, and the one before it
// when that one is new too, both alive as the last grows.
func hashNeed(from, to int) int64 {
	if to <= from {
		return 0
	}
	last, before := hashBuckets(to), hashBuckets(from)
	if from == 0 {
		before = 0
	}
	if last <= before {
		return 0
	}
	need := last * bucketBytes
	if last/2 > before {
		need += last / 2 * bucketBytes
	}
	return need
}

// hashLen returns the entries of a dict or a set.
func hashLen(v starlark.Value) (int, bool) {
	switch v := v.(type) {
	case *starlark.Dict:
		return v.Len(), true
	case *starlark.Set:
		return v.Len(), true
	}
	return 0, false
}

// checkListGrowth checks, for a list of n elements about to get one more,
// that its next reallocation (a quarter more, the old array alive while it
// is copied) fits: every 4096 elements past 65 536, which the copies of
// the few thousand elements between two checks cannot escape.
func checkListGrowth(th *starlark.Thread, n int) error {
	if n < 1<<16 || n%4096 != 0 {
		return nil
	}
	return NeedMemory(th, fmt.Sprintf("growing a list past %d items", n), int64(n)*16*5/4)
}

// guardSetItem is x[i] = y, called as ·[](y, x, i): a new key that makes a
// dict's table grow is checked first.
func guardSetItem(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	y, x, i := args[0], args[1], args[2]
	if d, ok := x.(*starlark.Dict); ok {
		if g := hashGrowth(d.Len()); g >= 1<<20 {
			if _, found, err := d.Get(i); err == nil && !found {
				if err := NeedMemory(th, fmt.Sprintf("growing a dict past %d items", d.Len()), g); err != nil {
					return nil, err
				}
			}
		}
	}
	return starlark.None, setItem(x, i, y)
}

// setItem is x[i] = y as the interpreter does it, with its errors.
func setItem(x, i, y starlark.Value) error {
	switch x := x.(type) {
	case starlark.HasSetKey:
		return x.SetKey(i, y)
	case starlark.HasSetIndex:
		n := x.Len()
		k, err := starlark.AsInt32(i)
		if err != nil {
			return err
		}
		orig := k
		if k < 0 {
			k += n
		}
		if k < 0 || k >= n {
			if n == 0 {
				return fmt.Errorf("index %d out of range: empty %s", orig, x.Type())
			}
			return fmt.Errorf("%s index %d out of range [%d:%d]", x.Type(), orig, -n, n-1)
		}
		return x.SetIndex(k, y)
	}
	return fmt.Errorf("%s value does not support item assignment", x.Type())
}

// compCount counts the elements of a comprehension being built, [e for
// ...] or {k: v for ...}, and keeps the refusal that stopped it: its
// iterables end early, and ·comp raises the refusal. A dict's count
// bounds its keys (some may repeat), so its growth is checked when the
// count reaches a size at which the table would double.
type compCount struct {
	dict bool
	n    int
	err  error
}

func (c *compCount) check(th *starlark.Thread) error {
	if c.dict {
		if g := hashGrowth(c.n); g >= 1<<20 {
			return NeedMemory(th, fmt.Sprintf("growing a dict past %d items", c.n), g)
		}
		return nil
	}
	return checkListGrowth(th, c.n)
}

// compFor is the iterable of a comprehension's first for clause,
// ·for(x, kind, counts): it starts the comprehension's count (kind is
// "list" or "dict"), and counts the elements when counts is "count".
func compFor(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	st := StateOf(th)
	c := &compCount{dict: args[1] == starlark.String("dict")}
	st.comps = append(st.comps, c)
	return counting(th, args[0], c, args[2] == starlark.String("count")), nil
}

// compIn is the iterable of a comprehension's other for clauses,
// ·in(x, counts).
func compIn(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	st := StateOf(th)
	if len(st.comps) == 0 {
		return args[0], nil
	}
	return counting(th, args[0], st.comps[len(st.comps)-1], args[1] == starlark.String("count")), nil
}

// compEnd ends the count of the innermost comprehension, ·comp(value):
// its value, or the refusal that stopped it.
func compEnd(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	st := StateOf(th)
	if n := len(st.comps); n > 0 {
		c := st.comps[n-1]
		st.comps[n-1] = nil
		st.comps = st.comps[:n-1]
		if c.err != nil {
			return nil, c.err
		}
	}
	if err := Tick(th, 0); err != nil {
		return nil, err // a stopped thread drops what the iteration left
	}
	return args[0], nil
}

// counting wraps an iterable for a comprehension's count; what is not
// iterable is left for the interpreter to refuse.
func counting(th *starlark.Thread, x starlark.Value, c *compCount, counts bool) starlark.Value {
	it, ok := x.(starlark.Iterable)
	if !ok {
		return x
	}
	return &countingIterable{Iterable: it, th: th, c: c, counts: counts}
}

// countingIterable is the iterable of a comprehension's for clause: its
// iterator counts the thread's steps, ends as soon as the thread is
// stopped or the comprehension refused, and (counts) counts the elements
// and checks their growth.
type countingIterable struct {
	starlark.Iterable
	th     *starlark.Thread
	c      *compCount
	counts bool
}

func (t *countingIterable) Iterate() starlark.Iterator {
	return &countingIterator{Iterator: t.Iterable.Iterate(), t: t}
}

type countingIterator struct {
	starlark.Iterator
	t *countingIterable
	n int
}

func (it *countingIterator) Next(p *starlark.Value) bool {
	t := it.t
	if t.c.err != nil || !it.Iterator.Next(p) {
		return false
	}
	it.n++
	if it.n%chunk == 0 && Tick(t.th, chunk) != nil {
		return false
	}
	if t.counts {
		if err := t.c.check(t.th); err != nil {
			t.c.err = err
			return false
		}
		t.c.n++
	}
	return true
}
