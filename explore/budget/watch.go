package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrMemory is wrapped by every error that refuses or stops work for the
// memory limit.
var ErrMemory = errors.New("memory limit")

// LimitError is work refused (Need > 0: estimated before it started) or
// stopped (Used > 0: measured while it ran) by the memory limit.
type LimitError struct {
	What  string // what was refused, e.g. "a 5000×5000 Wythoff table"; may be empty
	Need  int64  // estimated bytes, when refused before starting
	Used  int64  // bytes in use, when stopped by the watchdog
	Limit int64
	Aside int64 // what the program holds besides the work, when refused
}

func (e *LimitError) Error() string {
	lim := FormatSize(e.Limit)
	if e.Need > 0 && e.Need <= e.Limit {
		// Refused for the reserve only: say so, or the numbers contradict.
		what := "this work"
		if e.What != "" {
			what = e.What
		}
		return fmt.Sprintf("%s needs about %s, and the program itself about %s: more than the memory limit of %s", what, FormatSize(e.Need), FormatSize(max(e.Aside, Reserve)), lim)
	}
	switch {
	case e.Need > 0 && e.What != "":
		return fmt.Sprintf("%s needs about %s, more than the memory limit of %s", e.What, FormatSize(e.Need), lim)
	case e.Need > 0:
		return fmt.Sprintf("needs about %s, more than the memory limit of %s", FormatSize(e.Need), lim)
	}
	return fmt.Sprintf("stopped at the memory limit of %s (%s in use)", lim, FormatSize(e.Used))
}

func (e *LimitError) Is(target error) bool { return target == ErrMemory }

// InUse returns the bytes the Go runtime holds for live and not yet swept
// objects, goroutine stacks and its own metadata: memory mapped minus what
// is free or returned to the system. It follows the resident set size
// closely without reading /proc, and costs about a microsecond.
func InUse() int64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	metrics.Read(s)
	var v [3]uint64
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = s[i].Value.Uint64()
		}
	}
	if v[1]+v[2] > v[0] {
		return 0
	}
	return int64(v[0] - v[1] - v[2])
}

// CodeResident returns the bytes of the program's files held in memory: its
// code and read-only data, paged in from the executable as they run (9–14
// MiB for nimbook). The resident set size counts them and the Go runtime's
// metrics do not, so the watchdog adds them to InUse. It reads
// /proc/self/statm (a few microseconds), and returns 0 where there is none.
func CodeResident() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	// size resident shared …, in pages; shared is file-backed and shared
	// memory, which for nimbook is its executable.
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return 0
	}
	pages, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || pages < 0 {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// Interval is how often the watchdog samples memory.
const Interval = 10 * time.Millisecond

// The runtime's soft memory limit is one per process: while watchdogs run
// (nested, or side by side as in a survey's workers), it is the lowest of
// their limits, and the limit found before the first is restored after the
// last.
var (
	watchMu   sync.Mutex
	active    = map[*int64]struct{}{}
	origLimit int64
)

// softCode is the code size the soft limit was last set for.
var softCode int64

// setSoftLimitLocked sets the runtime's soft limit to the lowest limit
// less the program's code, which the runtime does not count.
func setSoftLimitLocked() {
	if len(active) == 0 {
		debug.SetMemoryLimit(origLimit)
		return
	}
	softCode = CodeResident()
	low := origLimit
	for l := range active {
		low = min(low, max(*l-softCode, *l/2))
	}
	debug.SetMemoryLimit(low)
}

// inUse is what the watchdog compares with its limit: the Go runtime's
// memory and the program's code, the resident set size but for pages freed
// and not yet returned. It keeps the soft limit in step with the code.
func inUse() int64 {
	code := CodeResident()
	watchMu.Lock()
	if len(active) > 0 && (code-softCode > 1<<20 || softCode-code > 1<<20) {
		setSoftLimitLocked()
	}
	watchMu.Unlock()
	return InUse() + code
}

// Watch returns a context that is cancelled, with a *LimitError cause,
// once InUse exceeds limit; it also asks the garbage collector to work
// harder as memory nears the limit (debug.SetMemoryLimit). stop releases
// the watchdog and restores the soft limit; call it when the work is done.
// limit ≤ 0 watches nothing.
func Watch(parent context.Context, limit int64) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	if limit <= 0 {
		return ctx, func() { cancel(nil) }
	}
	key := new(int64)
	*key = limit
	watchMu.Lock()
	if len(active) == 0 {
		origLimit = debug.SetMemoryLimit(-1)
	}
	active[key] = struct{}{}
	setSoftLimitLocked()
	watchMu.Unlock()

	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(Interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				// The soft limit set above makes the collector keep
				// garbage under the limit, but a cycle may lag behind
				// fast allocation: only what a collection leaves counts.
				if inUse() > limit {
					runtime.GC()
					if used := inUse(); used > limit {
						cancel(&LimitError{Used: used, Limit: limit})
						return
					}
				}
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			cancel(nil)
			watchMu.Lock()
			delete(active, key)
			setSoftLimitLocked()
			watchMu.Unlock()
		})
	}
}

// Err returns nil while ctx is live, and once it is done the reason: the
// *LimitError of a watchdog, the cause given to a cancel function (a
// signal from signal.NotifyContext), else ctx.Err(). The error always
// wraps ctx.Err() too, so errors.Is(err, context.Canceled) still holds.
func Err(ctx context.Context) error {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	cause := context.Cause(ctx)
	if cause == nil || cause == err {
		return err
	}
	return &stopped{cause: cause, err: err}
}

type stopped struct{ cause, err error }

func (s *stopped) Error() string   { return s.cause.Error() }
func (s *stopped) Unwrap() []error { return []error{s.cause, s.err} }
