package notebook

import (
	"errors"
	"strings"
	"testing"
)

// TestPeriodSearch: period() without a range looks further until a period
// is proven or a limit stops it, and says how far it looked; with a range
// it answers for that range only.
func TestPeriodSearch(t *testing.T) {
	tests := []struct {
		name, code, want, out string
	}{
		// MATH.md: Kayles has period 12 from 71, proven with values to 167.
		{"kayles", "p = octal(\"0.77\").period()\n(p.proven, p.preperiod, p.period, p.checked_to)", "(True, 71, 12, 167)", ""},
		{"kayles with a range", "p = octal(\"0.77\").period(100)\n(p.proven, p.checked_to)", "(False, 100)", ""},
		{"kayles sized", "p = octal(\"0.77\", upto=100).period()\n(p.proven, p.checked_to)", "(False, 100)", ""},
		// Dawson's Kayles: period 34 from 53, proven with values to 175
		// (SPEC.md's survey example).
		{"dawson", "p = octal(\"0.07\").period()\n(p.proven, p.preperiod, p.period, p.checked_to)", "(True, 53, 34, 175)", ""},
		{"hex", "p = hex_game(\"0.f\").period()\n(p.proven, p.period)", "(True, 2)", ""},
		{"subtraction", "p = subtraction([2, 5, 7]).period()\n(p.proven, p.period)", "(True, 22)", ""},
		{"stopped by the positions", "limits(positions=5000)\np = octal(\"0.6\").period()\n(p.proven, p.checked_to)", "(False, 800)",
			"period: no period proven up to n = 800; looking further (values up to 1600) passes a limit: octal 0.6: values up to 1600 need about"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, out, err := run(t, newSession(t), tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if !strings.Contains(out, tc.out) || tc.out == "" && out != "" {
				t.Errorf("output %q, want %q", out, tc.out)
			}
		})
	}
}

// TestHelpAndExit: name? and exit behave as in IPython.
func TestHelpAndExit(t *testing.T) {
	tests := []struct {
		name, code, out string
		exit            bool
	}{
		{"builtin", "coins?", "coins(rule=\"at-most\", r=None, n=None, first=1, play=\"normal\", position=None)\n\nA coin-turning game", false},
		{"double", "coins??", "coins(rule=", false},
		{"prefix", "?nim", "nim(*heaps, max_take=None", false},
		{"starlark builtin", "len?", "len(...): a Starlark built-in", false},
		{"unknown", "nothing?", "Object `nothing` not found.", false},
		{"exit", "exit", "", true},
		{"quit call", "  quit()  # bye", "", true},
		{"exit in code", "x = 1\nexit", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			_, out, err := run(t, s, tc.code)
			if tc.exit != errors.Is(err, ErrExit) {
				t.Fatalf("error %v, exit %v", err, tc.exit)
			}
			if !strings.HasPrefix(out, tc.out) {
				t.Errorf("output %q, want it to start with %q", out, tc.out)
			}
		})
	}
	s := newSession(t)
	run(t, s, "def moves(p):\n    \"The moves of p.\"\n    return []\ng = game(moves=moves, start=0)")
	for code, want := range map[string]string{
		"moves?":    "def moves(p)  # cell 1:1:1\n\nThe moves of p.",
		"g.grundy?": "grundy(position): the normal-play Grundy value",
		"g?":        "game(moves=moves) from 0",
	} {
		text, found, ok := s.Help(code)
		if !ok || !found || !strings.HasPrefix(text, want) {
			t.Errorf("Help(%q) = %q, %v, %v; want %q", code, text, found, ok, want)
		}
	}
	if _, _, ok := s.Help("g.grundy()"); ok {
		t.Error("a call taken for a help request")
	}
}
