package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// TestExecFileErrors: every error of a file names the file and the line at
// fault, the innermost line of the file for a call.
func TestExecFileErrors(t *testing.T) {
	tests := []struct {
		name, code, want string
		line             int
	}{
		{"syntax", "x = 1\ny = (1 + ]\n", "test.star:2: got ']', want primary expression", 2},
		{"undefined", "x = 1\ny = z + 1\n", "test.star:2: name z is not defined", 2},
		{"runtime", "def f(n):\n    return 1 // n\n\nx = f(0)\n", "test.star:2: floored division by zero", 2},
		{"frozen globals", "seen = []\ndef f(n):\n    seen.append(n)\n", "", 0},
		{"recursion is allowed", "def f(n):\n    return 1 if n == 0 else n * f(n - 1)\nx = f(10)\n", "", 0},
		{"while and sets", "s = set()\nn = 0\nwhile n < 3:\n    s.add(n)\n    n += 1\n", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := execCode(context.Background(), tc.code, Limits{})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *Error
			if !errors.As(err, &se) || se.File != "test.star" || se.Line != tc.line {
				t.Fatalf("got %#v, want an *Error at test.star:%d", err, tc.line)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q, want %q", err, tc.want)
			}
		})
	}
}

// TestFrozenGlobals: the globals of a file are frozen once it has run, so
// that its functions give the same answer each time they are called.
func TestFrozenGlobals(t *testing.T) {
	th, stop := NewThread(context.Background(), "test", Limits{})
	defer stop()
	g, err := ExecFile(th, "rules.star", "seen = []\ndef f(n):\n    seen.append(n)\n    return len(seen)\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Call(th, g["f"], starlark.Tuple{starlark.MakeInt(1)}, nil)
	if err == nil || !strings.Contains(err.Error(), "rules.star:3:") || !strings.Contains(err.Error(), "frozen") {
		t.Errorf("got %v, want an error at rules.star:3 about a frozen list", err)
	}
}

// TestPredeclared: predeclared names are seen by the file and win over the
// sandbox's built-ins.
func TestPredeclared(t *testing.T) {
	th, stop := NewThread(context.Background(), "test", Limits{})
	defer stop()
	pre := starlark.StringDict{"k": starlark.MakeInt(3), "sum": starlark.String("shadowed")}
	g, err := ExecFile(th, "p.star", "x = k * 2\ny = sum\nz = sorted([3, 1, 2])\n", pre)
	if err != nil {
		t.Fatal(err)
	}
	if g["x"].String() != "6" || g["y"].String() != `"shadowed"` || g["z"].String() != "[1, 2, 3]" {
		t.Errorf("got x=%v y=%v z=%v", g["x"], g["y"], g["z"])
	}
}

// TestHidden: the hidden built-ins are in Builtins and cannot be written
// in code.
func TestHidden(t *testing.T) {
	n := 0
	for name := range Builtins() {
		if Hidden(name) {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no hidden built-ins")
	}
	if _, err := execCode(context.Background(), "x = ·+(1, 2)\n", Limits{}); err == nil {
		t.Error("code called a hidden built-in")
	}
}
