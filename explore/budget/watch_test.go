package budget

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestMargin: the watchdog stops a sixty-fourth of the limit below it,
// within 4 and 64 MiB, and Available leaves two margins.
func TestMargin(t *testing.T) {
	for limit, want := range map[int64]int64{64 << 20: 8 << 20, 256 << 20: 8 << 20, 1 << 30: 16 << 20, 4 << 30: 64 << 20, 64 << 30: 64 << 20} {
		if got := Margin(limit); got != want {
			t.Errorf("Margin(%s) = %s, want %s", FormatSize(limit), FormatSize(got), FormatSize(want))
		}
	}
	if got, used := Available(1<<30), Used(); got > 1<<30-2*Margin(1<<30)-used+1<<20 || got < 1<<30-2*Margin(1<<30)-used-64<<20 {
		t.Errorf("Available(1 GiB) = %s with %s in use", FormatSize(got), FormatSize(used))
	}
	if Available(0) <= 1<<62 {
		t.Error("no limit leaves less than everything")
	}
}

// TestLower: a running watchdog's limit is lowered (never raised), and the
// watchdog stops the work at the new one: here at once, the process
// holding more than a lowered limit of 1 MiB.
func TestLower(t *testing.T) {
	if Lower(context.Background(), 1<<20) != 0 || Limit(context.Background()) != 0 {
		t.Fatal("a context without a watchdog has a limit")
	}
	ctx, stop := Watch(context.Background(), 1<<40)
	defer stop()
	type key struct{}
	inner := context.WithValue(ctx, key{}, 1) // derived contexts reach it
	if got := Lower(inner, 1<<41); got != 1<<40 {
		t.Errorf("raising: the limit is %d", got)
	}
	if got := Lower(inner, 1<<20); got != 1<<20 || Limit(ctx) != 1<<20 {
		t.Errorf("lowering: the limit is %d", got)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not stopped at the lowered limit")
	}
	var le *LimitError
	if err := Err(ctx); !errors.As(err, &le) || le.Limit != 1<<20 {
		t.Errorf("Err = %v, want a LimitError of 1 MiB", err)
	}
}

// TestCheckStopsBeforeTheLimit: allocations as fast as Go makes them,
// checked by the loop itself (Check, as the sandbox does), are stopped
// before the process passes the limit: a margin below it.
func TestCheckStopsBeforeTheLimit(t *testing.T) {
	runtime.GC()
	debug.FreeOSMemory()
	limit := Used() + 128<<20
	ctx, stop := Watch(context.Background(), limit)
	defer stop()
	var keep [][]byte
	top := Used()
	for Check(ctx) == nil && len(keep) < 1<<20 {
		b := make([]byte, 64<<10)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		keep = append(keep, b)
		top = max(top, Used())
	}
	var le *LimitError
	if err := Err(ctx); !errors.As(err, &le) {
		t.Fatalf("Err = %v, want a LimitError", err)
	}
	if top > limit {
		t.Errorf("the process reached %s, past the limit of %s", FormatSize(top), FormatSize(limit))
	}
	t.Logf("stopped at %s under %s: %v", FormatSize(top), FormatSize(limit), Err(ctx))
	runtime.KeepAlive(keep)
}
