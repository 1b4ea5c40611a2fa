/*
 * Coin-turning benchmark reference: the values of "turn over at most r
 * coins" (6 ≤ r ≤ 64) below 2^k by the algorithm of explore/coins'
 * lexicode.go, in C. With C_j the set of nim-sums of at most j distinct
 * earlier values (0 included), the next value is mex C_{r−1}, and
 * C_{r−1} = C_1 ⊕ C_{r−2}. So:
 *   - C_1 (the values) and C_2 (their pairwise nim-sums) are lists;
 *   - C_3 … C_{r−2} are bitsets of 2^k bits; appending v updates
 *     C_j ∪= C_{j−1} ⊕ v for j downwards a word at a time, and C_3 gains
 *     v ⊕ each element of C_0, C_1, C_2;
 *   - mex C_{r−1} is found lazily, a chunk of 256 words of candidates at a
 *     time: C_{r−2} ⊕ x is OR-ed into the chunk for x = 0 and then each
 *     value, newest first, until every candidate word is covered.
 * (lexicode.go also handles r < 6, checks its limits and context, and
 * grows its bitsets with the values; here they take 2^k bits at once.)
 *
 * A benchmark reference only, not part of nimbook: BenchmarkValuesBelow/
 * .../c-lazy compiles it with cc -O2 and runs it beside the Go code.
 * Usage: lazy r k, 6 ≤ r ≤ 64, 6 ≤ k ≤ 40. It prints "count hash", the
 * number of values below 2^k and h = 1000003·h + v over them in order
 * (mod 2^64), for the Go benchmark to check.
 */
#include "common.h"

#define CHUNK 256

static uint64_t *vals, *pairs, nvals, npairs;
static uint64_t acc[CHUNK];
static int live[CHUNK], nlive;

/* ORs C_top ⊕ x into the live words of the chunk at word q0, for each x
   of xs newest first, until every word is covered. */
static void cover(const uint64_t *top, uint64_t q0, const uint64_t *xs, uint64_t n) {
	for (uint64_t k = n; k-- > 0 && nlive > 0;) {
		uint64_t hi = q0 ^ xs[k] >> 6;
		unsigned lo = xs[k] & 63;
		int m = 0;
		for (int j = 0; j < nlive; j++) {
			int i = live[j];
			uint64_t w = acc[i] | xor_word(top[i ^ hi], lo);
			acc[i] = w;
			if (~w) live[m++] = i;
		}
		nlive = m;
	}
}

int main(int argc, char **argv) {
	int r = argc == 3 ? atoi(argv[1]) : 0, k = argc == 3 ? atoi(argv[2]) : 0;
	if (r < 6 || r > 64 || k < 6 || k > 40) {
		fprintf(stderr, "usage: %s r k, with 6 ≤ r ≤ 64 and 6 ≤ k ≤ 40\n", argv[0]);
		return 2;
	}
	uint64_t limit = 1ULL << k, words = limit / 64;
	int top = r - 2;
	uint64_t *C[65]; /* C[j] for 3 ≤ j ≤ top, with 0 in each */
	for (int j = 3; j <= top; j++) {
		C[j] = alloc(words, 8);
		C[j][0] = 1;
	}
	/* Room for the values and their pairs: for r ≥ 6 there are few. */
	const uint64_t maxvals = 1 << 12, maxpairs = maxvals * (maxvals - 1) / 2;
	vals = alloc(maxvals, 8);
	pairs = alloc(maxpairs, 8);
	static const uint64_t zero[1] = {0};
	uint64_t span = 64, pos = 0, count = 0, h = 0;
	for (;;) {
		/* v = the least candidate ≥ pos not in C_1 ⊕ C_top, or span. */
		uint64_t v = span, used = span / 64;
		for (uint64_t q0 = pos >> 6 & ~(uint64_t)(CHUNK - 1); q0 < used && v == span; q0 += CHUNK) {
			int n = used - q0 < CHUNK ? used - q0 : CHUNK;
			nlive = 0;
			for (int i = 0; i < n; i++) {
				uint64_t q = q0 + i;
				acc[i] = 0;
				if (q < pos >> 6) {
					acc[i] = ~0ULL;
					continue;
				}
				if (q == pos >> 6) acc[i] = (1ULL << (pos & 63)) - 1;
				live[nlive++] = i;
			}
			cover(C[top], q0, zero, 1);
			cover(C[top], q0, vals, nvals);
			if (nlive > 0) v = (q0 + live[0]) * 64 + __builtin_ctzll(~acc[live[0]]);
		}
		if (v >= limit) break;
		count++;
		h = h * 1000003 + v;
		if (nvals == maxvals) {
			fprintf(stderr, "too many values for this program\n");
			return 1;
		}
		/* Append v: every set gains its sums with v. */
		if (v >= span) span *= 2;
		used = span / 64;
		uint64_t hi = v >> 6;
		unsigned lo = v & 63;
		for (int j = top; j >= 4; j--) {
			uint64_t *dst = C[j], *src = C[j - 1];
			for (uint64_t w = 0; w < used; w++)
				if (src[w]) dst[w ^ hi] |= xor_word(src[w], lo);
		}
		uint64_t *c3 = C[3];
		c3[v >> 6] |= 1ULL << (v & 63);
		for (uint64_t i = 0; i < nvals; i++) {
			uint64_t y = vals[i] ^ v;
			c3[y >> 6] |= 1ULL << (y & 63);
		}
		for (uint64_t i = 0; i < npairs; i++) {
			uint64_t y = pairs[i] ^ v;
			c3[y >> 6] |= 1ULL << (y & 63);
		}
		for (uint64_t i = 0; i < nvals; i++) pairs[npairs++] = vals[i] ^ v;
		vals[nvals++] = v;
		pos = v + 1;
	}
	printf("%llu %llu\n", (unsigned long long)count, (unsigned long long)h);
	return 0;
}
