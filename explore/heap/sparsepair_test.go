package heap

import (
	"runtime"
	"slices"
	"testing"
)

// pairGames are rules with one split digit: Grundy's game, and codes
// that split with digit 0 or later, with and without taking one token
// to leave one heap (the other late option).
func pairGames(t *testing.T) []Game {
	return []Game{NewGrundysGame(), mustOctal(t, "0.6"), mustOctal(t, "4.3"), mustOctal(t, "0.16"),
		mustOctal(t, "0.051"), mustOctal(t, "4.")}
}

// startSweep starts the sparse-space sweep of g from its values up to
// from, under their best split, on two workers from heap pairFrom (0: one
// worker).
func startSweep(t *testing.T, g Game, from, upto, pairFrom int) *sweep {
	t.Helper()
	var mv sweepMoves
	var prefix []uint64
	var err error
	switch g := g.(type) {
	case *GrundysGame:
		mv = g.sweepMoves()
		prefix, err = g.splitValues(from, Limits{})
	case *Octal:
		mv = g.sweepMoves()
		prefix, err = g.splitValues(g, from, Limits{})
	}
	if err != nil {
		t.Fatal(err)
	}
	mv.paired = pairFrom > 0
	sp, err := findSparse(prefix, mv.t)
	if err != nil {
		t.Fatal(err)
	}
	vs := make([]uint32, upto+1)
	for n, v := range prefix {
		vs[n] = uint32(v)
	}
	w, err := newSweep(g, mv, vs, len(prefix), sp)
	if err != nil {
		t.Fatal(err)
	}
	w.pairFrom = pairFrom
	w.pairAlways = true
	return w
}

// TestPairedSweep: the paired sweep gives the values of the sweep on one
// worker and counts the same steps, whatever the timing: with workers
// that wait for each other as usual, that take the other's heap at their
// first wait (steal 1), or after a short one.
func TestPairedSweep(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("the paired sweep needs two cores")
	}
	// 4000 heaps give hundreds of segments on two workers; more only makes
	// the test slow on a loaded machine, where spinning workers lose
	// their turn.
	upto := 4000
	for _, g := range pairGames(t) {
		t.Run(g.String(), func(t *testing.T) {
			ones := map[int]*sweep{} // the one-worker sweep to each upto
			// Workers that never take the other's heap run in lock step:
			// on a loaded machine each heap waits for both to be scheduled
			// (minutes for 20 000 heaps at load 12), so they go less far.
			for _, c := range []struct{ steal, upto int }{{0, min(upto, 2000)}, {1, upto}, {500, upto}} {
				steal, upto := c.steal, c.upto
				one := ones[upto]
				if one == nil {
					one = startSweep(t, g, 300, upto, 0)
					if err := one.run(g, 301, upto, upto, Limits{}, true); err != nil {
						t.Fatal(err)
					}
					ones[upto] = one
				}
				two := startSweep(t, g, 300, upto, 64)
				for i := range two.workers {
					two.workers[i].steal = steal
				}
				if err := two.run(g, 301, upto, upto, Limits{}, true); err != nil {
					t.Fatal(err)
				}
				if i := slices.Compare(two.vs, one.vs); i != 0 {
					for n := range one.vs {
						if two.vs[n] != one.vs[n] {
							t.Fatalf("steal %d: g(%d) = %d, on one worker %d", steal, n, two.vs[n], one.vs[n])
						}
					}
				}
				// How often a worker took the other's heap depends on the
				// timing only.
				t.Logf("steal %d: %d segments, %d heaps taken", steal, two.segments, two.steals)
				if two.segments == 0 {
					t.Errorf("steal %d: no segment on two workers", steal)
				}
				if two.steps != one.steps || !slices.Equal(two.rare, one.rare) || two.w != one.w {
					t.Errorf("steal %d: %d steps, %d rare positions, w = %d; on one worker %d, %d, %d",
						steal, two.steps, len(two.rare), two.w, one.steps, len(one.rare), one.w)
				}
			}
		})
	}
}

// TestPairSolo: a worker that took the other's heap computes the rest of
// the segment alone, as one worker does, and stops at a rare value.
func TestPairSolo(t *testing.T) {
	for _, g := range pairGames(t) {
		t.Run(g.String(), func(t *testing.T) {
			const upto = 6000
			one := startSweep(t, g, 300, upto, 0)
			if err := one.run(g, 301, upto, upto, Limits{}, false); err != nil {
				t.Fatal(err)
			}
			two := startSweep(t, g, 300, upto, 64)
			for n := 301; n <= upto; {
				// The segment from n, taken at once by worker 0.
				size := len(two.class)
				pw := &two.workers[0]
				if len(pw.sc.seen) != size {
					pw.sc.seen, pw.sc.need = make([]uint32, size), make([]uint32, size)
				}
				var ps pairState
				ps.published.Store(int64(n - 1))
				ps.claimed.Store(int64(n))
				two.pairEnd = upto + 1
				wide := two.w
				two.pairSolo(&ps, pw, n)
				last := int(ps.published.Load())
				for i := n; i <= last; i++ {
					if v := two.vs[i]; v >= two.w {
						two.widen(v + 1)
					}
					if v := two.vs[i]; two.class[v] == two.s.rareParity(i) {
						two.rare, two.rareV = append(two.rare, uint32(i)), append(two.rareV, v)
					}
					if two.vs[i] != one.vs[i] {
						t.Fatalf("g(%d) = %d alone, %d by the sweep", i, two.vs[i], one.vs[i])
					}
				}
				if v := two.vs[last]; last < upto && two.class[v] != two.s.rareParity(last) && v < wide {
					t.Fatalf("stopped at %d, neither rare nor past w", last)
				}
				n = last + 1
			}
		})
	}
}
