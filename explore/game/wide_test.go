package game

import (
	"math/bits"
	"os"
	"strconv"
	"testing"
)

// wide is Node Kayles on grids of up to three rows and 42 columns, as
// gridKayles but on 128 bits (cell (r, c) is bit 3c + r), for the
// timings of 3 × n beyond 21 columns.
type wide struct{ lo, hi uint64 }

func (x wide) shl(k uint) wide {
	if k >= 64 {
		return wide{0, x.lo << (k - 64)}
	}
	if k == 0 {
		return x
	}
	return wide{x.lo << k, x.hi<<k | x.lo>>(64-k)}
}

func (x wide) shr(k uint) wide {
	if k >= 64 {
		return wide{x.hi >> (k - 64), 0}
	}
	if k == 0 {
		return x
	}
	return wide{x.lo>>k | x.hi<<(64-k), x.hi >> k}
}

func (x wide) and(y wide) wide    { return wide{x.lo & y.lo, x.hi & y.hi} }
func (x wide) or(y wide) wide     { return wide{x.lo | y.lo, x.hi | y.hi} }
func (x wide) andNot(y wide) wide { return wide{x.lo &^ y.lo, x.hi &^ y.hi} }
func (x wide) zero() bool         { return x.lo == 0 && x.hi == 0 }
func (x wide) less(y wide) bool   { return x.hi < y.hi || x.hi == y.hi && x.lo < y.lo }

func (x wide) lowest() wide {
	if x.lo != 0 {
		return wide{x.lo & -x.lo, 0}
	}
	return wide{0, x.hi & -x.hi}
}

func (x wide) trailing() uint {
	if x.lo != 0 {
		return uint(bits.TrailingZeros64(x.lo))
	}
	return 64 + uint(bits.TrailingZeros64(x.hi))
}

func (x wide) top() uint { // index of the highest bit
	if x.hi != 0 {
		return 127 - uint(bits.LeadingZeros64(x.hi))
	}
	return 63 - uint(bits.LeadingZeros64(x.lo))
}

var (
	wideRow0 = func() wide {
		var w wide
		for c := range 42 {
			w = w.or(wide{1, 0}.shl(uint(3 * c)))
		}
		return w
	}()
	wideRow1 = wideRow0.shl(1)
	wideRow2 = wideRow0.shl(2)
)

func wideGrid(r, n int) wide {
	var w wide
	for c := range n {
		for i := range r {
			w = w.or(wide{1, 0}.shl(uint(3*c + i)))
		}
	}
	return w
}

func (x wide) spread() wide {
	return x.or(x.shl(3)).or(x.shr(3)).or(x.shl(1).andNot(wideRow0)).or(x.shr(1).andNot(wideRow2))
}

type wideKayles struct{}

func (wideKayles) Moves(m wide) ([]wide, error) {
	var out []wide
	for r := m; !r.zero(); {
		v := r.lowest()
		r = r.andNot(v)
		out = append(out, m.andNot(v.spread()))
	}
	return out, nil
}

func (wideKayles) Components(m wide) ([]wide, error) {
	var out []wide
	for !m.zero() {
		x := m.lowest()
		for {
			y := x.spread().and(m)
			if y == x {
				break
			}
			x = y
		}
		out = append(out, x)
		m = m.andNot(x)
	}
	return out, nil
}

func (wideKayles) Canonical(m wide) (wide, error) {
	m = m.shift()
	best := m
	h := m.hflip().shift()
	v := m.vflip().shift()
	hv := h.vflip().shift()
	for _, x := range []wide{h, v, hv} {
		if x.less(best) {
			best = x
		}
	}
	return best, nil
}

func (m wide) shift() wide {
	if m.zero() {
		return m
	}
	m = m.shr(3 * (m.trailing() / 3))
	for m.and(wideRow0).zero() {
		m = m.shr(1)
	}
	return m
}

func (m wide) hflip() wide {
	w := m.top()/3 + 1
	var out wide
	for c := range w {
		col := m.shr(3 * c).and(wide{7, 0})
		out = out.or(col.shl(3 * (w - 1 - c)))
	}
	return out
}

func (m wide) vflip() wide {
	return m.and(wideRow0).shl(2).or(m.and(wideRow1)).or(m.and(wideRow2).shr(2))
}

// TestWideAgrees checks the 128-bit grid against the 64-bit one.
func TestWideAgrees(t *testing.T) {
	narrow, _ := NewSolver[uint64](splitGrid{}, Options{})
	s, _ := NewSolver[wide](wideKayles{}, Options{})
	for n := 1; n <= 14; n++ {
		a, _ := narrow.Grundy(grid(3, n))
		b, err := s.Grundy(wideGrid(3, n))
		if err != nil || a != b {
			t.Fatalf("3 × %d: %d on 64 bits, %d, %v on 128", n, a, b, err)
		}
	}
	if narrow.Len() != s.Len() {
		t.Errorf("%d parts on 64 bits, %d on 128", narrow.Len(), s.Len())
	}
}

// TestTimes3xN prints the CPU time of 3 × n, n = 1, 2, … on one solver,
// until one takes maxTimesSteps steps (or up to n = NIMBOOK_UPTO); NIMBOOK_TIMES=1
// runs it (with NIMBOOK_WORKERS=2 on two workers).
// maxTimesSteps ends TestTimes3xN after the first n that takes more
// steps (about a minute of CPU here): its CPU time is measured outside,
// with /usr/bin/time, not by the test.
const maxTimesSteps = 2_000_000_000

func TestTimes3xN(t *testing.T) {
	if os.Getenv("NIMBOOK_TIMES") == "" {
		t.Skip("NIMBOOK_TIMES=1 prints the timings")
	}
	workers := 1
	if os.Getenv("NIMBOOK_WORKERS") == "2" {
		workers = 2
	}
	upto := 42
	if v, err := strconv.Atoi(os.Getenv("NIMBOOK_UPTO")); err == nil {
		upto = v
	}
	s, _ := NewSolver[wide](wideKayles{}, Options{Workers: workers})
	for n := 1; n <= upto; n++ {
		before := s.Stats().Steps
		g, err := s.Grundy(wideGrid(3, n))
		if err != nil {
			t.Fatal(err)
		}
		st := s.Stats()
		t.Logf("3 × %d: g = %d, %d parts, %d steps (%d for this n), memo %d MiB", n, g, st.Solved, st.Steps, st.Steps-before, st.MemoBytes>>20)
		if st.Steps-before > maxTimesSteps {
			break
		}
	}
}
