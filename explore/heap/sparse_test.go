package heap

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// A. Flammenkamp, tables of octal games (wwwhomes.uni-bielefeld.de/achim/octal.html),
// game 0.051: period 48, preperiod 48, largest value 5; G(0..47), then
// the period G(48..95).
var octal051 = []uint64{
	0, 0, 1, 1, 1, 0, 2, 2, 1, 3, 4, 0, 1, 1, 1, 3, 2, 2, 2, 3, 4, 0, 1, 5, 4, 3, 2, 2, 2, 3, 1, 0, 1, 0, 4, 3, 2, 2, 2, 0, 1, 0, 1, 0, 4, 3, 2, 5,
	4, 0, 1, 0, 1, 0, 2, 3, 2, 3, 4, 0, 1, 0, 1, 3, 2, 3, 2, 3, 4, 0, 1, 0, 4, 3, 2, 3, 2, 3, 1, 0, 1, 0, 4, 3, 2, 3, 2, 0, 1, 0, 1, 0, 4, 3, 2, 3,
}

// Flammenkamp's table, game 0.051: bitstring all ones (mask b = 0), sparse
// space of domain type with t = 2; the sparse positions up to the period
// are 0, 3, 7, 13, 17, 27, 37.
var octal051Sparse = []int{0, 3, 7, 13, 17, 27, 37}

func TestSparseSpaceFlammenkamp051(t *testing.T) {
	g := mustOctal(t, "0.051")
	vs := mustValues(t, g, 200)
	if !slices.Equal(vs[:96], octal051) {
		t.Fatalf("0.051 values differ from Flammenkamp's table:\n got %v\nwant %v", vs[:96], octal051)
	}
	if c := Period(g, vs); !c.Proven || c.Preperiod != 48 || c.Period != 48 {
		t.Errorf("0.051 period %+v, want preperiod 48, period 48", c)
	}
	if d, ok := g.SplitDigit(); !ok || d != 2 {
		t.Fatalf("SplitDigit = %d, %v; want 2", d, ok)
	}
	// The published split, applied to the published values.
	pub := SparseSpace{Mask: 0, Domain: true, T: 2}
	var got []int
	for n, v := range octal051 {
		if pub.IsRare(n, v) {
			got = append(got, n)
		}
	}
	if !slices.Equal(got, octal051Sparse) {
		t.Errorf("sparse positions by the definition: %v, want %v", got, octal051Sparse)
	}
	// The finder, on values to 200 (past two periods), finds that split.
	s, err := SparseSpaceOf(g, vs)
	if err != nil {
		t.Fatal(err)
	}
	if s.Mask != 0 || !s.Domain || s.T != 2 || s.CheckedTo != 200 || !slices.Equal(s.Rare, octal051Sparse) {
		t.Errorf("finder: %+v", s)
	}
	if want := "domain type (t = 2), mask 0: 7 rare positions in 0..200, the last 37"; s.String() != want {
		t.Errorf("String() = %q, want %q", s, want)
	}
}

// sparseReference is the definition, straightforwardly: every type and
// every mask b < 2^k, the positions counted one by one, the first least
// count kept (range before domain, smaller masks first).
func sparseReference(values []uint64, t int) SparseSpace {
	k := 0
	for _, v := range values {
		k = max(k, bits.Len64(v))
	}
	var best *SparseSpace
	for _, domain := range []bool{false, true} {
		if domain && t < 0 {
			continue
		}
		for b := uint64(0); b < 1<<k; b++ {
			s := SparseSpace{Mask: b, Domain: domain, CheckedTo: len(values) - 1}
			if domain {
				s.T = t
			}
			for n, v := range values {
				ones := 0
				for x := v &^ b; x != 0; x >>= 1 {
					ones += int(x & 1)
				}
				want := 0
				if domain {
					want = ((n-t)%2 + 2) % 2
				}
				if ones%2 == want {
					s.Rare = append(s.Rare, n)
				}
			}
			if best == nil || len(s.Rare) < len(best.Rare) {
				best = &s
			}
		}
	}
	return *best
}

func sameSplit(a, b SparseSpace) bool {
	return a.Mask == b.Mask && a.Domain == b.Domain && a.T == b.T && a.CheckedTo == b.CheckedTo && slices.Equal(a.Rare, b.Rare)
}

func splitDigit(g Game) int {
	if s, ok := g.(SingleSplitter); ok {
		if d, ok := s.SplitDigit(); ok {
			return d
		}
	}
	return NoDomain
}

// The transform against the enumeration, on values from the generic
// solver (small heaps of random codes and sets) and on long runs of the
// fast sweep.
func TestSparseSpaceAgainstEnumeration(t *testing.T) {
	games := append(randomGames(t, 6), mustOctal(t, "0.051"), mustOctal(t, "0.16"), mustOctal(t, "0.77"), mustOctal(t, "0.07"), mustHex(t, "0.f"))
	for _, g := range games {
		t.Run(g.String(), func(t *testing.T) {
			vs := referenceValues(t, g, 18)
			d := splitDigit(g)
			got, err := SparseSpaceOf(g, vs)
			if err != nil {
				t.Fatal(err)
			}
			if want := sparseReference(vs, d); !sameSplit(got, want) {
				t.Errorf("values %v, t = %d:\n got %+v\nwant %+v", vs, d, got, want)
			}
			if d >= 0 { // the range type alone too
				got, _ := FindSparseSpace(vs, NoDomain)
				if want := sparseReference(vs, NoDomain); !sameSplit(got, want) {
					t.Errorf("range only: got %+v, want %+v", got, want)
				}
			}
		})
	}
	for _, tc := range []struct {
		code string
		upto int
	}{{"0.16", 2000}, {"0.56", 600}, {"0.127", 600}, {"0.051", 300}, {"0.376", 400}} {
		t.Run(tc.code+" long", func(t *testing.T) {
			g := mustOctal(t, tc.code)
			vs := mustValues(t, g, tc.upto)
			got, err := SparseSpaceOf(g, vs)
			if err != nil {
				t.Fatal(err)
			}
			if want := sparseReference(vs, splitDigit(g)); !sameSplit(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// With the mask found, the range type agrees with the definition on every
// value, and rare values behave as the parity says: rare ⊕ rare and
// common ⊕ common are rare, rare ⊕ common is common.
func TestSparseSpaceRangeProperty(t *testing.T) {
	g := mustOctal(t, "0.16")
	vs := mustValues(t, g, 1000)
	s, err := FindSparseSpace(vs, NoDomain)
	if err != nil {
		t.Fatal(err)
	}
	if s.Domain {
		t.Fatalf("range type asked, got %+v", s)
	}
	var want []int
	for n, v := range vs {
		rare := bits.OnesCount64(v&^s.Mask)%2 == 0
		if s.IsRare(n, v) != rare {
			t.Fatalf("IsRare(%d, %d) = %v", n, v, !rare)
		}
		if rare {
			want = append(want, n)
		}
	}
	if !slices.Equal(s.Rare, want) {
		t.Errorf("Rare = %v, want %v", s.Rare, want)
	}
	for x := range uint64(64) {
		for y := range uint64(64) {
			if s.IsRare(0, x^y) != (s.IsRare(0, x) == s.IsRare(0, y)) {
				t.Fatalf("%d ⊕ %d breaks the parity rule", x, y)
			}
		}
	}
}

// For 0.16 the search ignores bit 0 (found here; the definition then makes
// the rare values 0, 1, 6, 7, 10, 11, 12, 13, …: an even number of ones
// above bit 0).
func TestSparseSpace016(t *testing.T) {
	g := mustOctal(t, "0.16")
	s, err := SparseSpaceOf(g, mustValues(t, g, 2000))
	if err != nil {
		t.Fatal(err)
	}
	if s.Mask != 1 || s.Domain {
		t.Fatalf("0.16: %v, want range type with mask 1", s)
	}
	var rare []uint64
	for v := range uint64(14) {
		if s.IsRare(0, v) {
			rare = append(rare, v)
		}
	}
	if !slices.Equal(rare, []uint64{0, 1, 6, 7, 10, 11, 12, 13}) {
		t.Errorf("rare values below 14: %v", rare)
	}
	// Found here, not published: 50 rare positions up to 2000, the last
	// 1244 (the enumeration of TestSparseSpaceAgainstEnumeration agrees).
	if len(s.Rare) != 50 || s.Rare[len(s.Rare)-1] != 1244 {
		t.Errorf("0.16 to 2000: %v", s)
	}
}

func TestSplitDigit(t *testing.T) {
	tests := []struct {
		g  interface{ SplitDigit() (int, bool) }
		t  int
		ok bool
	}{
		{mustOctal(t, "0.051"), 2, true},
		{mustOctal(t, "0.07"), 2, true},
		{mustOctal(t, "0.137"), 3, true},
		{mustOctal(t, "4.07"), 0, false}, // d0 = 4 splits too
		{mustOctal(t, "4.3"), 0, true},
		{mustOctal(t, "0.77"), 0, false},
		{mustOctal(t, "0.33"), 0, false},
		{mustHex(t, "0.8"), 1, true}, // a three-way split
		{mustHex(t, "0.48"), 0, false},
	}
	for _, tc := range tests {
		if d, ok := tc.g.SplitDigit(); d != tc.t || ok != tc.ok {
			t.Errorf("%v: SplitDigit() = %d, %v; want %d, %v", tc.g, d, ok, tc.t, tc.ok)
		}
	}
}

func TestSparseSpaceEdges(t *testing.T) {
	// IsRare with n < T: the parity of a negative n − T.
	s := SparseSpace{Domain: true, T: 3}
	if !s.IsRare(0, 1) || s.IsRare(0, 0) || !s.IsRare(1, 0) {
		t.Error("domain parity for n < T")
	}
	// All zeros: one mask; range type makes every position rare, the
	// domain type half of them.
	got, err := FindSparseSpace(make([]uint64, 5), 1)
	if err != nil || !got.Domain || !slices.Equal(got.Rare, []int{1, 3}) {
		t.Errorf("zeros: %+v, %v", got, err)
	}
	if _, err := FindSparseSpace(nil, NoDomain); err == nil || !strings.HasPrefix(err.Error(), "heap: ") {
		t.Errorf("no values: %v", err)
	}
	if _, err := FindSparseSpace([]uint64{0, 1<<MaxSparseBits - 1}, NoDomain); err != nil {
		t.Errorf("%d bits refused: %v", MaxSparseBits, err)
	}
	_, err = SparseSpaceOf(mustOctal(t, "0.7"), []uint64{0, 1 << MaxSparseBits})
	if !errors.Is(err, ErrTooManyBits) || !strings.Contains(err.Error(), fmt.Sprintf("more than the limit of 2^%d", MaxSparseBits)) || !strings.HasPrefix(err.Error(), "heap: octal 0.7: ") {
		t.Errorf("too many bits: %v", err)
	}
}
