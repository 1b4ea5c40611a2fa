/*
 * Coin-turning benchmark reference: the values of "turn over at most r
 * coins" below 2^k, the lexicode of minimum distance r + 1, by the plain
 * bitset-layer construction. With C_j the set of nim-sums of at most j
 * distinct earlier values, the next value is mex C_{r−1}, and appending a
 * value v updates C_j ∪= C_{j−1} ⊕ v for j downwards; every C_j,
 * 1 ≤ j ≤ r − 1, is a bitset of 2^k bits, updated a word at a time (the
 * bits of a word are permuted by the low 6 bits of v, the words by the
 * rest). This is the straightforward form of explore/coins' lexicode.go,
 * which keeps C_1 and C_2 as lists and finds mex C_{r−1} = mex (C_1 ⊕
 * C_{r−2}) lazily, so that it keeps r − 4 bitsets where this keeps r − 1.
 *
 * A benchmark reference only, not part of nimbook: BenchmarkValuesBelow/
 * .../c-layers compiles it with cc -O2 and runs it beside the Go code.
 * Usage: layers r k, 2 ≤ r ≤ 64, 6 ≤ k ≤ 40. It prints "count hash", the
 * number of values below 2^k and h = 1000003·h + v over them in order
 * (mod 2^64), for the Go benchmark to check.
 */
#include "common.h"

int main(int argc, char **argv) {
	int r = argc == 3 ? atoi(argv[1]) : 0, k = argc == 3 ? atoi(argv[2]) : 0;
	if (r < 2 || r > 64 || k < 6 || k > 40) {
		fprintf(stderr, "usage: %s r k, with 2 ≤ r ≤ 64 and 6 ≤ k ≤ 40\n", argv[0]);
		return 2;
	}
	uint64_t limit = 1ULL << k, words = limit / 64;
	uint64_t *C[65]; /* C[j] for 1 ≤ j < r; 0 is in every C_j but not stored */
	for (int j = 1; j < r; j++) C[j] = alloc(words, 8);
	uint64_t span = 64, used = 1; /* the values so far are below span, in used words */
	uint64_t v = 1, count = 0, h = 0;
	for (;;) {
		/* v = mex C_{r−1} from the last value + 1: 0 and every value are in it. */
		for (; v < span; v = (v | 63) + 1) {
			uint64_t w = C[r - 1][v >> 6] | ((1ULL << (v & 63)) - 1) | (v < 64);
			if (~w) {
				v = (v & ~63ULL) + __builtin_ctzll(~w);
				break;
			}
		}
		if (v >= limit) break;
		count++;
		h = h * 1000003 + v;
		if (v >= span) span *= 2, used = span / 64;
		uint64_t hi = v >> 6;
		unsigned lo = v & 63;
		for (int j = r - 1; j >= 2; j--) {
			uint64_t *dst = C[j], *src = C[j - 1];
			for (uint64_t w = 0; w < used; w++)
				if (src[w]) dst[w ^ hi] |= xor_word(src[w], lo);
		}
		for (int j = 1; j < r; j++) C[j][hi] |= 1ULL << lo; /* 0 ⊕ v */
		v++;
	}
	printf("%llu %llu\n", (unsigned long long)count, (unsigned long long)h);
	return 0;
}
