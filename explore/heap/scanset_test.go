package heap

import (
	"math/rand/v2"
	"testing"
)

// TestScanSetAVX512 compares the vector scan with scanMissing on random
// splits: values, sets, lengths and counts to find.
func TestScanSetAVX512(t *testing.T) {
	if !haveScanSet {
		t.Skip("no AVX-512 VBMI on this machine")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 20000 {
		width := uint32(1) << (1 + r.IntN(9)) // 2..512
		n := r.IntN(200)
		if trial%50 == 0 {
			n = r.IntN(5000)
		}
		vs, win := make([]uint32, n+2), make([]uint32, n+2)
		for i := range vs {
			vs[i], win[i] = r.Uint32N(width), r.Uint32N(width)
		}
		need := make([]uint32, 4*512)
		var set [8]uint64
		st := uint32(trial + 1)
		missing := 0
		for v := range width {
			if r.IntN(4) == 0 {
				need[v] = st
				set[v/64] |= 1 << (v % 64)
				missing++
			}
		}
		if missing == 0 {
			continue
		}
		left := 1 + r.IntN(missing)
		wantRest, wantScanned := scanMissing(vs, win, need, n, st, left)
		rest, scanned := scanSetAVX512(&vs[1], &win[1], n, &set, left, nil, 0)
		if n == 0 {
			rest, scanned = left, 0
		}
		if rest != wantRest || scanned != wantScanned {
			t.Fatalf("trial %d (n %d, width %d, left %d): got rest %d scanned %d, want %d %d", trial, n, width, left, rest, scanned, wantRest, wantScanned)
		}
		for v := range width {
			if got, want := set[v/64]>>(v%64)&1 == 1, need[v] == st; got != want {
				t.Fatalf("trial %d: value %d left in set %v, in need %v", trial, v, got, want)
			}
		}
	}
}

// TestScanFirstSet compares the look-ahead helper's scan on the vector
// unit with scanFirst: where it stops, and the first split of each value.
func TestScanFirstSet(t *testing.T) {
	if !haveScanSet {
		t.Skip("no AVX-512 VBMI on this machine")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 5000 {
		width := uint32(1) << (1 + r.IntN(9))
		n := 1 + r.IntN(3000)
		vs, win := make([]uint32, n+1), make([]uint32, n+1)
		for i := range vs {
			vs[i], win[i] = r.Uint32N(width), r.Uint32N(width)
		}
		lo := 1 + r.IntN(n)
		hi := lo + r.IntN(n-lo+1)
		st := uint32(trial + 1)
		need, needSet := make([]uint32, 2048), make([]uint32, 2048)
		first, firstSet := make([]uint32, 2048), make([]uint32, 2048)
		var found []uint64
		for v := range width {
			if r.IntN(3) == 0 {
				need[v], needSet[v] = st, st
				found = append(found, uint64(v))
			}
		}
		if len(found) == 0 {
			continue
		}
		_, want := scanFirst(vs, win, need, first, lo, hi, st, len(found))
		got := scanFirstSet(vs, win, needSet, firstSet, found, lo, hi, st)
		if got != want {
			t.Fatalf("trial %d (lo %d, hi %d, %d values): stopped at %d, want %d", trial, lo, hi, len(found), got, want)
		}
		for _, e := range found {
			v := uint32(e)
			if (need[v] == st) != (needSet[v] == st) || (need[v] != st && first[v] != firstSet[v]) {
				t.Fatalf("trial %d: value %d: need %d first %d, want need %d first %d", trial, v, needSet[v], firstSet[v], need[v], first[v])
			}
		}
	}
}
