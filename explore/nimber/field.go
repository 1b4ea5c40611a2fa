package nimber

import (
	"math/bits"
	"sync"
)

// The fast arithmetic works in the subfield K = GF(2^16) of the nimbers
// below 2^16 with discrete logarithms: x ⊗ y = g^(log x + log y) for a
// generator g of K*. A 64-bit nimber is four 16-bit words over K, through
// the tower Y = 2^16 (Y ⊗ Y = Y ⊕ h, h = 2^15 ∈ K) and Z = 2^32
// (Z ⊗ Z = Z ⊕ h⊗Y, since 2^31 = 2^16 ⊗ 2^15). Every term of a product is
// then some x ⊗ y ⊗ c with x, y words and c ∈ {1, h, h⊗h}: one exp lookup
// of a sum of logs, so a 64-bit product costs 18 log and 10 exp lookups.

const (
	gen16   = 258       // the least generator of K*; the nimbers below 2^8 form GF(2^8), none of them generates
	order16 = 1<<16 - 1 // |K*|
	logH    = 62133     // log h, h = 2^15 (TestFieldTables checks it)
	logHH   = 2*logH - order16
	// logZero is the log of 0: any sum of logs holding it stays negative,
	// and term maps a negative sum to 0, so zero words need no branch.
	logZero = -1 << 20
)

var (
	fieldOnce sync.Once
	logs      [1 << 16]int32
	exps      [1 << 18]uint16 // exps[i] = g^i for i < 4·order16 (sums of logs need no reduction), then 0
	sqrts     [8][256]uint64  // sqrts[k][x] = √(x·2^(8k)); the square root is GF(2)-linear
)

// buildField fills the tables, from the byte tower (about 1 ms).
func buildField() {
	t := tables()
	x := uint16(1)
	for i := range order16 {
		exps[i], exps[i+order16], exps[i+2*order16], exps[i+3*order16] = x, x, x, x
		logs[x] = int32(i)
		x = mul16(t, x, gen16)
	}
	logs[0] = logZero
	// √(2^i) = (2^i)^(2^63), by 63 squarings in the tower (Mul would wait
	// for this very build).
	var basis [64]uint64
	for i := range basis {
		x := uint64(1) << i
		for range 63 {
			x = mulTower(x, x)
		}
		basis[i] = x
	}
	for k := range sqrts {
		for x := 1; x < 256; x++ {
			low := x & -x
			sqrts[k][x] = sqrts[k][x^low] ^ basis[8*k+bits.TrailingZeros(uint(low))]
		}
	}
}

// term returns the word whose log is s, or 0 when s < 0 (a log of 0 in
// the sum): a negative s sets every bit of the index, which lands on the
// zero entry past the four periods, with no branch to mispredict.
func term(s int32) uint64 {
	return uint64(exps[(uint32(s)|uint32(s>>31))&(1<<18-1)])
}

// logs32 returns the logs of the words x0, x1 of x = x1⊗Y ⊕ x0 < 2^32 and of x0 ⊕ x1.
func logs32(x uint64) (l0, l1, l01 int32) {
	return logs[x&0xffff], logs[x>>16&0xffff], logs[(x^x>>16)&0xffff]
}

// Mul returns the nim-product a ⊗ b.
func Mul(a, b uint64) uint64 {
	fieldOnce.Do(buildField)
	// With a = A1⊗Z ⊕ A0 and A1 = a3⊗Y ⊕ a2, A0 = a1⊗Y ⊕ a0 (likewise b):
	// A0⊗B0 = (m01 ⊕ p00)Y ⊕ (p00 ⊕ h⊗p11) with pij = ai⊗bj and
	// m01 = (a0⊕a1)⊗(b0⊕b1) (Karatsuba); A1⊗B1⊗hY = (h⊗m23 ⊕ hh⊗p33)Y ⊕
	// hh⊗(m23 ⊕ p22); M = (A0⊕A1)⊗(B0⊕B1) likewise from the words
	// ci = ai ⊕ a(i+2). Then a⊗b = (M ⊕ A0⊗B0)Z ⊕ (A0⊗B0 ⊕ A1⊗B1⊗hY).
	// So the words of a⊗b are w3 = mq ⊕ q00 ⊕ m01 ⊕ p00,
	// w2 = q00 ⊕ hq11 ⊕ p00 ⊕ hp11, w1 = m01 ⊕ p00 ⊕ hm23 ⊕ hhp33 and
	// w0 = p00 ⊕ hp11 ⊕ hhm23 ⊕ hhp22, with q00, hq11, mq the terms of M.
	// Each term is the exp of a sum of two logs and a constant, XORed into
	// its words as soon as it is known (a product by a constant copies it
	// into several): few values stay live, which saved 10% over keeping
	// the terms and combining them at the end.
	sa, sb := a^a>>16, b^b>>16                                                    // a0⊕a1 in the low word, a2⊕a3 at bit 32
	ca, cb := a^a>>32, b^b>>32                                                    // c0 = a0⊕a2 in the low word, c1 = a1⊕a3 above
	w := term(logs[a&0xffff]+logs[b&0xffff]) * 0x0001_0001_0001_0001              // p00
	w ^= term(logs[a>>16&0xffff]+logs[b>>16&0xffff]+logH) * 0x0000_0001_0000_0001 // hp11
	w ^= term(logs[a>>32&0xffff] + logs[b>>32&0xffff] + logHH)                    // hhp22
	w ^= term(logs[a>>48]+logs[b>>48]+logHH) << 16                                // hhp33
	w ^= term(logs[sa&0xffff]+logs[sb&0xffff]) * 0x0001_0000_0001_0000            // m01
	l23 := logs[sa>>32&0xffff] + logs[sb>>32&0xffff]
	w ^= term(l23+logH)<<16 ^ term(l23+logHH)                          // hm23, hhm23
	w ^= term(logs[ca&0xffff]+logs[cb&0xffff]) * 0x0001_0001_0000_0000 // q00
	w ^= term(logs[ca>>16&0xffff]+logs[cb>>16&0xffff]+logH) << 32      // hq11
	w ^= term(logs[(ca^ca>>16)&0xffff]+logs[(cb^cb>>16)&0xffff]) << 48 // mq
	return w
}

// mul32Log returns x ⊗ y for x, y < 2^32 given by their logs32.
func mul32Log(x0, x1, x01, y0, y1, y01 int32) uint64 {
	return term(x0+y0)*0x1_0001 ^ term(x01+y01)<<16 ^ term(x1+y1+logH)
}

// Inv returns the nim-inverse of a, the unique b with a ⊗ b = 1, or
// ErrZeroInverse when a = 0.
func Inv(a uint64) (uint64, error) {
	if a == 0 {
		return 0, ErrZeroInverse
	}
	fieldOnce.Do(buildField)
	// The conjugate A1⊗Z ⊕ S of a = A1⊗Z ⊕ A0, S = A0 ⊕ A1, takes a to its
	// norm N = A0⊗S ⊕ A1⊗A1⊗hY in GF(2^32), where
	// A1⊗A1⊗hY = (h⊗(a2⊕a3)² ⊕ hh⊗a3²)Y ⊕ hh⊗a3² comes from the logs of a.
	a0, a1 := a&0xffffffff, a>>32
	s := a0 ^ a1
	l0, l1, l01 := logs32(a0)
	s0, s1, s01 := logs32(s)
	h0, h1, h01 := logs32(a1)
	n := mul32Log(l0, l1, l01, s0, s1, s01) ^ term(2*h01+logH)<<16 ^ term(2*h1+logHH)*0x1_0001
	// Likewise the conjugate n1⊗Y ⊕ (n0 ⊕ n1) takes N ≠ 0 to its norm
	// ν = n0⊗(n0 ⊕ n1) ⊕ h⊗n1² in GF(2^16), so that
	// 1/N = (n1/ν)Y ⊕ (n0 ⊕ n1)/ν, whose words have known logs.
	n0, n1, n01 := logs32(n)
	lv := logs[term(n0+n01)^term(2*n1+logH)]
	r0, r1, r01 := n01-lv+order16, n1-lv+order16, n0-lv+order16
	// 1/a = (A1⊗Z ⊕ S)/N, with sums of logs up to 4·order16.
	return mul32Log(h0, h1, h01, r0, r1, r01)<<32 | mul32Log(s0, s1, s01, r0, r1, r01), nil
}

// Sqrt returns the nim square root of a: the unique b with b ⊗ b = a,
// which is a^(2^63) in GF(2^64).
func Sqrt(a uint64) uint64 {
	fieldOnce.Do(buildField)
	return sqrts[0][a&0xff] ^ sqrts[1][a>>8&0xff] ^ sqrts[2][a>>16&0xff] ^ sqrts[3][a>>24&0xff] ^
		sqrts[4][a>>32&0xff] ^ sqrts[5][a>>40&0xff] ^ sqrts[6][a>>48&0xff] ^ sqrts[7][a>>56]
}
