/*
 * Wythoff benchmark reference: the algorithm of explore/wythoff's fill.go
 * (one worker) in C. Every row, column and diagonal has a seen set, in one
 * block of B = W + S + 1 words: a bitset of the values in the line so far
 * (W words), a summary of it (S words: bit k set when word k is full) and
 * the index of the summary's first word not full. A cell's value is the
 * first zero bit of the OR of its three sets; the OR is full on the words
 * where one set is, so the candidate words are the zero bits of the OR of
 * the three summaries, from the largest of their first words not full.
 * The cells are filled in tiles of H lines of T cells (H = 512, fewer when
 * the H rows' sets would take more than 2 MiB or H > n/4, and T = 64, as
 * fill.go with one worker),
 * each tile row by row, so that the words a tile touches stay in cache.
 * (fill.go also reuses diagonal sets in a ring and clears them for reuse;
 * here every diagonal keeps its own.) With H = T = n the table is filled
 * row by row, without tiles: each cell then touches a column and a
 * diagonal set of its own, far more than the caches hold for large n.
 *
 * A benchmark reference only, not part of nimbook: BenchmarkTableLarge/
 * n=.../c-tile (and c-rowmajor, H = T = n) compiles it with cc -O2 and
 * runs it beside the Go code.
 * Usage: tile n [H T]; output: checksum.h.
 */
#include "checksum.h"

/* mark_full records that word s of the set in block set is full. */
static void mark_full(uint64_t *set, int W, int B, int s) {
	uint64_t *q = set + W + s / 64;
	*q |= 1ULL << (s & 63);
	if (*q != ~0ULL) return;
	while (set[W + set[B - 1]] == ~0ULL) set[B - 1]++;
}

int main(int argc, char **argv) {
	int n = side(argc, argv);
	int W = 3 * n / 64 + 2;  /* words of a set: values are below 3n, then an empty word */
	int S = (W + 63) / 64, B = W + S + 1;
	int H = 512, T = 64;
	if ((size_t)H * B * 8 > 2 << 20) H = (2 << 20) / (B * 8);
	if (H > n / 4) H = n / 4;
	if (H < T) H = T;
	if (argc > 3) H = atoi(argv[2]), T = atoi(argv[3]);
	if (H < 1 || T < 1) {
		fprintf(stderr, "usage: %s n [H T] with H, T ≥ 1\n", argv[0]);
		return 2;
	}
	if (H > n) H = n;
	uint16_t *g = alloc((size_t)n * n, 2);
	uint64_t *col = alloc((size_t)n * B, 8), *diag = alloc((size_t)2 * n * B, 8), *rows = alloc((size_t)H * B, 8);
	for (int a0 = 0; a0 < n; a0 += H) {
		memset(rows, 0, (size_t)H * B * 8);
		for (int b0 = 0; b0 < n; b0 += T)
			for (int a = a0; a < a0 + H && a < n; a++) {
				uint64_t *r = rows + (size_t)(a - a0) * B;
				for (int b = b0; b < b0 + T && b < n; b++) {
					uint64_t *c = col + (size_t)b * B, *d = diag + (size_t)(a - b + n) * B;
					uint64_t q = r[B - 1];
					if (c[B - 1] > q) q = c[B - 1];
					if (d[B - 1] > q) q = d[B - 1];
					int s;
					uint64_t x;
					for (q += W;; q++)
						for (uint64_t z = ~(r[q] | c[q] | d[q]); z; z &= z - 1) {
							s = (int)(q - W) * 64 + __builtin_ctzll(z);
							if ((x = r[s] | c[s] | d[s]) != ~0ULL) goto found;
						}
				found:
					g[(size_t)a * n + b] = s * 64 + __builtin_ctzll(~x);
					uint64_t m = (x + 1) & ~x;
					r[s] |= m, c[s] |= m, d[s] |= m;
					if (r[s] == ~0ULL) mark_full(r, W, B, s);
					if (c[s] == ~0ULL) mark_full(c, W, B, s);
					if (d[s] == ~0ULL) mark_full(d, W, B, s);
				}
			}
	}
	print_table(n, g);
	return 0;
}
