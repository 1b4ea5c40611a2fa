package code

import (
	"context"
	"errors"
	"math/big"
	"math/bits"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var ctx = context.Background()

// Weight distributions of the codes of seed 000 (Madore 2017), slides "Le
// code de Hamming binaire", "Code de Hamming étendu" and "Le code de Golay
// binaire étendu (suite)"; MATH.md "P-positions are codes".
var seedCodes = []struct {
	name    string
	r, n    int
	weights map[int]uint64 // nonzero entries
	dim     int
	design  Design
	aut     string
}{
	// ≤ 2 coins on 7: Hamming [7,4], 16 P-positions; Fano plane.
	{"hamming", 2, 7, map[int]uint64{0: 1, 3: 7, 4: 7, 7: 1}, 4,
		Design{Holds: true, T: 2, K: 3, V: 7, Lambda: 1, Blocks: 7}, "168"},
	// ≤ 3 coins on 8: extended Hamming [8,4]; 3-(8,4,1).
	{"extended hamming", 3, 8, map[int]uint64{0: 1, 4: 14, 8: 1}, 4,
		Design{Holds: true, T: 3, K: 4, V: 8, Lambda: 1, Blocks: 14}, "1344"},
	// ≤ 7 coins on 24: Golay, 4096 = 2^12 P-positions: 1 all tails, 759
	// octads, 2576 dodecads, 759 (16), 1 all heads; S(5,8,24); M24 of
	// order 244 823 040.
	{"golay", 7, 24, map[int]uint64{0: 1, 8: 759, 12: 2576, 16: 759, 24: 1}, 12,
		Design{Holds: true, T: 5, K: 8, V: 24, Lambda: 1, Blocks: 759}, "244823040"},
}

func TestSeedWeights(t *testing.T) {
	for _, sc := range seedCodes {
		c := mustCode(atMost(sc.r, sc.n))
		want := make([]uint64, sc.n+1)
		for w, x := range sc.weights {
			want[w] = x
		}
		for _, m := range []struct {
			method Method
			run    func(context.Context, Limits) (*Distribution, error)
		}{{Enumeration, c.Enumerate}, {LinearAlgebra, c.LinearAlgebra}} {
			t.Run(sc.name+"/"+string(m.method), func(t *testing.T) {
				d, err := m.run(ctx, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if d.Method != m.method || !slices.Equal(d.Weights, want) {
					t.Errorf("%s: weights %v, want %v", d.Method, d.Weights, want)
				}
				if d.Count.Cmp(big.NewInt(1<<sc.dim)) != 0 || c.Dim() != sc.dim {
					t.Errorf("count %v, dim %d", d.Count, c.Dim())
				}
				if d.MinDistance != sc.r+1 {
					t.Errorf("min distance %d", d.MinDistance)
				}
			})
		}
	}
}

// byWeightBrute tallies every row by (weight, value).
func byWeightBrute(values []uint64) map[[2]uint64]uint64 {
	out := map[[2]uint64]uint64{}
	for row := uint64(0); row < 1<<len(values); row++ {
		var v uint64
		for i, x := range values {
			if row>>i&1 == 1 {
				v ^= x
			}
		}
		out[[2]uint64{uint64(bits.OnesCount64(row)), v}]++
	}
	return out
}

func TestMethodsAgree(t *testing.T) {
	rng := newRand(2)
	trials := 400
	if testing.Short() {
		trials = 100
	}
	for trial := 0; trial < trials; trial++ {
		n := 1 + rng.IntN(14)
		vals := randomValues(rng, n)
		c := mustCode(vals)
		e, err := c.Enumerate(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.LinearAlgebra(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		e.Method = l.Method
		if !reflect.DeepEqual(e, l) {
			t.Fatalf("%v: enumeration %+v, linear algebra %+v", vals, e, l)
		}
		if !slices.Equal(e.Weights, bruteWeights(vals)) {
			t.Fatalf("%v: weights %v, brute %v", vals, e.Weights, bruteWeights(vals))
		}
		if !slices.IsSorted(e.Values) || e.Values[0] != 0 {
			t.Fatalf("%v: values %v", vals, e.Values)
		}
		brute := byWeightBrute(vals)
		got := map[[2]uint64]uint64{}
		for w, row := range e.ByWeight {
			for j, x := range row {
				if x != 0 {
					got[[2]uint64{uint64(w), e.Values[j]}] = x
				}
			}
		}
		if !reflect.DeepEqual(got, brute) {
			t.Fatalf("%v: (weight, value) table differs from brute force", vals)
		}
	}
}

// The lexicode of "at most r" has minimum distance r + 1 (MATH.md).
func TestLexicodeMinDistance(t *testing.T) {
	for r := 1; r <= 7; r++ {
		for _, n := range []int{r + 1, r + 5, 20} {
			if n < r+1 {
				continue
			}
			c := mustCode(atMost(r, n))
			d, err := c.Distribution(ctx, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if d.MinDistance != r+1 {
				t.Errorf("r=%d n=%d: min distance %d (weights %v)", r, n, d.MinDistance, d.Weights)
			}
		}
	}
}

// TestCancel stops each long analysis with the context's cause.
func TestCancel(t *testing.T) {
	done, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted"))
	golay := mustCode(atMost(7, 24))
	if _, err := golay.Enumerate(done, Limits{}); !errors.Is(err, context.Canceled) || !strings.HasSuffix(err.Error(), ": interrupted") {
		t.Errorf("enumerate: %v", err)
	}
	if _, err := golay.LinearAlgebra(done, Limits{}); !errors.Is(err, context.Canceled) || !strings.HasSuffix(err.Error(), ": interrupted") {
		t.Errorf("linear algebra: %v", err)
	}
	if _, err := golay.Automorphisms(done, Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("automorphisms: %v", err)
	}
	if _, err := golay.Design(done, Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("design: %v", err)
	}
}

func TestMethodChoiceAndLimits(t *testing.T) {
	golay := mustCode(atMost(7, 24))
	t.Run("enumeration within limits", func(t *testing.T) {
		d, err := golay.Distribution(ctx, Limits{})
		if err != nil || d.Method != Enumeration {
			t.Fatalf("%v %v", d.Method, err)
		}
	})
	t.Run("linear algebra beyond MaxRows", func(t *testing.T) {
		d, err := golay.Distribution(ctx, Limits{MaxRows: 1 << 20})
		if err != nil || d.Method != LinearAlgebra || d.Weights[8] != 759 {
			t.Fatalf("%+v %v", d, err)
		}
	})
	t.Run("enumerate refuses", func(t *testing.T) {
		_, err := golay.Enumerate(ctx, Limits{MaxRows: 1000})
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "more than the limit of 1000 rows") {
			t.Fatalf("error %v", err)
		}
		_, err = golay.Enumerate(ctx, Limits{MaxCells: 1000})
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "more than the limit of 1000 counters") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("weights without table", func(t *testing.T) {
		d, err := golay.LinearAlgebra(ctx, Limits{MaxCells: 1000})
		if err != nil || d.ByWeight != nil || d.Weights[12] != 2576 || d.MinDistance != 8 {
			t.Fatalf("%+v %v", d, err)
		}
	})
	t.Run("linear algebra refuses", func(t *testing.T) {
		_, err := golay.LinearAlgebra(ctx, Limits{MaxRows: 100, MaxCells: 100})
		if !errors.Is(err, ErrLimit) {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := golay.Enumerate(cctx, Limits{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("enumerate: %v", err)
		}
		if _, err := golay.LinearAlgebra(cctx, Limits{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("linear algebra: %v", err)
		}
	})
}

// 64 coins of "at most 3": 2^64 rows, so only the linear algebra runs.
func TestSixtyFourCoins(t *testing.T) {
	c := mustCode(atMost(3, 64))
	d, err := c.Distribution(ctx, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Method != LinearAlgebra || d.MinDistance != 4 || c.Dim() != 57 {
		t.Fatalf("method %s, d %d, dim %d", d.Method, d.MinDistance, c.Dim())
	}
	var sum uint64
	for _, x := range d.Weights {
		sum += x
	}
	if sum != 1<<57 || d.Count.Cmp(new(big.Int).Lsh(big.NewInt(1), 57)) != 0 {
		t.Fatalf("sum %d, count %v", sum, d.Count)
	}
	// Every row with w heads is counted once across values.
	for w, row := range d.ByWeight {
		var s uint64
		for _, x := range row {
			s += x
		}
		if s != binom(64, w) {
			t.Fatalf("weight %d: %d rows, want C(64,%d)", w, s, w)
		}
	}
	z := mustCode(make([]uint64, 64)) // every row is a P-position
	if d, err := z.Distribution(ctx, Limits{}); err != nil || d.Count.String() != "18446744073709551616" || d.MinDistance != 1 {
		t.Fatalf("%+v %v", d, err)
	}
}
