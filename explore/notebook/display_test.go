package notebook

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// deepCell builds a list nested 400 000 deep in x: Starlark's own writer
// took minutes to show it (the depth squared), in one step that neither an
// interrupt nor the step budget reached.
const deepCell = "x = []\nfor i in range(400000):\n    x = [x]"

// TestDeepDisplay: a deep value shows 100 levels deep, then […]; print
// and str write it whole; help and inspection show its beginning.
func TestDeepDisplay(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, deepCell); err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("[", maxDisplayDepth) + "[…]" + strings.Repeat("]", maxDisplayDepth)
	tests := []struct {
		name, code string
		check      func(result, stdout string) bool
	}{
		{"result", "x", func(r, _ string) bool { return r == want }},
		{"display", "display(x)", func(_, _ string) bool { return true }},
		{"print", "print(x)", func(_, out string) bool { return len(out) == 800_003 }},
		{"str", "len(str(x))", func(r, _ string) bool { return r == "800002" }},
		{"help", "x?", func(_, out string) bool { return strings.HasPrefix(out, "x: list\n[[[[") && len(out) < 3000 }},
		{"help()", "help(x)", func(_, out string) bool { return strings.HasSuffix(out, "]]: a list\n") && len(out) < 3000 }},
		{"a deep value in a wide one", "[x, 1, {'k': x}]", func(r, _ string) bool {
			return strings.HasPrefix(r, "[[[[") && strings.Count(r, "[…]") == 2 && strings.Contains(r, "]], 1, {\"k\": [[[") && len(r) < 1000
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			result, stdout, err := run(t, s, tc.code)
			if err != nil || !tc.check(result, stdout) {
				t.Errorf("%s: result %.80q… (%d), stdout %.80q… (%d), %v", tc.code, result, len(result), stdout, len(stdout), err)
			}
		})
	}
	if text, ok := s.Inspect("x", 1); !ok || len(text) > 3000 || !strings.HasPrefix(text, "list: [[[") {
		t.Errorf("Inspect: %.80q (%d), %v", text, len(text), ok)
	}
}

// TestDisplayCountsSteps: writing a result's text counts in the cell's
// step budget (a million numbers are 130 000 of them shown).
func TestDisplayCountsSteps(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "x = list(range(1000000))"); err != nil {
		t.Fatal(err)
	}
	_, _, err := run(t, s, "limits(steps=50000)\nx")
	var ce *kernel.CellError
	if !errors.As(err, &ce) || ce.Name != "StepLimit" || !strings.Contains(ce.Value, "budget of 50000 steps") {
		t.Errorf("got %v, want the step budget's error", err)
	}
	if _, _, err := run(t, s, "limits(steps=1000000)\nx"); err != nil {
		t.Errorf("under a budget large enough: %v", err)
	}
}

// TestDisplayInterrupted: the writing of a result's text stops with the
// cell's thread, at its first check: a thousand values of the million.
func TestDisplayInterrupted(t *testing.T) {
	s := newSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	th, _, stop := s.newThread(ctx, "cell", nil)
	defer stop()
	cancel()
	before := th.ExecutionSteps()
	text, err := displayText(th, fromGo(make([]int, 1_000_000), false))
	if !errors.Is(err, sandbox.ErrStopped) {
		t.Errorf("got %d characters, %v; want ErrStopped", len(text), err)
	}
	if n := th.ExecutionSteps() - before; n > 2048 {
		t.Errorf("%d values written after the interrupt", n)
	}
}
