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
// beyond a few hundred): it writes each operand as four words of the
// subfield GF(2^16), multiplies words by discrete log and exp tables, and
// combines them over the tower of Fermat 2-powers F = 2^16, 2^32 with
// F ⊗ F = F ⊕ F/2 and Karatsuba's three products per level. The tables
// (about 850 KiB) are built on first use, in about 1 ms. The tests check Mul
// against the mex definition, against the Fermat-power rules of MATH.md and
// against a simpler product that splits down to a 256×256 table of bytes.
//
// The inverse of a ≠ 0 is the unique b with a ⊗ b = 1; the nim square root
// of a is the unique b with b ⊗ b = a (squaring is a bijection of each
// field), equal to a^(2^63). For example √2 = 3 and 2 ⊗ 3 = 1.
package nimber
