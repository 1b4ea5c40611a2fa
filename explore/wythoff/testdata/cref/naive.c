/*
 * Wythoff benchmark reference: the Grundy table of Wythoff's game from
 * the definition. Each cell (a, b) marks the values of its a + b + min(a, b)
 * options (left along the row, up the column, up-left along the diagonal)
 * and scans for the least unmarked one: O(n^3) for an n × n table.
 *
 * A benchmark reference only, not part of nimbook: BenchmarkTableLarge/
 * n=.../c-naive compiles it with cc -O2 and runs it beside the Go code.
 * Usage: naive n; output: checksum.h.
 */
#include "checksum.h"

int main(int argc, char **argv) {
	int n = side(argc, argv);
	uint16_t *g = alloc((size_t)n * n, 2);
	uint32_t *mark = alloc(3 * (size_t)n + 1, 4), stamp = 0;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			stamp++;
			for (int k = 0; k < a; k++) mark[g[(size_t)k * n + b]] = stamp;
			for (int k = 0; k < b; k++) mark[g[(size_t)a * n + k]] = stamp;
			for (int k = 1; k <= a && k <= b; k++) mark[g[(size_t)(a - k) * n + b - k]] = stamp;
			int v = 0;
			while (mark[v] == stamp) v++;
			g[(size_t)a * n + b] = v;
		}
	print_table(n, g);
	return 0;
}
