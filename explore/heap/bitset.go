package heap

import "math/bits"

// The bitset sweep: for codes with few distinct values (below 64) whose
// rare positions do not die out — Dawson's Kayles 0.07 and its kin, 0.4,
// 0.5xx, 0.7xx: periodic, but a third of the heaps rare under every split,
// which makes the sparse-space sweep quadratic — it keeps for each value u
// the bit set F_u of the heaps of value u, and the same reversed, R_u. A
// split of m reaches x when for some value u, F_u and R_{u⊕x} shifted by
// m share a heap a ≤ m/2: one AND covers 64 splits. A value present among
// the options is usually found within the first words; the mex itself is
// proven absent by every pair (u, u ⊕ x) over the whole range, V·m/128
// word operations for V distinct values, against m/2 splits for the dense
// sweep: it pays below about 32 values a split digit.

// SweepBitset is the Cost.Method of the bitset sweep.
const SweepBitset = "bitset sweep" // bit sets of heaps per value: about V·upto²/256 word operations a split digit

// bitsetMax is the bound on values (and so on their count V) of the
// bitset sweep: a heap whose value reaches it hands over to the dense
// sweep.
const bitsetMax = 64

// bitsetSweep is the state of the bitset sweep.
type bitsetSweep struct {
	mv      sweepMoves
	vs      []uint32
	last    int // L: R_u has bit L − n for each heap n of value u
	f, r    [bitsetMax][]uint64
	present uint64 // bit u: some heap has value u
	seen    [bitsetMax + 1]uint32
	steps   int64
}

// newBitset starts a bitset sweep whose values vs[0..from) are known, all
// below bitsetMax; vs has room for all the values to compute.
func newBitset(mv sweepMoves, vs []uint32, from int) *bitsetSweep {
	b := &bitsetSweep{mv: mv, vs: vs, last: len(vs) - 1}
	for n, v := range vs[:from] {
		b.set(n, v)
	}
	return b
}

// words is the length of the bit sets: the shifted reads of R go up to a
// word past heap L + 63.
func (b *bitsetSweep) words() int { return (b.last+64)/64 + 2 }

// set records vs[n] = v in the bit sets.
func (b *bitsetSweep) set(n int, v uint32) {
	b.vs[n] = v
	if b.f[v] == nil {
		b.f[v], b.r[v] = make([]uint64, b.words()), make([]uint64, b.words())
		b.present |= 1 << v
	}
	b.f[v][n/64] |= 1 << (n % 64)
	j := b.last - n
	b.r[v][j/64] |= 1 << (j % 64)
}

// hasSplit reports whether a split a + (m − a), 1 ≤ a ≤ h, has value x.
// It looks at the words of a in turn, each against every pair (u, u ⊕ x),
// so that a value present is found early.
func (b *bitsetSweep) hasSplit(m, h int, x uint32) bool {
	var us [bitsetMax]uint32
	k := 0
	for p := b.present; p != 0; p &= p - 1 {
		u := uint32(bits.TrailingZeros64(p))
		if w := u ^ x; w < bitsetMax && b.present&(1<<w) != 0 {
			us[k] = u
			k++
		}
	}
	if k == 0 {
		return false
	}
	s := b.last - m // F_w[m − a] = R_w[s + a]
	top := h / 64
	for i := 0; i <= top; i++ {
		var lim uint64 = ^uint64(0)
		if i == top {
			lim = 1<<(uint(h%64)+1) - 1 // a ≤ h; all ones when h%64 = 63
		}
		if i == 0 {
			lim &^= 1 // a ≥ 1
		}
		p := s + 64*i
		q, sh := p/64, uint(p%64)
		for _, u := range us[:k] {
			fw := b.f[u][i] & lim
			if fw == 0 {
				continue
			}
			r := b.r[u^x]
			rw := r[q] >> sh
			if sh != 0 {
				rw |= r[q+1] << (64 - sh)
			}
			if fw&rw != 0 {
				b.steps += int64(i*k + k)
				return true
			}
		}
	}
	b.steps += int64((top + 1) * k)
	return false
}

// next computes vs[n]; ok is false when its value reaches bitsetMax, for
// the caller to go on with another sweep from heap n.
func (b *bitsetSweep) next(n int) (ok bool) {
	st := uint32(n + 1)
	for _, k := range b.mv.nones {
		if k == n {
			b.seen[0] = st
		}
	}
	for _, k := range b.mv.ones {
		if k < n {
			b.seen[b.vs[n-k]] = st
		}
	}
	b.steps += int64(len(b.mv.ones) + len(b.mv.nones))
	for x := uint32(0); x < bitsetMax; x++ {
		if b.seen[x] == st {
			continue
		}
		found := false
		for _, k := range b.mv.splits {
			m := n - k
			if h := b.mv.half(m); m >= 2 && h >= 1 && b.hasSplit(m, h, x) {
				found = true
				break
			}
		}
		if !found {
			b.set(n, x)
			return true
		}
	}
	return false
}

// run computes vs[from..to] and returns the first heap not computed: to +
// 1, or a heap whose value reaches bitsetMax.
func (b *bitsetSweep) run(g Game, from, to int, lim Limits) (int, error) {
	prog := lim.progress(g.String()+": "+SweepBitset, to+1)
	for n := from; n <= to; n++ {
		if n&0xff == 0 {
			if err := lim.cancelled(); err != nil {
				return n, err
			}
			prog.Set(int64(n))
		}
		if !b.next(n) {
			return n, nil
		}
	}
	return to + 1, nil
}

// bitsetSteps is the word operations of the bitset sweep of heaps
// from..upto for a code with splits split digits and v distinct values:
// the proof of each mex, v·h/64 for each digit, twice for the values
// present that it looks at first.
func bitsetSteps(from, upto, splits, v int) float64 {
	if upto < from {
		return 0
	}
	return 2 * float64(splits) * float64(v) * denseSteps(from, upto, 0, 0) / 64
}

// bitsetMemory is the bytes of the bit sets of v values up to upto, and
// of the values (4 bytes as the sweep keeps them, 8 as returned).
func bitsetMemory(upto, v int) int64 {
	return 2*int64(v)*8*(int64(upto)/64+3) + 12*(int64(upto)+1)
}

// bitsetValues is the bitset sweep of a code that splits into two heaps
// at most, from the values vs[0..from) on (all below bitsetMax), handing
// over to the dense sweep if a value reaches bitsetMax; it says which
// sweep ran, from which heap the dense one, and from which the values were
// filled by a proven period.
func (c *code) bitsetValues(g Game, vs []uint32, from, upto int, lim Limits) ([]uint64, Sweep, error) {
	sw, err := c.bitsetRun(g, vs, from, upto, lim)
	if err != nil {
		return nil, Sweep{}, err
	}
	out, err := widen(vs, lim)
	if err != nil {
		return nil, Sweep{}, err
	}
	return out, sw, nil
}

// bitsetRun is bitsetValues in vs itself; the Sweep counts its steps.
func (c *code) bitsetRun(g Game, vs []uint32, from, upto int, lim Limits) (Sweep, error) {
	b := newBitset(c.sweepMoves(), vs, from)
	sw := Sweep{Algorithm: AlgorithmBitset}
	for n := from; n <= upto; {
		if n > periodFrom {
			ok, err := fillPeriodic(g, vs, n-1, lim)
			if err != nil {
				return Sweep{}, err
			}
			if ok {
				sw.PeriodFrom = n
				break
			}
		}
		to := nextLook(n, upto)
		next, err := b.run(g, n, to, lim)
		if err != nil {
			return Sweep{}, err
		}
		if next <= to {
			filled, steps, err := c.denseRun(g, vs, next, upto, lim)
			return Sweep{Algorithm: AlgorithmDense, DenseFrom: next, PeriodFrom: filled, Steps: b.steps + steps}, err
		}
		n = next
	}
	sw.Steps = b.steps
	return sw, nil
}
