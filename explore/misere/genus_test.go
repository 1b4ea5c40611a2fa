package misere

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
	"github.com/nimbook/nimbook/explore/heap"
)

func parseGenera(t *testing.T, ss ...string) []Genus {
	t.Helper()
	out := make([]Genus, len(ss))
	for i, s := range ss {
		g, err := ParseGenus(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = g
	}
	return out
}

func mustGame(t *testing.T, rule string, p heap.Params) heap.Game {
	t.Helper()
	r, ok := heap.Lookup(rule)
	if !ok {
		t.Fatalf("no rule %s", rule)
	}
	g, err := r.NewGame(p)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGeneraKnown checks genera published in the literature, each with its
// source; superscripts written longer than needed are compared as genera.
func TestGeneraKnown(t *testing.T) {
	tests := []struct {
		name, rule string
		params     heap.Params
		from       int
		want       []string
	}{
		// Winning Ways, ch. 13 ("Survival in the lost world"), the genera
		// of Kayles from heap 0.
		{"Kayles 0.77", "octal", heap.Params{"code": "0.77"}, 0,
			[]string{"0^{120}", "1^{031}", "2^{20}", "3^{31}", "1^{031}", "4^{146}", "3^{31}", "2^{20}"}},
		// T. E. Plambeck, "Taming the wild in impartial combinatorial
		// games" (Integers 5, 2005): the genus of 0.312 from heap 1, as
		// written there (1^{03131} is 1^{031}).
		{"0.312", "octal", heap.Params{"code": "0.312"}, 1,
			[]string{"1^{03131}", "2^{20}", "0^{02}", "2^{1420}", "0^{02}", "1^{13}"}},
		// Nim heaps are tame: 0^{120}, 1^{031}, n^{n(n⊕2)} (ONAG, ch. 12).
		{"Nim", "nim", heap.Params{"heaps": []int{1}}, 0,
			[]string{"0^{120}", "1^{031}", "2^{20}", "3^{31}", "4^{46}", "5^{57}", "6^{64}", "7^{75}", "8^{8,10}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustGame(t, tt.rule, tt.params)
			want := parseGenera(t, tt.want...)
			got, err := Genera(context.Background(), g, tt.from+len(want)-1, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				n := tt.from + i
				if !got[n].Equal(w) {
					t.Errorf("heap %d: genus %v, want %v", n, got[n], w)
				}
				if got[n].String() != w.Short().String() {
					t.Errorf("heap %d: written %v, want the short form %v", n, got[n], w.Short())
				}
			}
		})
	}
}

// bruteMisere is the misère Grundy value of a position of game heaps and
// nim-heaps, by the definition: mex of the options, 1 for no option. It
// keeps every nim-heap of 1 (Genera drops them in pairs).
type bruteMisere struct {
	g    heap.Game
	memo map[string]int
}

func (b *bruteMisere) value(heaps, nims []int) int {
	hs, ns := slices.Clone(heaps), slices.Clone(nims)
	slices.Sort(hs)
	slices.Sort(ns)
	hs = slices.DeleteFunc(hs, func(h int) bool { return h == 0 })
	ns = slices.DeleteFunc(ns, func(h int) bool { return h == 0 })
	id := key(hs) + "|" + key(ns)
	if v, ok := b.memo[id]; ok {
		return v
	}
	var vals []uint64
	for i, h := range hs {
		for _, o := range b.g.Options(h) {
			q := slices.Concat(hs[:i], hs[i+1:], o)
			vals = append(vals, uint64(b.value(q, ns)))
		}
	}
	for i, n := range ns {
		for m := range n {
			q := slices.Clone(ns)
			q[i] = m
			vals = append(vals, uint64(b.value(hs, q)))
		}
	}
	v := 1
	if len(vals) > 0 {
		v = int(game.Mex(vals))
	}
	b.memo[id] = v
	return v
}

// TestGeneraBrute compares every γk, well past where each genus says the
// values alternate, with the definition.
func TestGeneraBrute(t *testing.T) {
	tests := []struct {
		name, rule string
		params     heap.Params
		upto       int
	}{
		{"Kayles", "octal", heap.Params{"code": "0.77"}, 9},
		{"Dawson's Kayles", "octal", heap.Params{"code": "0.07"}, 10},
		{"0.312", "octal", heap.Params{"code": "0.312"}, 10},
		{"0.75", "octal", heap.Params{"code": "0.75"}, 10},
		{"0.137", "octal", heap.Params{"code": "0.137"}, 10},
		{"4.7", "octal", heap.Params{"code": "4.7"}, 8},
		{"hex 0.f", "hex", heap.Params{"code": "0.f"}, 7},
		{"subtraction 1,3,4", "subtraction", heap.Params{"set": []int{1, 3, 4}}, 14},
		{"bounded Nim", "nim", heap.Params{"heaps": []int{1}, "max-take": 3}, 12},
		{"Grundy's game", "grundy", heap.Params{}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustGame(t, tt.rule, tt.params)
			got, err := Genera(context.Background(), g, tt.upto, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			b := &bruteMisere{g: g, memo: map[string]int{}}
			normal, err := g.Values(tt.upto, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			for n, gn := range got {
				if gn.Normal != int(normal[n]) {
					t.Errorf("heap %d: normal value %d, want %d", n, gn.Normal, normal[n])
				}
				var twos []int
				for k := range len(gn.Misere) + 4 {
					if want := b.value([]int{n}, twos); gn.At(k) != want {
						t.Errorf("heap %d (genus %v): γ%d = %d, the definition gives %d", n, gn, k, gn.At(k), want)
					}
					twos = append(twos, 2)
				}
			}
		})
	}
}

// TestGeneraGeneric checks γ0 against the generic misère solver of the
// heap package: γ0 = 0 exactly at the misère P-positions.
func TestGeneraGeneric(t *testing.T) {
	for _, code := range []string{"0.77", "0.07", "0.31", "0.15", "4.7"} {
		t.Run(code, func(t *testing.T) {
			g := mustGame(t, "octal", heap.Params{"code": code})
			got, err := Genera(context.Background(), g, 12, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			for n, gn := range got {
				o, err := heap.Outcome(g, []int{n}, game.Misere, heap.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if (o == game.P) != (gn.Misere[0] == 0) {
					t.Errorf("heap %d: genus %v but the generic solver says %v", n, gn, o)
				}
			}
		})
	}
	// Nim: γk = 0 exactly when heap n with k heaps of 2 is a misère
	// P-position, which Nim solves by the rule of seed 004.
	g := mustGame(t, "nim", heap.Params{"heaps": []int{1}})
	got, err := Genera(context.Background(), g, 9, heap.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for n, gn := range got {
		pos := []int{n}
		for k := range 6 {
			o, err := heap.Outcome(g, pos, game.Misere, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if (o == game.P) != (gn.At(k) == 0) {
				t.Errorf("Nim heap %d + %d heaps of 2: γ = %d but the outcome is %v", n, k, gn.At(k), o)
			}
			pos = append(pos, 2)
		}
		if !gn.Tame() {
			t.Errorf("Nim heap %d: genus %v not tame", n, gn)
		}
	}
}

func TestGenusForms(t *testing.T) {
	tests := []struct {
		in, short string
		tame      bool
	}{
		{"0^{120}", "0^{120}", true},
		{"1^{03131}", "1^{031}", true},
		{"1^{031}", "1^{031}", true},
		{"2^{2020}", "2^{20}", true},
		{"3^{31}", "3^{31}", true},
		{"0^{02}", "0^{02}", true},
		{"1^{13}", "1^{13}", true},
		{"0^{20}", "0^{20}", false},
		{"2^{0}", "2^{0}", false},
		{"4^{146}", "4^{146}", false},
		{"2^{1420}", "2^{1420}", false},
		{"10^{10,8}", "10^{10,8}", true},
		{"5^{5}", "5^{5}", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			g, err := ParseGenus(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if s := g.Short().String(); s != tt.short {
				t.Errorf("short form %s, want %s", s, tt.short)
			}
			if g.Tame() != tt.tame {
				t.Errorf("Tame() = %v, want %v", g.Tame(), tt.tame)
			}
		})
	}
	for _, bad := range []string{"", "1", "x^{01}", "1^{}", "1^{0a}"} {
		if _, err := ParseGenus(bad); err == nil {
			t.Errorf("ParseGenus(%q) accepted", bad)
		}
	}
}

func TestGeneraLimits(t *testing.T) {
	g := mustGame(t, "octal", heap.Params{"code": "0.77"})
	_, err := Genera(context.Background(), g, 200, heap.Limits{MaxPositions: 1000})
	if !errors.Is(err, game.ErrTooManyPositions) {
		t.Fatalf("got %v, want a refusal by positions", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Genera(ctx, g, 40, heap.Limits{})
	if err == nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the cancellation", err)
	}
	// A game that never splits reaches single heaps only: a long
	// subtraction game is cheap.
	s := mustGame(t, "subtraction", heap.Params{"set": []int{1, 2, 5}})
	if c := EstimateGenus(s, 5000); c.Splits || c.Positions > 5001 {
		t.Errorf("estimate %+v, want 5001 single heaps", c)
	}
	if _, err := Genera(context.Background(), s, 5000, heap.Limits{}); err != nil {
		t.Fatal(err)
	}
}
