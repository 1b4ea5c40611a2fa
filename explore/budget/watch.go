package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
// is free or returned to the system. It costs about a microsecond; Used is
// what the limit bounds.
func InUse() int64 {
	v := goMemory()
	if v[1]+v[2] > v[0] {
		return 0
	}
	return int64(v[0] - v[1] - v[2])
}

// goMemory reads the runtime's total, released and free heap bytes.
func goMemory() [3]uint64 {
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
	return v
}

// goResident is the memory the Go runtime holds from the system, free
// pages included: what its soft limit (debug.SetMemoryLimit) bounds.
func goResident() int64 {
	v := goMemory()
	if v[1] > v[0] {
		return 0
	}
	return int64(v[0] - v[1])
}

// statmFile is /proc/self/statm, kept open: one read at offset 0 gives
// its current figures (a microsecond or two).
var (
	statmOnce sync.Once
	statmFile *os.File
)

// statm reads /proc/self/statm: the resident set size and its pages
// backed by files (for nimbook, its executable), in bytes; ok is false
// where there is none.
func statm() (resident, shared int64, ok bool) {
	statmOnce.Do(func() { statmFile, _ = os.Open("/proc/self/statm") })
	if statmFile == nil {
		return 0, 0, false
	}
	var buf [128]byte
	n, err := statmFile.ReadAt(buf[:], 0)
	if n == 0 && err != nil {
		return 0, 0, false
	}
	// size resident shared …, in pages.
	f := strings.Fields(string(buf[:n]))
	if len(f) < 3 {
		return 0, 0, false
	}
	r, err1 := strconv.ParseInt(f[1], 10, 64)
	s, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || r < 0 || s < 0 {
		return 0, 0, false
	}
	page := int64(os.Getpagesize())
	return r * page, s * page, true
}

// CodeResident returns the bytes of the program's files held in memory: its
// code and read-only data, paged in from the executable as they run (9–14
// MiB for nimbook). The resident set size counts them and the Go runtime's
// metrics do not. It reads /proc/self/statm (a few microseconds), and
// returns 0 where there is none.
func CodeResident() int64 {
	_, shared, _ := statm()
	return shared
}

// Used returns the resident set size of the process, what a memory limit
// bounds: the Go runtime's memory, free pages not yet returned included,
// the program's code, and what is allocated outside the Go runtime (the
// SQLite library's pages). It reads /proc/self/statm (a few
// microseconds); where there is none, it is InUse and nothing else.
func Used() int64 {
	if r, _, ok := statm(); ok {
		return r
	}
	return InUse()
}

// Margin is how far below its limit the watchdog stops work (Watch): what
// may be allocated between two of its samples (a sample may come late
// on a busy machine, or during a collection) and while the work winds
// down, so that the resident set size stays under the limit itself.
// Another margin below, the watchdog asks for a collection, the runtime's
// soft limit lies, and guarded allocations stop (Available). It is a
// sixty-fourth of the limit, at least 8 MiB and at most 64 MiB: 0.354 to
// 20 126 194 values peaks at 249.5 MiB, and runs under 256 MiB; at
// least 8 MiB because with 4, a misère position of six heaps stopped at
// 252.8 MiB went on to 256.3 MiB at load 10 before its work wound down.
func Margin(limit int64) int64 {
	return min(max(limit/64, 8<<20), 64<<20)
}

// Available returns what may still be allocated under limit: the limit
// less two margins (Margin) and what is in use (Used). A caller about to
// allocate more should collect garbage (debug.FreeOSMemory) and ask again
// before refusing. limit ≤ 0 has no limit (math.MaxInt64 is returned).
func Available(limit int64) int64 {
	if limit <= 0 {
		return 1<<63 - 1
	}
	return limit - 2*Margin(limit) - Used()
}

// Interval is how often the watchdog samples memory while the process
// holds less than three quarters of the limit; past that, it samples
// every FastInterval.
const (
	Interval     = 10 * time.Millisecond
	FastInterval = time.Millisecond
)

// A watchdog's limit may be lowered while it runs (Lower), and its work
// may sample the memory itself (Check).
type watchdog struct {
	limit  atomic.Int64
	cancel context.CancelCauseFunc
}

// check stops the work when the process holds more than the limit less
// its margin, and returns why.
func (w *watchdog) check() error {
	lim := w.limit.Load()
	if used := Used(); used > lim-Margin(lim) {
		err := &LimitError{Used: used, Limit: lim}
		w.cancel(err)
		return err
	}
	return nil
}

type watchKey struct{}

// The runtime's soft limit is one per process: while watchdogs run
// (nested, or side by side as in a survey's workers), it is the lowest of
// their limits, less what the runtime does not hold (see
// setSoftLimitLocked), and the limit found before the first is restored
// after the last.
var (
	watchMu   sync.Mutex
	active    = map[*watchdog]struct{}{}
	origLimit int64
)

// softOutside is what the soft limit was last set to leave aside: the
// resident memory the Go runtime does not hold (code, SQLite's pages).
var softOutside int64

// outside is the resident memory the Go runtime does not hold: the
// program's code and what other allocators map.
func outside() int64 {
	r, shared, ok := statm()
	if !ok {
		return 0
	}
	return max(r-goResident(), shared, 0)
}

// softLimit is the runtime's soft limit for a watchdog of limit when
// outside bytes are resident besides the Go runtime's: a margin below the
// line where the watchdog stops work, so that the collector works hard
// before it gets there. Never less than a quarter of the limit.
func softLimit(limit, outside int64) int64 {
	return max(limit-2*Margin(limit)-outside, limit/4)
}

// setSoftLimitLocked sets the runtime's soft limit from the lowest limit.
func setSoftLimitLocked() {
	if len(active) == 0 {
		debug.SetMemoryLimit(origLimit)
		return
	}
	softOutside = outside()
	low := origLimit
	for w := range active {
		low = min(low, softLimit(w.limit.Load(), softOutside))
	}
	debug.SetMemoryLimit(low)
}

// keepSoftLimit brings the soft limit up to date when what lies outside
// the Go runtime has moved by more than a MiB.
func keepSoftLimit() {
	o := outside()
	watchMu.Lock()
	if len(active) > 0 && (o-softOutside > 1<<20 || softOutside-o > 1<<20) {
		setSoftLimitLocked()
	}
	watchMu.Unlock()
}

// Watch returns a context that is cancelled, with a *LimitError cause,
// once the process's memory (Used) comes within Margin of limit; within
// two margins it asks for a collection (debug.FreeOSMemory), and the
// runtime's soft limit (debug.SetMemoryLimit) lies there, so that garbage
// seldom takes it further. The watchdog samples every Interval, and every
// FastInterval past three quarters of the limit and while the collection
// it asked for runs: the work goes on meanwhile (274 MiB were reached
// under 256 MiB while a watchdog waited for a collection of 200 MiB of
// dicts). Lower lowers its limit while it runs. stop releases the
// watchdog and restores the soft limit; call it when the work is done.
// limit ≤ 0 watches nothing.
func Watch(parent context.Context, limit int64) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	if limit <= 0 {
		return ctx, func() { cancel(nil) }
	}
	w := &watchdog{cancel: cancel}
	w.limit.Store(limit)
	ctx = context.WithValue(ctx, watchKey{}, w)
	watchMu.Lock()
	if len(active) == 0 {
		origLimit = debug.SetMemoryLimit(-1)
	}
	active[w] = struct{}{}
	setSoftLimitLocked()
	watchMu.Unlock()
	if Used() > limit-2*Margin(limit) {
		// Garbage of earlier work, and pages freed but not given back,
		// would stop the work at once.
		debug.FreeOSMemory()
	}

	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTimer(FastInterval)
		defer t.Stop()
		var collected chan struct{} // closed when the collection asked for ends; nil: none running
		n := 0
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-collected:
				collected = nil
				continue
			case <-t.C:
			}
			lim := w.limit.Load()
			line := lim - Margin(lim)
			used := Used()
			switch {
			case used > line:
				w.cancel(&LimitError{Used: used, Limit: lim})
				return
			case used > line-Margin(lim) && collected == nil:
				// The soft limit makes the collector keep garbage under
				// here, but a cycle may lag behind fast allocation: ask
				// for one, and give its free pages back. The samples go
				// on meanwhile.
				collected = make(chan struct{})
				go func(c chan<- struct{}) {
					debug.FreeOSMemory()
					close(c)
				}(collected)
			}
			if n++; n%16 == 0 {
				keepSoftLimit()
			}
			if used > line/4*3 || collected != nil {
				t.Reset(FastInterval)
			} else {
				t.Reset(Interval)
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
			delete(active, w)
			setSoftLimitLocked()
			watchMu.Unlock()
		})
	}
}

// Lower lowers the limit of the innermost watchdog of ctx (Watch) to
// limit, when limit is lower, for the rest of its run; it returns the
// limit the watchdog keeps, 0 when ctx has none.
func Lower(ctx context.Context, limit int64) int64 {
	w, _ := ctx.Value(watchKey{}).(*watchdog)
	if w == nil {
		return 0
	}
	watchMu.Lock()
	defer watchMu.Unlock()
	if limit > 0 && limit < w.limit.Load() {
		w.limit.Store(limit)
		if _, ok := active[w]; ok {
			setSoftLimitLocked()
		}
	}
	return w.limit.Load()
}

// Check samples the memory at once for the innermost watchdog of ctx, as
// the watchdog does every few milliseconds, and stops the work (cancels
// ctx, with the *LimitError it returns as the cause) when the process
// holds more than its limit less its Margin; else it returns nil. A loop
// that allocates fast calls it now and then (the sandbox every 65 536
// Starlark steps): the watchdog's goroutine may wait its turn for a
// processor for many milliseconds on a busy machine, and the work goes on
// meanwhile.
func Check(ctx context.Context) error {
	if w, _ := ctx.Value(watchKey{}).(*watchdog); w != nil {
		return w.check()
	}
	return nil
}

// Limit returns the limit of the innermost watchdog of ctx, 0 when ctx has
// none.
func Limit(ctx context.Context) int64 {
	if w, _ := ctx.Value(watchKey{}).(*watchdog); w != nil {
		return w.limit.Load()
	}
	return 0
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

// Lowest returns the lowest limit of the watchdogs running in the process
// (Watch), 0 when none runs: the limit of work reached through an
// interface that takes no context (a rule file's top-level code, run
// when a job file is checked), which must stay inside the process's limit
// all the same.
func Lowest() int64 {
	watchMu.Lock()
	defer watchMu.Unlock()
	low := int64(0)
	for w := range active {
		if l := w.limit.Load(); low == 0 || l < low {
			low = l
		}
	}
	return low
}
