package misere

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
)

// A position is a count vector: pos[h] is the number of heaps of h
// (pos[0] unused). Words are lists of heaps in the order they are read.

// learner learns the quotient of the heaps 1..n as the minimal automaton
// of the P-positions, read heap by heap: the states are the elements, the
// access word of a state is a position mapped there, and the tests E are
// positions that tell the states apart (Angluin's L*, with the columns of
// a suffix-closed E and rows kept distinct). Membership is the exact
// misère outcome (oracle); hypotheses are checked by verify, which is a
// proof, and its counterexamples refine E.
type learner struct {
	g     heap.Game
	ctx   context.Context
	size  int // positions have heaps 0..size
	n     int // generators are the heaps 1..n
	opts  [][][]int
	steps int64
	polls int64 // calls of outcome, to look at the context between steps
	max   int64
	// maxMemory bounds the outcomes remembered and the tables of the
	// candidates (Limits.MaxMemory).
	maxMemory int64
	// held is the bytes of the candidate being built or proven: its tables
	// and verify's pairs.
	held int64

	memo map[string]bool

	// prev is the proven quotient of the heaps 1..n-1: positions without a
	// heap of n are decided through it.
	prevPhi []int32
	prevMul [][]int32
	prevP   []bool

	// cert predicts right every position of the heaps 1..n smaller than
	// certSize (verify's proof): the oracle asks it first.
	cert     *monoid
	certSize int
	// best is the refuted candidate for heap n proven right on the most
	// positions (those of size below bestSize).
	best     *monoid
	bestSize int
	// sync is false when the last quotient did not come from the states
	// (tryAdjoin): reseed makes them again from it.
	sync bool

	access [][]int // access word of each state
	pos    [][]int // its position
	rows   [][]uint64
	byRow  map[string]int
	tests  [][]int // E as words; tests[0] is the empty word
	trans  [][]int32
}

func newLearner(ctx context.Context, g heap.Game, size int, maxSteps int64) *learner {
	l := &learner{g: g, ctx: ctx, size: size, max: maxSteps, memo: map[string]bool{}}
	l.opts = make([][][]int, size+1)
	for h := 1; h <= size; h++ {
		l.opts[h] = g.Options(h)
	}
	l.tests = [][]int{{}}
	l.access = [][]int{{}}
	l.pos = [][]int{make([]int, size+1)}
	l.byRow = map[string]int{}
	l.sync = true
	return l
}

// tick counts work and stops it when the context is done or the steps run
// out; it is called in every inner loop.
func (l *learner) tick() error {
	l.steps++
	if l.steps&4095 == 0 {
		if l.ctx != nil {
			// The memory is sampled here too: the watchdog's samples come
			// late on a busy machine, while candidates' tables grow fast
			// (a position of 0.07 went past its 256 MiB limit).
			if err := budget.Check(l.ctx); err != nil {
				return fmt.Errorf("misere: %w", err)
			}
			if err := budget.Err(l.ctx); err != nil {
				return fmt.Errorf("misere: %w", err)
			}
		}
		if err := l.memory(); err != nil {
			return err
		}
		if l.max > 0 && l.steps > l.max {
			return fmt.Errorf("misere: %v: more than the limit of %d steps: %w", l.g, l.max, heap.ErrTooManySteps)
		}
	}
	return nil
}

// memory stops work past Limits.MaxMemory: about 128 bytes a remembered
// outcome, and the tables held twice over (candidates come and go, and
// the garbage collector lets the heap grow to twice what is live).
func (l *learner) memory() error {
	if err := budget.Exceeds(fmt.Sprintf("the misère quotient of %v", l.g), 128*int64(len(l.memo))+2*l.held, l.maxMemory); err != nil {
		return fmt.Errorf("misere: %w (raise it with --max-memory or limits.memory)", err)
	}
	return nil
}

func posKey(pos []int) string {
	b := make([]byte, 0, 2*len(pos))
	for _, c := range pos[1:] {
		b = binary.AppendUvarint(b, uint64(c))
	}
	return string(b)
}

// outcome is the exact misère outcome of pos (true = P): a position is P
// when it has a move and every move leads to an N-position. Positions
// without a heap of n go through the previous quotient.
func (l *learner) outcome(pos []int) (bool, error) {
	if l.prevMul != nil && pos[l.n] == 0 {
		x := int32(0)
		for h := 1; h < l.n; h++ {
			for range pos[h] {
				x = l.prevMul[x][l.prevPhi[h]]
			}
		}
		return l.prevP[x], nil
	}
	if l.cert != nil {
		size := 0
		for h, c := range pos {
			size += h * c
		}
		if size < l.certSize {
			return l.cert.predict(pos), nil
		}
	}
	// Remembered outcomes are most of the calls on big positions: they
	// are not steps, but the context and the memory watchdog are looked at
	// between them too (a misère position of 0.07 ran past SIGTERM and
	// twice its memory limit on remembered outcomes alone).
	if l.polls++; l.polls&(1<<16-1) == 0 && l.ctx != nil {
		if err := budget.Err(l.ctx); err != nil {
			return false, fmt.Errorf("misere: %w", err)
		}
	}
	k := posKey(pos)
	if v, ok := l.memo[k]; ok {
		return v, nil
	}
	if err := l.tick(); err != nil {
		return false, err
	}
	moved, p := false, true
	for h := 1; h <= l.n && p; h++ {
		if pos[h] == 0 {
			continue
		}
		pos[h]--
		for _, o := range l.opts[h] {
			moved = true
			for _, m := range o {
				pos[m]++
			}
			v, err := l.outcome(pos)
			for _, m := range o {
				pos[m]--
			}
			if err != nil {
				pos[h]++
				return false, err
			}
			if v {
				p = false
				break
			}
		}
		pos[h]++
	}
	v := moved && p
	l.memo[k] = v
	return v, nil
}

// row computes the outcomes of pos plus each test from column from on,
// appending them to bits.
func (l *learner) row(pos []int, bits []uint64, from int) ([]uint64, error) {
	for len(bits)*64 < len(l.tests) {
		bits = append(bits, 0)
	}
	for j := from; j < len(l.tests); j++ {
		for _, h := range l.tests[j] {
			pos[h]++
		}
		v, err := l.outcome(pos)
		for _, h := range l.tests[j] {
			pos[h]--
		}
		if err != nil {
			return nil, err
		}
		if v {
			bits[j/64] |= 1 << (j % 64)
		}
	}
	return bits, nil
}

func rowKey(bits []uint64) string {
	b := make([]byte, 8*len(bits))
	for i, w := range bits {
		binary.LittleEndian.PutUint64(b[8*i:], w)
	}
	return string(b)
}

// refresh recomputes every state's row after tests were added; rows stay
// distinct (columns only split them).
func (l *learner) refresh(from int) error {
	l.byRow = make(map[string]int, len(l.pos))
	for i := range l.pos {
		var bits []uint64
		if from > 0 {
			bits = l.rows[i]
		}
		bits, err := l.row(l.pos[i], bits, from)
		if err != nil {
			return err
		}
		if i < len(l.rows) {
			l.rows[i] = bits
		} else {
			l.rows = append(l.rows, bits)
		}
		l.byRow[rowKey(bits)] = i
	}
	return nil
}

// close fills the transitions of every state by every heap 1..n, adding
// a state whenever a successor has a new row.
func (l *learner) close() error {
	l.trans = l.trans[:0]
	for i := 0; i < len(l.pos); i++ {
		t := make([]int32, l.n+1)
		for h := 1; h <= l.n; h++ {
			p := l.pos[i]
			p[h]++
			bits, err := l.row(p, nil, 0)
			p[h]--
			if err != nil {
				return err
			}
			k := rowKey(bits)
			j, ok := l.byRow[k]
			if !ok {
				j = len(l.pos)
				np := append([]int(nil), p...)
				np[h]++
				l.pos = append(l.pos, np)
				l.access = append(l.access, append(append([]int(nil), l.access[i]...), h))
				l.rows = append(l.rows, bits)
				l.byRow[k] = j
			}
			t[h] = int32(j)
		}
		l.trans = append(l.trans, t)
	}
	return nil
}

func wordKey(w []int) string {
	b := make([]byte, 0, 2*len(w))
	for _, h := range w {
		b = binary.AppendUvarint(b, uint64(h))
	}
	return string(b)
}

// delta reads a word from state q.
func (l *learner) delta(q int32, word []int) int32 {
	for _, h := range word {
		q = l.trans[q][h]
	}
	return q
}

// commuteCounterexample looks for states q and heaps a, b with q a b and
// q b a in different states. Both words are the same position; the rows
// of the two states differ on some test e, so either the hypothesis reads
// (q a b) e and (q b a) e differently, and one of them is wrong, or it
// reads one of s e (s the access word of either state) unlike the table.
// It returns a wrongly predicted word, or nil when the hypothesis commutes.
func (l *learner) commuteCounterexample() ([]int, error) {
	for q := range l.trans {
		for a := 1; a <= l.n; a++ {
			for b := a + 1; b <= l.n; b++ {
				if err := l.tick(); err != nil {
					return nil, err
				}
				r1 := l.trans[l.trans[q][a]][b]
				r2 := l.trans[l.trans[q][b]][a]
				if r1 == r2 {
					continue
				}
				e := l.tests[firstDiff(l.rows[r1], l.rows[r2])]
				cands := [][]int{
					append(append(append([]int(nil), l.access[q]...), a, b), e...),
					append(append(append([]int(nil), l.access[q]...), b, a), e...),
					append(append([]int(nil), l.access[r1]...), e...),
					append(append([]int(nil), l.access[r2]...), e...),
				}
				for _, w := range cands {
					truth, err := l.outcome(wordPos(w, l.size))
					if err != nil {
						return nil, err
					}
					if l.accepts(w) != truth {
						return w, nil
					}
				}
				return nil, fmt.Errorf("misere: %v: internal error: states %d and %d do not commute, yet no word is wrong", l.g, r1, r2)
			}
		}
	}
	return nil, nil
}

// accepts is the hypothesis's outcome of a word (true = P).
func (l *learner) accepts(w []int) bool { return bit(l.rows[l.delta(0, w)], 0) }

// addCounterexample adds one test from a wrongly predicted word, found as
// Rivest and Schapire do: with a_i the outcome of the access word of the
// state reached by w[:i] followed by w[i:], a_0 is the truth and a_len(w)
// the prediction, so some i has a_i != a_(i+1), and the test w[i+1:] tells
// the state reached by w[:i+1] from the access word that stood for it.
func (l *learner) addCounterexample(w []int) error {
	alpha := func(i int) (bool, error) {
		q := l.delta(0, w[:i])
		p := wordPos(l.access[q], l.size)
		for _, h := range w[i:] {
			p[h]++
		}
		return l.outcome(p)
	}
	lo, hi := 0, len(w)
	alo, err := alpha(lo)
	if err != nil {
		return err
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		am, err := alpha(mid)
		if err != nil {
			return err
		}
		if am == alo {
			lo = mid
		} else {
			hi = mid
		}
	}
	e := append([]int(nil), w[hi:]...)
	k := wordKey(e)
	for _, t := range l.tests {
		if wordKey(t) == k {
			return fmt.Errorf("misere: %v: internal error: counterexample %v gives the known test %v", l.g, w, e)
		}
	}
	l.tests = append(l.tests, e)
	return nil
}

func firstDiff(a, b []uint64) int {
	for i := range a {
		if x := a[i] ^ b[i]; x != 0 {
			for j := 0; j < 64; j++ {
				if x&(1<<j) != 0 {
					return 64*i + j
				}
			}
		}
	}
	return -1
}

func bit(bits []uint64, j int) bool { return bits[j/64]&(1<<(j%64)) != 0 }

func wordPos(w []int, size int) []int {
	p := make([]int, size+1)
	for _, h := range w {
		p[h]++
	}
	return p
}

// hypothesis is the commutative monoid of the states: x·y is the state
// reached from x by y's access word (well defined once the heaps commute).
func (l *learner) hypothesis() *monoid {
	k := len(l.pos)
	m := &monoid{mul: make([][]int32, k), inP: make([]bool, k), phi: make([]int32, l.n+1)}
	for i := range k {
		m.mul[i] = make([]int32, k)
		for j := range k {
			m.mul[i][j] = l.delta(int32(i), l.access[j])
		}
		m.inP[i] = bit(l.rows[i], 0)
	}
	for h := 1; h <= l.n; h++ {
		m.phi[h] = l.trans[0][h]
	}
	return m
}

// monoid is a finite commutative monoid with its P-portion and the images
// of the heaps 0..n (phi[0] = 0, the identity).
type monoid struct {
	mul [][]int32
	inP []bool
	phi []int32
	// label, for a pair monoid, is 2x+1 for the pair (x, S) with S
	// meeting P, 2x otherwise: what the pair search checks.
	label []int32
}

// learnHeap extends the learner to the heaps 1..n and returns the proven
// quotient of those heaps. It first tries to map n onto an element of the
// previous quotient (prev, the monoid of the current states), which needs
// no outcome of a position with a heap of n beyond a few small ones.
func (l *learner) learnHeap(n int, prev *monoid) (*monoid, error) {
	l.n = n
	l.cert = nil
	if len(l.rows) < len(l.pos) {
		if err := l.refresh(0); err != nil {
			return nil, err
		}
	}
	if prev != nil && !l.sync {
		if err := l.reseed(prev); err != nil {
			return nil, err
		}
	}
	if prev != nil {
		m, err := l.tryExisting(n, prev)
		if err != nil || m != nil {
			return m, err
		}
		m, err = l.recalibrate(n, prev)
		if err != nil || m != nil {
			l.sync = false
			return m, err
		}
		// The old quotient, then deeper and deeper types of positions:
		// the pairs (x, S) reduced to what the pair search sees, the pairs
		// of those, ...
		bases := []*monoid{prev}
		for base := prev; len(bases) < 1+maxDepth; {
			pm, err := l.pairMonoid(base, n-1, maxPairs)
			if err != nil {
				return nil, err
			}
			if pm == nil {
				break
			}
			next := reduceBy(pm, pm.label)
			if len(next.mul) == len(base.mul) {
				break
			}
			bases = append(bases, next)
			base = next
		}
		l.best, l.bestSize = nil, 0
		for round := 0; round < maxRounds; round++ {
			before := l.bestSize
			for _, base := range bases {
				for k := 1; k <= maxPower; k++ {
					m, err := l.tryAdjoin(n, base, k)
					if err != nil || m != nil {
						l.sync = false
						return m, err
					}
				}
			}
			// Build the next candidates on the old heaps' part of the best
			// refuted one, which tells apart what the new heap needs.
			if l.best == nil || (round > 0 && l.bestSize <= before) {
				break
			}
			base := restrict(l.best, n)
			bases = []*monoid{base}
			pm, err := l.pairMonoid(base, n-1, maxPairs)
			if err != nil {
				return nil, err
			}
			if pm != nil {
				bases = append(bases, pm)
			}
		}
	}
	for {
		if err := l.close(); err != nil {
			return nil, err
		}
		w, err := l.commuteCounterexample()
		if err != nil {
			return nil, err
		}
		if w == nil {
			m := l.hypothesis()
			bad, least, err := l.verify(m, true)
			if err != nil {
				return nil, err
			}
			if bad == nil {
				l.cert = nil
				return m, nil
			}
			l.certify(m, least)
			w = bad
		}
		from := len(l.tests)
		if err := l.addCounterexample(w); err != nil {
			return nil, err
		}
		if err := l.refresh(from); err != nil {
			return nil, err
		}
	}
}

// certify keeps m as the oracle's first resort when it is proven right on
// more positions than the one kept.
func (l *learner) certify(m *monoid, least int) {
	if l.cert == nil || least > l.certSize {
		l.cert, l.certSize = m, least
	}
}

// tryExisting returns the previous quotient with heap n mapped onto one of
// its elements when verify proves that right, else nil. Candidates are
// first checked on n plus the smallest access words.
func (l *learner) tryExisting(n int, prev *monoid) (*monoid, error) {
	k := len(prev.mul)
	small := make([]int, 0, 8)
	for i := 0; i < len(l.access) && len(small) < 8; i++ {
		small = append(small, i)
	}
	truth := make([]bool, len(small))
	for j, i := range small {
		p := append([]int(nil), l.pos[i]...)
		p[n]++
		v, err := l.outcome(p)
		if err != nil {
			return nil, err
		}
		truth[j] = v
	}
	phi := append(append([]int32(nil), prev.phi[:n]...), 0)
next:
	for x := range int32(k) {
		for j, i := range small {
			if prev.inP[prev.mul[i][x]] != truth[j] {
				continue next
			}
		}
		phi[n] = x
		m := &monoid{mul: prev.mul, inP: prev.inP, phi: append([]int32(nil), phi...)}
		bad, least, err := l.verify(m, true)
		if err != nil {
			return nil, err
		}
		l.certify(m, least)
		if bad == nil {
			l.cert = nil
			for i := range l.trans {
				l.trans[i] = append(l.trans[i][:n], prev.mul[i][x])
			}
			return m, nil
		}
	}
	return nil, nil
}
