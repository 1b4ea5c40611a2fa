package code

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

func TestFromValuesErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []uint64
	}{
		{"empty", nil},
		{"65 coins", make([]uint64, 65)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := FromValues(tc.values); err == nil {
				t.Fatal("no error")
			}
		})
	}
	if _, err := FromValues(make([]uint64, 64)); err != nil {
		t.Fatalf("64 coins: %v", err)
	}
}

// The test reference atMost against the seed table.
func TestAtMostValues(t *testing.T) {
	// seed 000 (Madore 2017), slide "Retournement de ≤ r pièces", table
	// f_r(1..10); also MATH.md "Coin-turning games".
	table := map[int][]uint64{
		1: {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
		2: {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		3: {1, 2, 4, 7, 8, 11, 13, 14, 16, 19},
		4: {1, 2, 4, 8, 15, 16, 32, 51, 64, 85},
		5: {1, 2, 4, 8, 16, 31, 32, 64, 103, 128},
		6: {1, 2, 4, 8, 16, 32, 63, 64, 128, 256},
		7: {1, 2, 4, 8, 16, 32, 64, 127, 128, 256},
		8: {1, 2, 4, 8, 16, 32, 64, 128, 255, 256},
		9: {1, 2, 4, 8, 16, 32, 64, 128, 256, 511},
	}
	for r := 1; r <= 9; r++ {
		if got := atMost(r, 10); !slices.Equal(got, table[r]) {
			t.Errorf("f_%d = %v, want %v", r, got, table[r])
		}
	}
}

// atMostMoves is "turn at most r coins" on rows of n coins (bit i = coin
// i+1): the rightmost turned coin goes from heads to tails.
func atMostMoves(r, n int) game.MoveFunc[uint64] {
	return func(row uint64) ([]uint64, error) {
		var out []uint64
		for j := 0; j < n; j++ {
			if row>>j&1 == 0 {
				continue
			}
			var rec func(start, left int, acc uint64)
			rec = func(start, left int, acc uint64) {
				out = append(out, acc)
				if left == 0 {
					return
				}
				for i := start; i < j; i++ {
					rec(i+1, left-1, acc^1<<i)
				}
			}
			rec(0, r-1, row^1<<j)
		}
		return out, nil
	}
}

// The code's Grundy values and P-positions agree with the generic solver
// on every row of small games.
func TestAgainstSolver(t *testing.T) {
	for r := 1; r <= 4; r++ {
		for n := 1; n <= 7; n++ {
			c := mustCode(atMost(r, n))
			s, err := game.NewSolver[uint64](atMostMoves(r, n), game.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for row := uint64(0); row < 1<<n; row++ {
				g, err := s.Grundy(row)
				if err != nil {
					t.Fatal(err)
				}
				if v := c.Value(row); v != g {
					t.Fatalf("r=%d n=%d row %b: value %d, solver %d", r, n, row, v, g)
				}
				if c.Contains(row) != (g == 0) {
					t.Fatalf("r=%d n=%d row %b: Contains = %v", r, n, row, c.Contains(row))
				}
			}
		}
	}
}

func TestBasis(t *testing.T) {
	rng := newRand(1)
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(20)
		vals := randomValues(rng, n)
		c := mustCode(vals)
		if c.Dim()+c.Rank() != n {
			t.Fatalf("%v: dim %d + rank %d != n", vals, c.Dim(), c.Rank())
		}
		seen := map[int]bool{}
		for _, b := range c.Basis() {
			if b == 0 || !c.Contains(b) || seen[lead(b)] {
				t.Fatalf("%v: bad basis %x", vals, c.Basis())
			}
			seen[lead(b)] = true
		}
		// Every row reduces to 0 by the basis iff it is in the code.
		for trial := 0; trial < 50; trial++ {
			row := rng.Uint64() & c.mask()
			r := row
			for i := len(c.basis) - 1; i >= 0; i-- {
				if r>>lead(c.basis[i])&1 == 1 {
					r ^= c.basis[i]
				}
			}
			if (r == 0) != c.Contains(row) {
				t.Fatalf("%v: row %x", vals, row)
			}
		}
		for i, v := range vals {
			if c.valueOf(c.coord[i]) != v {
				t.Fatalf("%v: coordinates of %d", vals, v)
			}
		}
		if bits.OnesCount64(c.mask()) != n {
			t.Fatal("mask")
		}
	}
}
