package nimber_test

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/nimbook/nimbook/explore/nimber"
)

// mexProducts computes a ⊗ b for a, b < n straight from the definition
// (MATH.md, "Nimbers"): a ⊗ b = mex{(a'⊗b) ⊕ (a⊗b') ⊕ (a'⊗b') : a' < a, b' < b},
// filling the table in increasing a, b so that every a', b' is memoised.
func mexProducts(n int) [][]uint64 {
	t := make([][]uint64, n)
	for a := range t {
		t[a] = make([]uint64, n)
	}
	seen := make([]bool, 4*n*n) // products of a, b < 2^k stay below 2^(2k)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			clear(seen)
			for x := 0; x < a; x++ {
				for y := 0; y < b; y++ {
					seen[t[x][b]^t[a][y]^t[x][y]] = true
				}
			}
			var m uint64
			for seen[m] {
				m++
			}
			t[a][b] = m
		}
	}
	return t
}

// fermatMul is a reference built only on MATH.md's Fermat-power rules:
// distribute over the bits of a and b, and multiply 2^i ⊗ 2^j by writing
// 2^i as the product of the Fermat 2-powers F_u = 2^(2^u), u a bit of i,
// with F_u ⊗ F_v = F_u·F_v (u ≠ v) and F_u ⊗ F_u = F_u ⊕ 2^(2^u − 1).
func fermatMul(a, b uint64) uint64 {
	var r uint64
	for x := a; x != 0; x &= x - 1 {
		i := bits.TrailingZeros64(x)
		for y := b; y != 0; y &= y - 1 {
			j := bits.TrailingZeros64(y)
			p := uint64(1) << i
			for u := 0; u < 6; u++ {
				if j>>u&1 == 1 {
					p = timesFermat(p, u)
				}
			}
			r ^= p
		}
	}
	return r
}

// timesFermat returns x ⊗ F_u.
func timesFermat(x uint64, u int) uint64 {
	var r uint64
	for ; x != 0; x &= x - 1 {
		k := bits.TrailingZeros64(x)
		if k>>u&1 == 0 {
			r ^= 1 << (k | 1<<u) // distinct Fermat powers multiply as integers
			continue
		}
		// 2^k = 2^k' ⊗ F_u with k' = k − 2^u, and F_u ⊗ F_u = F_u ⊕ 2^(2^u − 1).
		r ^= 1 << k
		y := uint64(1) << (k &^ (1 << u))
		for v := 0; v < u; v++ { // 2^(2^u − 1) = F_0 ⊗ … ⊗ F_(u−1)
			y = timesFermat(y, v)
		}
		r ^= y
	}
	return r
}

func TestMulMatchesMexDefinition(t *testing.T) {
	const n = 64
	want := mexProducts(n)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if got := nimber.Mul(uint64(a), uint64(b)); got != want[a][b] {
				t.Errorf("%d ⊗ %d = %d, want %d (mex definition)", a, b, got, want[a][b])
			}
		}
	}
}

func TestMulMatchesFermatReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		a, b := r.Uint64(), r.Uint64()
		if got, want := nimber.Mul(a, b), fermatMul(a, b); got != want {
			t.Fatalf("%d ⊗ %d = %d, want %d (Fermat-power reference)", a, b, got, want)
		}
	}
	// The reference itself agrees with the mex definition on small values.
	want := mexProducts(16)
	for a := range 16 {
		for b := range 16 {
			if got := fermatMul(uint64(a), uint64(b)); got != want[a][b] {
				t.Fatalf("reference %d ⊗ %d = %d, want %d", a, b, got, want[a][b])
			}
		}
	}
}

// TestFermatRules checks the rules of MATH.md on every pair of Fermat
// 2-powers F_u = 2^(2^u) of 64 bits.
func TestFermatRules(t *testing.T) {
	for u := range 6 {
		for v := range 6 {
			fu, fv := uint64(1)<<(1<<u), uint64(1)<<(1<<v)
			if u == 5 || v == 5 {
				// F_5 = 2^32 ⊗ F_5 = 2^64 does not fit; only the square does.
				if u != v {
					continue
				}
			}
			want := fu * fv // 2^(2^u + 2^v)
			if u == v {
				want = fu | fu>>1 // 3/2 · F_u
			}
			if got := nimber.Mul(fu, fv); got != want {
				t.Errorf("F_%d ⊗ F_%d = %d, want %d", u, v, got, want)
			}
		}
	}
}

// seed 000 (Madore 2017, "Le jeu de nim : thème et variations"), slide
// "Calcul du produit de nim": the table of a ⊗ b for 0 ≤ a, b ≤ 7.
var seedMulTable = [8][8]uint64{
	{0, 0, 0, 0, 0, 0, 0, 0},
	{0, 1, 2, 3, 4, 5, 6, 7},
	{0, 2, 3, 1, 8, 10, 11, 9},
	{0, 3, 1, 2, 12, 15, 13, 14},
	{0, 4, 8, 12, 6, 2, 14, 10},
	{0, 5, 10, 15, 2, 7, 8, 13},
	{0, 6, 11, 13, 14, 8, 5, 3},
	{0, 7, 9, 14, 10, 13, 3, 4},
}

func TestSeedTable(t *testing.T) {
	got, err := nimber.MulTable(8)
	if err != nil {
		t.Fatal(err)
	}
	for a := range 8 {
		for b := range 8 {
			if got[a][b] != seedMulTable[a][b] {
				t.Errorf("MulTable(8)[%d][%d] = %d, want %d (seed 000)", a, b, got[a][b], seedMulTable[a][b])
			}
		}
	}
}

func TestKnownValues(t *testing.T) {
	inv2, err := nimber.Inv(2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want uint64
	}{
		{"4⊗4 (seed 000)", nimber.Mul(4, 4), 6},
		{"4⊗2 (seed 000)", nimber.Mul(4, 2), 8},
		{"2⊗3", nimber.Mul(2, 3), 1},
		{"√2 (MATH.md)", nimber.Sqrt(2), 3},
		{"2⁻¹ (MATH.md)", inv2, 3},
		{"16⊗16", nimber.Mul(16, 16), 24},
		{"2^32⊗2^32", nimber.Mul(1<<32, 1<<32), 3 << 31},
		{"Sum", nimber.Sum(1, 2, 3, 4), 4},
		{"empty Sum", nimber.Sum(), 0},
		{"Product", nimber.Product(2, 3, 4), 4},
		{"empty Product", nimber.Product(), 1},
		{"Pow(0, 0)", nimber.Pow(0, 0), 1},
		{"Pow(2, 3)", nimber.Pow(2, 3), 1},
		{"Add", nimber.Add(5, 3), 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %d, want %d", tt.got, tt.want)
			}
		})
	}
}

func TestInvZero(t *testing.T) {
	_, err := nimber.Inv(0)
	if !errors.Is(err, nimber.ErrZeroInverse) || err.Error() != "nimber: 0 has no inverse" {
		t.Errorf("Inv(0) error = %v", err)
	}
}

func TestFieldLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(2017, 3))
	for range 20000 {
		a, b, c := operand(r), operand(r), operand(r)
		if nimber.Mul(a, b) != nimber.Mul(b, a) {
			t.Fatalf("not commutative: %d, %d", a, b)
		}
		if nimber.Mul(a, nimber.Mul(b, c)) != nimber.Mul(nimber.Mul(a, b), c) {
			t.Fatalf("not associative: %d, %d, %d", a, b, c)
		}
		if nimber.Mul(a, b^c) != nimber.Mul(a, b)^nimber.Mul(a, c) {
			t.Fatalf("not distributive: %d, %d, %d", a, b, c)
		}
		if nimber.Mul(a, 1) != a || nimber.Mul(a, 0) != 0 {
			t.Fatalf("1 or 0 wrong with %d", a)
		}
		if a != 0 {
			ia, err := nimber.Inv(a)
			if err != nil {
				t.Fatal(err)
			}
			if nimber.Mul(a, ia) != 1 {
				t.Fatalf("Inv(%d) = %d, product %d", a, ia, nimber.Mul(a, ia))
			}
		}
		s := nimber.Sqrt(a)
		if nimber.Mul(s, s) != a {
			t.Fatalf("Sqrt(%d) = %d squares to %d", a, s, nimber.Mul(s, s))
		}
		if nimber.Sqrt(nimber.Mul(a, a)) != a {
			t.Fatalf("Sqrt(%d²) ≠ %d", a, a)
		}
	}
}

// operand returns a random nimber whose 16-bit words are each, independently,
// 0 with probability 1/4 (the words the log tables must treat apart) and
// otherwise random, 0xffff or 1.
func operand(r *rand.Rand) uint64 {
	var x uint64
	for k := 0; k < 64; k += 16 {
		var w uint64
		switch r.IntN(8) {
		case 0, 1:
		case 2:
			w = 0xffff
		case 3:
			w = 1
		default:
			w = r.Uint64() & 0xffff
		}
		x |= w << k
	}
	return x
}

// TestMulMatchesTower holds the log/exp product to the byte tower on every
// pair of bytes and on random pairs; the tower itself meets the
// Fermat-power reference on every pair of bytes.
func TestMulMatchesTower(t *testing.T) {
	for a := range uint64(256) {
		for b := range uint64(256) {
			want := fermatMul(a, b)
			if got := nimber.MulTower(a, b); got != want {
				t.Fatalf("tower %d ⊗ %d = %d, want %d", a, b, got, want)
			}
			if got := nimber.Mul(a, b); got != want {
				t.Fatalf("%d ⊗ %d = %d, want %d", a, b, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(13, 4))
	for i := range 200000 {
		a, b := operand(r), operand(r)
		if i%2 == 0 {
			a, b = r.Uint64(), r.Uint64()
		}
		if got, want := nimber.Mul(a, b), nimber.MulTower(a, b); got != want {
			t.Fatalf("%#x ⊗ %#x = %#x, want %#x (byte tower)", a, b, got, want)
		}
	}
}

// subfieldAndRandom returns every nimber of GF(2^16), then as many random
// operands again and a half.
func subfieldAndRandom(seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, 1))
	xs := make([]uint64, 5<<15)
	for i := range xs {
		xs[i] = uint64(i)
		if i >= 1<<16 {
			xs[i] = operand(r)
		}
	}
	return xs
}

// TestInvMatchesTower checks Inv on the whole subfield GF(2^16) and on
// random values: against the byte tower and against a ⊗ Inv(a) = 1.
func TestInvMatchesTower(t *testing.T) {
	for _, a := range subfieldAndRandom(21) {
		if a == 0 {
			continue
		}
		got, err := nimber.Inv(a)
		if err != nil {
			t.Fatal(err)
		}
		if want := nimber.InvTower(a); got != want {
			t.Fatalf("Inv(%#x) = %#x, want %#x (byte tower)", a, got, want)
		}
		if p := nimber.MulTower(a, got); p != 1 {
			t.Fatalf("%#x ⊗ Inv = %#x, want 1", a, p)
		}
	}
}

// TestSqrtDefinition checks Sqrt on the whole subfield GF(2^16), which it
// must not leave, and on random values, with the byte tower's product;
// on a few values also against the 2^63-th power by the tower.
func TestSqrtDefinition(t *testing.T) {
	for i, a := range subfieldAndRandom(34) {
		s := nimber.Sqrt(a)
		if nimber.MulTower(s, s) != a || (a < 1<<16 && s >= 1<<16) {
			t.Fatalf("Sqrt(%#x) = %#x, squares to %#x", a, s, nimber.MulTower(s, s))
		}
		if i%1000 == 0 {
			p := a
			for range 63 {
				p = nimber.MulTower(p, p)
			}
			if p != s {
				t.Fatalf("Sqrt(%#x) = %#x, want %#x = a^(2^63)", a, s, p)
			}
		}
	}
}

// TestConcurrentFirstUse makes the first calls of Mul, Inv and Sqrt from
// several goroutines at once, so that they race to build the tables; that
// needs a fresh process, as this one has built them already. Under
// go test -race the race detector checks the tables are published safely.
func TestConcurrentFirstUse(t *testing.T) {
	if os.Getenv("NIMBER_FIRST_USE") == "1" {
		concurrentFirstUse(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentFirstUse$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "NIMBER_FIRST_USE=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestConcurrentFirstUse") {
		t.Fatalf("first use in a fresh process: %v\n%s", err, out)
	}
}

func concurrentFirstUse(t *testing.T) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 99))
			<-start
			for range 1000 {
				a, b := operand(r), operand(r)|1
				ib, _ := nimber.Inv(b)
				s := nimber.Sqrt(a)
				if got, want := nimber.Mul(a, b), nimber.MulTower(a, b); got != want {
					t.Errorf("%#x ⊗ %#x = %#x, want %#x", a, b, got, want)
					return
				}
				if nimber.MulTower(b, ib) != 1 || nimber.MulTower(s, s) != a {
					t.Errorf("Inv(%#x) = %#x, Sqrt(%#x) = %#x: wrong", b, ib, a, s)
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
}

func TestPowMatchesRepeatedMul(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range 50 {
		a := r.Uint64()
		p := uint64(1)
		for e := range uint64(40) {
			if got := nimber.Pow(a, e); got != p {
				t.Fatalf("Pow(%d, %d) = %d, want %d", a, e, got, p)
			}
			p = nimber.Mul(p, a)
		}
	}
}

// TestPowFormulas checks the exponents MATH.md gives: in GF(2^(2^k)) the
// inverse is the (2^(2^k) − 2)-th power and the square root the
// 2^(2^k − 1)-th; on 64 bits, a^(2^64 − 1) = 1.
func TestPowFormulas(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for k := uint(0); k <= 6; k++ {
		w := uint(1) << k
		for range 100 {
			a := r.Uint64()
			if w < 64 {
				a &= 1<<w - 1
			}
			if a == 0 {
				continue
			}
			var invExp, sqrtExp uint64
			if w == 64 {
				invExp, sqrtExp = ^uint64(0)-1, 1<<63
			} else {
				invExp, sqrtExp = 1<<w-2, 1<<(w-1)
			}
			ia, _ := nimber.Inv(a)
			if got := nimber.Pow(a, invExp); got != ia {
				t.Fatalf("k=%d: %d^%d = %d, Inv = %d", k, a, invExp, got, ia)
			}
			if w < 64 && ia >= 1<<w {
				t.Fatalf("Inv(%d) = %d left GF(2^%d)", a, ia, w)
			}
			if got := nimber.Pow(a, sqrtExp); got != nimber.Sqrt(a) {
				t.Fatalf("k=%d: %d^%d = %d, Sqrt = %d", k, a, sqrtExp, got, nimber.Sqrt(a))
			}
		}
	}
}

func TestTables(t *testing.T) {
	add, err := nimber.AddTable(4)
	if err != nil {
		t.Fatal(err)
	}
	for a := range 4 {
		for b := range 4 {
			if add[a][b] != uint64(a^b) {
				t.Errorf("AddTable(4)[%d][%d] = %d", a, b, add[a][b])
			}
		}
	}
	for _, size := range []int{0, -1, nimber.MaxTableSize + 1} {
		for name, f := range map[string]func(int) ([][]uint64, error){"add": nimber.AddTable, "mul": nimber.MulTable} {
			if _, err := f(size); err == nil {
				t.Errorf("%s table of size %d: no error", name, size)
			}
		}
	}
	_, err = nimber.MulTable(0)
	if want := "nimber: table size 0 out of range 1..4096 (MaxTableSize)"; err == nil || err.Error() != want {
		t.Errorf("MulTable(0) error = %v, want %q", err, want)
	}
}

func FuzzFieldLaws(f *testing.F) {
	f.Add(uint64(2), uint64(3), uint64(4))
	f.Add(uint64(1)<<63, ^uint64(0), uint64(1)<<32)
	f.Add(uint64(0xffff0000ffff), uint64(1)<<48, uint64(0)) // zero words
	f.Fuzz(func(t *testing.T, a, b, c uint64) {
		if nimber.Mul(a, b^c) != nimber.Mul(a, b)^nimber.Mul(a, c) {
			t.Fatalf("not distributive: %d, %d, %d", a, b, c)
		}
		if nimber.Mul(a, nimber.Mul(b, c)) != nimber.Mul(nimber.Mul(a, b), c) {
			t.Fatalf("not associative: %d, %d, %d", a, b, c)
		}
		if nimber.Mul(a, b) != fermatMul(a, b) {
			t.Fatalf("%d ⊗ %d differs from the reference", a, b)
		}
		if nimber.Mul(a, b) != nimber.MulTower(a, b) {
			t.Fatalf("%d ⊗ %d differs from the byte tower", a, b)
		}
		if ia, err := nimber.Inv(a); err == nil && nimber.MulTower(a, ia) != 1 {
			t.Fatalf("Inv(%d) = %d is not an inverse", a, ia)
		}
		if s := nimber.Sqrt(a); nimber.MulTower(s, s) != a {
			t.Fatalf("Sqrt(%d) = %d does not square to it", a, s)
		}
	})
}
