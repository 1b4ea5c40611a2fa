package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/budget"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/internal/stopcheck"
)

// heavy says whether a job has a section long enough for Run to state its
// cost (Options.Estimate): such jobs are left to the benchmarks and the
// command's own measurements.
func heavy(j *Job) bool {
	for i, s := range j.Sections {
		r := &runner{ctx: context.Background(), lim: j.Limits, s: s, index: i}
		if _, note := r.memoryEstimate(); note != "" {
			return true
		}
	}
	return false
}

// TestParallelSameReport: on every example job, the report is the same
// whether its sections run one after another or several at once, down to
// the bytes of its JSON form.
func TestParallelSameReport(t *testing.T) {
	var files []string
	for _, pat := range []string{"*.yaml", "handouts/*.yaml"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "examples", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d example jobs found", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			j, err := ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if heavy(j) || (testing.Short() && len(j.Sections) > 8) {
				t.Skip("long sections")
			}
			serial, err := Run(context.Background(), j, Options{Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(serial)
			if err != nil {
				t.Fatal(err)
			}
			for _, jobs := range []int{2, 4} {
				rep, err := Run(context.Background(), j, Options{Jobs: jobs})
				if err != nil {
					t.Fatalf("jobs %d: %v", jobs, err)
				}
				if !reflect.DeepEqual(rep, serial) {
					t.Errorf("jobs %d: the report differs from the serial one", jobs)
				}
				if got, _ := json.Marshal(rep); string(got) != string(want) {
					t.Errorf("jobs %d: JSON differs:\n%s\nwant\n%s", jobs, got, want)
				}
			}
		})
	}
}

// schedSrc has four sections whose value sweeps hold about 31 MiB each
// (4·10⁶ values), and one coin game without a memory estimate (it needs
// the whole limit, so runs alone); under a limit of 120 MiB, less what the
// program holds itself (budget.Reserve) and the watchdog's margin, two
// sweeps fit together with their margins, three do not. The sweeps of the large sets take a while, so
// that the next section has to wait for one of them.
const schedSrc = `limits: {memory: 120MiB}
sections:
  - game: {subtraction: {set: [1, 3, 4, 7, 9, 11, 13, 17, 19, 23, 29, 31], upto: 3999999}}
    show: [period]
  - game: {subtraction: {set: [2, 5, 7, 8, 10, 14, 15, 20, 22, 26, 30, 33], upto: 3999999}}
    show: [period]
  - game: {coins: {rule: at-most, r: 3, n: 20}}
    show: [values]
  - game: {subtraction: {set: [1, 2, 6, 8, 12, 15, 16, 21, 24, 27, 28, 35], upto: 3999999}}
    show: [period]
  - game: {subtraction: {set: [1, 2, 3], upto: 3999999}}
    show: [period]
`

// TestParallelMemoryLimit: sections run together only while their memory
// estimates fit the limit together; a section without an estimate runs
// alone.
func TestParallelMemoryLimit(t *testing.T) {
	j, err := Parse("test.yaml", []byte(schedSrc))
	if err != nil {
		t.Fatal(err)
	}
	need := make([]int64, len(j.Sections))
	for i, s := range j.Sections {
		r := &runner{ctx: context.Background(), lim: j.Limits, s: s, index: i}
		need[i], _ = r.memoryEstimate()
		need[i] = reservation(need[i], j.Limits.Memory)
	}
	if need[0] < 30<<20 || 2*need[0] > j.Limits.Memory || 3*need[0] <= j.Limits.Memory || need[2] != j.Limits.Memory {
		t.Fatalf("estimates %v under a limit of %d: not the case the test means", need, j.Limits.Memory)
	}
	// The watchdog counts the whole test process: start without the
	// garbage of the tests before.
	runtime.GC()
	debug.FreeOSMemory()
	var (
		mu       sync.Mutex
		running  = map[int]bool{}
		sum, top int64
		most     int
		alone    = true
	)
	opts := Options{Jobs: 4}
	opts.observe = func(i int, start bool) {
		mu.Lock()
		defer mu.Unlock()
		if start {
			running[i] = true
			sum += need[i]
		} else {
			delete(running, i)
			sum -= need[i]
		}
		top = max(top, sum)
		most = max(most, len(running))
		if running[2] && len(running) > 1 {
			alone = false
		}
	}
	rep, err := Run(context.Background(), j, opts)
	if err != nil {
		t.Fatal(err)
	}
	if top > j.Limits.Memory {
		t.Errorf("sections estimated at %d bytes ran together, past the limit of %d", top, j.Limits.Memory)
	}
	if most != 2 {
		t.Errorf("at most %d sections ran together, want 2", most)
	}
	if !alone {
		t.Error("the section without an estimate ran beside another")
	}
	if p := rep.Sections[4].Results.Period; p == nil || p.Period != 4 {
		t.Errorf("subtraction {1,2,3}: period %+v, want 4", p)
	}
}

// TestParallelFirstErrorWins: when two sections fail, the error is that of
// the first, as when they run one after another, whichever failed first.
func TestParallelFirstErrorWins(t *testing.T) {
	src := `limits: {positions: 100000}
sections:
  - game: {subtraction: {set: [1, 2], upto: 90000}}
    show: [period]
  - nimbers: {size: 400}
    show: [table]
  - nimbers: {size: 500, op: sum}
    show: [table]
  - game: {subtraction: {set: [1, 3], upto: 90000}}
    show: [period]
`
	j, err := Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, want := Run(context.Background(), j, Options{Jobs: 1})
	var re *RunError
	if !errors.As(want, &re) || re.Line != 5 {
		t.Fatalf("serial run: %v, want the second section refused", want)
	}
	for range 20 {
		_, err := Run(context.Background(), j, Options{Jobs: 4})
		if err == nil || err.Error() != want.Error() {
			t.Fatalf("err = %v, want %v", err, want)
		}
	}
}

// TestFirstError: the sections stopped because another failed are passed
// over, whatever their place.
func TestFirstError(t *testing.T) {
	refused := &RunError{File: "a.yaml", Line: 7, Section: "late", Err: errors.New("too large")}
	other := &RunError{File: "a.yaml", Line: 9, Section: "later", Err: errors.New("too large too")}
	stopped := &RunError{File: "a.yaml", Line: 3, Section: "early", Err: fmt.Errorf("heap: %w", context.Cause(cancelledBy(errSibling)))}
	intr := cancelledBy(errors.New("interrupt signal received"))
	interrupted := &RunError{File: "a.yaml", Line: 3, Section: "early", Err: budget.Err(intr)}
	canceled := &RunError{File: "a.yaml", Line: 3, Section: "early", Err: fmt.Errorf("wythoff: %w", context.Canceled)}
	tests := []struct {
		name string
		ctx  context.Context
		errs []error
		want error
	}{
		{"none", context.Background(), []error{nil, nil}, nil},
		{"stopped before the one that failed", context.Background(), []error{nil, stopped, refused, other}, refused},
		{"the first of two", context.Background(), []error{refused, other}, refused},
		{"only stopped ones", context.Background(), []error{nil, stopped}, stopped},
		{"cancelled within the run", context.Background(), []error{canceled, refused}, refused},
		{"interrupted: the first", intr, []error{nil, interrupted, refused}, interrupted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := firstError(tt.ctx, tt.errs); got != tt.want {
				t.Errorf("firstError = %v, want %v", got, tt.want)
			}
		})
	}
}

// cancelledBy returns a context cancelled with cause.
func cancelledBy(cause error) context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	return ctx
}

// TestParallelCancelled: a run of sections at once stops soon after its
// cancellation, with the cause. The cancel comes once the first two
// sections have worked together for a while (300 ms of processor time);
// no section starts after it, and the processor time the process spends
// after it (its work, not the clock's time, which a loaded machine
// stretches) stays far under what the sections would still take.
func TestParallelCancelled(t *testing.T) {
	src := `sections:
  - game: {octal: {code: "0.354", upto: 20126194}}
    show: [values]
  - game: {wythoff: {size: [8000, 8000]}}
    show: [p-positions]
  - game: {octal: {code: "0.376", upto: 4536506}}
    show: [values]
`
	j, err := Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	var (
		mu        sync.Mutex
		cancelled bool
		late      []int // sections started after the cancel
		second    = make(chan struct{})
	)
	opts := Options{Jobs: 2}
	opts.observe = func(i int, start bool) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case !start:
		case cancelled:
			late = append(late, i)
		case i == 1:
			close(second)
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, j, opts)
		done <- err
	}()
	hang := time.After(time.Minute) // a hang guard only
	select {
	case <-second:
	case err := <-done:
		t.Fatalf("finished before the second section started: %v", err)
	case <-hang:
		t.Fatal("the second section did not start in a minute")
	}
	for base, _ := stopcheck.ProcessCPU(); ; {
		if cpu, ok := stopcheck.ProcessCPU(); !ok || cpu-base >= 300*time.Millisecond {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("finished before the cancellation: %v", err)
		case <-hang:
			t.Fatal("no work in a minute")
		case <-time.After(5 * time.Millisecond):
		}
	}
	mu.Lock()
	cpuAt, _ := stopcheck.ProcessCPU()
	cancelled = true
	cancel(errors.New("interrupt signal received"))
	mu.Unlock()
	select {
	case err = <-done:
	case <-hang:
		t.Fatal("still running a minute after the cancellation")
	}
	cpu, ok := stopcheck.ProcessCPU()
	if err == nil || !strings.HasSuffix(err.Error(), "interrupt signal received") {
		t.Errorf("err = %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(late) > 0 {
		t.Errorf("sections %v started after the cancellation", late)
	}
	// Whole, the sections take many seconds of processor time.
	if ok && cpu-cpuAt > time.Second {
		t.Errorf("%v of processor time after the cancellation", cpu-cpuAt)
	}
	t.Logf("%v of processor time after the cancellation", cpu-cpuAt)
}

// TestParallelCallbacks: Progress and Estimate are told in the order of the
// sections, one at a time.
func TestParallelCallbacks(t *testing.T) {
	src := `sections:
  - game: {nim: {upto: 20}}
    show: [values]
  - game: {nim: {upto: 10000000}}
    show: [period]
  - game: {subtraction: {set: [1, 2], upto: 10}}
    show: [values]
  - game: {nim: {upto: 9000000}}
    show: [period]
`
	var (
		told []string
		busy bool
	)
	enter := func(s string) {
		if busy {
			t.Error("callbacks called concurrently")
		}
		busy = true
		told = append(told, s)
		time.Sleep(time.Millisecond)
		busy = false
	}
	opts := Options{
		Jobs:     4,
		Progress: func(i int, s *Section) { enter(string(rune('0' + i))) },
		Estimate: func(i int, s *Section, cost string) { enter("e" + string(rune('0'+i))) },
	}
	if _, err := runSrc(t, src, opts); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(told, " "); got != "0 1 e1 2 3 e3" {
		t.Errorf("told %q", got)
	}
}

// TestParallelProgressLine: with sections at once, the counter of the
// context counts the sections, whatever the sections count on their own.
func TestParallelProgressLine(t *testing.T) {
	j, err := Parse("test.yaml", []byte(`sections:
  - game: {octal: {code: "0.354", upto: 100000}}
    show: [values]
  - game: {octal: {code: "0.376", upto: 50000}}
    show: [values]
  - game: {octal: {code: "0.6", upto: 20000}}
    show: [values]
`))
	if err != nil {
		t.Fatal(err)
	}
	p := budget.NewProgress()
	if _, err := Run(budget.WithProgress(context.Background(), p), j, Options{Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	if s := p.Snapshot(); s.Done != 3*sectionUnit || s.Total != 3*sectionUnit || s.Scale != sectionUnit || s.Label != "sections" {
		t.Errorf("progress %+v, want the 3 sections done", s)
	}
}

// TestParallelPanic: a panic in a section goes on in the caller's
// goroutine, where it may be recovered, as when the sections run there.
func TestParallelPanic(t *testing.T) {
	j := &Job{File: "test.yaml", Limits: DefaultLimits, Sections: []*Section{
		{Family: "nim", Game: nimSpec(10), Show: []string{"values"}},
		{Family: "coins", Game: (*CoinsSpec)(nil)}, // no game: a nil dereference
	}}
	for _, jobs := range []int{1, 2} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("jobs %d: no panic", jobs)
				}
			}()
			Run(context.Background(), j, Options{Jobs: jobs})
		}()
	}
}

func TestReservation(t *testing.T) {
	const capacity = 120
	for _, c := range []struct {
		name       string
		need, want int64
	}{
		{"nothing", 0, 0},
		{"negative", -5, 0},
		{"a third more", 30, 40},
		{"just under three quarters", 89, 118},
		{"three quarters runs alone", 90, capacity},
		{"past the limit runs alone", 500, capacity},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := reservation(c.need, capacity); got != c.want {
				t.Errorf("reservation(%d, %d) = %d, want %d", c.need, capacity, got, c.want)
			}
		})
	}
}

// nimSpec is Nim's rule with upto set.
func nimSpec(upto int) *HeapSpec {
	r, _ := heap.Lookup("nim")
	return &HeapSpec{Rule: r, Params: heap.Params{"upto": upto}}
}
