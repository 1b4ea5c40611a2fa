package sandbox

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
)

// buckets reads the number of buckets of a Starlark dict's or set's hash
// table (the unexported ht.table, read through reflection).
func buckets(v starlark.Value) int {
	return reflect.ValueOf(v).Elem().FieldByName("ht").FieldByName("table").Len()
}

// TestHashGrowth inserts keys into a Starlark dict and a set one at a
// time, as guarded code does, and checks Starlark's tables against the
// model of hashBuckets and hashGrowth: they grow at the sizes hashGrowth
// names, to the table it says, and hold hashBuckets buckets after.
func TestHashGrowth(t *testing.T) {
	for _, kind := range []string{"dict", "set"} {
		t.Run(kind, func(t *testing.T) {
			d, s := starlark.NewDict(0), starlark.NewSet(0)
			var v starlark.Value = d
			if kind == "set" {
				v = s
			}
			grew := 0
			for n := 0; n < 300_000; n++ {
				k := starlark.MakeInt(n)
				before := buckets(v)
				var err error
				if kind == "dict" {
					err = d.SetKey(k, starlark.None)
				} else {
					err = s.Insert(k)
				}
				if err != nil {
					t.Fatal(err)
				}
				after := buckets(v)
				want := int64(0)
				if before > 0 && after != before {
					want = int64(after) * bucketBytes
					grew++
				}
				if got := hashGrowth(n); got != want {
					t.Fatalf("inserting at %d entries: table of %d buckets to %d (%d bytes); hashGrowth says %d", n, before, after, want, got)
				}
				if got := hashBuckets(n + 1); got != int64(after) {
					t.Fatalf("%d entries in %d buckets; hashBuckets says %d", n+1, after, got)
				}
			}
			if grew < 15 {
				t.Errorf("%d growths checked", grew)
			}
		})
	}
}

// TestHashNeed: what a dict of from entries allocates to reach to.
func TestHashNeed(t *testing.T) {
	for _, tc := range []struct {
		from, to int
		want     int64
	}{
		{0, 0, 0},
		{100, 50, 0},
		{0, 5, 1 * bucketBytes},               // one bucket
		{0, 1_000_000, 3 << 17 * bucketBytes}, // 2^18 buckets, and the 2^17 before
		{1_000_000, 1_000_001, 0},             // no growth
		{851_968, 851_969, 1 << 18 * bucketBytes},
		{500_000, 1_000_000, 1 << 18 * bucketBytes}, // the table before is the dict's own
	} {
		if got := hashNeed(tc.from, tc.to); got != tc.want {
			t.Errorf("hashNeed(%d, %d) = %d, want %d", tc.from, tc.to, got, tc.want)
		}
	}
}

// TestGuardedGrowthSemantics: guarded item assignment, comprehensions
// and |= give what Starlark gives, errors included.
func TestGuardedGrowthSemantics(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		// RHS, then the container, then the index, as the interpreter.
		{"trace = []\ndef t(x):\n    trace.append(x)\n    return x\nd = {}\nt(d)[t(1)] = t(2)\nx = (d, trace)", "({1: 2}, [2, {1: 2}, 1])"},
		{"l = [0, 1]\nl[-1] = 5\nx = l", "[0, 5]"},
		{"l = [0, 1]\nl[2] = 5", "list index 2 out of range [-2:1]"},
		{"l = []\nl[0] = 5", "index 0 out of range: empty list"},
		{"l = [0]\nl[\"a\"] = 5", "got string, want int"},
		{"s = \"ab\"\ns[0] = \"c\"", "string value does not support item assignment"},
		{"d = {}\nd[[1]] = 2", "unhashable type: list"},
		{"x = [[i, j] for i in range(3) if i != 1 for j in range(i)]", "[[2, 0], [2, 1]]"},
		{"x = {i % 3: i for i in range(10)}", "{0: 9, 1: 7, 2: 8}"},
		{"x = [1, 2]\nx = [x for x in x]", "[1, 2]"},
		{"x = [[y for y in range(i)] for i in range(4)]", "[[], [0], [0, 1], [0, 1, 2]]"},
		{"x = {k: [v for v in range(k)] for k in [y * 2 for y in range(3)]}", "{0: [], 2: [0, 1], 4: [0, 1, 2, 3]}"},
		{"x = [i for i in 5]", "int value is not iterable"},
		{"d = {1: 2}\ne = d\nd |= {3: 4}\nx = e", "{1: 2, 3: 4}"},
		{"d = {1: 2}\nd |= d\nx = d", "{1: 2}"},
		{"d = {\"a\": {1: 2}}\nd[\"a\"] |= {3: 4}\nx = d", "{\"a\": {1: 2, 3: 4}}"},
		{"x = set([1, 2]) | set([2, 3])", "set([1, 2, 3])"},
		{"x = 6 | 3", "7"},
		{"s = set()\ns.add(1)\ns.add(1)\nd = {}\nd.setdefault(1, 2)\nd.setdefault(1, 3)\nx = (s, d, d.items(), d.keys(), d.values())", "(set([1]), {1: 2}, [(1, 2)], [1], [2])"},
		{"l = [3]\nl.insert(0, 1)\nx = l", "[1, 3]"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			g, err := execCode(context.Background(), tc.code, Limits{MaxMemory: 1 << 30})
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = g["x"].String()
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			// The same without the guard, as plain Starlark.
			th := &starlark.Thread{}
			pg, perr := starlark.ExecFileOptions(FileOptions(), th, "test.star", tc.code, nil)
			plain := ""
			if perr != nil {
				plain = perr.Error()
			} else {
				plain = pg["x"].String()
			}
			if !strings.Contains(plain, tc.want) {
				t.Errorf("plain Starlark gives %s, the test wants %s", plain, tc.want)
			}
		})
	}
}

// TestGrowthRefused grows dicts, sets and lists a step at a time under a
// limit 192 MiB above what the test process holds: each stops with an
// error that names what grows, wraps budget.ErrMemory, and comes before
// the process passes the limit.
func TestGrowthRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates hundreds of MiB")
	}
	for _, tc := range []struct{ name, code, want string }{
		{"item assignment", "d = {}\nfor i in range(100000000):\n    d[i] = i", "test.star:3: growing a dict past"},
		{"dict comprehension", "d = {i: i for i in range(100000000)}", "test.star:1: growing a dict past"},
		{"set.add", "s = set()\nfor i in range(100000000):\n    s.add(i)", "growing a set past"},
		{"setdefault", "d = {}\nfor i in range(100000000):\n    d.setdefault(i, 0)", "growing a dict past"},
		{"update", "d = {}\nfor i in range(100):\n    d.update([(j, j) for j in range(i * 300000, (i + 1) * 300000)])", "memory limit of"},
		{"list comprehension", "l = [i for i in range(100000000)]", "test.star:1: growing a list past"},
		{"list.insert", "l = []\nfor i in range(100000000):\n    l.insert(0, i) if i < 100 else l.append(i)", "growing a list past"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			debug.FreeOSMemory()
			limit := budget.Used() + 192<<20
			var err error
			top := peakUsed(func() { _, err = execCode(context.Background(), tc.code, Limits{MaxMemory: limit}) })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if !errors.Is(err, budget.ErrMemory) && !strings.Contains(err.Error(), "stopped at the memory limit") {
				t.Errorf("%v does not wrap budget.ErrMemory", err)
			}
			if top > limit {
				t.Errorf("the process peaked at %s, past the limit %s", budget.FormatSize(top), budget.FormatSize(limit))
			}
			t.Logf("peak %s under %s: %v", budget.FormatSize(top), budget.FormatSize(limit), err)
		})
	}
}

// peakUsed runs f and returns the most the process held meanwhile
// (budget.Used, the resident set size), sampled every half millisecond.
func peakUsed(f func()) int64 {
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

// TestLowerMemory: lowering a running thread's limit lowers its watchdog
// too, and what its built-ins check against.
func TestLowerMemory(t *testing.T) {
	th, stop := NewThread(context.Background(), "test", Limits{MaxMemory: 1 << 40})
	defer stop()
	st := StateOf(th)
	st.LowerMemory(1 << 30)
	if st.Memory() != 1<<30 || budget.Limit(st.Context()) != 1<<30 {
		t.Errorf("limits %d and %d after lowering to 1 GiB", st.Memory(), budget.Limit(st.Context()))
	}
	st.LowerMemory(1 << 35) // never raised
	if st.Memory() != 1<<30 || budget.Limit(st.Context()) != 1<<30 {
		t.Errorf("limits %d and %d after asking for more", st.Memory(), budget.Limit(st.Context()))
	}
	err := NeedMemory(th, "a table", 2<<30)
	if want := fmt.Sprintf("a table needs about 2 GiB, more than the memory limit of %s allows", budget.FormatSize(1<<30)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NeedMemory = %v, want %q", err, want)
	}
}
