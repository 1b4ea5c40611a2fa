/*
 * What the nim-product benchmark references share: the byte-level
 * product and the operands. Benchmark references only, not part of
 * nimbook: see field.c and tower.c, and driver.h for what they print.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mul8[a][b] = a ⊗ b and half8[a] = a ⊗ 2^7 for bytes a, b. */
static uint8_t mul8[256][256], half8[256];

/* The Fermat-splitting product of w-bit values (w ≤ 8, a power of 2). */
static uint64_t mul_small(uint64_t a, uint64_t b, unsigned w) {
	if (w == 1) return a & b;
	unsigned h = w / 2;
	uint64_t mask = (1ULL << h) - 1;
	uint64_t a0 = a & mask, a1 = a >> h, b0 = b & mask, b1 = b >> h;
	uint64_t p0 = mul_small(a0, b0, h), p1 = mul_small(a1, b1, h);
	uint64_t pm = mul_small(a0 ^ a1, b0 ^ b1, h);
	return (pm ^ p0) << h | (p0 ^ mul_small(p1, 1ULL << (h - 1), h));
}

static void build_bytes(void) {
	for (int a = 0; a < 256; a++)
		for (int b = 0; b < 256; b++) mul8[a][b] = mul_small(a, b, 8);
	for (int a = 0; a < 256; a++) half8[a] = mul8[a][128];
}

static uint16_t mul16(uint16_t a, uint16_t b) {
	uint8_t a0 = a, a1 = a >> 8, b0 = b, b1 = b >> 8;
	uint8_t p0 = mul8[a0][b0], p1 = mul8[a1][b1], pm = mul8[a0 ^ a1][b0 ^ b1];
	return (uint16_t)(uint8_t)(pm ^ p0) << 8 | (uint8_t)(p0 ^ half8[p1]);
}

static uint64_t splitmix(uint64_t *state) {
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

