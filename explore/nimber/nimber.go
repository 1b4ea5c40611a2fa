package nimber

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"
)

// MaxTableSize is the largest size AddTable and MulTable accept: a table
// of 4096×4096 nimbers already takes 128 MiB.
const MaxTableSize = 4096

// ErrZeroInverse is returned by Inv(0).
var ErrZeroInverse = errors.New("nimber: 0 has no inverse")

// Add returns the nim-sum a ⊕ b (XOR).
func Add(a, b uint64) uint64 { return a ^ b }

// Sum returns the nim-sum of xs; the empty sum is 0.
func Sum(xs ...uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s ^= x
	}
	return s
}

// Product returns the nim-product of xs; the empty product is 1.
func Product(xs ...uint64) uint64 {
	p := uint64(1)
	for _, x := range xs {
		p = Mul(p, x)
	}
	return p
}

// tables holds the byte-level tables, built on first use.
var tables = sync.OnceValue(buildTables)

type byteTables struct {
	mul  [256][256]uint8 // a ⊗ b for a, b < 256
	half [256]uint8      // a ⊗ 2^7, the "half" of the Fermat 2-power 2^8
	inv  [256]uint8      // inverse in GF(256); inv[0] = 0
}

// mulSmall is the Fermat-splitting product on w-bit values (w a power of 2,
// w ≤ 8); it only builds the byte table.
func mulSmall(a, b uint64, w uint) uint64 {
	if w == 1 {
		return a & b
	}
	h := w / 2
	mask := uint64(1)<<h - 1
	a0, a1 := a&mask, a>>h
	b0, b1 := b&mask, b>>h
	p0 := mulSmall(a0, b0, h)
	p1 := mulSmall(a1, b1, h)
	pm := mulSmall(a0^a1, b0^b1, h)
	// (a1F + a0)(b1F + b0) with F⊗F = F ⊕ F/2 and F/2 = 2^(h−1).
	return (pm^p0)<<h | (p0 ^ mulSmall(p1, 1<<(h-1), h))
}

func buildTables() *byteTables {
	t := new(byteTables)
	for a := range 256 {
		for b := a; b < 256; b++ {
			p := uint8(mulSmall(uint64(a), uint64(b), 8))
			t.mul[a][b], t.mul[b][a] = p, p
		}
		t.half[a] = t.mul[a][128]
	}
	for a := 1; a < 256; a++ {
		for b := 1; b < 256; b++ {
			if t.mul[a][b] == 1 {
				t.inv[a] = uint8(b)
				break
			}
		}
	}
	return t
}

func mul16(t *byteTables, a, b uint16) uint16 {
	a0, a1 := uint8(a), uint8(a>>8)
	b0, b1 := uint8(b), uint8(b>>8)
	p0 := t.mul[a0][b0]
	p1 := t.mul[a1][b1]
	pm := t.mul[a0^a1][b0^b1]
	return uint16(pm^p0)<<8 | uint16(p0^t.half[p1])
}

// half16 returns a ⊗ 2^15. With F = 2^8 and 2^15 = F ⊗ 2^7:
// (a1F + a0) ⊗ F = (a1 ⊕ a0)F ⊕ a1⊗2^7, then ⊗ 2^7 again.
func half16(t *byteTables, a uint16) uint16 {
	a0, a1 := uint8(a), uint8(a>>8)
	return uint16(t.half[a0^a1])<<8 | uint16(t.half[t.half[a1]])
}

func mul32(t *byteTables, a, b uint32) uint32 {
	a0, a1 := uint16(a), uint16(a>>16)
	b0, b1 := uint16(b), uint16(b>>16)
	p0 := mul16(t, a0, b0)
	p1 := mul16(t, a1, b1)
	pm := mul16(t, a0^a1, b0^b1)
	return uint32(pm^p0)<<16 | uint32(p0^half16(t, p1))
}

// half32 returns a ⊗ 2^31, as half16 one level up.
func half32(t *byteTables, a uint32) uint32 {
	a0, a1 := uint16(a), uint16(a>>16)
	return uint32(half16(t, a0^a1))<<16 | uint32(half16(t, half16(t, a1)))
}

// Mul returns the nim-product a ⊗ b.
func Mul(a, b uint64) uint64 {
	t := tables()
	a0, a1 := uint32(a), uint32(a>>32)
	b0, b1 := uint32(b), uint32(b>>32)
	p0 := mul32(t, a0, b0)
	p1 := mul32(t, a1, b1)
	pm := mul32(t, a0^a1, b0^b1)
	// Karatsuba: the cross terms a0⊗b1 ⊕ a1⊗b0 are pm ⊕ p0 ⊕ p1, and the
	// high word also receives p1 from F⊗F = F ⊕ 2^31.
	return uint64(pm^p0)<<32 | uint64(p0^half32(t, p1))
}

// Inverses go down the same tower: for a = a1F + a0 (F the Fermat 2-power
// of the level, F⊗F = F ⊕ h), the conjugate a1F ⊕ (a0 ⊕ a1) multiplies a
// into the subfield, to the norm a0⊗a0 ⊕ a0⊗a1 ⊕ a1⊗a1⊗h.

func inv16(t *byteTables, a uint16) uint16 {
	a0, a1 := uint8(a), uint8(a>>8)
	n := t.mul[a0][a0] ^ t.mul[a0][a1] ^ t.half[t.mul[a1][a1]]
	ni := t.inv[n]
	return uint16(t.mul[a1][ni])<<8 | uint16(t.mul[a0^a1][ni])
}

func inv32(t *byteTables, a uint32) uint32 {
	a0, a1 := uint16(a), uint16(a>>16)
	n := mul16(t, a0, a0) ^ mul16(t, a0, a1) ^ half16(t, mul16(t, a1, a1))
	ni := inv16(t, n)
	return uint32(mul16(t, a1, ni))<<16 | uint32(mul16(t, a0^a1, ni))
}

// Inv returns the nim-inverse of a, the unique b with a ⊗ b = 1, or
// ErrZeroInverse when a = 0.
func Inv(a uint64) (uint64, error) {
	if a == 0 {
		return 0, ErrZeroInverse
	}
	t := tables()
	a0, a1 := uint32(a), uint32(a>>32)
	n := mul32(t, a0, a0) ^ mul32(t, a0, a1) ^ half32(t, mul32(t, a1, a1))
	ni := inv32(t, n)
	return uint64(mul32(t, a1, ni))<<32 | uint64(mul32(t, a0^a1, ni)), nil
}

// sqrtBasis[i] is the nim square root of 2^i. Squaring is GF(2)-linear
// (the Frobenius map), so its inverse is too.
var sqrtBasis = sync.OnceValue(func() *[64]uint64 {
	var s [64]uint64
	for i := range s {
		x := uint64(1) << i
		for range 63 {
			x = Mul(x, x)
		}
		s[i] = x
	}
	return &s
})

// Sqrt returns the nim square root of a: the unique b with b ⊗ b = a,
// which is a^(2^63) in GF(2^64).
func Sqrt(a uint64) uint64 {
	s := sqrtBasis()
	var r uint64
	for a != 0 {
		i := bits.TrailingZeros64(a)
		r ^= s[i]
		a &= a - 1
	}
	return r
}

// Pow returns the e-th nim-power of a; Pow(a, 0) = 1, including a = 0.
func Pow(a, e uint64) uint64 {
	r := uint64(1)
	for e != 0 {
		if e&1 != 0 {
			r = Mul(r, a)
		}
		a = Mul(a, a)
		e >>= 1
	}
	return r
}

func checkSize(size int) error {
	if size < 1 || size > MaxTableSize {
		return fmt.Errorf("nimber: table size %d out of range 1..%d (MaxTableSize)", size, MaxTableSize)
	}
	return nil
}

// AddTable returns the nim addition table of 0..size−1: t[a][b] = a ⊕ b.
// It refuses sizes outside 1..MaxTableSize.
func AddTable(size int) ([][]uint64, error) {
	return table(size, Add)
}

// MulTable returns the nim multiplication table of 0..size−1:
// t[a][b] = a ⊗ b. It refuses sizes outside 1..MaxTableSize.
func MulTable(size int) ([][]uint64, error) {
	return table(size, Mul)
}

func table(size int, op func(a, b uint64) uint64) ([][]uint64, error) {
	if err := checkSize(size); err != nil {
		return nil, err
	}
	flat := make([]uint64, size*size)
	t := make([][]uint64, size)
	for a := range t {
		t[a] = flat[a*size : (a+1)*size : (a+1)*size]
		for b := range t[a] {
			t[a][b] = op(uint64(a), uint64(b))
		}
	}
	return t, nil
}
