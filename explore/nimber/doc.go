// Package nimber implements the arithmetic of nimbers on uint64: nim-sum,
// nim-product, inverse, square root and powers, and the addition and
// multiplication tables of 0..n−1.
//
// Conventions (see MATH.md, "Nimbers"): the nim-sum a ⊕ b is XOR; the
// nim-product is defined by
//
//	a ⊗ b = mex{ (a' ⊗ b) ⊕ (a ⊗ b') ⊕ (a' ⊗ b') : a' < a, b' < b }.
//
// For every k the integers 0 ≤ n < 2^(2^k) form the field GF(2^(2^k)) under
// ⊕ and ⊗, so the uint64 values form GF(2^64) and no operation here
// overflows. Mul does not use the mex definition (that would be hopeless
// beyond a few hundred); it splits each operand at the Fermat 2-power
// F = 2^32 (then 2^16, then 2^8), using F ⊗ F = F ⊕ F/2, and finishes with a
// 256×256 table of byte products. The tests check it against the mex
// definition and against the Fermat-power rules of MATH.md.
//
// The inverse of a ≠ 0 is the unique b with a ⊗ b = 1; the nim square root
// of a is the unique b with b ⊗ b = a (squaring is a bijection of each
// field), equal to a^(2^63). For example √2 = 3 and 2 ⊗ 3 = 1.
package nimber
