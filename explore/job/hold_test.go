package job

import (
	"sync/atomic"
	"testing"

	"github.com/nimbook/nimbook/explore/family"
)

var releases atomic.Int32

func init() {
	family.Register(&family.Family{Key: "test-release", Order: 998, Release: func() { releases.Add(1) }})
}

// TestHoldReleases: what families keep for a run is dropped when the last
// hold ends (a run's own, a survey's), not before, and once.
func TestHoldReleases(t *testing.T) {
	before := releases.Load()
	outer := Hold()
	inner := Hold()
	inner()
	inner()
	if got := releases.Load() - before; got != 0 {
		t.Fatalf("released %d times with a hold left, want 0", got)
	}
	outer()
	if got := releases.Load() - before; got != 1 {
		t.Fatalf("released %d times after the last hold, want 1", got)
	}
	if _, err := runSrc(t, "sections:\n  - game: {subtraction: {set: [1, 2], upto: 10}}\n    show: [values]\n", Options{}); err != nil {
		t.Fatal(err)
	}
	if got := releases.Load() - before; got != 2 {
		t.Fatalf("released %d times after a run, want 2", got)
	}
}
