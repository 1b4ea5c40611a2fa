package notebook

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
)

// usedPeak runs f and returns the most the process held meanwhile
// (budget.Used), sampled every half millisecond.
func usedPeak(f func()) int64 {
	var top atomic.Int64
	top.Store(budget.Used())
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond / 2):
				if u := budget.Used(); u > top.Load() {
					top.Store(u)
				}
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return top.Load()
}

// TestCellMemoryLimit: a cell's limits(memory=...) holds the cell itself,
// not only the cells after it: the watchdog stops growth that no guard
// sees (many small strings) at the lowered limit, under a session ceiling
// far above (issue 21: stopped at 1.4 GiB under 1GiB, with 128MiB asked).
func TestCellMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a hundred MiB")
	}
	debug.FreeOSMemory()
	s, err := New(Options{Limits: job.Limits{Memory: budget.Used() + 1<<30}})
	if err != nil {
		t.Fatal(err)
	}
	limit := budget.Used() + 96<<20
	var cellErr error
	top := usedPeak(func() {
		// Strings into a list made beforehand: no container grows, the
		// watchdog alone sees the memory.
		_, _, cellErr = run(t, s, fmt.Sprintf("limits(memory=%d)\nl = [None] * 3000000\nfor i in range(3000000):\n    l[i] = str(i) * 20", limit))
	})
	var ce *kernel.CellError
	if !errors.As(cellErr, &ce) || ce.Name != "MemoryLimit" || !strings.Contains(ce.Value, "memory limit of "+budget.FormatSize(limit)) {
		t.Fatalf("got %v, want the cell stopped at the memory limit of %s", cellErr, budget.FormatSize(limit))
	}
	if top > limit {
		t.Errorf("the cell peaked at %s, past its limit %s", budget.FormatSize(top), budget.FormatSize(limit))
	}
	t.Logf("peak %s under %s: %s: %s", budget.FormatSize(top), budget.FormatSize(limit), ce.Name, ce.Value)
	// The next cells keep the lowered limit.
	if _, _, err := run(t, s, "d = {i: i for i in range(100000000)}"); err == nil || !strings.Contains(err.Error(), "memory limit of "+budget.FormatSize(limit)) {
		t.Errorf("the next cell: %v", err)
	}
}

// TestMemoryLimitNamed: the limit a refusal names is the one the session
// has, however much it holds (issue 21: a 256 MiB limit was named "267.9
// MiB", the memory in use plus a headroom of 64 MiB granted above it).
func TestMemoryLimitNamed(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 200 MiB")
	}
	debug.FreeOSMemory()
	limit := budget.Used() + 256<<20
	s, err := New(Options{Limits: job.Limits{Memory: limit}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = run(t, s, "x = [0] * 13000000", "y = [0] * 10000000")
	want := fmt.Sprintf("a list of 10000000 items needs about 152.6 MiB, more than the memory limit of %s allows", budget.FormatSize(limit))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	// Freeing takes no memory.
	if _, _, err := run(t, s, "x = None", "y = [0] * 10000000"); err != nil {
		t.Errorf("after x = None: %v", err)
	}
}

// TestLimitsBelowHeld: a memory limit under what the process already holds
// would stop every cell at once: it is refused, naming what is held.
func TestLimitsBelowHeld(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = run(t, s, `limits(memory="1MiB")`)
	if err == nil || !strings.Contains(err.Error(), `limits: memory="1MiB" is less than the`) || !strings.Contains(err.Error(), "nimbook already holds") {
		t.Fatalf("got %v", err)
	}
	if _, _, err := run(t, s, "%limits"); err != nil {
		t.Fatal(err)
	}
	if got := s.opts.Limits.Memory; got != job.DefaultLimits.Memory {
		t.Errorf("memory limit %d after the refusal, want it unchanged", got)
	}
}
