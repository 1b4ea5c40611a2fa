package cellgame

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestPool: one solver per memory limit and memo file until Release; a
// memo file is tied by Keep, and New's error is returned as it is.
func TestPool(t *testing.T) {
	built, kept := 0, 0
	p := Pool[*int]{
		New: func(limit int64, file string) (*int, error) {
			if limit < 0 {
				return nil, errors.New("negative")
			}
			built++
			n := built
			return &n, nil
		},
		Keep: func(s *int, file string) (*Kept, error) {
			kept++
			return Keep(file, nil, nil, func() int64 { return 0 })
		},
	}
	a, err := p.Get(1<<20, "")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := p.Get(1<<20, ""); b != a {
		t.Error("a second Get of one limit built another solver")
	}
	if c, _ := p.Get(2<<20, ""); c == a || *c.Solver != 2 {
		t.Errorf("another limit: solver %d, want a new one (2)", *c.Solver)
	}
	if _, ok := p.Lookup(1<<20, ""); !ok {
		t.Error("Lookup does not find the solver Get built")
	}
	file := filepath.Join(t.TempDir(), "m.memo")
	if f, err := p.Get(1<<20, file); err != nil || f.File == nil || kept != 1 {
		t.Errorf("with a memo file: %v, kept %d times; want it tied once", err, kept)
	}
	if _, err := p.Get(-1, ""); err == nil || err.Error() != "negative" {
		t.Errorf("New's error: %v", err)
	}
	p.Release()
	if _, ok := p.Lookup(1<<20, ""); ok {
		t.Error("Lookup finds a solver after Release")
	}
	if d, _ := p.Get(1<<20, ""); d == a {
		t.Error("Get after Release returned the forgotten solver")
	}
}
