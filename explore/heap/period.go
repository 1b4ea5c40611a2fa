package heap

import (
	"math"
	"sort"
)

// Certificate reports whether a value sequence is proven periodic, in
// SPEC's sense: g(n + Period) = g(n) for every n ≥ Preperiod, Preperiod the
// least such index (the last exception is Preperiod − 1), Period the least
// period, and CheckedTo the largest heap size whose value the proof used.
// When nothing is proven, Proven is false, Preperiod and Period are 0 and
// CheckedTo is the last heap size examined.
type Certificate struct {
	Proven    bool
	Preperiod int
	Period    int
	CheckedTo int
	// Method names the argument used, or why none applies.
	Method string
}

// Methods of Certificate.
const (
	MethodSubtraction = "subtraction window: g(n+p) = g(n) for n0 ≤ n < n0 + max S"
	MethodPlain       = "non-splitting code: g(n+p) = g(n) for n0' ≤ n < n0' + t, n0' = max(n0, 1)"
	MethodGuySmith    = "Guy–Smith: g(n+p) = g(n) for n0' ≤ n < 2n0' + p + t, n0' = max(n0, 1)"
	MethodThreeWay    = "three-way splits: g(n+p) = g(n) for n0' ≤ n < 3n0' + 2p + t, n0' = max(n0, 1)"
	MethodNone        = "no period found"
	MethodNim         = "nim: g(n) = n is not periodic"
	MethodAllBut      = "all-but subtraction games are arithmetic-periodic: no period is claimed"
	MethodGrundy      = "Grundy's game: no periodicity theorem is known (equal parts are no move, so the Guy–Smith window does not apply); whether its values become periodic is an open problem"
)

// windower is a game whose periods can be proven from finitely many
// values: window returns, for a candidate preperiod n0 and period p, the
// end L of the range n0 ≤ n < L where g(n+p) = g(n) must be checked for
// the proof, and the method; ok is false when the game admits no such
// proof, and method then says why. Each rule of this package says it in
// its own file; a game without it is never proven periodic (MethodNone).
//
// Why each bound suffices (induction on N ≥ L, assuming g(n+p) = g(n) for
// n0 ≤ n < N; it shows the option values of N+p and N are the same set):
//
//   - Subtraction set S, m = max S: N ≥ n0 + m, so every N − s ≥ n0 and
//     g(N+p−s) = g(N−s); both heaps are ≥ m, so the same s are legal.
//   - Code that never splits (t = last non-zero digit): N ≥ n0' + t with
//     n0' = max(n0, 1) makes N − k ≥ 1 for every k ≤ t, so "take all" is
//     legal in neither heap and "leave one heap" in both, and N − k ≥ n0.
//   - Two-way splits (Guy–Smith): a split of N+p−k into a ≤ b has
//     b ≥ (N+p−k)/2 ≥ n0' + p once N ≥ 2n0' + p + t, so (a, b−p) is a
//     split of N−k with the same value; conversely a split a ≤ b' of N−k
//     has b' ≥ (N−k)/2 ≥ n0', and (a, b'+p) splits N+p−k.
//   - Three-way splits: the largest part c of a split of N+p−k into three
//     has c ≥ (N+p−k)/3 ≥ n0' + p once N ≥ 3n0' + 2p + t, so (a, b, c−p)
//     splits N−k; conversely the largest part c' of a split of N−k is
//     ≥ (N−k)/3 ≥ n0'. Two-way splits need less (2n0'+p+t ≤ 3n0'+2p+t).
//
// n0' = max(n0, 1) keeps the shortened part c−p (b−p) non-empty when
// n0 = 0, so that it is still a heap; it changes nothing when n0 ≥ 1. The
// octal bound is the one of Guy and Smith (1956), as in Winning Ways
// ch. 4; the three-way bound is derived here by the same argument with
// thirds (with k parts it reads k·n0' + (k−1)·p + t).
type windower interface {
	window(n0, p int) (end int, method string, ok bool)
}

func window(g Game, n0, p int) (end int, method string, ok bool) {
	if w, ok := g.(windower); ok {
		return w.window(n0, p)
	}
	return 0, MethodNone, false
}

// Period looks for the least period of values = g(0..upto) of g that the
// values themselves prove, with its least preperiod. The first provable
// period is the least period: the true least period p* divides every
// period, has the same preperiod, and its window is no longer than theirs.
// Values must be g.Values(upto, …); Period does not recompute them.
func Period(g Game, values []uint64) Certificate { return periodOf(g, values) }

// periodOf is Period on values of either width (the sweeps keep theirs in
// 32 bits). The preperiod n0(p) of each candidate p, 1 + the last n with
// g(n+p) ≠ g(n), comes from the Z-function of the values read backwards,
// R[i] = g(upto − i): Z[p], the longest common prefix of R and R[p:], is
// how many of the last values match p further on, so n0(p) = upto + 1 −
// p − Z[p]. The Z-function costs O(upto) for all candidates together,
// where scanning back from the end for each p cost O(upto) per multiple
// of the period before its window closed (0.376 at 2^22, not yet proven:
// 10^11 comparisons; issue 31).
func periodOf[T uint32 | uint64](g Game, values []T) Certificate {
	c, _ := periodWork(g, values)
	return c
}

// periodWork is periodOf with the values it compared, at most twice the
// values, once each candidate (tests pin it; staged sweeps count it).
func periodWork[T uint32 | uint64](g Game, values []T) (Certificate, int64) {
	upto := len(values) - 1
	none := Certificate{CheckedTo: max(upto, 0), Method: MethodNone}
	if _, m, ok := window(g, 0, 1); !ok {
		none.Method = m
		return none, 0
	}
	n := upto + 1
	if n > math.MaxInt32 {
		return periodScan(g, values), 0
	}
	// The game's windower, found once: a call a candidate.
	w := g.(windower)
	var work int64
	r := func(i int) T { return values[upto-i] }
	// The candidates, 1..last: windows only grow with p and n0, so that
	// those whose window fits with n0 = 0 are the first ones.
	last := sort.Search(upto, func(i int) bool {
		end, _, _ := w.window(0, i+1)
		return end+i > upto
	})
	// z[i] for i ≤ last, with the box [l, rb) of the rightmost match found
	// so far: R[l:rb] = R[:rb-l]. Its pages are touched only as far as
	// the candidates go.
	z := make([]int32, last+1)
	z[0] = int32(n)
	l, rb := 0, 0
	for p := 1; p <= last; p++ {
		k := 0
		if p < rb {
			k = min(rb-p, int(z[p-l]))
		}
		for p+k < n && r(k) == r(p+k) {
			k++
			work++
		}
		work++
		if p+k > rb {
			l, rb = p, p+k
		}
		z[p] = int32(k)
		n0 := n - p - k // 1 + the last n with g(n+p) ≠ g(n), or 0
		end, method, _ := w.window(n0, p)
		if end-1+p <= upto {
			return Certificate{Proven: true, Preperiod: n0, Period: p, CheckedTo: end - 1 + p, Method: method}, work
		}
	}
	return none, work
}

// periodScan is periodOf by scanning back from the end for each
// candidate: the definition, for sequences past the Z-function's 32-bit
// lengths and for the tests.
func periodScan[T uint32 | uint64](g Game, values []T) Certificate {
	upto := len(values) - 1
	none := Certificate{CheckedTo: max(upto, 0), Method: MethodNone}
	if _, m, ok := window(g, 0, 1); !ok {
		none.Method = m
		return none
	}
	for p := 1; p <= upto; p++ {
		if end, _, _ := window(g, 0, p); end-1+p > upto {
			break
		}
		n0 := 0
		for n := upto - p; n >= 0; n-- {
			if values[n+p] != values[n] {
				n0 = n + 1
				break
			}
		}
		end, method, _ := window(g, n0, p)
		if end-1+p <= upto {
			return Certificate{Proven: true, Preperiod: n0, Period: p, CheckedTo: end - 1 + p, Method: method}
		}
	}
	return none
}
