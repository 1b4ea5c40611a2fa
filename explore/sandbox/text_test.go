package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// eval runs code on a fresh thread and returns its global x.
func eval(t *testing.T, code string) starlark.Value {
	t.Helper()
	g, err := execCode(context.Background(), code, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g["x"]
}

// nested returns a list nested depth deep: [[[...[]...]]].
func nested(depth int) *starlark.List {
	x := starlark.NewList(nil)
	for range depth {
		x = starlark.NewList([]starlark.Value{x})
	}
	return x
}

// TestWriteTextAsStarlark: the text is Starlark's own, byte for byte, for
// every kind of value, cycles included.
func TestWriteTextAsStarlark(t *testing.T) {
	codes := []string{
		`x = [1, "a\n\"b", (1,), (), {}, {"k": [1, 2]}, set([1, 2]), None, True, 1.5, [[]], ("x", [2])]`,
		`x = {(1, 2): "y", "z": {"w": set()}}`,
		`x = [1]` + "\n" + `x.append(x)`,
		`x = {}` + "\n" + `x["me"] = x` + "\n" + `x["l"] = [x]`,
		`x = ([1],)` + "\n" + `x[0].append(x)`,
		`x = "plain ✓"`,
		`x = b"bytes"`,
		`x = 10000000000000000000000000 * 3`,
		`x = len`,
		`x = [str, [].append, lambda n: n]`,
	}
	for _, code := range codes {
		t.Run(code, func(t *testing.T) {
			x := eval(t, code)
			got, cut, err := Text(x, TextOptions{})
			if err != nil || cut {
				t.Fatalf("Text: %v, cut %v", err, cut)
			}
			if want := x.String(); got != want {
				t.Errorf("Text = %s\nwant  %s", got, want)
			}
			var b strings.Builder
			if _, err := WriteText(&b, x, true, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			want := x.String()
			if s, ok := x.(starlark.String); ok {
				want = string(s)
			}
			if b.String() != want {
				t.Errorf("str: %s, want %s", b.String(), want)
			}
		})
	}
}

// TestTextBounds: MaxDepth shows deeper containers as […], MaxLen cuts
// with … and closes what is open.
func TestTextBounds(t *testing.T) {
	tests := []struct {
		name, code string
		opts       TextOptions
		want       string
		cut        bool
	}{
		{"depth", "x = [1, [2, [3, [4]]], (5, (6,)), {7: {8: 9}}, set([(1, 2)])]", TextOptions{MaxDepth: 2}, "[1, [2, […]], (5, (…)), {7: {…}}, set([(…)])]", false},
		{"empty containers stay", "x = [[[[]]], [()], [{}]]", TextOptions{MaxDepth: 2}, "[[[…]], [()], [{}]]", false},
		{"length", "x = [list(range(100)), 2]", TextOptions{MaxLen: 20}, "[[0, 1, 2, 3, 4, 5, …]]", true},
		{"long string", `x = ["ab" * 50]`, TextOptions{MaxLen: 10}, `["abababab…]`, true},
		{"long string alone", `x = "é" * 10`, TextOptions{MaxLen: 5}, `"éé…`, true},
		{"dict", `x = {"a": [1, 2, 3], "b": 2}`, TextOptions{MaxLen: 9}, `{"a": [1, …]}`, true},
		{"both", `x = [[[1]], 2, 3, 4]`, TextOptions{MaxLen: 10, MaxDepth: 1}, `[[…], 2, …]`, true},
		{"long bytes", `x = [b"ab" * 50]`, TextOptions{MaxLen: 10}, `[b"abababa…]`, true},
		{"long int", `x = [100000000000000000000000000000000000000000000000000]`, TextOptions{MaxLen: 10}, `[100000000…]`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, cut, err := Text(eval(t, tc.code), tc.opts)
			if err != nil || cut != tc.cut || got != tc.want {
				t.Errorf("Text = %s (cut %v, %v), want %s, cut %v", got, cut, err, tc.want, tc.cut)
			}
		})
	}
}

// TestDeepText: a list nested 400 000 deep (minutes in Starlark's writer,
// which rescans the enclosing lists at each level) is written whole, its
// values counted in Check; a Check that fails stops the writing there.
func TestDeepText(t *testing.T) {
	const depth = 400_000
	x := nested(depth)
	calls, counted := 0, 0
	got, cut, err := Text(x, TextOptions{Check: func(n int) error { calls++; counted += n; return nil }})
	if err != nil || cut {
		t.Fatalf("Text: %v, cut %v", err, cut)
	}
	if want := strings.Repeat("[", depth+1) + strings.Repeat("]", depth+1); got != want {
		t.Fatalf("the text of a list %d deep: %d bytes, want %d", depth, len(got), len(want))
	}
	if counted < depth-textCheckEvery || calls > depth/textCheckEvery+1 {
		t.Errorf("Check called %d times for %d values, want one call every %d values", calls, counted, textCheckEvery)
	}

	stop := errors.New("stop")
	calls = 0
	got, _, err = Text(x, TextOptions{Check: func(int) error { calls++; return stop }})
	if err != stop || calls != 1 || len(got) > 2*textCheckEvery {
		t.Errorf("a failing Check: %v after %d calls and %d bytes, want it at the first call", err, calls, len(got))
	}

	got, cut, _ = Text(x, TextOptions{MaxDepth: 3})
	if got != "[[[[…]]]]" || cut {
		t.Errorf("MaxDepth 3: %q", got)
	}
}

// TestDeepTextBudget: str, repr, print, % and format of a deep list count
// its values in the step budget and stop when interrupted.
func TestDeepTextBudget(t *testing.T) {
	deep := starlark.StringDict{"deep": nested(400_000)}
	for _, code := range []string{
		"y = str(deep)", "y = repr(deep)", "print(deep)", `y = "%s" % (deep,)`, `y = "%r" % deep`,
		`y = "%(k)s" % {"k": deep}`, `y = "{}".format(deep)`, `y = "{k}".format(k=deep)`,
	} {
		t.Run(code, func(t *testing.T) {
			th, stop := NewThread(context.Background(), "test", Limits{MaxSteps: 10_000})
			th.Print = func(*starlark.Thread, string) {}
			_, err := ExecFile(th, "test.star", code, deep)
			stop()
			if !errors.Is(err, ErrSteps) {
				t.Errorf("under a budget of 10000 steps: %v, want the step budget's error", err)
			}

			th, stop = NewThread(context.Background(), "test", Limits{})
			var printed string
			th.Print = func(_ *starlark.Thread, s string) { printed = s }
			g, err := ExecFile(th, "test.star", code, deep)
			stop()
			if err != nil {
				t.Fatal(err)
			}
			text := printed
			if y, ok := g["y"].(starlark.String); ok {
				text = string(y)
			}
			if len(text) != 800_002 {
				t.Errorf("the text has %d bytes, want 800002", len(text))
			}
		})
	}
}

// TestDeepTextInterrupted calls str, repr and print of a deep list on a
// thread that is interrupted: they stop at their first check, having
// written a thousand values of the 400 000, not the whole.
func TestDeepTextInterrupted(t *testing.T) {
	deep := nested(400_000)
	for _, name := range []string{"str", "repr", "print"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			th, stop := NewThread(ctx, "test", Limits{})
			defer stop()
			printed := false
			th.Print = func(*starlark.Thread, string) { printed = true }
			cancel()
			before := th.ExecutionSteps()
			_, err := starlark.Call(th, Builtins()[name], starlark.Tuple{deep}, nil)
			if !errors.Is(err, ErrStopped) || printed {
				t.Errorf("got %v (printed %v), want ErrStopped and nothing printed", err, printed)
			}
			if n := th.ExecutionSteps() - before; n > 2*textCheckEvery {
				t.Errorf("%d values written after the interrupt, want at most %d", n, 2*textCheckEvery)
			}
		})
	}
}

// TestTextBuiltinsAsStarlark: the guarded str, repr, print, % and format
// give Starlark's text.
func TestTextBuiltinsAsStarlark(t *testing.T) {
	tests := []struct{ code, want string }{
		{`x = str([1, "a"])`, `[1, "a"]`},
		{`x = str("a")`, `a`},
		{`x = repr("a")`, `"a"`},
		{`x = str(b"ab")`, `ab`},
		{`x = "%s|%r|%d" % ([1], ("t",), 3)`, `[1]|("t",)|3`},
		{`x = "%s" % [1, 2]`, `[1, 2]`},
		{`x = "%s" % {"a": [1]}`, `{"a": [1]}`},
		{`x = "%(a)s" % {"a": [1]}`, `[1]`},
		{`x = "{} {!r} {k}".format([1], "s", k={1: 2})`, `[1] "s" {1: 2}`},
	}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			if got := eval(t, tc.code); got != starlark.String(tc.want) {
				t.Errorf("got %s, want %q", got, tc.want)
			}
		})
	}
	th, stop := NewThread(context.Background(), "test", Limits{})
	defer stop()
	var printed string
	th.Print = func(_ *starlark.Thread, s string) { printed = s }
	if _, err := ExecFile(th, "test.star", `print("a", [1, "b"], b"c", sep="-")`, nil); err != nil || printed != `a-[1, "b"]-c` {
		t.Errorf("print: %q, %v", printed, err)
	}
	for _, code := range []string{`x = "%d" % [1]`, `x = str(1, 2)`, `print(1, end="")`} {
		if _, err := execCode(context.Background(), code, Limits{}); err == nil {
			t.Errorf("%s: no error", code)
		}
	}
}
