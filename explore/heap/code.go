package heap

import (
	"fmt"
	"math/bits"
	"strings"
)

// Bits of a code digit d_k: what taking k tokens from a heap may leave.
const (
	leaveNone  = 1 // no heap: the whole heap is taken
	leaveOne   = 2 // one non-empty heap
	leaveTwo   = 4 // two non-empty heaps (a split)
	leaveThree = 8 // three non-empty heaps (hexadecimal codes only)
)

// maxCodeDigits bounds the digits after the point.
const maxCodeDigits = 256

// code is an octal or hexadecimal code d0.d1d2…; digit[k] is d_k.
type code struct {
	digit []uint8 // digit[0] = d0; no trailing zeros after index 0
	hex   bool
}

// Octal is an octal game (MATH.md "Heap games"), e.g. Kayles 0.77.
type Octal struct{ code }

// Hex is a hexadecimal game: an octal game whose digits may also have bit 8,
// leaving three non-empty heaps, e.g. 0.f.
type Hex struct{ code }

// ParseOctal reads an octal code: "0.07", ".07", "4.07", "4." (= "4.0").
// The digit before the point is 0 or 4; the digits after it are 0-7.
func ParseOctal(s string) (*Octal, error) {
	c, err := parseCode(s, false)
	if err != nil {
		return nil, err
	}
	return &Octal{c}, nil
}

// ParseHex reads a hexadecimal code such as "0.f" or "8.4": digits 0-9 and
// a-f (either case); the digit before the point is 0, 4, 8 or c.
func ParseHex(s string) (*Hex, error) {
	c, err := parseCode(s, true)
	if err != nil {
		return nil, err
	}
	return &Hex{c}, nil
}

func parseCode(s string, hex bool) (code, error) {
	kind, allowed, base := OctalRule, "0-7", 8
	if hex {
		kind, allowed, base = "hex", "0-9 and a-f", 16
	}
	fail := func(format string, args ...any) (code, error) {
		return code{}, fmt.Errorf("heap: %s code %q: %s", kind, s, fmt.Sprintf(format, args...))
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return fail("empty (write it like 0.07)")
	}
	dot := strings.IndexByte(t, '.')
	if dot < 0 {
		return fail("no point (write it like 0.%s or 4.%s)", t, t)
	}
	if dot > 1 {
		return fail("%d characters before the point; want one digit (0 or 4) or none", dot)
	}
	if len(t)-dot-1 > maxCodeDigits {
		return fail("%d digits after the point, more than %d", len(t)-dot-1, maxCodeDigits)
	}
	digitOf := func(i int) (uint8, bool) {
		ch := t[i]
		var v int
		switch {
		case ch >= '0' && ch <= '9':
			v = int(ch - '0')
		case ch >= 'a' && ch <= 'f':
			v = int(ch-'a') + 10
		case ch >= 'A' && ch <= 'F':
			v = int(ch-'A') + 10
		default:
			return 0, false
		}
		return uint8(v), v < base
	}
	c := code{digit: []uint8{0}, hex: hex}
	if dot == 1 {
		d, ok := digitOf(0)
		if !ok || d&(leaveNone|leaveOne) != 0 {
			want := "0 or 4"
			if hex {
				want = "0, 4, 8 or c"
			}
			return fail("the digit before the point is %q; it must be %s (taking no token can only split the heap)", t[0], want)
		}
		c.digit[0] = d
	}
	for i := dot + 1; i < len(t); i++ {
		d, ok := digitOf(i)
		if !ok {
			return fail("character %d is %q; digits after the point are %s", i+1, t[i], allowed)
		}
		c.digit = append(c.digit, d)
	}
	for len(c.digit) > 1 && c.digit[len(c.digit)-1] == 0 {
		c.digit = c.digit[:len(c.digit)-1]
	}
	return c, nil
}

// Code returns the code in canonical form: the digit before the point,
// the point, and the digits after it without trailing zeros ("4.0" when
// there are none).
func (c *code) Code() string {
	var b strings.Builder
	for k, d := range c.digit {
		b.WriteString(fmt.Sprintf("%x", d))
		if k == 0 {
			b.WriteByte('.')
		}
	}
	if len(c.digit) == 1 {
		b.WriteByte('0')
	}
	return b.String()
}

// Digit returns d_k (0 beyond the last digit).
func (c *code) Digit(k int) int {
	if k < 0 || k >= len(c.digit) {
		return 0
	}
	return int(c.digit[k])
}

// last returns t, the largest k with d_k ≠ 0 (0 when there is none).
func (c *code) last() int {
	return len(c.digit) - 1
}

// parts returns the largest number of heaps a move may leave: 1, 2 or 3.
func (c *code) parts() int {
	var all uint8
	for _, d := range c.digit {
		all |= d
	}
	switch {
	case all&leaveThree != 0:
		return 3
	case all&leaveTwo != 0:
		return 2
	}
	return 1
}

// String returns "octal " and the code.
func (g *Octal) String() string { return "octal " + g.Code() }

// String returns "hex " and the code.
func (g *Hex) String() string { return "hex " + g.Code() }

// Options lists the moves of a heap of n: for each k with d_k ≠ 0, the
// empty list (whole heap taken), [n−k], the splits [a, n−k−a] and the
// three-way splits [a, b, c], parts non-empty and smaller first.
func (c *code) Options(n int) [][]int {
	var out [][]int
	for k := 0; k <= c.last() && k <= n; k++ {
		d, m := c.digit[k], n-k
		if d&leaveNone != 0 && m == 0 {
			out = append(out, []int{})
		}
		if d&leaveOne != 0 && m >= 1 {
			out = append(out, []int{m})
		}
		if d&leaveTwo != 0 {
			for a := 1; a <= m-a; a++ {
				out = append(out, []int{a, m - a})
			}
		}
		if d&leaveThree != 0 {
			for a := 1; 3*a <= m; a++ {
				for b := a; b <= m-a-b; b++ {
					out = append(out, []int{a, b, m - a - b})
				}
			}
		}
	}
	return out
}

// optionCount is len(c.Options(n)), counted: ⌊m/2⌋ splits of m into two
// non-empty parts and round(m²/12) into three.
func (c *code) optionCount(n int) int64 {
	var total int64
	for k := 0; k <= c.last() && k <= n; k++ {
		d, m := c.digit[k], int64(n-k)
		if d&leaveNone != 0 && m == 0 {
			total++
		}
		if d&leaveOne != 0 && m >= 1 {
			total++
		}
		if d&leaveTwo != 0 {
			total += m / 2
		}
		if d&leaveThree != 0 {
			total += (m*m + 6) / 12
		}
	}
	return total
}

// Values returns g(0..upto).
func (g *Octal) Values(upto int, lim Limits) ([]uint64, error) {
	vs, _, err := g.values(g, upto, lim)
	return vs, err
}

// Values returns g(0..upto).
func (g *Hex) Values(upto int, lim Limits) ([]uint64, error) {
	vs, _, err := g.values(g, upto, lim)
	return vs, err
}

// ValuesSweep is Values, and says which algorithm computed them.
func (g *Octal) ValuesSweep(upto int, lim Limits) ([]uint64, Sweep, error) {
	return g.values(g, upto, lim)
}

// ValuesSweep is Values, and says which algorithm computed them.
func (g *Hex) ValuesSweep(upto int, lim Limits) ([]uint64, Sweep, error) {
	return g.values(g, upto, lim)
}

func (c *code) values(g Game, upto int, lim Limits) ([]uint64, Sweep, error) {
	if err := lim.checkUpto(g, upto); err != nil {
		return nil, Sweep{}, err
	}
	p, err := c.plan(g, upto, lim)
	if err != nil {
		return nil, Sweep{}, err
	}
	if err := p.check(g, upto, lim); err != nil {
		return nil, Sweep{}, err
	}
	if p.sweep != nil && len(p.sweep.vs) == sparseTrial+1 && upto > sparseTrial {
		// The trial's values may prove a period already: the rest
		// follows from it (Dawson's Kayles and most codes of the census).
		vs := make([]uint32, upto+1)
		copy(vs, p.sweep.vs)
		ok, err := fillPeriodic(g, vs, sparseTrial, lim)
		if err != nil {
			return nil, Sweep{}, err
		}
		if ok {
			out, err := widen(vs, lim)
			if err != nil {
				return nil, Sweep{}, err
			}
			return out, Sweep{Algorithm: AlgorithmSparse, PeriodFrom: sparseTrial + 1, Steps: p.trialSteps}, nil
		}
	}
	switch p.cost.Method {
	case SweepPlain:
		vs, err := c.plainValues(upto, lim)
		return vs, Sweep{Algorithm: AlgorithmPlain}, err
	case SweepSparse:
		p.sweep.estimate = p.cost
		p.sweep.denseOK = true
		vs, err := p.sweep.finish(g, upto, lim)
		if err == nil && p.sweep.switchAt > 0 {
			// The rare values stopped paying: the dense sweep from there.
			from := p.sweep.switchAt
			if err := lim.checkSteps(g, upto, float64(p.sweep.steps)+denseSteps(from, upto, c.last()+1, p.sweep.w)); err != nil {
				return nil, Sweep{}, err
			}
			filled, steps, err := c.denseRun(g, p.sweep.vs, from, upto, lim)
			if err != nil {
				return nil, Sweep{}, err
			}
			out, err := widen(p.sweep.vs, lim)
			return out, Sweep{Algorithm: AlgorithmDense, DenseFrom: from, PeriodFrom: filled, Steps: p.sweep.steps + steps}, err
		}
		return vs, Sweep{Algorithm: AlgorithmSparse, Steps: p.sweep.steps}, err
	case SweepBitset:
		vs := make([]uint32, upto+1)
		from := copy(vs, p.sweep.vs[:sparseTrial+1])
		out, sw, err := c.bitsetValues(g, vs, from, upto, lim)
		sw.Steps += p.trialSteps
		return out, sw, err
	case SweepDense:
		vs, from := make([]uint32, upto+1), 0
		var steps int64
		if p.sweep != nil {
			// The values of the sparse-space sweep's trial.
			from = copy(vs, p.sweep.vs)
			steps = p.trialSteps
		}
		filled, dsteps, err := c.denseRun(g, vs, from, upto, lim)
		if err != nil {
			return nil, Sweep{}, err
		}
		out, err := widen(vs, lim)
		return out, Sweep{Algorithm: AlgorithmDense, PeriodFrom: filled, Steps: steps + dsteps}, err
	}
	vs, err := c.splitValues(g, upto, lim)
	return vs, Sweep{Algorithm: AlgorithmSets}, err
}

// plan chooses the sweep for g(0..upto) and estimates its cost. Codes that
// never split take at most 2t options a heap. Codes that split cost about
// upto²/4 steps with the bit-set sweep. Past sparseTrial, codes that split
// into two heaps only are tried with the sparse-space sweep (sparsePlan),
// from the values up to sparseFrom of the bit-set sweep.
func (c *code) plan(g Game, upto int, lim Limits) (sweepPlan, error) {
	pl := codePlanner{c: c, g: g}
	return pl.plan(upto, lim)
}

// codePlanner plans the sweeps of one code for any upto from one prefix
// and one trial of the sparse-space sweep, made when first needed: the
// stages of a staged sweep (staged.go) are planned each for its own upto
// as a sweep alone would be, at the cost of one plan.
type codePlanner struct {
	c      *code
	g      Game
	prefix []uint64 // g(0..sparseFrom)
	trial  *trialRun
}

func (pl *codePlanner) plan(upto int, lim Limits) (sweepPlan, error) {
	c := pl.c
	u, t := float64(upto+1), float64(c.last()+1)
	values := 8 * (int64(upto) + 1)
	if c.parts() == 1 {
		return sweepPlan{cost: Cost{Method: SweepPlain, Memory: values, Steps: u * t}}, nil
	}
	sets := Cost{Method: SweepSets, Steps: u*t + u*u/4, Memory: values + 8*(int64(upto)+1)}
	if c.parts() == 3 {
		sets.Steps += u * u / 6
		sets.Memory += 8 * (int64(upto) + 1)
	}
	if c.parts() == 3 || upto <= sparseTrial {
		return sweepPlan{cost: sets}, nil
	}
	if err := pl.ensurePrefix(lim); err != nil {
		return sweepPlan{}, err
	}
	// The alternative to the sparse-space sweep is the dense sweep: every
	// split once, whatever the split digits. Its tables are sized for
	// values up to four times those of the prefix.
	var top uint64
	for _, v := range pl.prefix {
		top |= v
	}
	w := uint32(64)
	for uint64(w) <= 4*top {
		w *= 2
	}
	mv := c.sweepMoves()
	span := mv.splits[len(mv.splits)-1] - mv.splits[0] + 1
	dense := Cost{Method: SweepDense, Steps: denseSteps(0, upto, c.last()+1, w), Memory: denseMemory(upto, span, w)}
	if err := pl.ensureTrial(lim); err != nil {
		return sweepPlan{}, err
	}
	p := pl.trial.plan(dense, upto)
	if p.sweep == nil {
		return p, nil
	}
	return bitsetPlan(p, mv, upto), nil
}

// ensurePrefix computes the prefix g(0..sparseFrom) once.
func (pl *codePlanner) ensurePrefix(lim Limits) error {
	if pl.prefix != nil {
		return nil
	}
	prefix, err := pl.c.splitValues(pl.g, sparseFrom, Limits{Context: lim.Context})
	pl.prefix = prefix
	return err
}

// ensureTrial runs the trial of the sparse-space sweep once.
func (pl *codePlanner) ensureTrial(lim Limits) error {
	if err := pl.ensurePrefix(lim); err != nil || pl.trial != nil {
		return err
	}
	tr, err := runTrial(pl.g, pl.c.sweepMoves(), pl.prefix, lim)
	pl.trial = tr
	return err
}

// bitsetWeight is the cost of a word operation of the bitset sweep in
// splits of the other sweeps (an AND of two words, one of them shifted,
// against a load, an XOR and a store), for choosing between them.
const bitsetWeight = 2

// bitsetPlan replaces the plan p, made from the trial of the sparse-space
// sweep up to sparseTrial, by the bitset sweep from there when the
// values so far are below bitsetMax and it costs less.
func bitsetPlan(p sweepPlan, mv sweepMoves, upto int) sweepPlan {
	var present uint64
	for _, v := range p.sweep.vs[:sparseTrial+1] {
		if v >= bitsetMax {
			return p
		}
		present |= 1 << v
	}
	trial := float64(sparseFrom+1)*float64(sparseFrom+1)/4 + float64(p.trialSteps)
	steps := bitsetSteps(sparseTrial+1, upto, len(mv.splits), bits.OnesCount64(present))
	if trial+bitsetWeight*steps >= p.cost.Steps {
		return p
	}
	p.cost = Cost{
		Method: SweepBitset,
		Detail: fmt.Sprintf("%d values, cheaper than the %s under %s", bits.OnesCount64(present), p.cost.Method, p.sweep.describe(sparseTrial)),
		Steps:  trial + steps,
		Memory: bitsetMemory(upto, bitsetMax),
	}
	return p
}

// sweepMoves lists the code's moves by digit, for the sparse-space sweep.
// The code must not split into three heaps.
func (c *code) sweepMoves() sweepMoves {
	mv := sweepMoves{t: NoDomain}
	for k := 0; k <= c.last(); k++ {
		d := c.digit[k]
		if d&leaveTwo != 0 {
			mv.splits = append(mv.splits, k)
		}
		if k > 0 && d&leaveOne != 0 {
			mv.ones = append(mv.ones, k)
		}
		if k > 0 && d&leaveNone != 0 {
			mv.nones = append(mv.nones, k)
		}
	}
	if t, ok := c.SplitDigit(); ok {
		mv.t = t
	}
	mv.lookahead = len(mv.splits) == 1 && c.parts() == 2
	return mv
}

// plainValues is the sweep for codes that never split: at most 2t options.
func (c *code) plainValues(upto int, lim Limits) ([]uint64, error) {
	vs := make([]uint64, upto+1)
	var m mexer
	for n := range vs {
		if n&0xffff == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		m.reset(2 * len(c.digit))
		for k := 1; k <= c.last() && k <= n; k++ {
			d := c.digit[k]
			if d&leaveNone != 0 && k == n {
				m.add(0)
			}
			if d&leaveOne != 0 && k < n {
				m.add(vs[n-k])
			}
		}
		vs[n] = m.mex()
	}
	return vs, nil
}

// splitValues is the sweep for splitting codes. For every m it keeps the
// set S2(m) = { g(a) ⊕ g(m−a) : 1 ≤ a < m } as a bit set (and, for hex
// codes, S3(m), the values of three-way splits), so that each value set is
// built once and shared by every digit that uses it. Values of heaps all
// lie below a power of two W, and so do their nim-sums: the bit sets are
// W bits wide and widen (rarely) when a value reaches W.
func (c *code) splitValues(g Game, upto int, lim Limits) ([]uint64, error) {
	three := c.parts() == 3
	vs := make([]uint64, upto+1)
	words := 1
	tables := 1
	if three {
		tables = 2
	}
	var s2, s3 []uint64
	alloc := func(w int) error {
		if lim.MaxMemory > 0 {
			// The old sets live until the new ones are filled.
			need := 8 * int64(upto+1) * (1 + int64(tables)*int64(w+min(words, w/2)))
			if err := lim.checkMemory(fmt.Sprintf("computing the values of %v up to %d (%d-bit sets)", g, upto, 64*w), need); err != nil {
				return err
			}
		} else if int64(upto+1)*int64(w)*int64(tables) > maxTableWords {
			return fmt.Errorf("heap: %v: the value sets up to %d need %d-bit sets, more than %d MiB: %w (lower upto)",
				g, upto, 64*w, maxTableWords/(1<<17), ErrTooManySteps)
		}
		n2 := make([]uint64, (upto+1)*w)
		for m := 0; m*words < len(s2); m++ {
			copy(n2[m*w:], s2[m*words:(m+1)*words])
		}
		s2 = n2
		if three {
			n3 := make([]uint64, (upto+1)*w)
			for m := 0; m*words < len(s3); m++ {
				copy(n3[m*w:], s3[m*words:(m+1)*words])
			}
			s3 = n3
		}
		words = w
		return nil
	}
	if err := alloc(1); err != nil {
		return nil, err
	}
	acc := make([]uint64, words)
	var steps, checked int64
	prog := lim.progress(g.String(), upto+1)
	for n := 0; n <= upto; n++ {
		if steps-checked >= 1<<16 || n == 0 {
			checked = steps
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
			prog.Set(int64(n))
		}
		set2 := s2[n*words : (n+1)*words]
		for a := 1; a <= n-a; a++ {
			v := vs[a] ^ vs[n-a]
			set2[v>>6] |= 1 << (v & 63)
		}
		steps += int64(n / 2)
		if three {
			// Every three-way split has a smallest part a ≤ n/3; the other
			// two parts are a split of n − a.
			set3 := s3[n*words : (n+1)*words]
			for a := 1; 3*a <= n; a++ {
				xorInto(set3, s2[(n-a)*words:(n-a+1)*words], vs[a])
			}
			steps += int64(n/3) * int64(words)
		}
		if steps > lim.steps() {
			return nil, fmt.Errorf("heap: %v: stopped at heap %d after %d steps, the limit: %w (lower upto, or raise the limit)",
				g, n, steps, ErrTooManySteps)
		}
		clear(acc)
		for k := 0; k <= c.last() && k <= n; k++ {
			d, m := c.digit[k], n-k
			if d&leaveNone != 0 && m == 0 {
				acc[0] |= 1
			}
			if d&leaveOne != 0 && m >= 1 {
				acc[vs[m]>>6] |= 1 << (vs[m] & 63)
			}
			if d&leaveTwo != 0 {
				for i, w := range s2[m*words : (m+1)*words] {
					acc[i] |= w
				}
			}
			if d&leaveThree != 0 {
				for i, w := range s3[m*words : (m+1)*words] {
					acc[i] |= w
				}
			}
		}
		vs[n] = uint64(64 * words)
		for i, w := range acc {
			if w != ^uint64(0) {
				vs[n] = uint64(64*i + bits.TrailingZeros64(^w))
				break
			}
		}
		if vs[n] >= uint64(64*words) {
			w := words
			for vs[n] >= uint64(64*w) {
				w *= 2
			}
			if err := alloc(w); err != nil {
				return nil, err
			}
			acc = make([]uint64, words)
		}
	}
	return vs, nil
}

// Masks of the bit positions whose bit j is 0, for j = 0..5.
var xorMasks = [6]uint64{
	0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f,
	0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 0x00000000ffffffff,
}

// xorInto sets in dst every x ⊕ c for x in src. Within a word, x ⊕ c for
// the low six bits of c is a swap of blocks of 2^j bits for each bit j set;
// the higher bits of c permute whole words.
func xorInto(dst, src []uint64, c uint64) {
	hi, lo := int(c>>6), c&63
	for i, w := range src {
		if w == 0 {
			continue
		}
		for j := range 6 {
			if lo&(1<<j) != 0 {
				s := uint(1) << j
				w = (w&xorMasks[j])<<s | (w>>s)&xorMasks[j]
			}
		}
		dst[i^hi] |= w
	}
}

// estimate is the cost of Values (Estimate).
func (g *Octal) estimate(upto int, lim Limits) (Cost, error) {
	p, err := g.plan(g, upto, lim)
	return p.cost, err
}

// estimate is the cost of Values (Estimate).
func (g *Hex) estimate(upto int, lim Limits) (Cost, error) {
	p, err := g.plan(g, upto, lim)
	return p.cost, err
}

// window is the range a period proof checks (windower, period.go): the
// Guy–Smith bound n0' ≤ n < 2n0' + p + t for codes that split in two, the
// three-way bound for those that split in three, n0' ≤ n < n0' + t for the
// others, with n0' = max(n0, 1).
func (c *code) window(n0, p int) (int, string, bool) {
	n1, t := max(n0, 1), c.last()
	switch c.parts() {
	case 3:
		return 3*n1 + 2*p + t, MethodThreeWay, true
	case 2:
		return 2*n1 + p + t, MethodGuySmith, true
	}
	return n1 + t, MethodPlain, true
}

// Explain says the rule: "the code octal 0.77: digit k says what taking k
// tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three
// heaps)."
func (g *Octal) Explain() string { return explainCode(g) }

// Explain says the rule, as Octal.Explain.
func (g *Hex) Explain() string { return explainCode(g) }

func explainCode(g Game) string {
	return fmt.Sprintf("the code %s: digit k says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps, +8 three heaps).", g)
}

// Forbidden says why the code never allows taking k tokens, naming the
// amounts it allows, or returns "".
func (g *Octal) Forbidden(k int) string { return g.forbidden(g, k) }

// Forbidden says why the code never allows taking k tokens, or returns "".
func (g *Hex) Forbidden(k int) string { return g.forbidden(g, k) }

func (c *code) forbidden(g Game, k int) string {
	if c.Digit(k) != 0 {
		return ""
	}
	var ks []int
	for j := 1; j <= c.last(); j++ {
		if c.Digit(j) != 0 {
			ks = append(ks, j)
		}
	}
	split := ""
	if c.Digit(0) != 0 {
		split = ", or split a heap in two without taking any (type 0 as the number taken)"
	}
	if k == 0 {
		return "take at least one token" + split
	}
	return fmt.Sprintf("in %v you may take %s tokens%s, not %d", g, OrList(ks), split, k)
}

// registerCode registers the octal or hexadecimal rule.
func registerCode(r *Rule, hex bool) {
	r.Params = []Param{
		{Key: "code", Kind: String, Example: `"0.77"`, Positional: true,
			Missing: `write the code in quotes, e.g. code: "0.77" (Kayles)`,
			Text:    Texts("the code: digit k says what taking k tokens may leave", "le code : le chiffre k dit ce que peut laisser la prise de k jetons")},
		UptoParam(100),
	}
	r.Analyses = []string{"rare"}
	r.Generators = codeGenerators(hex)
	r.Check = func(p Params) error {
		if _, err := parseCode(p.String("code"), hex); err != nil {
			return &ParamError{Key: "code", Msg: fmt.Sprintf("%s; write it in quotes, e.g. code: \"0.77\" (Kayles)", strings.TrimPrefix(err.Error(), "heap: "))}
		}
		return nil
	}
	Register(r)
}

// OctalRule is the name of the octal games' rule, for the packages whose
// work is about octal codes alone (the census and its tables).
const OctalRule = "octal"

func init() {
	registerCode(&Rule{
		Name:  OctalRule,
		Order: 30,
		Text: Texts(
			"an octal game: digit k of the code says what taking k tokens may leave (+1 nothing, +2 one heap, +4 two heaps)",
			"un jeu octal : le chiffre k du code dit ce que peut laisser la prise de k jetons (+1 rien, +2 un tas, +4 deux tas)"),
		Describe: Texts(
			`octal game {{.Code}}{{with name .Code}} ({{.}}){{end}}`,
			`jeu octal {{.Code}}{{with name .Code}} ({{.}}){{end}}`),
		Signature: `octal(code, upto=100, play="normal", position=None)`,
		Help:      `The octal game of the code, e.g. octal("0.77") (Kayles), octal("0.07") (Dawson's Kayles). Positions are lists of heaps. Methods: values(upto), period() (a proof by the Guy–Smith theorem), genus(upto) and quotient(upto) (misère play), rare(upto) (rare and common values, Winning Ways ch. 4), p_positions(upto), outcome(p), moves(p), graph(p), grundy(p), plot().`,
		New:       func(p Params) (Game, error) { return ParseOctal(p.String("code")) },
	}, false)
	registerCode(&Rule{
		Name:    "hex",
		Builtin: "hex_game",
		Order:   40,
		Text: Texts(
			"a hexadecimal game: an octal game whose digits may also have 8, leaving three heaps",
			"un jeu hexadécimal : un jeu octal dont les chiffres peuvent aussi contenir 8, qui laisse trois tas"),
		Describe: Texts(
			`hexadecimal game {{.Code}}`,
			`jeu hexadécimal {{.Code}}`),
		Signature: `hex_game(code, upto=100, play="normal", position=None)`,
		Help:      `The hexadecimal game of the code, e.g. hex_game("0.f"): as octal, with digit bit 8 splitting a heap into three. Also called hexa().`,
		New:       func(p Params) (Game, error) { return ParseHex(p.String("code")) },
	}, true)
}

// maxSurveyDigits bounds a survey's digits: K hexadecimal digits make
// 15·16^(K−1) + … codes.
const maxSurveyDigits = 6

// codeGenerators are the survey keys of a code: digits: K (every code
// 0.d1…dj with j ≤ K, or A ≤ j ≤ B for "A..B", and dj ≠ 0, by number of
// digits, then in increasing order) and codes: [...].
func codeGenerators(hex bool) []Generator {
	base := int64(8)
	if hex {
		base = 16
	}
	either := func(key string) func(has func(string) bool) error {
		return func(has func(string) bool) error {
			if has("code") {
				return fmt.Errorf("give either code or %s, not both", key)
			}
			if has(map[string]string{"digits": "codes", "codes": "digits"}[key]) {
				return fmt.Errorf("give either digits or codes, not both")
			}
			return nil
		}
	}
	span := func(a GeneratorArgs) (lo, hi int64, err error) {
		lo, hi, ranged, _, err := a.Span("digits", "the number of digits after the point", 1, maxSurveyDigits)
		if !ranged {
			lo = 1 // digits: K means every code with at most K digits
		}
		return lo, hi, err
	}
	pow := func(e int64) int64 {
		r := int64(1)
		for ; e > 0; e-- {
			r *= base
		}
		return r
	}
	return []Generator{{
		Key: "digits", Param: "code", Example: "digits: 3", Check: either("digits"),
		Count: func(a GeneratorArgs) (int64, string, error) {
			lo, hi, err := span(a)
			if err != nil {
				return 0, "", err
			}
			n := int64(0)
			for j := lo; j <= hi; j++ {
				n += (base - 1) * pow(j-1)
			}
			return n, fmt.Sprintf("codes of up to %d digits", hi), nil
		},
		Make: func(a GeneratorArgs) ([]any, error) {
			lo, hi, err := span(a)
			if err != nil {
				return nil, err
			}
			verb := "0.%0*o"
			if hex {
				verb = "0.%0*x"
			}
			var out []any
			for j := lo; j <= hi; j++ {
				for x := int64(0); x < pow(j); x++ {
					if x%base != 0 {
						out = append(out, fmt.Sprintf(verb, int(j), x))
					}
				}
			}
			return out, nil
		},
	}, {
		Key: "codes", Param: "code", Example: `codes: ["0.07", "0.77"]`, List: true, Check: either("codes"),
	}}
}
