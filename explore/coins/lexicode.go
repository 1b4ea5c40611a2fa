package coins

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"strconv"
)

// The values of AtMost r (r ≥ 2) form the lexicode of minimum distance
// r + 1: f(n) is the least value that is not the nim-sum of at most r − 1
// earlier values (MATH.md). With C_j the set of nim-sums of at most j
// distinct earlier values (0 included), f(n) = mex C_{r−1}, and appending
// a value v updates C_j ∪= C_{j−1} ⊕ v, j downwards.
//
// Storing every C_j as a bitset costs r − 2 passes over 2^k bits per
// value. The lexicode keeps less:
//   - C_{r−1} = C_1 ⊕ C_{r−2} (a nim-sum of at most r − 1 values is one of
//     them plus at most r − 2 others; a value taken twice cancels), so
//     only C_{r−2} is kept and mex C_{r−1} is found lazily, 64 candidates
//     to a word, OR-ing C_{r−2} ⊕ x over 0 and the values x, newest first,
//     until every candidate of the word is covered. The newest values
//     carry the top bit, so they map the candidates onto the dense lower
//     half of C_{r−2}: a word without a new value is covered after a few
//     of them, a new value is certified by all.
//   - C_1 (the values) and, when there are few values (r ≥ 6), C_2 (their
//     pairwise nim-sums) are lists; the next set, a bitset, gains one bit
//     per element of the list.
//   - The sets above, up to C_{r−2}, are bitsets, updated by word-parallel
//     passes.
//
// The span of the values is [0, 2^k) (it grows only when the mex is 2^k
// itself), so the bitsets hold 2^k bits, doubled as the values grow.

// lexShape returns, for AtMost r, the sets kept as lists, C_0 … C_lists,
// and the largest set kept, C_top = C_{r−2} (C_{r−1} for r = 2, whose
// lazy step only adds 0). At most 3 has about 2^(k−1) values below 2^k, too
// many to list; at most 4 and 5 have about 2^(k/2), too many to list
// their pairs.
func lexShape(r int) (lists, top int) {
	switch {
	case r == 2:
		return 0, 1
	case r == 3:
		return 0, 2
	case r <= 5:
		return 1, r - 2
	}
	return 2, r - 2
}

// lexicode computes the values of AtMost r in order.
type lexicode struct {
	r          int
	lists, top int
	probeVals  bool // C_{r−1} = C_1 ⊕ C_top; else C_{r−1} = C_top
	lim        Limits
	span       uint64     // bits per bitset, a power of two ≥ 64
	layers     [][]uint64 // layers[j] = C_j for lists < j ≤ top, with 0 ∈ C_j
	vals       []uint64   // the values so far (lists ≥ 1)
	pairs      []uint64   // nim-sums of two distinct values (lists = 2)
	pos        uint64     // least candidate for the next value
	acc        []uint64   // scratch: covered candidates of a chunk
	live       []int      // scratch: words of the chunk not yet covered
	count      int        // values added
}

// lexChunk is how many words of candidates next looks at together.
const lexChunk = 256

// newLexicode starts the values of AtMost r. When the values are known to
// stay below maxSpan (a power of two, 0 if unknown), the bitsets are
// allocated at that size once: growing them then only reslices, and no
// half-size copies are left for the garbage collector.
func newLexicode(r int, lim Limits, maxSpan uint64) *lexicode {
	lists, top := lexShape(r)
	l := &lexicode{r: r, lists: lists, top: top, probeVals: top == r-2, lim: lim, span: 64}
	l.layers = make([][]uint64, top+1)
	for j := lists + 1; j <= top; j++ {
		l.layers[j] = make([]uint64, 1, max(1, maxSpan/64))
		l.layers[j][0] = 1 // the empty sum
	}
	l.acc = make([]uint64, lexChunk)
	l.live = make([]int, 0, lexChunk)
	return l
}

// bitsets returns the number of bitsets the lexicode keeps.
func (l *lexicode) bitsets() int { return l.top - l.lists }

// lexMemory estimates the bytes the lexicode needs for every value below
// 2^k: its bitsets of 2^k bits, allocated once, and its lists for the most
// values a code of redundancy k and minimum distance r + 1 allows
// (sphere-packing bound), plus the scratch.
func lexMemory(r, k int) int64 {
	lists, top := lexShape(r)
	words := int64(1)
	if k > 6 {
		words = int64(1) << (k - 6)
	}
	need := int64(top-lists) * 8 * words
	n := lexMaxCount(r, k)
	var elems int64
	if lists >= 1 {
		elems += n
	}
	if lists == 2 {
		elems += n * (n - 1) / 2
	}
	return need + 8*elems + 16*lexChunk
}

// lexMaxCount bounds the number of values of AtMost r below 2^k: the
// P-positions of the first n coins form a code of length n, redundancy at
// most k and minimum distance r + 1, so V(n, ⌊r/2⌋) ≤ 2^k.
func lexMaxCount(r, k int) int64 {
	t := r / 2
	limit := int64(1) << k
	if t == 1 {
		return limit - 1
	}
	lo, hi := int64(0), min(limit, 1<<40) // V(lo, t) ≤ 2^k < V(hi, t)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if binomSum(int(mid), 0, t, limit) <= limit {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// add appends the value v: every set gains its sums with v.
func (l *lexicode) add(v uint64) error {
	if v >= l.span {
		if err := l.grow(); err != nil {
			return err
		}
	}
	for j := l.top; j >= l.lists+2; j-- {
		if len(l.layers[j]) >= 1<<16 {
			if err := l.lim.stopped(); err != nil {
				return err
			}
		}
		xorInto(l.layers[j], l.layers[j-1], v)
	}
	dst := l.layers[l.lists+1]
	setXor(dst, 0, v)
	if l.lists >= 1 {
		for _, x := range l.vals {
			setXor(dst, x, v)
		}
	}
	if l.lists >= 2 {
		for _, x := range l.pairs {
			setXor(dst, x, v)
		}
		for _, x := range l.vals {
			l.pairs = append(l.pairs, x^v)
		}
	}
	if l.lists >= 1 {
		l.vals = append(l.vals, v)
	}
	l.pos = v + 1
	l.count++
	return nil
}

func setXor(bs []uint64, x, v uint64) {
	y := x ^ v
	bs[y>>6] |= 1 << (y & 63)
}

// grow doubles the span of the bitsets, refusing it beyond MaxMemory.
func (l *lexicode) grow() error {
	if l.span >= 1<<62 {
		return fmt.Errorf("coins: at-most %d: values above 2^63 after %d coins: %w", l.r, l.count, ErrLimit)
	}
	words := l.span / 32 // after doubling
	if uint64(cap(l.layers[l.top])) >= words {
		l.span *= 2
		for j := l.lists + 1; j <= l.top; j++ {
			l.layers[j] = l.layers[j][:words] // zero beyond the old length
		}
		return nil
	}
	// The new bitsets, and the old ones until the collector frees them.
	need := int64(l.bitsets())*12*int64(words) + 8*int64(len(l.vals)+len(l.pairs))
	if err := l.lim.checkMemory(fmt.Sprintf("at-most %d after %d coins (values of %d bits)", l.r, l.count, bits.Len64(l.span)), need); err != nil {
		return err
	}
	l.span *= 2
	for j := l.lists + 1; j <= l.top; j++ {
		if l.span > 64 {
			grown := make([]uint64, words)
			copy(grown, l.layers[j])
			l.layers[j] = grown
		}
	}
	return nil
}

// next returns the least value at or above pos that is not in
// C_{r−1}: the next value, or span when every candidate below it is
// covered (every nim-sum is below span, so span itself is never one).
func (l *lexicode) next() (uint64, error) {
	top := l.layers[l.top]
	words := l.span / 64
	// Chunks are aligned so that word q0+i of the chunk, XOR-ed with x's
	// word offset, is (q0 ^ offset) + i.
	for q0 := l.pos >> 6 &^ (lexChunk - 1); q0 < words; q0 += lexChunk {
		if err := l.lim.stopped(); err != nil {
			return 0, err
		}
		n := int(min(lexChunk, words-q0))
		acc := l.acc[:n]
		clear(acc)
		live := l.live[:0]
		for i := range n {
			switch q := q0 + uint64(i); {
			case q < l.pos>>6:
				acc[i] = ^uint64(0) // below pos: not candidates
				continue
			case q == l.pos>>6:
				acc[i] = 1<<(l.pos&63) - 1
			}
			live = append(live, i)
		}
		live = l.cover(acc, live, top, q0, zero[:])
		if l.probeVals {
			live = l.cover(acc, live, top, q0, l.vals)
		}
		l.live = live
		if err := l.lim.stopped(); err != nil { // cover gives up when stopped
			return 0, err
		}
		if len(live) > 0 {
			i := live[0] // live stays in ascending order
			return (q0+uint64(i))*64 + uint64(bits.TrailingZeros64(^acc[i])), nil
		}
	}
	return l.span, nil
}

var zero = [1]uint64{0}

// cover ORs C_top ⊕ x into the live words of acc for each x of xs, newest
// first, and returns the words still not covered, in order.
func (l *lexicode) cover(acc []uint64, live []int, top []uint64, q0 uint64, xs []uint64) []int {
	for k := len(xs) - 1; k >= 0 && len(live) > 0; k-- {
		if k&0xfff == 0 && l.lim.Context != nil && l.lim.Context.Err() != nil {
			return live // next reports it
		}
		x := xs[k]
		hi, lo := q0^x>>6, x&63
		m := 0
		for _, i := range live {
			w := acc[i] | xorWord(top[uint64(i)^hi], lo)
			acc[i] = w
			if w != ^uint64(0) {
				live[m] = i
				m++
			}
		}
		live = live[:m]
	}
	return live
}

// run computes values until n of them (n ≥ 0) or the first at or above
// below (below > 0), calling emit with each.
func (l *lexicode) run(n int, below uint64, emit func(v uint64) error) error {
	label := fmt.Sprintf("at-most %d values", l.r)
	prog := l.lim.progress(label, n)
	if below > 0 {
		prog = l.lim.progress(label+" (by value)", int(min(below, 1<<62)))
	}
	for found := 0; n < 0 || found < n; {
		v, err := l.next()
		if err != nil {
			return err
		}
		if below > 0 && v >= below {
			break
		}
		if err := emit(v); err != nil {
			return err
		}
		found++
		if below > 0 {
			prog.Set(int64(v))
		} else {
			prog.Set(int64(found))
		}
		if found == n || (below > 0 && v+1 >= below) {
			break // no need to add the last value
		}
		if err := l.add(v); err != nil {
			return err
		}
	}
	return nil
}

// ValuesBelow calls emit with the value of a single head on each coin,
// from the first, as long as the values stay below limit, and returns how
// many there were. Only AtMost r ≥ 2 has finitely many (its values
// increase); the memory the computation needs, about (r − 1)/2 bitsets of
// limit bits, is checked against MaxMemory before it starts. Values are
// emitted as they are found, so a long sequence can be streamed.
func (g *Game) ValuesBelow(limit uint64, emit func(coin int, v uint64) error) (int, error) {
	if g.rule != AtMost || g.r < 2 {
		return 0, fmt.Errorf("coins: %v: values below a bound need the at-most rule with r ≥ 2 (at-most 1 has every value 1); give the number of coins instead", g)
	}
	if limit == 0 {
		return 0, nil
	}
	k := bits.Len64(limit - 1) // values below limit are below 2^k
	need := int64(1) << 62     // beyond any memory
	if k <= 48 {
		need = lexMemory(g.r, k)
	}
	if err := g.limits.checkMemory(fmt.Sprintf("at-most %d values below %s", g.r, powerString(limit)), need); err != nil {
		return 0, err
	}
	l := newLexicode(g.r, g.limits, 1<<k)
	coin := g.first
	err := l.run(-1, limit, func(v uint64) error {
		if err := emit(coin, v); err != nil {
			return err
		}
		coin++
		return nil
	})
	return coin - g.first, err
}

// WriteBFile writes the values below limit as an OEIS b-file, one
// "coin value" line each, as they are found, and returns how many.
func (g *Game) WriteBFile(w io.Writer, limit uint64) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf []byte
	n, err := g.ValuesBelow(limit, func(coin int, v uint64) error {
		buf = AppendBFileLine(buf[:0], coin, v)
		_, err := bw.Write(buf)
		return err
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, err
}

// AppendBFileLine appends to dst the OEIS b-file line of a(n) = v,
// "n v" and a newline. It is the one b-file format of nimbook: WriteBFile
// and the exports of package reports both write through it.
func AppendBFileLine(dst []byte, n int, v uint64) []byte {
	dst = strconv.AppendInt(dst, int64(n), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendUint(dst, v, 10)
	return append(dst, '\n')
}

// powerString writes 2^k as "2^k", other numbers in decimal.
func powerString(x uint64) string {
	if x != 0 && x&(x-1) == 0 {
		return fmt.Sprintf("2^%d", bits.TrailingZeros64(x))
	}
	return fmt.Sprint(x)
}

// lexValues computes f(0..n−1) (0-based) of AtMost r ≥ 2.
func lexValues(r, n int, lim Limits) ([]uint64, error) {
	l := newLexicode(r, lim, 0)
	if err := checkSubsetMemory(AtMost, r, n, l.bitsets(), lim); err != nil {
		return nil, err
	}
	out := make([]uint64, 0, n)
	err := l.run(n, 0, func(v uint64) error {
		out = append(out, v)
		return nil
	})
	return out, err
}
