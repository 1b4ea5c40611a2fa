package code

import (
	"errors"
	"math/big"
	"slices"
	"testing"
)

func TestSeedAutomorphisms(t *testing.T) {
	for _, sc := range seedCodes {
		t.Run(sc.name, func(t *testing.T) {
			c := mustCode(atMost(sc.r, sc.n))
			a, err := c.Automorphisms(ctx, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Order.String() != sc.aut || a.Method != StabiliserChain {
				t.Errorf("order %v, want %s", a.Order, sc.aut)
			}
			checkAut(t, c, a)
		})
	}
}

// checkAut checks that the generators are automorphisms fixing the right
// points and that the orbits multiply to the order.
func checkAut(t *testing.T, c *Code, a *Automorphisms) {
	t.Helper()
	prod := big.NewInt(1)
	for _, o := range a.Orbits {
		prod.Mul(prod, big.NewInt(int64(o)))
	}
	if prod.Cmp(a.Order) != 0 {
		t.Fatalf("orbits %v do not multiply to %v", a.Orbits, a.Order)
	}
	for _, g := range a.Generators {
		if s := slices.Sorted(slices.Values(g)); len(s) != c.n || s[0] != 0 || s[c.n-1] != c.n-1 || len(slices.Compact(s)) != c.n {
			t.Fatalf("generator %v is not a permutation", g)
		}
		for _, b := range c.basis {
			if !c.Contains(permute(b, g)) {
				t.Fatalf("generator %v is not an automorphism", g)
			}
		}
	}
}

// autBrute counts the permutations mapping the code into itself.
func autBrute(c *Code) int64 {
	var count int64
	permutations(c.n, func(p []int) {
		for _, b := range c.basis {
			if !c.Contains(permute(b, p)) {
				return
			}
		}
		count++
	})
	return count
}

func TestAutomorphismsBrute(t *testing.T) {
	rng := newRand(4)
	cases := [][]uint64{
		{0}, {1}, {0, 0, 0}, {1, 2, 4, 8}, {1, 1, 1, 1, 1, 1}, {0, 1, 1, 2, 2, 3, 3},
	}
	trials := 300
	if testing.Short() {
		trials = 80
	}
	for trial := 0; trial < trials; trial++ {
		n := 1 + rng.IntN(7)
		if trial%30 == 0 {
			n = 8
		}
		cases = append(cases, randomValues(rng, n))
	}
	for _, vals := range cases {
		c := mustCode(vals)
		a, err := c.Automorphisms(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if want := autBrute(c); a.Order.Cmp(big.NewInt(want)) != 0 {
			t.Fatalf("%v: order %v, brute force %d", vals, a.Order, want)
		}
		checkAut(t, c, a)
	}
}

func factorial(n int64) *big.Int { return new(big.Int).MulRange(1, n) }

// Codes whose groups are known by theory.
func TestAutomorphismsKnown(t *testing.T) {
	hamming2 := append(atMost(2, 7), shift(atMost(2, 7), 3)...) // two Hamming codes side by side
	for _, tc := range []struct {
		name   string
		values []uint64
		want   *big.Int
	}{
		// Every row a P-position, or none but the empty row: all n! orders.
		{"all rows, 64 coins", make([]uint64, 64), factorial(64)},
		{"empty row only, 20 coins", powers(20), factorial(20)},
		// The even rows (turn at most 1 coin): S_n.
		{"even rows", atMost(1, 30), factorial(30)},
		// Hamming [15,11]: GL(4,2), 20160; extended [16,11]: AGL(4,2).
		{"hamming 15", atMost(2, 15), big.NewInt(20160)},
		{"extended hamming 16", atMost(3, 16), big.NewInt(16 * 20160)},
		// C ⊕ C for the indecomposable Hamming [7,4]: Aut(C) ≀ S2.
		{"two hamming codes", hamming2, big.NewInt(168 * 168 * 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustCode(tc.values)
			a, err := c.Automorphisms(ctx, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if a.Order.Cmp(tc.want) != 0 {
				t.Errorf("order %v, want %v", a.Order, tc.want)
			}
			checkAut(t, c, a)
		})
	}
}

func shift(vs []uint64, s int) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = v << s
	}
	return out
}

func powers(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = 1 << i
	}
	return out
}

// Larger random codes: no brute force, but the search must finish and its
// generators must be automorphisms.
func TestAutomorphismsRandomLarge(t *testing.T) {
	rng := newRand(5)
	trials := 40
	if testing.Short() {
		trials = 10
	}
	for trial := 0; trial < trials; trial++ {
		n := 9 + rng.IntN(40)
		vals := make([]uint64, n)
		width := 1 + rng.IntN(n-1)
		for i := range vals {
			vals[i] = rng.Uint64() & (1<<width - 1)
		}
		c := mustCode(vals)
		a, err := c.Automorphisms(ctx, Limits{})
		if err != nil {
			t.Fatalf("%v: %v", vals, err)
		}
		checkAut(t, c, a)
	}
}

func TestAutomorphismsLimits(t *testing.T) {
	golay := mustCode(atMost(7, 24))
	if _, err := golay.Automorphisms(ctx, Limits{MaxRows: 10}); !errors.Is(err, ErrLimit) {
		t.Fatalf("error %v", err)
	}
}

// The brute-force reference itself: n! distinct permutations, and the
// Hamming [7,4] group of order 168 (seed 000's code, GL(3,2)).
func TestBruteReference(t *testing.T) {
	seen := map[[8]int]bool{}
	permutations(6, func(p []int) {
		var k [8]int
		copy(k[:], p)
		seen[k] = true
	})
	if len(seen) != 720 {
		t.Fatalf("%d permutations of 6", len(seen))
	}
	if got := autBrute(mustCode(atMost(2, 7))); got != 168 {
		t.Fatalf("brute force Hamming: %d", got)
	}
}
