/*
 * Nim-product benchmark reference: the byte tower of explore/nimber's
 * tower.go (mulTower, invTower), written straightforwardly in C. Each
 * operand splits at 2^32, then 2^16, then 2^8, with Karatsuba's three
 * half-size products per level and F ⊗ F = F ⊕ F/2, down to a 256×256
 * table of byte products: 27 byte products for a 64-bit product.
 *
 * A benchmark reference only, not part of nimbook: BenchmarkMul/c-tower
 * and BenchmarkInv/c-tower compile it with cc -O2 and run it beside the
 * Go code. Usage and output: driver.h.
 */
#include "common.h"

#define HAS_SQRT 0

static uint8_t inv8[256];

static void build(void) {
	build_bytes();
	for (int a = 1; a < 256; a++)
		for (int b = 1; b < 256; b++)
			if (mul8[a][b] == 1) inv8[a] = b;
}

static uint16_t half16(uint16_t a) {
	uint8_t a0 = a, a1 = a >> 8;
	return (uint16_t)half8[a0 ^ a1] << 8 | half8[half8[a1]];
}

static uint32_t mul32(uint32_t a, uint32_t b) {
	uint16_t a0 = a, a1 = a >> 16, b0 = b, b1 = b >> 16;
	uint16_t p0 = mul16(a0, b0), p1 = mul16(a1, b1), pm = mul16(a0 ^ a1, b0 ^ b1);
	return (uint32_t)(uint16_t)(pm ^ p0) << 16 | (uint16_t)(p0 ^ half16(p1));
}

static uint32_t half32(uint32_t a) {
	uint16_t a0 = a, a1 = a >> 16;
	return (uint32_t)half16(a0 ^ a1) << 16 | half16(half16(a1));
}

static uint64_t mul64(uint64_t a, uint64_t b) {
	uint32_t a0 = a, a1 = a >> 32, b0 = b, b1 = b >> 32;
	uint32_t p0 = mul32(a0, b0), p1 = mul32(a1, b1), pm = mul32(a0 ^ a1, b0 ^ b1);
	return (uint64_t)(pm ^ p0) << 32 | (uint32_t)(p0 ^ half32(p1));
}

/* The conjugate a1F ⊕ (a0 ⊕ a1) takes a = a1F ⊕ a0 to its norm
   a0⊗a0 ⊕ a0⊗a1 ⊕ a1⊗a1⊗h in the subfield, one level down. */
static uint16_t inv16(uint16_t a) {
	uint8_t a0 = a, a1 = a >> 8;
	uint8_t n = mul8[a0][a0] ^ mul8[a0][a1] ^ half8[mul8[a1][a1]];
	uint8_t ni = inv8[n];
	return (uint16_t)mul8[a1][ni] << 8 | mul8[a0 ^ a1][ni];
}

static uint32_t inv32(uint32_t a) {
	uint16_t a0 = a, a1 = a >> 16;
	uint16_t n = mul16(a0, a0) ^ mul16(a0, a1) ^ half16(mul16(a1, a1));
	uint16_t ni = inv16(n);
	return (uint32_t)mul16(a1, ni) << 16 | mul16(a0 ^ a1, ni);
}

static uint64_t inv64(uint64_t a) {
	uint32_t a0 = a, a1 = a >> 32;
	uint32_t n = mul32(a0, a0) ^ mul32(a0, a1) ^ half32(mul32(a1, a1));
	uint32_t ni = inv32(n);
	return (uint64_t)mul32(a1, ni) << 32 | mul32(a0 ^ a1, ni);
}

#include "driver.h"
