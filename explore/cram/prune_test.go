package cram

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/cellgame"
)

// Value's search against the Solver's full mex on every board up to 4 × 6
// and 5 × 5 (the search's own tests in explore/cellgame go to 4 × 7).
func TestValueAgainstSolver(t *testing.T) {
	s, _ := NewSolver(Options{})
	for m := 1; m <= 5; m++ {
		for n := m; n <= 6; n++ {
			if m*n > 25 {
				continue
			}
			b, _ := NewBoard(m, n)
			want, err := s.Value(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := Value(context.Background(), m, n, SearchOptions{Exact: 8})
			if err != nil || got != want {
				t.Errorf("%d × %d: %d (%v), want %d", m, n, got, err, want)
			}
		}
	}
}

// belingSearch is the part of Beling's table (see beling) the search is
// run on. In the full suite: the even × even boards (4 × 8, 6 × 6, 4 × 10,
// 6 × 8), one node each by the half-turn cut, and 4 × 8 searched without
// it (TestValue4x8Searched). The others with NIMBOOK_CRAM_SEARCH=1, or a
// list (NIMBOOK_CRAM_SEARCH=6x7,7x7); NIMBOOK_CRAM_NOHALF=1 searches the
// even × even boards too, NIMBOOK_CRAM_REPLACE=1 lets the table replace
// entries, NIMBOOK_CRAM_GIB sets the memory (8 GiB by default).
//
// Measured on 2 shared cores (user+sys CPU, max RSS, 4 × 8 run first):
// 4 × 10 searched without the cut 23.1 s, 213 MB (4.47 M nodes, 3.53 M
// shapes), where the maps of (shape, heap) took 36 s and 489 MB; 5 × 8
// 29.6 s, 232 MB (5.63 M nodes), where they took 47 s and 500 MB. 6 × 7
// stopped at its table's 4 GiB bound (8 GiB in all, no replacement) after
// 2263 s, with 126 M shapes (the maps stopped at 4 GiB after 177 s).
// Again with NIMBOOK_CRAM_GIB=6 NIMBOOK_CRAM_REPLACE=1, 6 × 7 + *0 … *4
// were shown N (its value is at least 5) by 269 M nodes; the P-position
// 6 × 7 + *5 was still searched at 336 M nodes and 29 min of CPU, when the
// session ended.
// 7 × 7 = 1 with NIMBOOK_CRAM_GIB=7 NIMBOOK_CRAM_REPLACE=1: 2430 s, 4.7 GB
// (369 M nodes; 7 × 7 + *0 shown N at about 236 M; the table full at 3.5
// GiB, 220 M shapes, 53 M entries replaced), load 2.5–8.
var belingSearch = []struct {
	m, n  int
	value uint64
	long  bool
}{
	{4, 8, 0, false}, {4, 9, 1, true}, {5, 7, 1, true}, {6, 6, 0, true},
	{4, 10, 0, true}, {5, 8, 1, true}, {6, 7, 5, true}, {6, 8, 0, true}, {7, 7, 1, true},
	{4, 11, 1, true}, {5, 9, 1, true},
}

// TestValueBeling: P. Beling's impartial-games README
// (https://github.com/beling/impartial-games, "The results obtained so
// far", Cram table): 4 × 10 = 0, 5 × 8 = 1, 6 × 7 = 5, 7 × 7 = 1,
// 4 × 11 = 1, 5 × 9 = 1 (7 × 7 and the smaller boards first by Lemoine and
// Viennot's Glop).
func TestValueBeling(t *testing.T) {
	if testing.Short() {
		t.Skip("long: Beling's table by the search")
	}
	only := os.Getenv("NIMBOOK_CRAM_SEARCH")
	noHalf := os.Getenv("NIMBOOK_CRAM_NOHALF") != ""
	for _, c := range belingSearch {
		name := fmt.Sprintf("%dx%d", c.m, c.n)
		// even × even boards are one node by the half-turn cut
		long := c.long && (noHalf || c.m%2 == 1 || c.n%2 == 1)
		if long && only != "1" && !slices.Contains(strings.Split(only, ","), name) {
			continue
		}
		mem := int64(8 << 30)
		if g, err := strconv.Atoi(os.Getenv("NIMBOOK_CRAM_GIB")); err == nil && g > 0 {
			mem = int64(g) << 30
		}
		// the progress line once a minute: where a long search is
		p := budget.NewProgress()
		ctx, stop := context.WithCancel(budget.WithProgress(context.Background(), p))
		go func() {
			tick := time.NewTicker(time.Minute)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
					t.Logf("%s: %s", name, p.Snapshot())
				}
			}
		}()
		v, st, err := Value(ctx, c.m, c.n, SearchOptions{Exact: 16, MaxMemory: mem,
			Replace:    os.Getenv("NIMBOOK_CRAM_REPLACE") != "",
			NoHalfTurn: noHalf})
		stop()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d × %d = %d: %+v", c.m, c.n, v, st)
		if v != c.value {
			t.Errorf("%d × %d: %d, want %d (Beling)", c.m, c.n, v, c.value)
		}
	}
}

// 4 × 8 = 0 (Beling) by a search, not by the half-turn cut: a search of
// Beling's table in the full suite.
func TestValue4x8Searched(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 4 × 8 searched")
	}
	v, st, err := Value(context.Background(), 4, 8, SearchOptions{Exact: 16, NoHalfTurn: true})
	if err != nil || v != 0 {
		t.Fatalf("4 × 8: %d (%v), want 0", v, err)
	}
	if st.Nodes < 1000 {
		t.Errorf("4 × 8 in %d nodes: not searched", st.Nodes)
	}
}

func TestValueLimits(t *testing.T) {
	if _, _, err := Value(context.Background(), 5, 6, SearchOptions{Exact: 4, MaxMemory: 1 << 10}); !errors.Is(err, cellgame.ErrMemoFull) {
		t.Errorf("5 × 6 in 1 KiB: %v, want a full memo", err)
	}
	if _, _, err := Value(context.Background(), 0, 6, SearchOptions{}); err == nil {
		t.Error("0 × 6 taken")
	}
}
