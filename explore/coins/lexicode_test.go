package coins

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/internal/stopcheck"
)

// The lexicode agrees with the knapsack over one bitset per number of
// coins (subsetValues, the method before it) for every r ≤ 9, past several
// doublings of the bitsets, in both numberings.
func TestLexicodeMatchesKnapsack(t *testing.T) {
	for r := 2; r <= 9; r++ {
		n := 60
		if r <= 3 {
			n = 300
		}
		want, err := subsetValues(AtMost, r, n, Limits{}.withDefaults())
		if err != nil {
			t.Fatal(err)
		}
		for _, first := range []int{1, 0} {
			got, err := mustNew(t, AtMost, r, first).Values(n)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("at-most %d from %d: lexicode %v, knapsack %v", r, first, got, want)
			}
		}
	}
}

// OEIS A033623 (turn at most 4 coins; Winning Ways, Table 3, p. 433):
// its 43 listed terms.
var a033623 = []uint64{1, 2, 4, 8, 15, 16, 32, 51, 64, 85, 106, 128, 150, 171, 219, 237, 247, 256, 279, 297, 455, 512, 537, 557, 594, 643, 803, 863, 998, 1024, 1051, 1070, 1112, 1169, 1333, 1345, 1620, 1866, 2048, 2076, 2085, 2185, 2372}

// OEIS A054016 (turn at most 5 coins; "smallest nonnegative integer not
// the Nim sum of at most 4 earlier terms"): its 48 listed terms.
var a054016 = []uint64{1, 2, 4, 8, 16, 31, 32, 64, 103, 128, 171, 213, 256, 301, 342, 439, 475, 494, 512, 558, 595, 911, 1024, 1075, 1114, 1189, 1287, 1606, 1727, 1996, 2048, 2102, 2140, 2225, 2339, 2667, 2691, 3240, 3733, 4096, 4153, 4171, 4371, 4745, 4912, 5237, 5601, 5746}

func TestOEIS(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    int
		want []uint64
	}{{"A033623", 4, a033623}, {"A054016", 5, a054016}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, first := range []int{1, 0} {
				got, err := mustNew(t, AtMost, tc.r, first).Values(len(tc.want))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("at-most %d from %d: %v, OEIS %s %v", tc.r, first, got, tc.name, tc.want)
				}
			}
			// ValuesBelow stops at the bound: every listed term below it.
			limit := tc.want[len(tc.want)-1] + 1
			var got []uint64
			n, err := mustNew(t, AtMost, tc.r, 1).ValuesBelow(limit, func(coin int, v uint64) error {
				if coin != len(got)+1 {
					t.Fatalf("coin %d after %d values", coin, len(got))
				}
				got = append(got, v)
				return nil
			})
			if err != nil || n != len(tc.want) || !slices.Equal(got, tc.want) {
				t.Errorf("below %d: %d values %v, %v; want OEIS %s", limit, n, got, err, tc.name)
			}
		})
	}
}

// Conway and Sloane (Lexicographic codes, 1986; OEIS A075928): the
// lexicode of even distance 2t + 2 is that of odd distance 2t + 1 with a
// parity bit. For the values: f_{2t+1}(n+1) = 2·f_{2t}(n) + 1 − parity of
// f_{2t}(n), with f_{2t}(0) = 0 before the first coin. An independent
// check of long runs, every value below 2^16.
func TestParityExtension(t *testing.T) {
	for r := 2; r <= 8; r += 2 {
		even := collectBelow(t, r, 1<<15)
		odd := collectBelow(t, r+1, 1<<16)
		want := []uint64{1}
		for _, x := range even {
			want = append(want, 2*x+1-uint64(bits.OnesCount64(x)&1))
		}
		if !slices.Equal(odd, want) {
			t.Errorf("at-most %d (%d values) is not at-most %d (%d values) with a parity bit", r+1, len(odd), r, len(even))
		}
	}
}

func collectBelow(t *testing.T, r int, limit uint64) []uint64 {
	t.Helper()
	var out []uint64
	_, err := mustNew(t, AtMost, r, 1).WithLimits(Limits{MaxMemory: 1 << 30}).ValuesBelow(limit, func(_ int, v uint64) error {
		out = append(out, v)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestValuesBelow(t *testing.T) {
	tests := []struct {
		name  string
		rule  Rule
		r     int
		first int
		limit uint64
		want  string // b-file
		err   string
	}{
		{"nim", AtMost, 2, 1, 5, "1 1\n2 2\n3 3\n4 4\n", ""},
		{"mock turtles from 0", AtMost, 3, 0, 12, "0 1\n1 2\n2 4\n3 7\n4 8\n5 11\n", ""},
		{"below 1", AtMost, 4, 1, 1, "", ""},
		{"below 0", AtMost, 4, 1, 0, "", ""},
		{"seed f_9", AtMost, 9, 1, 512, "1 1\n2 2\n3 4\n4 8\n5 16\n6 32\n7 64\n8 128\n9 256\n10 511\n", ""},
		{"at-most 1", AtMost, 1, 1, 10, "", "at-most 1 has every value 1"},
		{"exactly", Exactly, 3, 1, 10, "", "need the at-most rule"},
		{"ruler", Ruler, 0, 1, 10, "", "need the at-most rule"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			n, err := mustNew(t, tc.rule, tc.r, tc.first).WriteBFile(&b, tc.limit)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "coins: ") {
					t.Errorf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || b.String() != tc.want || n != strings.Count(tc.want, "\n") {
				t.Errorf("b-file %q (%d values), %v; want %q", b.String(), n, err, tc.want)
			}
		})
	}
}

// Values are emitted as they are found, and an error of emit stops the
// computation and is returned.
func TestValuesBelowEmitError(t *testing.T) {
	stop := errors.New("disk full")
	calls := 0
	n, err := mustNew(t, AtMost, 4, 1).ValuesBelow(1<<20, func(int, uint64) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 3 || n != 2 {
		t.Errorf("after an emit error: %d values, %d calls, %v", n, calls, err)
	}
}

// The memory of every value below a bound is estimated before the work
// starts and refused over the limit, naming it; under the limit, the
// bitsets stay within it.
func TestValuesBelowMemory(t *testing.T) {
	for _, tc := range []struct {
		r, k  int
		limit int64
		want  string
	}{
		{7, 32, 1 << 30, "coins: at-most 7 values below 2^32 needs about 1.5 GiB, more than the memory limit of 1 GiB (raise it with --max-memory or limits.memory)"},
		{4, 30, 64 << 20, "coins: at-most 4 values below 2^30 needs about 128.4 MiB, more than the memory limit of 64 MiB (raise it with --max-memory or limits.memory)"},
		{9, 60, 1 << 40, "coins: at-most 9 values below 2^60 needs about 4096 PiB"},
	} {
		_, err := mustNew(t, AtMost, tc.r, 1).WithLimits(Limits{MaxMemory: tc.limit}).ValuesBelow(1<<tc.k, func(int, uint64) error { return nil })
		if !errors.Is(err, budget.ErrMemory) || !errors.Is(err, ErrLimit) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("at-most %d below 2^%d: %v", tc.r, tc.k, err)
		}
	}
	for r := 2; r <= 9; r++ {
		for _, k := range []int{6, 12, 20} {
			if need, limit := lexMemory(r, k), int64(1)<<20; k <= 12 && need > limit {
				t.Errorf("at-most %d below 2^%d: estimate %d bytes", r, k, need)
			}
		}
	}
}

// lexMaxCount is an upper bound: the values below 2^k are at most that
// many.
func TestLexMaxCount(t *testing.T) {
	for r := 2; r <= 9; r++ {
		for _, k := range []int{4, 8, 12, 16} {
			if r == 3 && k > 12 {
				continue
			}
			got := len(collectBelow(t, r, 1<<k))
			if bound := lexMaxCount(r, k); int64(got) > bound {
				t.Errorf("at-most %d below 2^%d: %d values, bound %d", r, k, got, bound)
			}
		}
	}
}

// A long computation stops as soon as it sees its context cancelled, with
// the cause, in the dense passes and in the search for the next value: the
// context cancels itself at the work's n-th check, and no value comes out
// after (a stopwatch would time the machine's load; TestLimitsInterrupt
// keeps the second of Ctrl-C end to end).
func TestValuesBelowCancel(t *testing.T) {
	for _, r := range []int{4, 9} {
		for _, at := range []int64{1, 4, 40, 400} {
			t.Run(fmt.Sprintf("at-most %d, check %d", r, at), func(t *testing.T) {
				ctx := stopcheck.At(context.Background(), at, errors.New("interrupted"))
				g := mustNew(t, AtMost, r, 1).WithLimits(Limits{MaxMemory: 4 << 30, Context: ctx})
				var after int
				_, err := g.ValuesBelow(1<<31, func(int, uint64) error {
					if ctx.Cancelled() {
						after++
					}
					return nil
				})
				if !ctx.Cancelled() {
					t.Fatalf("finished after %d checks: %v", ctx.Checks(), err)
				}
				if err == nil || err.Error() != "coins: interrupted" || !errors.Is(err, context.Canceled) {
					t.Errorf("cancelled: %v", err)
				}
				// A few checks on the way out; work going on would make
				// thousands.
				if after > 0 || ctx.ChecksAfter() > 10 {
					t.Errorf("%d values and %d checks after the cancel, want none and a few", after, ctx.ChecksAfter())
				}
			})
		}
	}
}
