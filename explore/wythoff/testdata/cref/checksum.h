/*
 * What the Wythoff benchmark references print, so that the Go benchmark
 * can check they computed its table: "n checksum last", the checksum
 * being s = 31·s + g over the cells in row-major order (mod 2^64) and
 * last g(n − 1, n − 1). Benchmark reference only, not part of nimbook.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_table(int n, const uint16_t *g) {
	uint64_t sum = 0;
	for (size_t i = 0; i < (size_t)n * n; i++) sum = sum * 31 + g[i];
	printf("%d %llu %d\n", n, (unsigned long long)sum, g[(size_t)n * n - 1]);
}

/* The side n of the table, from argv[1]: 1 ≤ n ≤ 21845, so that every
   value, at most 3(n − 1), fits in 16 bits. */
static int side(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 0;
	if (n < 1 || n > 21845) {
		fprintf(stderr, "usage: %s n [...] with 1 ≤ n ≤ 21845\n", argv[0]);
		exit(2);
	}
	return n;
}

static void *alloc(size_t n, size_t size) {
	void *p = calloc(n, size);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}
