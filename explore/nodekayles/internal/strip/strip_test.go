package strip

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/nimbook/nimbook/explore/game"
)

// a316632 is the Grundy value of Node Kayles on the 3 × n grid, n = 1…16:
// OEIS A316632 (https://oeis.org/A316632); S. Brown, S. Daugherty,
// E. Fiorini, B. Maldonado, D. Manzano-Ruiz, S. Rainville, R. Waechter and
// T. W. H. Wong, "Nimber sequences of Node-Kayles games", J. Integer Seq.
// 23 (2020), Article 20.3.5.
var a316632 = []uint64{2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3}

// stripGame is Node Kayles on the 3 × w grid written vertex by vertex
// (vertex 3c + r is cell (r, c)), positions as masks: nothing shared with
// the engine.
func stripGame(w int) game.MoveFunc[uint64] {
	n := 3 * w
	nbr := make([]uint64, n)
	for c := 0; c < w; c++ {
		for r := 0; r < 3; r++ {
			v := 3*c + r
			nbr[v] |= 1 << uint(v)
			if r > 0 {
				nbr[v] |= 1 << uint(v-1)
			}
			if r < 2 {
				nbr[v] |= 1 << uint(v+1)
			}
			if c > 0 {
				nbr[v] |= 1 << uint(v-3)
			}
			if c+1 < w {
				nbr[v] |= 1 << uint(v+3)
			}
		}
	}
	return func(p uint64) ([]uint64, error) {
		var out []uint64
		for v := 0; v < n; v++ {
			if p>>uint(v)&1 == 1 {
				out = append(out, p&^nbr[v])
			}
		}
		return out, nil
	}
}

func toPos(mask uint64, w int) Pos {
	var p Pos
	for c := 0; c < w; c++ {
		for r := 0; r < 3; r++ {
			if mask>>uint(3*c+r)&1 == 1 {
				p[r] |= 1 << uint(c)
			}
		}
	}
	return p
}

// Every position of the 3 × w strips for w ≤ 5 (one and two rows too, as
// subsets), with one worker and two, against the generic mex solver.
func TestEverySubsetAgainstGeneric(t *testing.T) {
	maxW := 5
	if !testing.Short() {
		maxW = 6
	}
	for _, workers := range []int{1, 2} {
		s, err := New(Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		for w := 1; w <= maxW; w++ {
			ref, err := game.NewSolver[uint64](stripGame(w), game.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for m := uint64(0); m < 1<<uint(3*w); m++ {
				want, err := ref.Grundy(m)
				if err != nil {
					t.Fatal(err)
				}
				got, err := s.Value(context.Background(), toPos(m, w))
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("workers %d, 3 × %d, position %v: %d, want %d", workers, w, toPos(m, w), got, want)
				}
			}
		}
	}
}

// Random positions of wider strips, against the generic solver on the
// positions reachable from them (a few hundred thousand at most).
func TestRandomPositionsAgainstGeneric(t *testing.T) {
	rng := rand.New(rand.NewSource(28))
	s, _ := New(Options{Workers: 2})
	for i := 0; i < 40; i++ {
		w := 7 + rng.Intn(5)
		var m uint64
		for v := 0; v < 3*w; v++ {
			if rng.Intn(100) < 60 {
				m |= 1 << uint(v)
			}
		}
		ref, _ := game.NewSolver[uint64](stripGame(w), game.Options{})
		want, err := ref.Grundy(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Value(context.Background(), toPos(m, w))
		if err != nil || got != want {
			t.Fatalf("3 × %d, position %v: %d (%v), want %d", w, toPos(m, w), got, err, want)
		}
	}
}

// The 16 published terms, the work pinned (measured): one memo for the
// range, one worker.
func TestPublished(t *testing.T) {
	s, _ := New(Options{})
	for n := 1; n <= 16; n++ {
		v, err := s.Value(context.Background(), Full(n))
		if err != nil {
			t.Fatal(err)
		}
		if v != a316632[n-1] {
			t.Errorf("3 × %d = %d, want %d (A316632)", n, v, a316632[n-1])
		}
	}
	st := s.Stats()
	t.Logf("3 × 1…16: %+v", st)
	if st.Entries != wantEntries16 || st.Small != wantSmall16 {
		t.Errorf("3 × 1…16: %d entries and %d narrow values, want %d and %d", st.Entries, st.Small, wantEntries16, wantSmall16)
	}
}

// The memo of 3 × 1…16 (measured).
const (
	wantEntries16 = 33829
	wantSmall16   = 674
)

// The four images of a component have one canonical form, and two
// components of different shapes have different forms.
func TestCanonical(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	forms := map[Pos]Pos{}
	for i := 0; i < 3000; i++ {
		w := 1 + rng.Intn(12)
		p := toPos(rng.Uint64()&(1<<uint(3*w)-1), w)
		eachComponent(p, func(k Pos) bool {
			c, cw := Canonical(k)
			kc, kw := crop(k)
			if cw != kw {
				t.Fatalf("%v: width %d, want %d", k, cw, kw)
			}
			images := []Pos{
				{kc[2], kc[1], kc[0]},
				{rev(kc[0], kw), rev(kc[1], kw), rev(kc[2], kw)},
				{rev(kc[2], kw) << 3, rev(kc[1], kw) << 3, rev(kc[0], kw) << 3},
				{0, kc[0] << 5, kc[1] << 5}, // moved down and right
			}
			if kc[2] != 0 {
				images = images[:3]
			}
			for _, im := range images {
				if ci, _ := Canonical(im); ci != c {
					t.Fatalf("%v: image %v has form %v, want %v", kc, im, ci, c)
				}
			}
			if c[0]&1 == 0 && c[1]&1 == 0 && c[2]&1 == 0 {
				t.Fatalf("%v: form %v not at column 0", kc, c)
			}
			if prev, ok := forms[c]; ok && !sameShape(prev, kc, kw) {
				t.Fatalf("%v and %v share the form %v", prev, kc, c)
			}
			forms[c] = kc
			return true
		})
	}
}

// sameShape reports whether b (cropped, w columns) is an image of a under
// the mirrors, after moving both up.
func sameShape(a, b Pos, w int) bool {
	up := func(p Pos) Pos {
		for p[0] == 0 && p != (Pos{}) {
			p = Pos{p[1], p[2], 0}
		}
		return p
	}
	a, b = up(a), up(b)
	h := 3
	if a[2] == 0 {
		h = 2
		if a[1] == 0 {
			h = 1
		}
	}
	flip := func(p Pos) Pos {
		switch h {
		case 3:
			return Pos{p[2], p[1], p[0]}
		case 2:
			return Pos{p[1], p[0], 0}
		}
		return p
	}
	r := func(p Pos) Pos { return Pos{rev(p[0], w), rev(p[1], w), rev(p[2], w)} }
	return b == a || b == flip(a) || b == r(a) || b == r(flip(a))
}

// A bound the memo reaches stops the solver with ErrFull; a cancelled
// context stops it too.
func TestLimits(t *testing.T) {
	const bound = 5 << 19 // the narrow table and the shards' first tables take 2 MiB
	s, _ := New(Options{MaxBytes: bound})
	_, err := s.Value(context.Background(), Full(20))
	if !errors.Is(err, ErrFull) {
		t.Fatalf("3 × 20 under 2.5 MiB: %v, want ErrFull", err)
	}
	if st := s.Stats(); st.Bytes > bound {
		t.Errorf("%d bytes held, past the bound of %d", st.Bytes, bound)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ = New(Options{Workers: 2})
	if _, err := s.Value(ctx, Full(20)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, err := New(Options{Workers: -1}); err == nil {
		t.Error("negative workers taken")
	}
}
