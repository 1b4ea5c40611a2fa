package heap

import (
	"runtime"
	"slices"
	"testing"
)

// lookGames are rules with one split digit, at 0 (Grundy's game, 4.3,
// 4.), 1 (Officers 0.6, 0.4), 2 (0.16, 0.051, 0.04) and 3 (0.007), with
// and without taking tokens to leave one heap.
func lookGames(t *testing.T) []Game {
	return []Game{NewGrundysGame(), mustOctal(t, "0.6"), mustOctal(t, "4.3"), mustOctal(t, "0.16"),
		mustOctal(t, "0.051"), mustOctal(t, "4."), mustOctal(t, "0.4"), mustOctal(t, "0.04"), mustOctal(t, "0.007")}
}

// lookSweep starts the sparse-space sweep of g from its values up to
// from, under their best split, with the look-ahead sweep from heap
// lookFrom (0: the one-worker sweep) with the helper at lag heaps ahead
// (0: as it goes), and dense as the sweep's whole-scan factor.
func lookSweep(t *testing.T, g Game, from, upto, lookFrom, lag, dense int) *sweep {
	t.Helper()
	w := startSweep(t, g, from, upto, 0)
	w.lookahead = lookFrom > 0
	w.lookFrom = lookFrom
	w.look.lag = lag
	w.dense = dense
	return w
}

// TestLookAheadSweep: the look-ahead sweep gives the values of the sweep
// on one worker and counts the same steps, whatever the timing: with the
// helper a fixed number of heaps ahead (every heap then takes its route,
// against the rare positions since the segment started too), and as it
// goes.
func TestLookAheadSweep(t *testing.T) {
	upto := 6000
	if testing.Short() {
		upto = 3000
	}
	for _, g := range lookGames(t) {
		t.Run(g.String(), func(t *testing.T) {
			for _, dense := range []int{0, 2} {
				one := lookSweep(t, g, 200, upto, 0, 0, dense)
				if err := one.run(g, 201, upto, upto, Limits{}, true); err != nil {
					t.Fatal(err)
				}
				for _, lag := range []int{1, 2, 5, 40, 300, 0} {
					two := lookSweep(t, g, 200, upto, 300, lag, dense)
					if err := two.run(g, 201, upto, upto, Limits{}, true); err != nil {
						t.Fatal(err)
					}
					if i := slices.Compare(two.vs, one.vs); i != 0 {
						for n := range one.vs {
							if two.vs[n] != one.vs[n] {
								t.Fatalf("dense %d, lag %d: g(%d) = %d, on one worker %d", dense, lag, n, two.vs[n], one.vs[n])
							}
						}
					}
					t.Logf("dense %d, lag %d: %d segments, %d heaps by the helper's route", dense, lag, two.segments, two.looked)
					if lag > 0 && two.looked == 0 {
						t.Errorf("dense %d, lag %d: %d heaps by the helper's route", dense, lag, two.looked)
					}
					if two.steps != one.steps || two.fullScans != one.fullScans || !slices.Equal(two.rare, one.rare) || two.w != one.w {
						t.Errorf("dense %d, lag %d: %d steps, %d whole scans, %d rare positions, w = %d; on one worker %d, %d, %d, %d",
							dense, lag, two.steps, two.fullScans, len(two.rare), two.w, one.steps, one.fullScans, len(one.rare), one.w)
					}
				}
			}
		})
	}
}

// TestLookAheadAgainstSolver: the look-ahead sweep from heap 4 on small
// heaps, under good and bad splits, against the generic solver, for
// random codes with one split digit.
func TestLookAheadAgainstSolver(t *testing.T) {
	upto := 22
	if testing.Short() {
		upto = 16
	}
	var games []*Octal
	for _, g := range randomGames(t, 40) {
		if o, ok := g.(*Octal); ok && o.parts() == 2 && len(o.sweepMoves().splits) == 1 {
			games = append(games, o)
		}
	}
	games = append(games, mustOctal(t, "0.6"), mustOctal(t, "4.3"), mustOctal(t, "0.04"))
	var looked int64
	for _, g := range games {
		t.Run(g.String(), func(t *testing.T) {
			want := referenceValues(t, g, upto)
			d, _ := g.SplitDigit()
			for _, sp := range []SparseSpace{{Mask: 0}, {Mask: 1}, {Mask: 0b10001}, {Mask: 0, Domain: true, T: d}, {Mask: 2, Domain: true, T: d}} {
				for _, lag := range []int{1, 2, 3, 6} {
					w := newTestSweep(t, g, want[:2], sp, upto)
					w.dense, w.lookFrom, w.look.lag = 0, 4, lag
					if err := w.run(g, 2, upto, upto, Limits{}, false); err != nil {
						t.Fatal(err)
					}
					for n, v := range w.vs {
						if uint64(v) != want[n] {
							t.Fatalf("split %v, lag %d: g(%d) = %d, the solver %d", sp, lag, n, v, want[n])
						}
					}
					looked += w.looked
				}
			}
		})
	}
	if looked < int64(len(games)) {
		t.Errorf("%d heaps by the helper's route in %d games", looked, len(games))
	}
}

// TestLookBackoff: segments whose helper finished few heaps set the next
// ones aside, 1, 2, 4, … up to lookWaitMax checks' worth; one that it
// served well ends the back-off.
func TestLookBackoff(t *testing.T) {
	w := &sweep{sweepMoves: sweepMoves{splits: []int{1}, lookahead: true}, dense: 2}
	n := 1 << 14
	for _, want := range []int{1, 2, 4, 8, 16, 16} {
		w.lookBackoff(n, n+sparseCheck, sparseCheck/lookPoor-1)
		n += sparseCheck
		if w.lookWait != want || w.lookResume != n+want*sparseCheck {
			t.Fatalf("wait %d, resume at %d; want %d, %d", w.lookWait, w.lookResume, want, n+want*sparseCheck)
		}
		if w.canLook(n) || w.canLook(w.lookResume-1) {
			t.Fatal("a segment with the helper during the back-off")
		}
		if runtime.GOMAXPROCS(0) >= 2 && !w.canLook(w.lookResume) {
			t.Fatal("no segment with the helper after the back-off")
		}
	}
	w.lookBackoff(n, n+sparseCheck, sparseCheck/lookPoor+1)
	if w.lookWait != 0 {
		t.Errorf("wait %d after a good segment", w.lookWait)
	}
	w.lookBackoff(n, n+lookMinRun-1, 0) // a short segment says nothing
	if w.lookWait != 0 {
		t.Errorf("wait %d after a short segment", w.lookWait)
	}
}
