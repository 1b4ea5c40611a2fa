package heap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// scanCase is a random scan for the vector scans' tests: parts lo and
// his (one digit or more, n + 2 values each, below width), the values
// looked for stamped st in need and set in set, and how many to find.
type scanCase struct {
	width   uint32
	n       int
	lo      []uint32
	his     [][]uint32
	need    []uint32
	set     [8]uint64
	st      uint32
	missing int
	left    int
}

// newScanCase draws trial's case with digits his, or returns nil when no
// value is looked for.
func newScanCase(r *rand.Rand, trial, digits int) *scanCase {
	c := &scanCase{width: uint32(1) << (1 + r.IntN(9)), n: r.IntN(200), st: uint32(trial + 1)} // width 2..512
	if trial%50 == 0 {
		c.n = r.IntN(5000)
	}
	c.lo = make([]uint32, c.n+2)
	for i := range c.lo {
		c.lo[i] = r.Uint32N(c.width)
	}
	for range digits {
		hi := make([]uint32, c.n+2)
		for i := range hi {
			hi[i] = r.Uint32N(c.width)
		}
		c.his = append(c.his, hi)
	}
	c.need = make([]uint32, 4*512)
	for v := range c.width {
		if r.IntN(4) == 0 {
			c.need[v] = c.st
			c.set[v/64] |= 1 << (v % 64)
			c.missing++
		}
	}
	if c.missing == 0 {
		return nil
	}
	c.left = 1 + r.IntN(c.missing)
	return c
}

// check compares a vector scan's rest and scanned with the reference's,
// and its set with the reference's need.
func (c *scanCase) check(t *testing.T, trial, rest, scanned, wantRest, wantScanned int) {
	t.Helper()
	if rest != wantRest || scanned != wantScanned {
		t.Fatalf("trial %d (n %d, width %d, left %d): got rest %d scanned %d, want %d %d", trial, c.n, c.width, c.left, rest, scanned, wantRest, wantScanned)
	}
	for v := range c.width {
		if got, want := c.set[v/64]>>(v%64)&1 == 1, c.need[v] == c.st; got != want {
			t.Fatalf("trial %d: value %d left in set %v, in need %v", trial, v, got, want)
		}
	}
}

// TestScanSetAVX512 compares the vector scan with scanMissing on random
// splits: values, sets, lengths and counts to find.
func TestScanSetAVX512(t *testing.T) {
	if !haveScanSet {
		t.Skip("no AVX-512 VBMI on this machine")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 20000 {
		c := newScanCase(r, trial, 1)
		if c == nil {
			continue
		}
		wantRest, wantScanned := scanMissing(c.lo, c.his[0], c.need, c.n, c.st, c.left)
		rest, scanned := c.left, 0
		if c.n > 0 {
			rest, scanned = scanSetAVX512(&c.lo[1], &c.his[0][1], c.n, &c.set, c.left, nil, 0)
		}
		c.check(t, trial, rest, scanned, wantRest, wantScanned)
	}
}

// TestScanFirstSet compares the look-ahead helper's scan on the vector
// unit with scanFirst: where it stops, and the first split of each value.
func TestScanFirstSet(t *testing.T) {
	if !haveScanSet {
		t.Skip("no AVX-512 VBMI on this machine")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 5000 {
		width := uint32(1) << (1 + r.IntN(9))
		n := 1 + r.IntN(3000)
		vs, win := make([]uint32, n+1), make([]uint32, n+1)
		for i := range vs {
			vs[i], win[i] = r.Uint32N(width), r.Uint32N(width)
		}
		lo := 1 + r.IntN(n)
		hi := lo + r.IntN(n-lo+1)
		st := uint32(trial + 1)
		need, needSet := make([]uint32, 2048), make([]uint32, 2048)
		first, firstSet := make([]uint32, 2048), make([]uint32, 2048)
		var found []uint64
		for v := range width {
			if r.IntN(3) == 0 {
				need[v], needSet[v] = st, st
				found = append(found, uint64(v))
			}
		}
		if len(found) == 0 {
			continue
		}
		_, want := scanFirst(vs, win, need, first, lo, hi, st, len(found))
		got := scanFirstSet(vs, win, needSet, firstSet, found, lo, hi, st)
		if got != want {
			t.Fatalf("trial %d (lo %d, hi %d, %d values): stopped at %d, want %d", trial, lo, hi, len(found), got, want)
		}
		for _, e := range found {
			v := uint32(e)
			if (need[v] == st) != (needSet[v] == st) || (need[v] != st && first[v] != firstSet[v]) {
				t.Fatalf("trial %d: value %d: need %d first %d, want need %d first %d", trial, v, needSet[v], firstSet[v], need[v], first[v])
			}
		}
	}
}

// TestScanSet2AVX512 compares the two-digit vector scan with the order of
// the one-worker sweep's (findMissing): digit 0's split, then digit 1's,
// part after part.
func TestScanSet2AVX512(t *testing.T) {
	if !haveScanSet {
		t.Skip("no AVX-512 VBMI on this machine")
	}
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 20000 {
		c := newScanCase(r, trial, 2)
		if c == nil {
			continue
		}
		wantRest, wantScanned := c.left, c.n
	scan:
		for i := range c.n {
			for _, hi := range c.his {
				if v := c.lo[i] ^ hi[i]; c.need[v] == c.st {
					c.need[v] = 0
					if wantRest--; wantRest == 0 {
						wantScanned = i + 1
						break scan
					}
				}
			}
		}
		rest, scanned := scanSet2AVX512(&c.lo[0], &c.his[0][0], &c.his[1][0], c.n, &c.set, c.left)
		c.check(t, trial, rest, scanned, wantRest, wantScanned)
	}
}

// TestScanSetSweeps runs the one-worker sweeps of one and two split
// digits with the vector scans and with the Go loops: the same values, the
// same steps, the vector unit taking some scans (those of heaps after deep
// scans: vectorScan), and the values those of the plain sweep, which takes
// the mex of every option.
func TestScanSetSweeps(t *testing.T) {
	if !haveScanSet {
		t.Skip("no AVX-512 VBMI on this machine")
	}
	for _, tc := range []struct {
		code string
		upto int
	}{
		{"0.6", 1 << 16},   // Officers: one split digit
		{"0.376", 1 << 16}, // two split digits
		{"0.354", 1 << 16}, // two, with short scans
	} {
		t.Run(tc.code, func(t *testing.T) {
			g := must(ParseOctal(tc.code))
			lim := Limits{MaxSteps: 1 << 40}
			run := func(vector bool) ([]uint64, *sweep) {
				defer func(had bool) { haveScanSet = had }(haveScanSet)
				haveScanSet = vector
				p, err := g.plan(g, tc.upto, lim)
				if err != nil {
					t.Fatal(err)
				}
				if p.cost.Method != SweepSparse {
					t.Fatalf("%s sweep; want the sparse-space sweep", p.cost.Method)
				}
				p.sweep.lookahead = false
				vs, err := p.sweep.finish(g, tc.upto, lim)
				if err != nil {
					t.Fatal(err)
				}
				return vs, p.sweep
			}
			vv, vw := run(true)
			sv, sw := run(false)
			if !slices.Equal(vv, sv) {
				t.Errorf("values differ between the vector scans and the Go loops")
			}
			if vw.steps != sw.steps {
				t.Errorf("steps: %d with the vector scans, %d with the Go loops", vw.steps, sw.steps)
			}
			if vw.sc.vectorScans == 0 || sw.sc.vectorScans != 0 {
				t.Errorf("scans on the vector unit: %d, and %d with the Go loops alone; want some, and none", vw.sc.vectorScans, sw.sc.vectorScans)
			}
			plain, err := g.splitValues(g, tc.upto, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(vv, plain) {
				t.Errorf("values differ from the plain sweep's")
			}
		})
	}
}
