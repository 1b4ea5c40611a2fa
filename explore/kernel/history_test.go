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
		g, err := compileGlob(tc.glob)
		if err != nil {
			t.Errorf("%q: %v", tc.glob, err)
			continue
		}
		steps := 0
		if got, ok := g.match(tc.text, &steps); got != tc.match || !ok {
			t.Errorf("%q matches %q: %v (%v), want %v", tc.glob, tc.text, got, ok, tc.match)
		}
	}
	if _, err := compileGlob("[ab"); err == nil {
		t.Error("[ab: no error")
	}
}

// TestGlobBounded: the search's work is capped whatever the pattern
// (issue 29, class 6: 300 * over five cells of 1 MB answered nothing in
// 15 s and blocked every later request): runs of * are one, a match
// takes at most len(text) × len(glob) steps, and the steps of a search
// stop at searchSteps. Steps are counted, not timed.
func TestGlobBounded(t *testing.T) {
	// The worst case of the algorithm: each start of the * matches 1000
	// characters before it fails.
	g, err := compileGlob(strings.Repeat("*", 300) + strings.Repeat("a", 1000) + "b")
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != 1+1000+1 {
		t.Fatalf("%d tokens: runs of * are not one", len(g))
	}
	cell := strings.Repeat("a", 1<<20)
	steps := 0
	m, ok := g.match(cell, &steps)
	if m || ok || steps <= searchSteps {
		t.Fatalf("a search of 1 MB cells: matched %v, within the cap %v, after %d steps", m, ok, steps)
	}
	// The history answers, with what it found within the cap.
	var h history
	for i := 1; i <= 5; i++ {
		h.add(i, cell)
	}
	h.add(6, strings.Repeat("a", 1000)+"b")
	r := historyRequest{access: "search", pattern: g}
	if got := h.query(r); len(got) != 1 {
		t.Fatalf("search found %v, want cell 6 only", got)
	}
	// Long patterns are refused.
	if _, err := compileGlob(strings.Repeat("a", maxGlob+1)); err == nil {
		t.Error("a pattern of more than maxGlob characters was taken")
	}
	for _, tc := range []struct {
		glob, text string
		match      bool
	}{
		{"*a*b*c", "xxaxxbxxc", true},
		{"*a*b*c", "xxaxxbxxcx", false},
		{"a*", "a", true},
		{"*", "", true},
		{"?", "é", true},
		{"[é]x", "éx", true},
		{"**a**", "bab", true},
	} {
		g, _ := compileGlob(tc.glob)
		steps := 0
		if got, _ := g.match(tc.text, &steps); got != tc.match {
			t.Errorf("%q matches %q: %v, want %v", tc.glob, tc.text, got, tc.match)
		}
	}
}
