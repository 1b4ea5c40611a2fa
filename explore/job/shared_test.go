package job

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSharedSolverRange: the sections of a range share one solver when
// a part's moves do not depend on the parameter, and each solves alone
// when they do. Take-away of 1..k from a heap of 10 across k: the moves
// depend on k, the values are 10 mod (k + 1) = 0, 1, 2, 0, 4 (Berlekamp,
// Conway and Guy, Winning Ways, ch. 4, subtraction games S(1..k)); across
// the heap n with k = 2 they do not, and the values are n mod 3.
func TestSharedSolverRange(t *testing.T) {
	dir := t.TempDir()
	star := filepath.Join(dir, "take.star")
	if err := os.WriteFile(star, []byte("def take(n, k):\n    return game(moves=lambda p: [p - t for t in range(1, min(k, p) + 1)], start=n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, params string
		want         []uint64
		shared       bool
	}{
		{"k ranges", `{n: 10, k: "1..5"}`, []uint64{0, 1, 2, 0, 4}, false},
		{"n ranges", `{n: "1..8", k: 2}`, []uint64{1, 2, 0, 1, 2, 0, 1, 2}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := Parse(filepath.Join(dir, "job.yaml"), []byte(fmt.Sprintf("sections:\n  - game: {starlark: {file: %s, name: take, params: %s}}\n    show: [value]\n", star, tc.params)))
			if err != nil {
				t.Fatal(err)
			}
			sh := j.Sections[0].shared
			// Keep the memo past the range's end, to look at it.
			sh.left++
			rep, err := Run(t.Context(), j, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := reportValues(t, rep); !slices.Equal(got, tc.want) {
				t.Errorf("values %v, want %v", got, tc.want)
			}
			if sh.off == tc.shared {
				t.Errorf("shared: %v, want %v", !sh.off, tc.shared)
			}
			if tc.shared {
				// One memo: the heaps 0..8, each solved once.
				if st := sh.sol.Stats(); st.Solved != 9 {
					t.Errorf("the shared memo holds %d positions, want 9", st.Solved)
				}
			}
		})
	}
}

// TestSharedSolverGrids: Node Kayles on rows × cols grids
// (examples/games.star) across both: a part's cells are numbered by rows,
// so each row count has a solver of its own; the values are those of each
// section solving alone.
func TestSharedSolverGrids(t *testing.T) {
	text := fmt.Sprintf("sections:\n  - game: {starlark: {file: %s, name: node_kayles, params: {rows: \"1..3\", cols: \"1..6\"}}}\n    show: [value]\n", gamesFile(t))
	run := func(alone bool) []uint64 {
		j, err := Parse(filepath.Join(t.TempDir(), "job.yaml"), []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if alone {
			for _, s := range j.Sections {
				s.shared.off = true
			}
		}
		rep, err := Run(t.Context(), j, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return reportValues(t, rep)
	}
	shared, alone := run(false), run(true)
	if !slices.Equal(shared, alone) {
		t.Errorf("values %v with one solver, %v each alone", shared, alone)
	}
	// Rows 3: OEIS A316632, 2, 1, 1, 0, 3, 3 (Brown et al., J. Integer
	// Seq. 23 (2020), Article 20.3.5).
	if got := alone[12:]; !slices.Equal(got, []uint64{2, 1, 1, 0, 3, 3}) {
		t.Errorf("3 × 1..6: %v", got)
	}
}
