package cellgame

import (
	"context"
	"errors"
	"testing"
)

// The pruning search against the full mex on every board up to 4 × 7 and
// 5 × 5, of Cram and of Node Kayles, with small exact thresholds so that
// most components are searched, and on every subset of the 3 × 4 board
// (in -short: one threshold, boards up to 24 cells).
func TestSearchAgainstSolver(t *testing.T) {
	thresholds, most := []int{2, 6}, 35
	if testing.Short() {
		thresholds, most = []int{6}, 24
	}
	for _, rc := range []struct {
		name string
		rule Rule
	}{{"cram", dominoes{}}, {"node kayles", kayles{}},
		{"cram, half-turn", halfTurn{dominoes{}}}, {"node kayles, half-turn", halfTurn{kayles{}}}} {
		for _, exact := range thresholds {
			full, _ := New(rc.rule, Options{Fold: true})
			srch, err := NewSearch(rc.rule, SearchOptions{Exact: exact})
			if err != nil {
				t.Fatal(err)
			}
			for h := 1; h <= 5; h++ {
				for w := h; w <= 7; w++ {
					if h >= 5 && w > 5 || h*w > most {
						continue
					}
					want, err := full.Value(context.Background(), Full(h, w), h, w)
					if err != nil {
						t.Fatal(err)
					}
					got, err := srch.Value(context.Background(), Full(h, w), h, w)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("%s, exact %d: %d × %d = %d, want %d", rc.name, exact, h, w, got, want)
					}
				}
			}
			for m := 0; m < 1<<12; m++ {
				var b Board
				for i := 0; i < 12; i++ {
					if m>>i&1 == 1 {
						b[i/4] |= 1 << uint(i%4)
					}
				}
				want, _ := full.Value(context.Background(), b, 3, 4)
				got, err := srch.Value(context.Background(), b, 3, 4)
				if err != nil || got != want {
					t.Fatalf("%s, exact %d: subset %v of 3 × 4: %d (%v), want %d", rc.name, exact, b[:3], got, err, want)
				}
			}
			t.Logf("%s, exact %d: %+v", rc.name, exact, srch.Stats())
		}
	}
}

func TestSearchLimits(t *testing.T) {
	s, _ := NewSearch(dominoes{}, SearchOptions{Exact: 2, MaxEntries: 10})
	if _, err := s.Value(context.Background(), Full(4, 5), 4, 5); !errors.Is(err, ErrMemoFull) {
		t.Errorf("4 × 5 in 10 entries: %v, want ErrMemoFull", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ = NewSearch(dominoes{}, SearchOptions{})
	if _, err := s.Value(ctx, Full(4, 5), 4, 5); err == nil {
		t.Error("a cancelled search ran")
	}
	if _, err := NewSearch(dominoes{}, SearchOptions{Exact: -1}); err == nil {
		t.Error("negative option taken")
	}
}

// halfTurn is a rule with the search's half-turn cut.
type halfTurn struct{ Rule }

func (halfTurn) HalfTurn() {}

// zeroByHalfTurn against the full mex: every subset of the 4 × 4 and 3 × 5
// boards it takes as 0 is 0, for Cram and Node Kayles, and it takes some.
func TestZeroByHalfTurn(t *testing.T) {
	for _, rule := range []Rule{dominoes{}, kayles{}} {
		full, _ := New(rule, Options{Fold: true})
		for _, hw := range [][2]int{{4, 4}, {3, 5}} {
			h, w := hw[0], hw[1]
			zeros := 0
			for m := 0; m < 1<<(h*w); m++ {
				var b Board
				for i := 0; i < h*w; i++ {
					if m>>i&1 == 1 {
						b[i/w] |= 1 << uint(i%w)
					}
				}
				if !zeroByHalfTurn(&b, h, w) {
					continue
				}
				zeros++
				if v, err := full.Value(context.Background(), b, h, w); err != nil || v != 0 {
					t.Fatalf("%T: %v of %d × %d: %d (%v), want 0", rule, b[:h], h, w, v, err)
				}
			}
			if zeros < 1<<(h*w/2-2) {
				t.Errorf("%T, %d × %d: %d subsets taken as 0", rule, h, w, zeros)
			}
		}
	}
}

// errAfter is a context whose Err reports a cancellation from its n-th
// call on: a Ctrl-C at a pinned point of the work.
type errAfter struct {
	context.Context
	calls, n int
}

func (c *errAfter) Err() error {
	c.calls++
	if c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

// A cancelled search stops within 4096 nodes (a few milliseconds): the
// search looks at its context every 4096 nodes.
func TestSearchCancel(t *testing.T) {
	s, _ := NewSearch(dominoes{}, SearchOptions{Exact: 6})
	ctx := &errAfter{Context: context.Background(), n: 3}
	_, err := s.Value(ctx, Full(5, 6), 5, 6)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("5 × 6 cancelled: %v", err)
	}
	if st := s.Stats(); st.Nodes > int64(ctx.calls+1)*4096 {
		t.Errorf("%d nodes after %d looks at the context", st.Nodes, ctx.calls)
	}
}

// A table bounded in bytes: without Replace the search stops with
// ErrMemoFull, with it the search replaces entries and still finds every
// value; either way the table never passes its bound.
func TestSearchTableBound(t *testing.T) {
	const bound = 48 << 10
	full, _ := New(dominoes{}, Options{Fold: true})
	s, _ := NewSearch(dominoes{}, SearchOptions{Exact: 4, MaxBytes: bound})
	if _, err := s.Value(context.Background(), Full(4, 6), 4, 6); !errors.Is(err, ErrMemoFull) {
		t.Errorf("4 × 6 in %d bytes: %v, want ErrMemoFull", bound, err)
	}
	if b := s.Stats().Bytes; b > bound {
		t.Errorf("table of %d bytes past its bound of %d", b, bound)
	}
	for _, rc := range []struct {
		rule  Rule
		bound int64
	}{{dominoes{}, bound}, {kayles{}, bound / 4}} {
		rule := rc.rule
		full, _ = New(rule, Options{Fold: true})
		s, _ = NewSearch(rule, SearchOptions{Exact: 4, MaxBytes: rc.bound, Replace: true})
		for _, hw := range [][2]int{{4, 6}, {5, 5}, {3, 8}} {
			h, w := hw[0], hw[1]
			want, _ := full.Value(context.Background(), Full(h, w), h, w)
			got, err := s.Value(context.Background(), Full(h, w), h, w)
			if err != nil || got != want {
				t.Errorf("%T %d × %d: %d (%v), want %d", rule, h, w, got, err, want)
			}
		}
		st := s.Stats()
		if st.Replaced+st.Dropped == 0 || st.Bytes > rc.bound {
			t.Errorf("%T: %d replaced, %d dropped, %d bytes (bound %d)", rule, st.Replaced, st.Dropped, st.Bytes, rc.bound)
		}
		t.Logf("%T: %+v", rule, st)
	}
}

// Shapes whose box has more than 64 cells take the table's three-word
// keys: a row of 33 cells with a cell below each end (a 2 × 33 box) and a
// row of 22 with legs of two cells (3 × 22, a U), against the full mex,
// for Cram and Node Kayles.
func TestSearchWideKeys(t *testing.T) {
	var hook, u Board
	hook[0], hook[1] = 1<<33-1, 1|1<<32
	u[0], u[1], u[2] = 1<<22-1, 1|1<<21, 1|1<<21
	for _, rule := range []Rule{dominoes{}, kayles{}} {
		full, _ := New(rule, Options{Fold: true})
		s, _ := NewSearch(rule, SearchOptions{Exact: 2})
		for _, c := range []struct {
			b    Board
			h, w int
		}{{hook, 2, 33}, {u, 3, 22}} {
			want, err := full.Value(context.Background(), c.b, c.h, c.w)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Value(context.Background(), c.b, c.h, c.w)
			if err != nil || got != want {
				t.Errorf("%T %d × %d: %d (%v), want %d", rule, c.h, c.w, got, err, want)
			}
		}
		three := 0
		for i := range s.tab.three {
			three += s.tab.three[i].n
		}
		if three == 0 {
			t.Errorf("%T: no shape of more than 64 cells in the table", rule)
		}
		t.Logf("%T: %+v, %d three-word keys", rule, s.Stats(), three)
	}
}
