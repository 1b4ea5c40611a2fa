package job

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
)

// TestMemoryShare: sections start while their reservations fit beside
// those running and the results held (budget.Held); one starts anyway
// when none runs, so that what is held never makes the run wait for ever;
// a cancelled run stops waiting.
func TestMemoryShare(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newMemoryShare(ctx, 100)
	defer m.stop()
	if err := m.acquire(60); err != nil {
		t.Fatal(err)
	}
	started := make(chan error, 1)
	go func() { started <- m.acquire(60) }()
	select {
	case err := <-started:
		t.Fatalf("a second 60 of 100 started beside the first (%v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	release := budget.Hold(50)
	m.release(60)
	// Nothing runs: the section starts, held results or not.
	if err := <-started; err != nil {
		t.Fatal(err)
	}
	// 60 running and 50 held: 1 more does not fit.
	waiting := make(chan error, 1)
	go func() { waiting <- m.acquire(1) }()
	select {
	case err := <-waiting:
		t.Fatalf("1 more started beside 60 running and 50 held (%v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	release()
	m.mu.Lock()
	m.cond.Broadcast() // what Held counts changed
	m.mu.Unlock()
	if err := <-waiting; err != nil {
		t.Fatal(err)
	}
	go func() { waiting <- m.acquire(90) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-waiting; !errors.Is(err, context.Canceled) {
		t.Errorf("after the cancel: %v", err)
	}
}
