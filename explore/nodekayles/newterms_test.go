package nodekayles

import (
	"context"
	"os"
	"strconv"
	"testing"
)

// newTerms continues A316632 past its 16 published terms: the value of
// Node Kayles on 3 × n for n = 17, 18, …, computed by this package (see
// the README, "Graph and board games", for the runs, their times and memo
// sizes): each by the folded solver, and by the solver without symmetry
// folding (keys by translation only, about four times the memo) as far
// as newTermsTwice; 27 and 28 folded only.
var newTerms = []uint64{
	2, 2, 1, 1, 5, 0, 1, 1, // n = 17 … 24
	3, 0, 2, 5, // n = 25, 26, 27, 28
}

// newTermsTwice is the last n whose term both methods computed.
const newTermsTwice = 26

// TestGrid3NewTerms recomputes the new terms by both methods up to
// NIMBOOK_NK3_UPTO (default 19: a few seconds of CPU; each further column
// about doubles it: 3 × 1 … 3 × 27 took 9 min of CPU folded, 3 × 1 …
// 3 × 26 17 min unfolded).
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
	for _, opts := range []Options{{Workers: 2}, {Workers: 2, NoFold: true}} {
		s, _ := NewSolver(opts)
		for n := 1; n <= upto; n++ {
			g, _ := Grid(3, n)
			v, err := s.Value(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			want := append(append([]uint64(nil), a316632...), newTerms...)[n-1]
			if v != want {
				t.Errorf("%+v: 3 × %d = %d, want %d", opts, n, v, want)
			}
		}
		t.Logf("%+v: 3 × 1…%d, %+v", opts, upto, s.Stats())
	}
}
