package notebook

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
)

// fakeCPU advances by 1 ms of user and 0.5 ms of system time at each
// reading.
type fakeCPU struct{ t cpuTime }

func (c *fakeCPU) times() cpuTime {
	c.t.user += time.Millisecond
	c.t.sys += 500 * time.Microsecond
	return c.t
}

// fakeClock advances by step at each reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

// TestMagics runs the magics users type by habit, on a clock that
// advances by 1.5 ms at each reading: %time and %%time print that, and
// show the cell's own output and result.
func TestMagics(t *testing.T) {
	tests := []struct {
		name   string
		cells  []string // run in order; the last one is checked
		result string
		stdout string
		err    string // in the error's name and value; "" for none
	}{
		{name: "%time of an expression", cells: []string{"%time nim_mul(2, 3)"}, result: "1", stdout: "CPU times: user 1 ms, sys: 500 µs, total: 1.5 ms\nWall time: 1.5 ms\n"},
		{name: "%time of a statement", cells: []string{"%time x = 6", "x"}, result: "6"},
		{name: "%time prints", cells: []string{"%time print(42)"}, stdout: "42\nCPU times: user 1 ms, sys: 500 µs, total: 1.5 ms\nWall time: 1.5 ms\n"},
		{name: "%time after comments", cells: []string{"# timing\n\n%time 2 + 2"}, result: "4", stdout: "CPU times: user 1 ms, sys: 500 µs, total: 1.5 ms\nWall time: 1.5 ms\n"},
		{name: "%%time", cells: []string{"%%time\ny = 0\nfor i in range(4):\n    y += i\nprint(y)\ny * 10"}, result: "60", stdout: "6\nCPU times: user 1 ms, sys: 500 µs, total: 1.5 ms\nWall time: 1.5 ms\n"},
		{name: "%%time keeps the cell's lines", cells: []string{"%%time\nx = 1\nfail_here()"}, err: "line 3"},
		{name: "%time of an error prints no time", cells: []string{"%time 1 // 0"}, err: "division by zero"},
		{name: "%time alone", cells: []string{"%time"}, err: "UsageError: %time needs a statement"},
		{name: "%time on a longer cell", cells: []string{"%time x = 1\ny = x + 2\nprint(y)\ny * 10"}, result: "30", stdout: "3\nCPU times: user 1 ms, sys: 500 µs, total: 1.5 ms\nWall time: 1.5 ms\n"},
		{name: "%time on a longer cell keeps its lines", cells: []string{"# first\n%time x = 1\ny = 2\nfail_here()"}, err: "line 4"},
		{name: "%time on a longer cell binds its names", cells: []string{"%time a = 4\nb = a * a", "b"}, result: "16"},
		{name: "%who", cells: []string{"b = 1\na = [1]\n_hidden = 3\ndef f():\n    pass", "%who"}, stdout: "a\tb\tf\n"},
		{name: "%who of a type", cells: []string{"b = 1\na = [1]\nc = 2", "%who int"}, stdout: "b\tc\n"},
		{name: "%who of no type there", cells: []string{"b = 1", "%who dict"}, stdout: "No variables match your requested type.\n"},
		{name: "%who of nothing", cells: []string{"%who"}, stdout: "Interactive namespace is empty.\n"},
		{name: "%who with more lines", cells: []string{"%who\nx = 1"}, err: "%who goes alone in its cell"},
		{name: "%limits", cells: []string{"limits(steps=5000)", "%limits"}, stdout: "steps      5000             (ceiling 1000000000, set by --max-steps)\n"},
		{name: "%limits with an argument", cells: []string{"%limits steps"}, err: "takes no argument"},
		{name: "unknown line magic", cells: []string{"%timeit 1 + 1"}, err: "UsageError: Line magic function `%timeit` not found; nimbook knows %time, %%time, %who and %limits"},
		{name: "unknown cell magic", cells: []string{"%%bash\nls"}, err: "Cell magic `%%bash` not found"},
		{name: "a magic further down", cells: []string{"x = 1\n%who"}, err: "SyntaxError: line 2: got '%', want primary expression (a magic, %time, %%time, %who and %limits, goes on the first line of its cell)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			s.now = (&fakeClock{step: 1500 * time.Microsecond}).now
			s.cpu = (&fakeCPU{}).times
			result, stdout, err := run(t, s, tc.cells...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want one about %q", err, tc.err)
				}
				if strings.Contains(stdout, "Wall time") {
					t.Errorf("a failed cell printed its time: %q", stdout)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if result != tc.result {
				t.Errorf("result %q, want %q", result, tc.result)
			}
			if tc.stdout != "" && !strings.HasPrefix(stdout, tc.stdout) {
				t.Errorf("stdout %q, want it to start with %q", stdout, tc.stdout)
			}
		})
	}
}

// TestLimitsMagic shows every limit and its ceiling.
func TestLimitsMagic(t *testing.T) {
	s, err := New(Options{MaxSteps: 1000000, Limits: job.Limits{Positions: 5000, Memory: 256 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	_, out, err := run(t, s, `limits(memory="128MiB")`, "%limits")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"steps      1000000          (ceiling 1000000, set by --max-steps)",
		"positions  5000             (ceiling 5000, set by --max-positions)",
		"memory     128 MiB          (ceiling 256 MiB, set by --max-memory)",
		"limits(steps=..., positions=..., memory=...)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("%%limits:\n%s\nwant a line %q", out, want)
		}
	}
}

func TestFormatWallTime(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0 ns"},
		{850 * time.Nanosecond, "850 ns"},
		{12345 * time.Nanosecond, "12.3 µs"},
		{1500 * time.Microsecond, "1.5 ms"},
		{999 * time.Millisecond, "999 ms"},
		{2*time.Second + 345*time.Millisecond, "2.35 s"},
		{59 * time.Second, "59 s"},
		{75 * time.Second, "1min 15s"},
		{2 * time.Hour, "120min 0s"},
	}
	for _, tc := range tests {
		if got := formatWallTime(tc.d); got != tc.want {
			t.Errorf("formatWallTime(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestMagicKernelError: the magics' errors are CellErrors a front end
// shows with their name.
func TestMagicKernelError(t *testing.T) {
	_, _, err := run(t, newSession(t), "%frob")
	var ce *kernel.CellError
	if !errors.As(err, &ce) || ce.Name != "UsageError" {
		t.Errorf("got %#v, want a UsageError", err)
	}
}

// TestProcessCPU reads the process's CPU clock around some work: it does
// not go back, and the work shows in it.
func TestProcessCPU(t *testing.T) {
	a := processCPU()
	x := 0
	for i := range 50_000_000 {
		x ^= i * i
	}
	b := processCPU()
	if b.user < a.user || b.sys < a.sys || b.user+b.sys == a.user+a.sys {
		t.Errorf("CPU times %v then %v around a loop (%d)", a, b, x)
	}
}

// TestDir lists a cell's names as Python's dir() does: the session's own
// (this cell's so far too), sorted, then the built-ins, sorted; dir(x) is
// Starlark's.
func TestDir(t *testing.T) {
	tests := []struct {
		name  string
		cells []string
		want  string // the result starts with it
		has   []string
	}{
		{name: "fresh session", cells: []string{"dir()"}, want: `["False", "None", "True", "abs", "all", `},
		{name: "user names first", cells: []string{"b = 1\ndef f():\n    pass", "a = 2\ndir()"}, want: `["a", "b", "f", "False", `},
		{name: "a built-in redefined is the user's, not yet d", cells: []string{"mex = 3\nd = dir()\nd[:2]"}, want: `["mex", "False"]`},
		{name: "built-ins all there", cells: []string{"d = dir()\n[n for n in ['nim', 'wythoff', 'game', 'plot', 'node_kayles', 'len', 'range'] if n in d]"}, want: `["nim", "wythoff", "game", "plot", "node_kayles", "len", "range"]`},
		{name: "dir of a value", cells: []string{"dir(nim())"}, has: []string{`"values"`, `"period"`}},
		{name: "dir of a string", cells: []string{"'upper' in dir('x')"}, want: "True"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			result, _, err := run(t, s, tc.cells...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(result, tc.want) {
				t.Errorf("result %s, want it to start with %s", result, tc.want)
			}
			for _, h := range tc.has {
				if !strings.Contains(result, h) {
					t.Errorf("result %s, want %s in it", result, h)
				}
			}
		})
	}
}
