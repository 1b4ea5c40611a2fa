package heap

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Standard forms of octal codes (T. Czajka's game lookup tables,
// github.com/tczajka/octal-games, GameLookup.md and src/all_games_exec.cc,
// whose rules are restated here in nimbook's terms).
//
// Many codes are the same game. Two rules find it:
//
//  1. When no move takes a whole heap of 1 (bit 1 of d1 is clear), a heap
//     of 1 is as good as no heap, and the game is the game on heaps one
//     smaller: taking k leaving one heap becomes taking k leaving one heap
//     or none, taking a whole heap of k becomes taking a whole heap of
//     k − 1, and a split after taking k becomes taking k + 1 leaving two
//     heaps, one heap or none (each part one smaller, perhaps empty). The
//     values move one heap left: g'(n) = g(n + 1). This is repeated until a
//     whole heap of 1 may be taken.
//  2. A move that changes no mex may be added: taking a whole heap of i
//     (i ≤ 3) when g(i) ≠ 0, for then 0 is already the value of an option
//     of heap i; taking i (i = 2, 3) leaving one heap when g(i) = 0 and d0
//     splits, the split n = i + (n − i) being worth the same; taking 3
//     when g(2) = 0 and d1 splits, as n = 2 + (n − 3) is worth the same.
//
// Codes whose normal forms are proven periodic from their first
// standardValues values with the same preperiod, period and values are
// one game; the others are one game when their normal forms are equal.
// The standard form of a code is the simplest code of its class among
// the codes with at most three digits (0.d1d2d3 and 4.d1d2d3): the
// shortest, then the first in byte order of the code written as the
// tables write it (writtenName: "4" before ".1", ".75" before "4.7",
// "4.3" before ".352"), as the lookup tables choose.

// standardValues is how many values decide a class: the lookup tables'.
const standardValues = 1000

// StandardForm is the code the published tables list for a code, and how
// its values line up: g_code(n) = g_standard(n − Shift) for n ≥ Shift,
// and g_code(n) = 0 below Shift (the other way round when Shift < 0).
type StandardForm struct {
	Code  string // in canonical form (Code), "4.0" for the code 4.
	Shift int
	// Reduced is how many heaps smaller the code's normal form is (rule
	// 1): g_code(n) = 0 for n ≤ Reduced and g_code(n + Reduced) is the
	// value of heap n of the normal form. The tables print the values of
	// normal forms, so the printed values of the class are the code's
	// from heap Reduced on.
	Reduced int
	// Solved says the class was proven periodic from its first 1000
	// values, by the lookup tables' rule.
	Solved bool
}

// Standard returns the standard form of an octal code with at most three
// digits after the point; ok is false for longer codes and for the code
// with no move, which the lookup tables do not cover.
func (g *Octal) Standard() (StandardForm, bool) {
	if len(g.digit) > 4 || len(g.digit) == 1 && g.digit[0] == 0 {
		return StandardForm{}, false
	}
	t := standardTable()
	if t.err != nil {
		return StandardForm{}, false
	}
	e, ok := t.byCode[g.Code()]
	return e, ok
}

// moveSets is a code as three sets of amounts k (bit k): taking a whole
// heap of k, taking k leaving one heap, taking k leaving two.
type moveSets struct{ whole, take, split uint64 }

func setsOf(c *code) moveSets {
	var m moveSets
	for k, d := range c.digit {
		if d&leaveNone != 0 {
			m.whole |= 1 << k
		}
		if d&leaveOne != 0 {
			m.take |= 1 << k
		}
		if d&leaveTwo != 0 {
			m.split |= 1 << k
		}
	}
	return m
}

func (m moveSets) code() *Octal {
	top := 0
	for k := 0; k < 64; k++ {
		if (m.whole|m.take|m.split)&(1<<k) != 0 {
			top = k
		}
	}
	c := code{digit: make([]uint8, top+1)}
	for k := range c.digit {
		var d uint8
		if m.whole&(1<<k) != 0 {
			d |= leaveNone
		}
		if m.take&(1<<k) != 0 {
			d |= leaveOne
		}
		if m.split&(1<<k) != 0 {
			d |= leaveTwo
		}
		c.digit[k] = d
	}
	return &Octal{c}
}

// normalize applies rule 1 as often as it applies, then rule 2: the
// normal form of g and how many heaps its values moved left.
func normalize(g *Octal) (*Octal, int, error) {
	m := setsOf(&g.code)
	shift := 0
	for m.whole&2 == 0 {
		if m.split>>62 != 0 || shift > 60 {
			return nil, 0, fmt.Errorf("heap: %v: no standard form (its heaps keep shrinking)", g)
		}
		m.split <<= 1
		m.take |= m.split
		m.whole = m.whole>>1 | m.take
		shift++
	}
	vs, err := m.code().Values(31, Limits{})
	if err != nil {
		return nil, 0, err
	}
	for i := 1; i <= 3; i++ {
		if vs[i] != 0 {
			m.whole |= 1 << i
		}
	}
	for i := 2; i <= 3; i++ {
		if vs[i] == 0 && m.split&1 != 0 {
			m.take |= 1 << i
		}
	}
	if vs[2] == 0 && m.split&2 != 0 {
		m.take |= 1 << 3
	}
	return m.code(), shift, nil
}

// lookupPeriod is the lookup tables' test of periodicity on vs: the least
// period p with its least start s such that len(vs) ≥ 2s + 2p + t − 1 and
// len(vs) ≥ p + t + 1 (t the last non-zero digit), ok false when none.
// It asks one heap more than Guy–Smith's window, and that is what decides
// the classes of the published tables.
func lookupPeriod(vs []uint64, t int) (start, period int, ok bool) {
	n := len(vs)
	for p := 1; p < n; p++ {
		if n < p+t+1 {
			break
		}
		s := n - p
		for s > 0 && vs[s-1] == vs[s-1+p] {
			s--
		}
		if n >= 2*s+2*p+t-1 {
			return s, p, true
		}
	}
	return 0, 0, false
}

// writtenName is a code as the lookup tables write it to rank simplicity:
// "4" for the code 4., ".75" for 0.75, "4.7" for 4.7. Written so, 0.75
// comes before 4.7 (the point sorts before the digits) but after 4.3, which
// is shorter; the tables rank so.
func writtenName(c *code) string {
	if len(c.digit) == 1 {
		return strconv.Itoa(int(c.digit[0]))
	}
	return strings.TrimPrefix(c.Code(), "0")
}

func simpler(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

type standardTables struct {
	byCode map[string]StandardForm
	err    error
}

// standardTable classifies every code with at most three digits, once.
var standardTable = sync.OnceValue(func() standardTables {
	type member struct {
		code  string
		name  string
		shift int
	}
	classes := map[string][]member{}
	solved := map[string]bool{}
	for d0 := 0; d0 <= 4; d0 += 4 {
		for x := 0; x < 512; x++ {
			if d0 == 0 && x == 0 {
				continue // no move at all
			}
			g, err := ParseOctal(fmt.Sprintf("%d.%03o", d0, x))
			if err != nil {
				return standardTables{err: err}
			}
			n, shift, err := normalize(g)
			if err != nil {
				return standardTables{err: err}
			}
			vs, err := n.Values(standardValues-1, Limits{})
			if err != nil {
				return standardTables{err: err}
			}
			var key string
			if s, p, ok := lookupPeriod(vs, n.last()); ok {
				var b strings.Builder
				fmt.Fprintf(&b, "solved %d %d", s, p)
				for _, v := range vs[:s+p] {
					fmt.Fprintf(&b, " %d", v)
				}
				key = b.String()
				solved[key] = true
			} else {
				key = "open " + n.Code()
			}
			classes[key] = append(classes[key], member{code: g.Code(), name: writtenName(&g.code), shift: shift})
		}
	}
	t := standardTables{byCode: map[string]StandardForm{}}
	for key, ms := range classes {
		rep := ms[0]
		for _, m := range ms[1:] {
			if simpler(m.name, rep.name) {
				rep = m
			}
		}
		for _, m := range ms {
			t.byCode[m.code] = StandardForm{Code: rep.code, Shift: m.shift - rep.shift, Reduced: m.shift, Solved: solved[key]}
		}
	}
	return t
})
