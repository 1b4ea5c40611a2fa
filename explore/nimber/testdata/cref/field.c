/*
 * Nim-product benchmark reference: the algorithm of explore/nimber's
 * field.go (Mul, Inv, Sqrt) in C. A 64-bit nimber is four 16-bit words of
 * the subfield K = GF(2^16); words multiply by discrete log and exp
 * tables (x ⊗ y = g^(log x + log y), g = 258), and the words combine over
 * the tower Y = 2^16, Z = 2^32 with Karatsuba's products: 18 log and 10
 * exp lookups for a product. The square root is GF(2)-linear: eight
 * lookups of 256-entry tables.
 *
 * A benchmark reference only, not part of nimbook: BenchmarkMul/c-field,
 * BenchmarkInv/c-field and BenchmarkSqrt/c-field compile it with cc -O2
 * and run it beside the Go code. Usage and output: driver.h.
 */
#include "common.h"

#define HAS_SQRT 1

#define ORDER 65535                 /* |K*| */
#define LOGH 62133                  /* log h, h = 2^15 */
#define LOGHH (2 * LOGH - ORDER)    /* log h⊗h, reduced */
#define LOGZERO (-(1 << 20))        /* log 0: sums holding it stay negative */

static int32_t logs[1 << 16];
static uint16_t exps[1 << 18];      /* g^i for i < 4·ORDER, then 0 */
static uint64_t sqrts[8][256];      /* sqrts[k][x] = √(x·2^(8k)) */

/* The word whose log is s, or 0 when s < 0: a negative s sets every bit
   of the index, which lands on a zero entry. */
static inline uint64_t term(int32_t s) {
	return exps[((uint32_t)s | (uint32_t)(s >> 31)) & ((1 << 18) - 1)];
}

/* The logs of the words x0, x1 of x < 2^32 and of x0 ⊕ x1. */
#define LOGS32(x, l0, l1, l01) \
	int32_t l0 = logs[(x) & 0xffff], l1 = logs[(x) >> 16 & 0xffff], l01 = logs[((x) ^ (x) >> 16) & 0xffff]

static uint64_t mul64(uint64_t a, uint64_t b) {
	uint64_t sa = a ^ a >> 16, sb = b ^ b >> 16; /* a0⊕a1 low, a2⊕a3 at bit 32 */
	uint64_t ca = a ^ a >> 32, cb = b ^ b >> 32; /* c0 = a0⊕a2 low, c1 = a1⊕a3 */
	uint64_t p00 = term(logs[a & 0xffff] + logs[b & 0xffff]);
	uint64_t hp11 = term(logs[a >> 16 & 0xffff] + logs[b >> 16 & 0xffff] + LOGH);
	uint64_t hhp22 = term(logs[a >> 32 & 0xffff] + logs[b >> 32 & 0xffff] + LOGHH);
	uint64_t hhp33 = term(logs[a >> 48] + logs[b >> 48] + LOGHH);
	uint64_t m01 = term(logs[sa & 0xffff] + logs[sb & 0xffff]);
	int32_t l23 = logs[sa >> 32 & 0xffff] + logs[sb >> 32 & 0xffff];
	uint64_t hm23 = term(l23 + LOGH), hhm23 = term(l23 + LOGHH);
	uint64_t q00 = term(logs[ca & 0xffff] + logs[cb & 0xffff]);
	uint64_t hq11 = term(logs[ca >> 16 & 0xffff] + logs[cb >> 16 & 0xffff] + LOGH);
	uint64_t mq = term(logs[(ca ^ ca >> 16) & 0xffff] + logs[(cb ^ cb >> 16) & 0xffff]);
	uint64_t w3 = mq ^ q00 ^ m01 ^ p00, w2 = q00 ^ hq11 ^ p00 ^ hp11;
	uint64_t w1 = m01 ^ p00 ^ hm23 ^ hhp33, w0 = p00 ^ hp11 ^ hhm23 ^ hhp22;
	return w3 << 48 | w2 << 32 | w1 << 16 | w0;
}

/* x ⊗ y for x, y < 2^32 given by their LOGS32. */
static uint64_t mul32l(int32_t x0, int32_t x1, int32_t x01, int32_t y0, int32_t y1, int32_t y01) {
	uint64_t p0 = term(x0 + y0);
	return (term(x01 + y01) ^ p0) << 16 | (p0 ^ term(x1 + y1 + LOGH));
}

/* Two conjugates: a to its norm N in GF(2^32), N to its norm in K. */
static uint64_t inv64(uint64_t a) {
	uint64_t a0 = a & 0xffffffff, a1 = a >> 32, s = a0 ^ a1;
	LOGS32(a0, l0, l1, l01);
	LOGS32(s, s0, s1, s01);
	LOGS32(a1, h0, h1, h01);
	uint64_t hh3 = term(2 * h1 + LOGHH);
	uint64_t n = mul32l(l0, l1, l01, s0, s1, s01) ^ (term(2 * h01 + LOGH) ^ hh3) << 16 ^ hh3;
	LOGS32(n, n0, n1, n01);
	int32_t lv = logs[term(n0 + n01) ^ term(2 * n1 + LOGH)];
	int32_t r0 = n01 - lv + ORDER, r1 = n1 - lv + ORDER, r01 = n0 - lv + ORDER;
	return mul32l(h0, h1, h01, r0, r1, r01) << 32 | mul32l(s0, s1, s01, r0, r1, r01);
}

static uint64_t sqrt64(uint64_t a) {
	return sqrts[0][a & 0xff] ^ sqrts[1][a >> 8 & 0xff] ^ sqrts[2][a >> 16 & 0xff] ^ sqrts[3][a >> 24 & 0xff] ^
	       sqrts[4][a >> 32 & 0xff] ^ sqrts[5][a >> 40 & 0xff] ^ sqrts[6][a >> 48 & 0xff] ^ sqrts[7][a >> 56];
}

static void build(void) {
	build_bytes();
	uint16_t x = 1;
	for (int i = 0; i < ORDER; i++) {
		exps[i] = exps[i + ORDER] = exps[i + 2 * ORDER] = exps[i + 3 * ORDER] = x;
		logs[x] = i;
		x = mul16(x, 258);
	}
	logs[0] = LOGZERO;
	/* √(2^i) = (2^i)^(2^63), by 63 squarings. */
	uint64_t basis[64];
	for (int i = 0; i < 64; i++) {
		uint64_t y = 1ULL << i;
		for (int k = 0; k < 63; k++) y = mul64(y, y);
		basis[i] = y;
	}
	for (int k = 0; k < 8; k++)
		for (int v = 1; v < 256; v++) {
			int low = v & -v;
			sqrts[k][v] = sqrts[k][v ^ low] ^ basis[8 * k + __builtin_ctz(low)];
		}
}

#include "driver.h"
