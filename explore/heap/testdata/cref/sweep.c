/*
 * Octal-game benchmark reference: the sparse-space sweep of explore/heap's
 * sparsevalues.go (Winning Ways ch. 4, "Sparse space spells speed") in C,
 * for octal games whose moves leave at most two heaps, under a range-type
 * split given by its mask. A value is common when it has an odd number of
 * 1s outside the mask, rare otherwise; the splits of heap m − k into two
 * parts have a common value only when one part is rare, so:
 *   - every option value from a rare part is marked (the rare positions
 *     and their values are kept in lists);
 *   - C is the least common value not marked;
 *   - the rare values below C not marked are looked for among all the
 *     splits, smaller parts first, until every one is found;
 *   - g(n) is the least of those still missing, else C.
 * (nimbook also finds the first values and the split by the plain sweep,
 * chooses the split again as the heaps double, and checks its limits and
 * context; here the mask is given and the sweep starts at heap 1.)
 *
 * A benchmark reference only, not part of nimbook: BenchmarkOfficers/
 * n=.../c-sweep compiles it with cc -O2 and runs it beside the Go code.
 * Usage: sweep code mask upto, e.g. sweep 0.6 10001 262144 (mask in
 * binary). It prints "upto hash", the hash being h = 1000003·h + g(n)
 * over n = 0..upto (mod 2^64), for the Go benchmark to check.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALUES (1 << 16) /* values and their nim-sums stay below this */

static uint32_t seen[VALUES + 1], need[VALUES + 1];
static uint8_t common[VALUES + 1];

int main(int argc, char **argv) {
	if (argc != 4 || strncmp(argv[1], "0.", 2) != 0) {
		fprintf(stderr, "usage: %s code mask upto, e.g. %s 0.6 10001 262144\n", argv[0], argv[0]);
		return 2;
	}
	unsigned mask = strtoul(argv[2], NULL, 2);
	int upto = atoi(argv[3]);
	int digit[64] = {0}, last = 0; /* digit[k]: 1 takes the heap, 2 leaves one, 4 leaves two */
	for (int k = 1; argv[1][k + 1]; k++) {
		if (k >= 64) {
			fprintf(stderr, "code %s too long\n", argv[1]);
			return 2;
		}
		digit[k] = argv[1][k + 1] - '0';
		if (digit[k]) last = k;
	}
	uint32_t *g = calloc(upto + 1, sizeof *g), *rv = malloc((upto + 1) * sizeof *rv);
	int *rare = malloc((upto + 1) * sizeof *rare), nr = 0; /* rare positions ≥ 1, their values rv */
	if (!g || !rv || !rare) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	for (unsigned v = 0; v <= VALUES; v++) common[v] = __builtin_popcount(v & ~mask) & 1;
	for (int n = 1; n <= upto; n++) {
		uint32_t st = n; /* a stamp no other heap uses */
		for (int k = 1; k <= last && k <= n; k++) {
			if (digit[k] & 1 && k == n) seen[0] = st;
			if (digit[k] & 2 && k < n) seen[g[n - k]] = st;
			if (digit[k] & 4) {
				int m = n - k, cnt = nr;
				while (cnt > 0 && rare[cnt - 1] >= m) cnt--;
				for (int i = 0; i < cnt; i++) seen[rv[i] ^ g[m - rare[i]]] = st;
			}
		}
		uint32_t c = 0;
		while (seen[c] == st || !common[c]) c++;
		int missing = 0;
		for (uint32_t v = 0; v < c; v++)
			if (seen[v] != st) need[v] = st, missing++;
		for (int k = 1; k <= last && k <= n && missing; k++) {
			if (!(digit[k] & 4)) continue;
			int m = n - k;
			for (int a = 1; a <= m - a; a++) {
				uint32_t v = g[a] ^ g[m - a];
				if (need[v] == st) {
					need[v] = 0;
					if (--missing == 0) break;
				}
			}
		}
		uint32_t v = c;
		if (missing)
			for (uint32_t u = 0; u < c; u++)
				if (need[u] == st) {
					v = u;
					break;
				}
		if (v >= VALUES / 2) {
			fprintf(stderr, "value %u at heap %d: too large for this program\n", v, n);
			return 1;
		}
		g[n] = v;
		if (!common[v]) rv[nr] = v, rare[nr++] = n;
	}
	uint64_t h = 0;
	for (int n = 0; n <= upto; n++) h = h * 1000003 + g[n];
	printf("%d %llu\n", upto, (unsigned long long)h);
	return 0;
}
