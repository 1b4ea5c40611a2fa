package code

import (
	"errors"
	"math/bits"
	"slices"
	"testing"
)

func TestSeedDesigns(t *testing.T) {
	for _, sc := range seedCodes {
		t.Run(sc.name, func(t *testing.T) {
			d, err := mustCode(atMost(sc.r, sc.n)).Design(ctx, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			want := sc.design
			want.Method = Codewords
			if d != want {
				t.Errorf("got %+v, want %+v", d, want)
			}
		})
	}
}

// designBrute checks every t-subset of the points against every block.
func designBrute(n int, blocks []uint64) Design {
	d := Design{V: n, Blocks: len(blocks)}
	if len(blocks) == 0 {
		return d
	}
	d.K = bits.OnesCount64(blocks[0])
	for t := d.K; t >= 1; t-- {
		lambda, ok := uint64(0), true
		for _, s := range subsets(uint64(1)<<n-1, t, nil) {
			var cnt uint64
			for _, b := range blocks {
				if b&s == s {
					cnt++
				}
			}
			if lambda == 0 {
				lambda = cnt
			}
			if cnt == 0 || cnt != lambda {
				ok = false
				break
			}
		}
		if ok {
			d.Holds, d.T, d.Lambda = true, t, lambda
			return d
		}
	}
	return d
}

// minWordsBrute lists the nonzero P-positions of least weight.
func minWordsBrute(c *Code) []uint64 {
	var out []uint64
	best := 65
	for row := uint64(1); row < 1<<c.n; row++ {
		if !c.Contains(row) {
			continue
		}
		switch w := bits.OnesCount64(row); {
		case w < best:
			best, out = w, []uint64{row}
		case w == best:
			out = append(out, row)
		}
	}
	return out
}

func TestDesignBrute(t *testing.T) {
	rng := newRand(3)
	cases := [][]uint64{
		atMost(2, 15), atMost(3, 16), // Hamming [15,11] and [16,11]: 2- and 3-designs
		make([]uint64, 5), // all rows: blocks are the single coins, 1-(5,1,1)
		{1, 2, 4},         // only the empty row: no blocks
		{1, 1, 1, 1},      // even rows: all pairs, 2-(4,2,1)
	}
	for trial := 0; trial < 150; trial++ {
		cases = append(cases, randomValues(rng, 1+rng.IntN(11)))
	}
	for _, vals := range cases {
		c := mustCode(vals)
		words, m, err := c.MinWeightWords(ctx, Limits{})
		if err != nil || m != Codewords {
			t.Fatal(err, m)
		}
		if want := minWordsBrute(c); !slices.Equal(words, want) {
			t.Fatalf("%v: min words %x, want %x", vals, words, want)
		}
		// The subset search finds the same words.
		if c.Dim() > 0 {
			sub, m, err := c.MinWeightWords(ctx, Limits{MaxRows: 1<<c.Dim() - 1})
			if err == nil && (m != Subsets || !slices.Equal(sub, words)) {
				t.Fatalf("%v: subsets %x, want %x", vals, sub, words)
			}
			if err != nil && !errors.Is(err, ErrLimit) {
				t.Fatal(err)
			}
		}
		d, err := c.Design(ctx, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want := designBrute(c.n, words)
		want.Method = Codewords
		if d != want {
			t.Fatalf("%v: design %+v, brute %+v", vals, d, want)
		}
	}
}

func TestMinWeightWordsSubsets(t *testing.T) {
	// Hamming [15,11]: 2^11 codewords exceed MaxRows = 1000, the subsets
	// of ≤ 3 coins do not; the 35 lines of PG(3,2).
	c := mustCode(atMost(2, 15))
	words, m, err := c.MinWeightWords(ctx, Limits{MaxRows: 1000})
	if err != nil || m != Subsets || len(words) != 35 {
		t.Fatalf("%d words by %s: %v", len(words), m, err)
	}
	d, err := c.Design(ctx, Limits{MaxRows: 1000})
	if err != nil || !d.Holds || d.T != 2 || d.Lambda != 1 || d.Method != Subsets {
		t.Fatalf("%+v %v", d, err)
	}
	// Golay: the subsets of up to 8 coins exceed 1000 steps.
	if _, _, err := mustCode(atMost(7, 24)).MinWeightWords(ctx, Limits{MaxRows: 1000}); !errors.Is(err, ErrLimit) {
		t.Fatalf("error %v", err)
	}
	// The design check lists 42504 5-subsets: MaxCells 1000 refuses.
	if _, err := mustCode(atMost(7, 24)).Design(ctx, Limits{MaxCells: 1000}); !errors.Is(err, ErrLimit) {
		t.Fatalf("error %v", err)
	}
}

func TestBinom(t *testing.T) {
	for n := 0; n <= 64; n++ {
		r := uint64(1)
		for k := 0; k <= n; k++ {
			if got := binom(n, k); got != r {
				t.Fatalf("C(%d,%d) = %d, want %d", n, k, got, r)
			}
			if k < n {
				hi, lo := bits.Mul64(r, uint64(n-k))
				r, _ = bits.Div64(hi, lo, uint64(k+1))
			}
		}
	}
}
