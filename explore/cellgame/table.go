package cellgame

import (
	"fmt"
	"math/bits"

	"github.com/nimbook/nimbook/explore/budget"
)

// The search's table keeps, per shape, what is known of the positions
// shape + *heap: either the shape's value v (then shape + *heap is P
// exactly when heap = v), or the heaps below tHeaps for which it is N, one
// bit each. A P outcome is a value, so one entry stands for every heap of
// its shape; Go maps keyed by (shape, heap) took about 95 bytes a heap.
//
// An entry is a key and an info word, in open-addressing tables (linear
// probing) split into tShards shards so that a shard's growth is a small
// step of memory. Shapes whose box has at most 64 cells — every shape of a
// board of at most 64 cells, 7 × 7 and 6 × 8 among them — are keyed by
// their cells alone, one word (16 bytes an entry), their box's height and
// width in the info word's tag; larger shapes by the solver's three-word
// key (32 bytes an entry). N outcomes at heaps of tHeaps or more go to a
// map beside (rare: values of Cram and Node Kayles components are small).
//
// The info word: bit 63 marks a used slot; bits 54–62 are the tag (h−1,
// w−1 of a one-word key; 0 for a three-word key); bit 53 says the value is
// known, then in bits 0–15; else bits 0–47 are the N heaps. Bits 48–52 are
// the entry's work, log2 of the nodes its searches took, which replacement
// keeps the costliest entries by.
const (
	tShards    = 256
	tMinSlots  = 16
	infoUsed   = 1 << 63
	tagShift   = 54
	tagMask    = 0x1FF << tagShift
	infoValue  = 1 << 53
	workShift  = 48
	workMask   = 0x1F << workShift
	tHeaps     = 48
	heapsMask  = 1<<tHeaps - 1
	tVictims   = 8   // slots looked at for the entry to replace
	tOverBytes = 100 // an entry of the heap overflow map
)

type slot[K comparable] struct {
	k    K
	info uint64
}

type tShard[K comparable] struct {
	s []slot[K]
	n int
}

// tBudget is what the tables may hold, shared by both key sizes.
type tBudget struct {
	bytes, maxBytes int64 // slices allocated, and their bound (0: none)
	n, maxN         int64 // entries, and their bound (0: none)
	replace         bool
	values          int64 // entries whose value is known
	replaced        int64 // entries overwritten by Replace
	dropped         int64 // outcomes Replace found no slot for
}

// full is the error of a table that may grow no more.
func (b *tBudget) full() error {
	if b.maxN > 0 && b.n >= b.maxN {
		return fmt.Errorf("%w: %d search entries, the bound", ErrMemoFull, b.maxN)
	}
	return fmt.Errorf("%w: search table at %s, the bound (%d entries)", ErrMemoFull, budget.FormatSize(b.maxBytes), b.n)
}

// slot returns k's entry, adding it (info of the used bit and tag alone)
// when it is new. When the table may not grow, it replaces the entry of
// least work among the first of k's probe sequence (with replace) or
// stops with ErrMemoFull; nil when it can do neither (replace, and k's
// probe sequence starts on a free slot the load does not allow to take):
// the outcome is then not kept, which a cache may do.
func (t *tShard[K]) slot(k K, tag, h uint64, b *tBudget) (*slot[K], error) {
	if e := t.find(k, tag, h); e != nil {
		return e, nil
	}
	size := int64(len(t.s)) * int64(bytesOf[K]())
	roomN := b.maxN == 0 || b.n < b.maxN
	switch {
	case len(t.s) == 0 || 4*(t.n+1) > 3*len(t.s):
		grow := 2 * size
		if grow == 0 {
			grow = tMinSlots * int64(bytesOf[K]())
		}
		if roomN && (b.maxBytes == 0 || b.bytes+grow <= b.maxBytes) {
			t.grow(b)
			break
		}
		if len(t.s) > 0 && roomN && 16*(t.n+1) <= 15*len(t.s) {
			break // past 3/4 full, up to 15/16, when it may not grow
		}
		if !b.replace {
			return nil, b.full()
		}
		return t.victim(k, tag, h, b), nil
	case !roomN:
		if !b.replace {
			return nil, b.full()
		}
		return t.victim(k, tag, h, b), nil
	}
	mask := uint64(len(t.s) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if e := &t.s[i]; e.info == 0 {
			*e = slot[K]{k, infoUsed | tag}
			t.n++
			b.n++
			return e, nil
		}
	}
}

// find returns k's entry, or nil.
func (t *tShard[K]) find(k K, tag, h uint64) *slot[K] {
	if len(t.s) == 0 {
		return nil
	}
	mask := uint64(len(t.s) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &t.s[i]
		if e.info == 0 {
			return nil
		}
		if e.k == k && e.info&tagMask == tag {
			return e
		}
	}
}

// victim gives k the slot of least work among the first tVictims of its
// probe sequence before a free one: an entry overwritten, not removed, so
// every other key's probe sequence stays whole. nil when the sequence
// starts on a free slot.
func (t *tShard[K]) victim(k K, tag, h uint64, b *tBudget) *slot[K] {
	if len(t.s) == 0 {
		b.dropped++
		return nil
	}
	mask := uint64(len(t.s) - 1)
	var best *slot[K]
	for j, i := 0, h&mask; j < tVictims; j, i = j+1, (i+1)&mask {
		e := &t.s[i]
		if e.info == 0 {
			break
		}
		if best == nil || e.info&workMask < best.info&workMask {
			best = e
		}
	}
	if best == nil {
		b.dropped++
		return nil
	}
	if best.info&infoValue != 0 {
		b.values--
	}
	b.replaced++
	*best = slot[K]{k, infoUsed | tag}
	return best
}

func (t *tShard[K]) grow(b *tBudget) {
	old := t.s
	n := 2 * len(old)
	if n == 0 {
		n = tMinSlots
	}
	t.s = make([]slot[K], n)
	b.bytes += int64(n-len(old)) * int64(bytesOf[K]())
	mask := uint64(n - 1)
	for _, e := range old {
		if e.info == 0 {
			continue
		}
		for i := hashOf(e.k, e.info&tagMask) & mask; ; i = (i + 1) & mask {
			if t.s[i].info == 0 {
				t.s[i] = e
				break
			}
		}
	}
}

// bytesOf is the size of a slot of key K.
func bytesOf[K comparable]() int {
	var k K
	switch any(k).(type) {
	case uint64:
		return 16
	}
	return 32
}

// hashOf mixes a key and its tag; its top byte picks the shard, its low
// bits the slot.
func hashOf[K comparable](k K, tag uint64) uint64 {
	switch k := any(k).(type) {
	case uint64:
		h := (k ^ tag) * 0x9E3779B97F4A7C15
		return h ^ h>>31
	case key:
		return hashKey(k)
	}
	panic("cellgame: key type")
}

type overKey struct {
	k    key
	heap uint16
}

// table is the search's table of shapes.
type table struct {
	one   [tShards]tShard[uint64]
	three [tShards]tShard[key]
	over  map[overKey]struct{} // N outcomes at heaps of tHeaps or more
	b     tBudget
}

// oneKey is a shape's one-word key and its tag, when its box has at most
// 64 cells.
func oneKey(c *shape) (uint64, uint64, bool) {
	if c.h*c.w > 64 {
		return 0, 0, false
	}
	return c.key[0], uint64(c.h-1|(c.w-1)<<3) << tagShift, true
}

// get returns the info of c's entry, 0 when it has none.
func (t *table) get(c *shape) uint64 {
	if k, tag, ok := oneKey(c); ok {
		h := hashOf(k, tag)
		if e := t.one[h>>56].find(k, tag, h); e != nil {
			return e.info
		}
		return 0
	}
	h := hashKey(c.key)
	if e := t.three[h>>56].find(c.key, 0, h); e != nil {
		return e.info
	}
	return 0
}

// slot returns c's info word, added when new (see tShard.slot); nil when
// the outcome is not kept.
func (t *table) slot(c *shape) (*uint64, error) {
	if k, tag, ok := oneKey(c); ok {
		h := hashOf(k, tag)
		e, err := t.one[h>>56].slot(k, tag, h, &t.b)
		if e == nil {
			return nil, err
		}
		return &e.info, nil
	}
	h := hashKey(c.key)
	e, err := t.three[h>>56].slot(c.key, 0, h, &t.b)
	if e == nil {
		return nil, err
	}
	return &e.info, nil
}

// value is c's value when the table has it.
func (t *table) value(c *shape) (uint16, bool) {
	info := t.get(c)
	return uint16(info), info&infoValue != 0
}

// outcome reports whether c + *heap is P, when the table knows.
func (t *table) outcome(c *shape, heap uint16) (p, known bool) {
	info := t.get(c)
	switch {
	case info&infoValue != 0:
		return uint16(info) == heap, true
	case heap < tHeaps:
		return false, info>>heap&1 == 1
	}
	_, ok := t.over[overKey{c.key, heap}]
	return false, ok
}

// setValue keeps c's value, found by a search of nodes nodes.
func (t *table) setValue(c *shape, v uint16, nodes int64) error {
	p, err := t.slot(c)
	if p == nil {
		return err
	}
	if *p&infoValue == 0 {
		t.b.values++
	}
	*p = *p&(infoUsed|tagMask) | withWork(*p, nodes) | infoValue | uint64(v)
	return nil
}

// setN keeps that c + *heap is N, found by a search of nodes nodes.
func (t *table) setN(c *shape, heap uint16, nodes int64) error {
	if heap >= tHeaps {
		if t.b.maxN > 0 && t.b.n >= t.b.maxN || t.b.maxBytes > 0 && t.b.bytes+tOverBytes > t.b.maxBytes {
			if t.b.replace {
				t.b.dropped++
				return nil
			}
			return t.b.full()
		}
		if t.over == nil {
			t.over = make(map[overKey]struct{})
		}
		t.over[overKey{c.key, heap}] = struct{}{}
		t.b.n++
		t.b.bytes += tOverBytes
		return nil
	}
	p, err := t.slot(c)
	if p == nil {
		return err
	}
	if *p&infoValue != 0 {
		return nil
	}
	*p = *p&^workMask | withWork(*p, nodes) | 1<<heap
	return nil
}

// withWork is the work bits of info raised to log2 of nodes.
func withWork(info uint64, nodes int64) uint64 {
	w := uint64(bits.Len64(uint64(nodes)))
	if w > 31 {
		w = 31
	}
	if old := info & workMask >> workShift; old > w {
		w = old
	}
	return w << workShift
}
