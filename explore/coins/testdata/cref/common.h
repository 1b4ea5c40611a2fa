/*
 * What the coin-turning benchmark references share (layers.c, lazy.c);
 * benchmark references only, not part of nimbook.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The word x with its bits permuted by b ↦ b ⊕ c (c < 64): the word of a
   bitset of nim-sums, once each element is XOR-ed with a value whose low
   6 bits are c (the words themselves move by the rest of the value). */
static inline uint64_t xor_word(uint64_t x, unsigned c) {
	static const uint64_t m[6] = {0x5555555555555555ULL, 0x3333333333333333ULL, 0x0f0f0f0f0f0f0f0fULL,
	                              0x00ff00ff00ff00ffULL, 0x0000ffff0000ffffULL, 0x00000000ffffffffULL};
	for (unsigned k = 0; k < 6; k++)
		if (c >> k & 1) {
			unsigned s = 1u << k;
			x = (x & m[k]) << s | (x >> s & m[k]);
		}
	return x;
}

static void *alloc(size_t n, size_t size) {
	void *p = calloc(n, size);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}
