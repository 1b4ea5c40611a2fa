package kernel

import (
	"strings"
	"testing"
)

// TestHistoryBounded: the history forgets its oldest cells past its
// bounds, in cells and in bytes, and keeps at least the last one.
func TestHistoryBounded(t *testing.T) {
	tests := []struct {
		name      string
		cells     int
		size      int
		wantCells int
	}{
		{"many small cells", historyMaxCells + 50, 10, historyMaxCells},
		{"large cells", 40, 1 << 20, historyMaxBytes / (1<<20 + len("out"))},
		{"one cell over the bound", 1, historyMaxBytes + 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h history
			code := strings.Repeat("x", tc.size)
			for i := 1; i <= tc.cells; i++ {
				h.add(i, code)
				h.setOutput(i, Text("out"))
			}
			if len(h.cells) != tc.wantCells || h.cells[len(h.cells)-1].line != tc.cells {
				t.Errorf("kept %d cells, the last %d; want %d, the last %d", len(h.cells), h.cells[len(h.cells)-1].line, tc.wantCells, tc.cells)
			}
			want := 0
			for _, c := range h.cells {
				want += len(c.input) + len(*c.output)
			}
			if h.bytes != want {
				t.Errorf("counted %d bytes, hold %d", h.bytes, want)
			}
		})
	}
}

func TestGlobRegexp(t *testing.T) {
	tests := []struct {
		glob, text string
		match      bool
	}{
		{"*", "anything\nat all", true},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"nim*", "nim_mul(2, 3)", true},
		{"*mul*", "nim_mul(2, 3)", true},
		{"*MUL*", "nim_mul(2, 3)", false},
		{"[a-c]x", "bx", true},
		{"[^a-c]x", "bx", false},
		{"[]]", "]", true},
		{"a.b", "axb", false},
		{"(1+1)", "(1+1)", true},
	}
	for _, tc := range tests {
		re, err := globRegexp(tc.glob)
		if err != nil {
			t.Errorf("%q: %v", tc.glob, err)
			continue
		}
		if got := re.MatchString(tc.text); got != tc.match {
			t.Errorf("%q matches %q: %v, want %v", tc.glob, tc.text, got, tc.match)
		}
	}
	if _, err := globRegexp("[ab"); err == nil {
		t.Error("[ab: no error")
	}
}
