/*
 * Wythoff benchmark reference: the algorithm of explore/wythoff's fill.go
 * (one worker) in C. Every row, column and diagonal has a bitset of the
 * values in it so far and the index of its first word not full; a cell's
 * value is the first zero bit of the OR of its three sets, scanned from
 * the largest of their full prefixes. The cells are filled in square
 * tiles of side T (64, as fill.go), each tile row by row, so that the sets
 * a tile touches stay in cache: the rows' sets of one tile row, T column
 * sets and 2T diagonal sets. (fill.go also reuses diagonal sets in a
 * ring and clears them for reuse; here every diagonal keeps its own.)
 * With T = n the table is filled row by row, without tiles: each cell then
 * touches a column and a diagonal set of its own, among 3n sets of 3n/64
 * words, far more than the caches hold for large n.
 *
 * A benchmark reference only, not part of nimbook: BenchmarkTableLarge/
 * n=.../c-tile (and c-rowmajor, T = n) compiles it with cc -O2 and runs
 * it beside the Go code.
 * Usage: tile n [T]; output: checksum.h.
 */
#include "checksum.h"

int main(int argc, char **argv) {
	int n = side(argc, argv), T = argc > 2 ? atoi(argv[2]) : 64;
	if (T < 1) T = 64;
	int W = 3 * n / 64 + 2; /* words of a set: values are below 3n, then an empty word */
	uint16_t *g = alloc((size_t)n * n, 2);
	uint64_t *col = alloc((size_t)n * W, 8), *diag = alloc((size_t)2 * n * W, 8), *rows = alloc((size_t)T * W, 8);
	int *colFull = alloc(n, sizeof(int)), *diagFull = alloc(2 * n, sizeof(int)), *rowFull = alloc(T, sizeof(int));
	for (int a0 = 0; a0 < n; a0 += T) {
		memset(rows, 0, (size_t)T * W * 8);
		memset(rowFull, 0, T * sizeof(int));
		for (int b0 = 0; b0 < n; b0 += T)
			for (int a = a0; a < a0 + T && a < n; a++) {
				uint64_t *row = rows + (size_t)(a - a0) * W;
				int rf = rowFull[a - a0];
				for (int b = b0; b < b0 + T && b < n; b++) {
					int di = a - b + n;
					uint64_t *c = col + (size_t)b * W, *d = diag + (size_t)di * W;
					int cf = colFull[b], df = diagFull[di];
					int s = rf > cf ? rf : cf;
					if (df > s) s = df;
					uint64_t w;
					while ((w = row[s] | c[s] | d[s]) == ~0ULL) s++;
					int v = s * 64 + __builtin_ctzll(~w);
					g[(size_t)a * n + b] = v;
					uint64_t m = 1ULL << (v & 63);
					row[v >> 6] |= m, c[v >> 6] |= m, d[v >> 6] |= m;
					while (row[rf] == ~0ULL) rf++;
					while (c[cf] == ~0ULL) cf++;
					while (d[df] == ~0ULL) df++;
					colFull[b] = cf, diagFull[di] = df;
				}
				rowFull[a - a0] = rf;
			}
	}
	print_table(n, g);
	return 0;
}
