package play

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// A line over MaxLine is refused whole, costs no more than MaxLine of
// memory, and its echo is cut; shorter lines come back as they were.
func TestLinesLong(t *testing.T) {
	in := strings.Join([]string{
		"1 2",
		strings.Repeat("7", MaxLine),        // the longest line kept
		strings.Repeat("7", MaxLine+1),      // one byte too many
		strings.Repeat("8", MaxLine) + "\r", // CRLF: the CR is no content
		strings.Repeat("é", 3<<20),          // 6 MiB, cut inside no character
		"quit",
	}, "\n") + "\n" + strings.Repeat("z", 10*MaxLine) // no final newline
	var echo strings.Builder
	l := NewLines(context.Background(), strings.NewReader(in), &echo)
	l.Echo = true
	type want struct {
		line string
		long int
	}
	for i, w := range []want{
		{"1 2", 0},
		{strings.Repeat("7", MaxLine), 0},
		{"", MaxLine + 1},
		{strings.Repeat("8", MaxLine), 0},
		{"", 6 << 20},
		{"quit", 0},
		{"", 10 * MaxLine},
	} {
		got, err := l.ReadLine("> ")
		var long *LongLineError
		switch {
		case w.long > 0 && (!errors.As(err, &long) || long.Size != w.long):
			t.Fatalf("line %d: err = %v, want a LongLineError of %d bytes", i, err, w.long)
		case w.long == 0 && (err != nil || got != w.line):
			t.Fatalf("line %d: %.20q, %v; want %.20q", i, got, err, w.line)
		}
	}
	if _, err := l.ReadLine("> "); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last line: %v, want EOF", err)
	}
	for _, ln := range strings.Split(echo.String(), "\n") {
		ln = strings.TrimPrefix(ln, "> ")
		if n := len([]rune(ln)); n > MaxEcho+1 {
			t.Errorf("an echo of %d characters: %.40q…", n, ln)
		}
		if strings.ContainsRune(ln, '\uFFFD') {
			t.Errorf("an echo cut inside a character: %.40q", ln)
		}
	}
	if !strings.Contains(echo.String(), strings.Repeat("é", MaxEcho)+"…\n") {
		t.Errorf("the long line's echo does not end with …")
	}
}

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"ééé", 3, "ééé"},
		{"éééé", 2, "éé…"},
		{"", 2, ""},
	} {
		if got := Excerpt(tc.in, tc.n); got != tc.want {
			t.Errorf("Excerpt(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
