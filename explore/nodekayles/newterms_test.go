package nodekayles

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/nimbook/nimbook/explore/nodekayles/internal/strip"
)

// newTerms continues A316632 past its 16 published terms: the value of
// Node Kayles on 3 × n for n = 17, 18, …, computed twice here: by
// explore/cellgame with folding (the eight symmetries of the square), and
// by the strip engine (internal/strip: row words, the strip's four
// symmetries, a memo of its own), written apart from it; 17–26 a third
// time by cellgame without folding. The runs, their CPU time and memory
// are in the README ("Graph and board games").
var newTerms = []uint64{
	2, 2, 1, 1, 5, 0, 1, 1, // n = 17 … 24
	3, 0, 2, 5, // n = 25, 26, 27, 28
	1, // n = 29: cellgame folded, 92.7 M entries, 32 min of CPU for 3 × 1 … 29; the strip engine, 692 s (one worker)
	0, // n = 30: cellgame folded, 170.5 M entries, 62 min of CPU for 3 × 1 … 30; the strip engine, 1357 s, 4.3 GB
}

// newTermsUnfolded is the last n cellgame without folding computed.
const newTermsUnfolded = 26

// TestGrid3NewTerms recomputes the new terms by each method up to
// NIMBOOK_NK3_UPTO (default 19: a few seconds of CPU; each further column
// about doubles it: the strip engine took 29 s of CPU for 3 × 1 … 24 and
// 418 s for 3 × 1 … 28, cellgame folded 9 min for 3 × 1 … 27, unfolded
// 17 min for 3 × 1 … 26).
func TestGrid3NewTerms(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 3 × n past the published terms")
	}
	upto := 19
	if s := os.Getenv("NIMBOOK_NK3_UPTO"); s != "" {
		var err error
		if upto, err = strconv.Atoi(s); err != nil || upto < 17 || upto > 16+len(newTerms) {
			t.Fatalf("NIMBOOK_NK3_UPTO=%q: want 17 to %d", s, 16+len(newTerms))
		}
	}
	want := append(append([]uint64(nil), a316632...), newTerms...)
	st, _ := strip.New(strip.Options{Workers: 2})
	for n := 1; n <= upto; n++ {
		v, err := st.Value(context.Background(), strip.Full(n))
		if err != nil {
			t.Fatal(err)
		}
		if v != want[n-1] {
			t.Errorf("strip engine: 3 × %d = %d, want %d", n, v, want[n-1])
		}
	}
	t.Logf("strip engine: 3 × 1…%d, %+v", upto, st.Stats())
	// NoStrip: the solver would send folded three-row grids to the strip
	// engine, already run above; these are cellgame's two methods.
	for _, opts := range []Options{{Workers: 2, NoStrip: true}, {Workers: 2, NoFold: true}} {
		last := upto
		if opts.NoFold {
			last = min(upto, newTermsUnfolded)
		}
		s, _ := NewSolver(opts)
		for n := 1; n <= last; n++ {
			g, _ := Grid(3, n)
			v, err := s.Value(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if v != want[n-1] {
				t.Errorf("%+v: 3 × %d = %d, want %d", opts, n, v, want[n-1])
			}
		}
		t.Logf("%+v: 3 × 1…%d, %+v", opts, last, s.Stats())
	}
}
