package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/budget"
)

// TestRecursionMemory: a recursion is refused before the next growth of
// its goroutine's stack, which the runtime doubles by copying, would take
// the process past its memory limit (issue 29, class 11: 154 MiB under
// 128MiB), in a def and in a lambda; a docstring stays the function's.
func TestRecursionMemory(t *testing.T) {
	for _, src := range []string{
		"def r(n):\n    \"counts down\"\n    return 0 if n == 0 else 1 + r(n - 1)\nx = r(10000000)\n",
		"r = lambda n: 0 if n == 0 else 1 + r(n - 1)\nx = r(10000000)\n",
	} {
		th, stop := NewThread(context.Background(), "deep", Limits{MaxMemory: budget.InUse() + 64<<20})
		_, err := ExecFile(th, "deep.star", src, nil)
		stop()
		if err == nil || !strings.Contains(err.Error(), "a recursion") || !errors.Is(err, budget.ErrMemory) {
			t.Errorf("%q: %v; want a recursion refused at the memory limit", src, err)
		}
	}
	th, stop := NewThread(context.Background(), "doc", Limits{})
	defer stop()
	g, err := ExecFile(th, "doc.star", "def f():\n    \"the doc\"\n    return 1\ndef r(n):\n    return 0 if n == 0 else 1 + r(n - 1)\nx = r(3000)\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := g["f"].(*starlark.Function).Doc(); d != "the doc" {
		t.Errorf("docstring %q", d)
	}
	if x, _ := starlark.AsInt32(g["x"]); x != 3000 {
		t.Errorf("r(3000) = %v", g["x"])
	}
}

// TestWhileLine: a while loop stopped by its step budget is reported at
// the loop's line (an endless loop at a file's top level was at line 1).
func TestWhileLine(t *testing.T) {
	th, stop := NewThread(context.Background(), "loop", Limits{MaxSteps: 100_000})
	defer stop()
	_, err := ExecFile(th, "loop.star", "x = 0\ny = 1\nwhile True:\n    x = -x\n", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "loop.star:3: ") || !errors.Is(err, ErrSteps) {
		t.Fatalf("%v; want loop.star:3 past its steps", err)
	}
}
