package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }

func runArgs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func TestNim(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"nim", "mul", "2", "3"}, "1\n"}, // SPEC.md
		{[]string{"nim", "mul", "4", "4"}, "6\n"}, // MATH.md: 4 ⊗ 4 = 6
		{[]string{"nim", "add", "1", "3", "5", "7"}, "0\n"},
		{[]string{"nim", "inv", "2"}, "3\n"},
		{[]string{"nim", "sqrt", "2"}, "3\n"},
		{[]string{"nim", "pow", "2", "2"}, "3\n"},
		{[]string{"nim", "mul", "18446744073709551615", "1"}, "18446744073709551615\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, _, err := runArgs(t, tt.args...)
			if err != nil || out != tt.want {
				t.Errorf("got %q, %v; want %q", out, err, tt.want)
			}
		})
	}
}

func TestNimErrors(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		usage bool
	}{
		{"no op", []string{"nim"}, true},
		{"unknown op", []string{"nim", "div", "1"}, true},
		{"not a number", []string{"nim", "mul", "x", "1"}, true},
		{"negative", []string{"nim", "add", "-1"}, true},
		{"inverse of zero", []string{"nim", "inv", "0"}, false},
		{"arity", []string{"nim", "pow", "2"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runArgs(t, tt.args...)
			var u *usageError
			if err == nil || errors.As(err, &u) != tt.usage {
				t.Errorf("err = %v, usage error %v, want %v", err, errors.As(err, &u), tt.usage)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	if _, _, err := runArgs(t); err == nil {
		t.Error("no command accepted")
	}
	var u *usageError
	if _, _, err := runArgs(t, "frobnicate"); !errors.As(err, &u) {
		t.Errorf("unknown command: %v", err)
	}
	out, _, err := runArgs(t, "help")
	if err != nil || !strings.Contains(out, "nimbook run FILE") {
		t.Errorf("help: %q %v", out, err)
	}
}
