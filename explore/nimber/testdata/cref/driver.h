/*
 * The driver of the nim-product benchmark references, included last by
 * field.c and tower.c once they define build, mul64, inv64 and, when
 * HAS_SQRT, sqrt64. Benchmark reference only, not part of nimbook.
 *
 * "prog mode n" runs n operations on operands cycling through 1024
 * splitmix64 values (seed 1, as the Go benchmarks) and prints a result
 * that depends on every one of them, so that no work is optimized away
 * and the Go benchmark can check it did the same work:
 *   mul   XOR of mul(xs[i & 1023], xs[(i + 1) & 1023])   (throughput)
 *   chain x = mul(x, xs[i & 1023]) from x = xs[0]         (latency)
 *   inv   XOR of inv(xs[i & 1023] | 1)
 *   sqrt  XOR of sqrt(xs[i & 1023])                       (HAS_SQRT only)
 * A failed self-check prints to stderr and exits 1; bad usage exits 2.
 */
int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: %s mul|chain|inv|sqrt n\n", argv[0]);
		return 2;
	}
	long n = atol(argv[2]);
	build();
	uint64_t xs[1024], state = 1;
	for (int i = 0; i < 1024; i++) xs[i] = splitmix(&state);
	if (mul64(4, 4) != 6 || mul64(1ULL << 32, 1ULL << 32) != 3ULL << 31 || mul64(inv64(xs[0] | 1), xs[0] | 1) != 1) {
		fprintf(stderr, "self-check failed\n");
		return 1;
	}
	uint64_t r = 0;
	if (!strcmp(argv[1], "mul")) {
		for (long i = 0; i < n; i++) r ^= mul64(xs[i & 1023], xs[(i + 1) & 1023]);
	} else if (!strcmp(argv[1], "chain")) {
		r = xs[0];
		for (long i = 0; i < n; i++) r = mul64(r, xs[i & 1023]);
	} else if (!strcmp(argv[1], "inv")) {
		for (long i = 0; i < n; i++) r ^= inv64(xs[i & 1023] | 1);
#if HAS_SQRT
	} else if (!strcmp(argv[1], "sqrt")) {
		if (sqrt64(2) != 3 || mul64(sqrt64(xs[1]), sqrt64(xs[1])) != xs[1]) {
			fprintf(stderr, "self-check failed\n");
			return 1;
		}
		for (long i = 0; i < n; i++) r ^= sqrt64(xs[i & 1023]);
#endif
	} else {
		fprintf(stderr, "unknown mode %s\n", argv[1]);
		return 2;
	}
	printf("%llu\n", (unsigned long long)r);
	return 0;
}
