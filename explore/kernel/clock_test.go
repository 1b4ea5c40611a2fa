package kernel_test

import (
	"sync"
	"testing"
	"time"
)

// kernelClock is a clock a test gives the kernel (kernel.SetClock): it
// stands still but for the kernel's own waits, which move it on by the time
// asked and return at once, so that what the kernel decides from the time
// (which requests a failing cell aborts) depends on the order of events
// only, never on how fast a loaded machine runs. Safe for concurrent use.
type kernelClock struct {
	mu    sync.Mutex
	now   time.Time
	nread int // calls of Now so far
	hold  *held
}

// held is a wait of the kernel that blocks until the test releases it.
type held struct {
	asleep, release chan struct{}
}

// clientStart is where the kernel's clock starts, and the date of the
// first request a test stamps itself.
var clientStart = time.Date(2026, 11, 24, 11, 37, 32, 0, time.UTC)

func newKernelClock() *kernelClock { return &kernelClock{now: clientStart} }

func (c *kernelClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nread++
	return c.now
}

func (c *kernelClock) Sleep(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	h := c.hold
	c.hold = nil
	c.mu.Unlock()
	if h != nil {
		close(h.asleep)
		<-h.release
	}
}

// reads is the number of times the kernel read the clock.
func (c *kernelClock) reads() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nread
}

// advance moves the clock on by d.
func (c *kernelClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// holdNextSleep makes the kernel's next wait block until release is called;
// asleep is closed once it blocks.
func (c *kernelClock) holdNextSleep() (asleep <-chan struct{}, release func()) {
	h := &held{asleep: make(chan struct{}), release: make(chan struct{})}
	c.mu.Lock()
	c.hold = h
	c.mu.Unlock()
	var once sync.Once
	return h.asleep, func() { once.Do(func() { close(h.release) }) }
}

// waitReads waits until the kernel has read the clock more than n times.
func (c *kernelClock) waitReads(t testing.TB, n int) {
	t.Helper()
	for deadline := time.Now().Add(wait); c.reads() <= n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the kernel did not read its clock in %v", wait)
		}
	}
}

// stamp is a request date as jupyter_client writes it (microseconds).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// stampMS is a request date as a browser writes it (whole milliseconds).
func stampMS(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
