package reports

import (
	"strings"
	"testing"
)

// A winning move is marked on the heaps it makes: the one that changed,
// or those a split or a removal leaves that the position had not.
func TestChangedHeaps(t *testing.T) {
	tests := []struct {
		name     string
		from, to []int64
		want     string
	}{
		{"one heap less", []int64{1, 3, 5, 5}, []int64{1, 1, 5, 5}, "(1,**1**,5,5)"},
		{"diagonal", []int64{4, 6}, []int64{3, 5}, "(**3**,**5**)"},
		{"split", []int64{7, 2}, []int64{3, 3, 2}, "(**3**,**3**,2)"},
		{"removed", []int64{4, 2}, []int64{2}, "(2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tupleSpan(tc.to, changedHeaps(tc.from, tc.to))
			if got := tupleText(s.Heaps, "|", func(h string) string { return "**" + h + "**" }); got != tc.want {
				t.Errorf("%s, want %s", got, tc.want)
			}
		})
	}
}

// A position of more than longTuple heaps breaks after its commas only.
func TestTupleBreaks(t *testing.T) {
	short := tupleSpan([]int64{1, 2, 3}, nil)
	if got := tupleText(short.Heaps, "|", strings.ToUpper); got != "(1,2,3)" {
		t.Errorf("short: %s", got)
	}
	long := tupleSpan([]int64{10, 9, 8, 7, 6, 5, 4, 3, 2}, nil)
	if got := tupleText(long.Heaps, "|", strings.ToUpper); got != "(10,|9,|8,|7,|6,|5,|4,|3,|2)" {
		t.Errorf("long: %s", got)
	}
}

// A line of code wider than the page is cut after a comma or a space,
// never inside a number unless the number alone is wider.
func TestWrapCode(t *testing.T) {
	width := func(s string) float64 { return float64(len(s)) }
	tests := []struct {
		in   string
		w    float64
		want []string
	}{
		{"f(1, 2)", 20, []string{"f(1, 2)"}},
		{"p=[1000,990,980,970]", 10, []string{"p=[1000,", "990,980,", "970]"}},
		{"x = 123456789012", 8, []string{"x = ", "12345678", "9012"}},
	}
	for _, tc := range tests {
		got := wrapCode(tc.in, tc.w, width)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapCode(%q, %v) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}

// Short formulas are joined by no-break spaces; words are not.
func TestKeepFormulas(t *testing.T) {
	tests := []struct{ in, want string }{
		{"for n = 10 and more", "for n~=~10 and more"},
		{"1 ⊕ 2 = 3", "1~⊕~2~=~3"},
		{"the group GL(3, 2) acts", "the group GL(3,~2) acts"},
		{"no formula here", "no formula here"},
		{"a list 1, = 2", "a list 1, = 2"},
	}
	for _, tc := range tests {
		if got := strings.ReplaceAll(keepFormulas(tc.in), "\u00a0", "~"); got != tc.want {
			t.Errorf("keepFormulas(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
