package nimber

// The byte tower: the simple product, kept as the reference the tests hold
// the log/exp product of field.go to, and used to build its tables. Each
// operand splits at the Fermat 2-power F = 2^32, then 2^16, then 2^8, with
// Karatsuba's three half-size products per level and F ⊗ F = F ⊕ F/2, down
// to a 256×256 table of byte products.

import "sync"

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

// buildTables fills the byte tables from the powers of a generator g of
// GF(256)*, found and raised with mulSmall: a ⊗ b = g^(log a + log b).
// (Filling all 2^16 products with mulSmall took 10 ms, this 0.4 ms.)
func buildTables() *byteTables {
	var pow [255]uint8 // pow[i] = g^i
	var log [256]int
	for g := uint64(2); ; g++ {
		x, n := uint64(1), 0
		for {
			pow[n], log[x] = uint8(x), n
			x, n = mulSmall(x, g, 8), n+1
			if x == 1 {
				break
			}
		}
		if n == 255 { // g has order 255
			break
		}
	}
	t := new(byteTables)
	for a := 1; a < 256; a++ {
		for b := 1; b < 256; b++ {
			t.mul[a][b] = pow[(log[a]+log[b])%255]
		}
		t.half[a] = t.mul[a][128]
		t.inv[a] = pow[(255-log[a])%255]
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

// mulTower returns a ⊗ b by splitting down to bytes (27 byte products).
func mulTower(a, b uint64) uint64 {
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

// invTower returns the nim-inverse of a ≠ 0 down the byte tower; 0 for 0.
func invTower(a uint64) uint64 {
	t := tables()
	a0, a1 := uint32(a), uint32(a>>32)
	n := mul32(t, a0, a0) ^ mul32(t, a0, a1) ^ half32(t, mul32(t, a1, a1))
	ni := inv32(t, n)
	return uint64(mul32(t, a1, ni))<<32 | uint64(mul32(t, a0^a1, ni))
}
