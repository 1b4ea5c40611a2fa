package nimber

import "testing"

// TestFieldTables checks the log/exp tables against the byte tower: g = gen16
// generates K* (its powers below order16 are all distinct), the logs invert
// the powers, and logH is the log of h = 2^15.
func TestFieldTables(t *testing.T) {
	fieldOnce.Do(buildField)
	bt := tables()
	seen := make([]bool, 1<<16)
	x := uint16(1)
	for i := range order16 {
		if seen[x] {
			t.Fatalf("g^%d = %d repeats: %d does not generate GF(2^16)*", i, x, gen16)
		}
		seen[x] = true
		for _, j := range []int{i, i + order16, i + 2*order16, i + 3*order16} {
			if exps[j] != x {
				t.Fatalf("exps[%d] = %d, want g^%d = %d", j, exps[j], i, x)
			}
		}
		if logs[x] != int32(i) {
			t.Fatalf("logs[%d] = %d, want %d", x, logs[x], i)
		}
		x = mul16(bt, x, gen16)
	}
	if x != 1 {
		t.Fatalf("g^%d = %d, want 1", order16, x)
	}
	if logs[0] != logZero {
		t.Errorf("logs[0] = %d, want logZero", logs[0])
	}
	if exps[logH] != 1<<15 {
		t.Errorf("exps[logH] = %d, want 2^15", exps[logH])
	}
	if want := mul16(bt, 1<<15, 1<<15); exps[logHH] != want {
		t.Errorf("exps[logHH] = %d, want 2^15 ⊗ 2^15 = %d", exps[logHH], want)
	}
}

// TestTerm checks the branch-free zero: any sum holding logZero gives 0,
// whatever the other logs and constant.
func TestTerm(t *testing.T) {
	fieldOnce.Do(buildField)
	for _, s := range []int32{logZero, 2 * logZero, logZero + 3*(order16-1), 2*logZero + 2*(order16-1) + logHH} {
		if got := term(s); got != 0 {
			t.Errorf("term(%d) = %d, want 0", s, got)
		}
	}
	if got := term(3 * (order16 - 1)); got != uint64(exps[3*(order16-1)]) || got == 0 {
		t.Errorf("term of the largest sum = %d", got)
	}
}

// BenchmarkBuild measures the one-time cost of the tables: the byte tower's,
// then the log/exp and square-root tables built from it.
func BenchmarkBuild(b *testing.B) {
	b.Run("bytes", func(b *testing.B) {
		for b.Loop() {
			buildTables()
		}
	})
	tables()
	b.Run("field", func(b *testing.B) {
		fieldOnce.Do(buildField) // later builds rewrite the same values
		for b.Loop() {
			buildField()
		}
	})
}
