package code

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"slices"

	"github.com/nimbook/nimbook/explore/budget"
)

// kernel is a binary code given twice: as the kernel of per-coin values
// (for membership and subset searches) and by a basis (for walks). Both
// the code of P-positions and its dual are kernels (see dualValues).
type kernel struct {
	n    int
	vals []uint64
	gens []uint64
}

func (c *Code) kernel() kernel { return kernel{n: c.n, vals: c.values, gens: c.basis} }

// MinWeightWords returns the P-positions of least positive weight (the
// minimum-weight codewords), ascending as bit masks, and the method used:
// Codewords when 2^k ≤ lim.MaxRows, else Subsets (coin subsets of growing
// size, at most lim.MaxRows search steps). The list is empty when the code
// is {0}.
func (c *Code) MinWeightWords(ctx context.Context, lim Limits) ([]uint64, Method, error) {
	l := lim.withDefaults()
	kr := c.kernel()
	if k := len(kr.gens); k < 64 && uint64(1)<<k <= l.MaxRows {
		ws, err := kr.minWordsByWalk(ctx)
		return ws, Codewords, err
	}
	steps := uint64(0)
	for w := 1; w <= c.n; w++ {
		ws, err := kr.wordsOfWeight(ctx, w, &steps, l.MaxRows)
		if err != nil {
			return nil, Subsets, err
		}
		if len(ws) > 0 {
			return ws, Subsets, nil
		}
	}
	return nil, Subsets, nil
}

// minWordsByWalk walks all codewords (in parallel Gray ranges) keeping the
// nonzero ones of least weight.
func (kr kernel) minWordsByWalk(ctx context.Context) ([]uint64, error) {
	parts := split(uint64(1)<<len(kr.gens), runtime.GOMAXPROCS(0))
	type best struct {
		w     int
		words []uint64
	}
	found := make([]best, len(parts))
	err := parallel(ctx, len(parts), func(ctx context.Context, p int) error {
		b := best{w: 65}
		err := walkWords(ctx, kr.gens, parts[p][0], parts[p][1], func(word uint64) {
			w := bits.OnesCount64(word)
			switch {
			case w == 0 || w > b.w:
			case w < b.w:
				b.w, b.words = w, append(b.words[:0], word)
			default:
				b.words = append(b.words, word)
			}
		})
		found[p] = b
		return err
	})
	if err != nil {
		return nil, err
	}
	m := 65
	for _, b := range found {
		m = min(m, b.w)
	}
	var out []uint64
	for _, b := range found {
		if b.w == m {
			out = append(out, b.words...)
		}
	}
	slices.Sort(out)
	return out, nil
}

// wordsOfWeight lists the codewords of weight w (ascending) by choosing
// w−1 coins in increasing order and looking up the last one by value;
// *steps counts search nodes against max.
func (kr kernel) wordsOfWeight(ctx context.Context, w int, steps *uint64, max uint64) ([]uint64, error) {
	byVal := map[uint64][]int{}
	for i, v := range kr.vals {
		byVal[v] = append(byVal[v], i)
	}
	var out []uint64
	var err error
	var dfs func(start, depth int, acc, mask uint64) bool
	dfs = func(start, depth int, acc, mask uint64) bool {
		*steps++
		if *steps > max {
			err = fmt.Errorf("code: searching words of weight %d takes more than the limit of %d steps: %w (raise it with --max-positions or limits.positions in the job file)", w, max, ErrLimit)
			return false
		}
		if *steps&0xffff == 0 {
			if e := budget.Err(ctx); e != nil {
				err = fmt.Errorf("code: word search: %w", e)
				return false
			}
		}
		if depth == w-1 {
			for _, j := range byVal[acc] {
				if j >= start {
					out = append(out, mask|1<<j)
				}
			}
			return true
		}
		for i := start; i <= kr.n-(w-depth); i++ {
			if !dfs(i+1, depth+1, acc^kr.vals[i], mask|1<<i) {
				return false
			}
		}
		return true
	}
	dfs(0, 0, 0, 0)
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

// Design says whether the minimum-weight P-positions (blocks) form a
// t-(v, k, λ) design on the coins: every t-subset of the v coins lies in
// exactly λ ≥ 1 blocks of k coins.
type Design struct {
	// Holds is false when no t ≥ 1 works (or there are no blocks); T is
	// then 0.
	Holds bool
	// T is the largest t that works; K the block size (the minimum
	// distance); V the number of coins; Lambda the λ of T.
	T, K, V int
	Lambda  uint64
	// Blocks is the number of minimum-weight words.
	Blocks int
	// Method tells how the blocks were listed: Codewords or Subsets.
	Method Method
}

// Design finds the largest t ≥ 1 such that the minimum-weight P-positions
// form a t-design, trying t = k, k−1, …, 1. A t passing the counting
// condition b·C(k,t) = λ·C(v,t) is checked by listing the t-subsets of
// every block (at most lim.MaxCells of them) and counting each.
func (c *Code) Design(ctx context.Context, lim Limits) (Design, error) {
	l := lim.withDefaults()
	words, method, err := c.MinWeightWords(ctx, lim)
	if err != nil {
		return Design{}, err
	}
	d := Design{V: c.n, Blocks: len(words), Method: method}
	if len(words) == 0 {
		return d, nil
	}
	d.K = bits.OnesCount64(words[0])
	b := uint64(len(words))
	for t := d.K; t >= 1; t-- {
		ck, cv := binom(d.K, t), binom(c.n, t)
		hi, total := bits.Mul64(b, ck)
		if hi == 0 && total%cv != 0 {
			continue // λ would not be an integer
		}
		if hi != 0 || total > l.MaxCells {
			return Design{}, fmt.Errorf("code: checking a %d-design needs %d·C(%d,%d) subsets, more than the limit of %d: %w (raise it with --max-memory or limits.memory)",
				t, b, d.K, t, l.MaxCells, ErrLimit)
		}
		if err := budget.Err(ctx); err != nil {
			return Design{}, fmt.Errorf("code: design: %w", err)
		}
		lambda := total / cv
		if isDesign(words, t, cv, lambda) {
			d.Holds, d.T, d.Lambda = true, t, lambda
			return d, nil
		}
	}
	return d, nil
}

// isDesign reports whether every t-subset of the points is in exactly
// lambda blocks, given that the blocks hold lambda·cv t-subsets in all.
func isDesign(blocks []uint64, t int, cv, lambda uint64) bool {
	subs := make([]uint64, 0, cv*lambda)
	for _, blk := range blocks {
		subs = subsets(blk, t, subs)
	}
	slices.Sort(subs)
	var distinct uint64
	for i := 0; i < len(subs); {
		j := i
		for j < len(subs) && subs[j] == subs[i] {
			j++
		}
		if uint64(j-i) != lambda {
			return false
		}
		distinct++
		i = j
	}
	return distinct == cv
}

// subsets appends the t-element subsets of the set bits of m to out.
func subsets(m uint64, t int, out []uint64) []uint64 {
	var pos []int
	for x := m; x != 0; x &= x - 1 {
		pos = append(pos, bits.TrailingZeros64(x))
	}
	var rec func(start, left int, acc uint64)
	rec = func(start, left int, acc uint64) {
		if left == 0 {
			out = append(out, acc)
			return
		}
		for i := start; i <= len(pos)-left; i++ {
			rec(i+1, left-1, acc|1<<pos[i])
		}
	}
	rec(0, t, 0)
	return out
}

// binom returns C(n, k) for 0 ≤ k ≤ n ≤ 64 (at most C(64,32) < 2^64).
func binom(n, k int) uint64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	r := uint64(1)
	for i := 1; i <= k; i++ {
		// r·(n−k+i) is divisible by i; the product stays below 2^64·i, so
		// split it to avoid overflow.
		hi, lo := bits.Mul64(r, uint64(n-k+i))
		r, _ = bits.Div64(hi, lo, uint64(i))
	}
	return r
}
