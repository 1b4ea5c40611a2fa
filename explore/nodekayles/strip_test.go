package nodekayles

import (
	"context"
	"math/rand"
	"os"
	"strconv"
	"testing"

	"github.com/nimbook/nimbook/explore/cellgame"
	"github.com/nimbook/nimbook/explore/nodekayles/internal/strip"
)

// The strip engine (internal/strip, written apart from cellgame) against
// cellgame, folded and not: 3 × 1 … 12 and 200 random positions of 3 × w
// strips (w ≤ 16) in -short; 3 × 1 … 18 and 800 positions in the full
// suite, or 3 × 1 … NIMBOOK_NK3_UPTO (22 passed: 79 s of CPU, 226 MB).
func TestStripAgainstCellgame(t *testing.T) {
	upto, samples := 12, 100
	if !testing.Short() {
		upto, samples = 18, 400
		if s := os.Getenv("NIMBOOK_NK3_UPTO"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 || n > strip.MaxCols {
				t.Fatalf("NIMBOOK_NK3_UPTO=%q: want 1 to %d", s, strip.MaxCols)
			}
			upto = n
		}
	}
	st, _ := strip.New(strip.Options{Workers: 2})
	for _, fold := range []bool{true, false} {
		cg, _ := cellgame.New(GridRule{}, cellgame.Options{Fold: fold, Workers: 2})
		for n := 1; n <= upto; n++ {
			want, err := cg.Value(context.Background(), cellgame.Full(3, n), 3, n)
			if err != nil {
				t.Fatal(err)
			}
			got, err := st.Value(context.Background(), strip.Full(n))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("3 × %d: strip %d, cellgame (fold %v) %d", n, got, fold, want)
			}
		}
		rng := rand.New(rand.NewSource(3))
		for i := 0; i < samples; i++ {
			w := 1 + rng.Intn(16)
			var b cellgame.Board
			var p strip.Pos
			for r := 0; r < 3; r++ {
				for c := 0; c < w; c++ {
					if rng.Intn(100) < 75 {
						b[r] |= 1 << uint(c)
						p[r] |= 1 << uint(c)
					}
				}
			}
			want, err := cg.Value(context.Background(), b, 3, w)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := st.Value(context.Background(), p); err != nil || got != want {
				t.Fatalf("position %v of 3 × %d: strip %d (%v), cellgame (fold %v) %d", p, w, got, err, fold, want)
			}
		}
	}
}
