package nimber

import (
	"errors"
	"fmt"
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
