package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{in: "1048576", want: 1 << 20},
		{in: "512MiB", want: 512 << 20},
		{in: "4GiB", want: 4 << 30},
		{in: " 2 GiB ", want: 2 << 30},
		{in: "100MB", want: 100e6},
		{in: "2G", want: 2 << 30},
		{in: "64M", want: 64 << 20},
		{in: "10B", want: 10},
		{in: "", bad: true},
		{in: "0", bad: true},
		{in: "-5MiB", bad: true},
		{in: "lots", bad: true},
		{in: "1.5GiB", bad: true},
		{in: "99999999999TiB", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSize(tt.in)
			if tt.bad {
				if err == nil || !errors.Is(err, ErrBadSize) {
					t.Fatalf("ParseSize(%q) = %d, %v; want ErrBadSize", tt.in, got, err)
				}
				if !strings.Contains(err.Error(), "512MiB") {
					t.Errorf("error %q does not say what to write", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"},
		{256 << 20, "256 MiB"}, {4 << 30, "4 GiB"}, {3 << 40, "3 TiB"},
	}
	for _, tt := range tests {
		if got := FormatSize(tt.n); got != tt.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestExceeds(t *testing.T) {
	if err := Exceeds("a table", 10, 0); err != nil {
		t.Errorf("no limit: %v", err)
	}
	if err := Exceeds("a table", 40<<20, 64<<20); err != nil {
		t.Errorf("at the limit less the reserve: %v", err)
	}
	err := Exceeds("a table", 44<<20, 64<<20)
	if want := "a table needs about 44 MiB, and the program itself about 24 MiB: more than the memory limit of 64 MiB"; err == nil || err.Error() != want || !errors.Is(err, ErrMemory) {
		t.Errorf("within the limit, not beside the reserve: %v, want %q", err, want)
	}
	err = Exceeds("a 5000×5000 table", 200<<20, 64<<20)
	if !errors.Is(err, ErrMemory) {
		t.Fatalf("Exceeds = %v, want ErrMemory", err)
	}
	if want := "a 5000×5000 table needs about 200 MiB, more than the memory limit of 64 MiB"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// TestWatchStopsGrowth allocates past the limit in small steps, as a
// runaway loop would, and expects the watchdog to cancel within a few
// sampling intervals with a LimitError.
func TestWatchStopsGrowth(t *testing.T) {
	base := InUse()
	limit := base + 64<<20
	ctx, stop := Watch(context.Background(), limit)
	defer stop()
	var keep [][]byte
	deadline := time.Now().Add(time.Minute) // a hang guard only
	for ctx.Err() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("watchdog did not stop %d MiB of allocations", len(keep))
		}
		keep = append(keep, make([]byte, 1<<20))
		for i := range keep[len(keep)-1] {
			keep[len(keep)-1][i] = 1
		}
	}
	got := len(keep) << 20
	if int64(got) > limit+200<<20 {
		t.Errorf("stopped after %d MiB, limit %d MiB", got>>20, limit>>20)
	}
	err := Err(ctx)
	var le *LimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrMemory) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Err = %v; want a LimitError that is ErrMemory and context.Canceled", err)
	}
	if !strings.Contains(err.Error(), "memory limit of") {
		t.Errorf("message %q", err)
	}
	runtime.KeepAlive(keep)
}

func TestWatchNoLimit(t *testing.T) {
	ctx, stop := Watch(context.Background(), 0)
	if ctx.Err() != nil {
		t.Fatal("cancelled at once")
	}
	stop()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatal("stop does not cancel")
	}
	if Err(ctx) != context.Canceled {
		t.Errorf("Err after stop = %v, want context.Canceled", Err(ctx))
	}
}

func TestErrSignalCause(t *testing.T) {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGUSR1)
	defer stop()
	if Err(ctx) != nil {
		t.Fatal("Err of a live context")
	}
	syscall.Kill(syscall.Getpid(), syscall.SIGUSR1)
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute): // a hang guard only
		t.Fatal("signal not delivered")
	}
	err := Err(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Err = %v, want it to wrap context.Canceled", err)
	}
	if strings.Contains(err.Error(), "context canceled") {
		t.Errorf("Err = %q names the Go context, not the signal", err)
	}
}

func TestProgress(t *testing.T) {
	var nilP *Progress
	nilP.Add(3) // no panic
	nilP.Start("x", 3)
	if s := nilP.Snapshot(); s != (Snapshot{}) {
		t.Errorf("nil snapshot %+v", s)
	}
	p := NewProgress()
	ctx := WithProgress(context.Background(), p)
	if From(ctx) != p || From(context.Background()) != nil {
		t.Fatal("From does not find the progress")
	}
	p.Start("octal 0.6", 1000)
	p.Add(250)
	s := p.Snapshot()
	s.Elapsed = time.Second // fixed for the rendering
	if got, want := s.String(), "octal 0.6: 250/1000 (25%), 250/s, ETA 0:03"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	p.SetStage("section 2/3")
	p.Start("Wythoff table", 10)
	if got := p.Snapshot().Label; got != "section 2/3: Wythoff table" {
		t.Errorf("label with a stage = %q", got)
	}
	s = Snapshot{Done: 5}
	if got := s.String(); got != "5" {
		t.Errorf("String without total = %q", got)
	}
	s = Snapshot{Label: "x", Done: 3_000_000, Total: 9_000_000, Elapsed: time.Second}
	if got, want := s.String(), "x: 3000000/9000000 (33%), 3.0M/s, ETA 0:02"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	// Three sections, one done and two half done: 2 of 3.
	p.SetStage("")
	p.StartScaled("sections", 3000, 1000)
	p.Set(2000)
	s = p.Snapshot()
	s.Elapsed = 4 * time.Second
	if got, want := s.String(), "sections: 2.0/3 (66%), 0.50/s, ETA 0:02"; got != want {
		t.Errorf("scaled String = %q, want %q", got, want)
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00", 61 * time.Second: "1:01", 3725 * time.Second: "1:02:05"} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}

func ExampleFormatSize() {
	fmt.Println(FormatSize(256<<20), FormatSize(3<<29))
	// Output: 256 MiB 1.5 GiB
}

func ExampleExceeds() {
	err := Exceeds("a 5000×5000 Wythoff table", 5000*5000*4, 64<<20)
	fmt.Println(err)
	// Output: a 5000×5000 Wythoff table needs about 95.4 MiB, more than the memory limit of 64 MiB
}

// TestWatchSideBySide stops two watchdogs in the order they started, as a
// survey's workers may: the soft limit follows the lowest running one, less
// two margins and what the runtime does not hold (the program's code), and
// comes back to what it was.
func TestWatchSideBySide(t *testing.T) {
	orig := debug.SetMemoryLimit(-1)
	soft := func() (got, want int64) {
		watchMu.Lock()
		defer watchMu.Unlock()
		return debug.SetMemoryLimit(-1), softLimit(1<<39, softOutside)
	}
	_, stopA := Watch(context.Background(), 1<<40)
	_, stopB := Watch(context.Background(), 1<<39)
	if got, want := soft(); got != want {
		t.Errorf("soft limit with both = %d, want %d", got, want)
	}
	stopA()
	if got, want := soft(); got != want {
		t.Errorf("soft limit after the first stops = %d, want %d", got, want)
	}
	stopB()
	if got := debug.SetMemoryLimit(-1); got != orig {
		t.Errorf("soft limit after both = %d, want the original %d", got, orig)
	}
}

// TestCodeResident: the executable's pages are counted (a Go test binary
// runs from a file of megabytes), and the watchdog's figure, the resident
// set size, holds them and the runtime's memory.
func TestCodeResident(t *testing.T) {
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		t.Skip("no /proc/self/statm")
	}
	code := CodeResident()
	if code < 1<<20 || code > 1<<30 {
		t.Fatalf("CodeResident = %s, want between 1 MiB and 1 GiB", FormatSize(code))
	}
	if got := Used(); got < code+InUse()/2 {
		t.Errorf("Used = %s, less than the code (%s) and the runtime's memory (%s)", FormatSize(got), FormatSize(code), FormatSize(InUse()))
	}
}

// TestHold: what the program holds is set aside from the limit until it
// is released, and named in the refusal.
func TestHold(t *testing.T) {
	if err := Exceeds("a table", 30<<20, 64<<20); err != nil {
		t.Fatalf("before holding: %v", err)
	}
	release := Hold(20 << 20)
	err := Exceeds("a table", 30<<20, 64<<20)
	if want := "a table needs about 30 MiB, and the program itself about 44 MiB: more than the memory limit of 64 MiB"; err == nil || err.Error() != want {
		t.Errorf("holding 20 MiB: %v, want %q", err, want)
	}
	release()
	release() // once only
	if err := Exceeds("a table", 30<<20, 64<<20); err != nil {
		t.Errorf("after the release: %v", err)
	}
}

// TestWatchIgnoresGarbage: memory freed but not yet collected does not
// stop the work: 800 allocations of 4 MiB (3.2 GB), one alive at a time, under a
// limit 48 MiB above what the test holds.
func TestWatchIgnoresGarbage(t *testing.T) {
	runtime.GC()
	ctx, stop := Watch(context.Background(), InUse()+48<<20)
	defer stop()
	// Chunks of 4 MiB: the collector's pacing keeps the heap near twice
	// what is live (about 13 MiB), far below the limit even when a busy
	// machine starves the collector's workers; chunks of 16 MiB put the
	// heap's goal within a chunk of the limit, and a load of 20 crossed it.
	var keep []byte
	for i := range 800 {
		keep = make([]byte, 4<<20)
		keep[i] = 1
		time.Sleep(time.Millisecond / 2)
	}
	runtime.KeepAlive(keep)
	if err := Err(ctx); err != nil {
		t.Errorf("stopped by garbage: %v", err)
	}
}
