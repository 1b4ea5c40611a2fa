package controlchar_test

import (
	"fmt"
	"testing"

	"github.com/nimbook/nimbook/explore/controlchar"
)

func TestIs(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    rune
		want bool
	}{
		{"line feed", '\n', false},
		{"tab", '\t', false},
		{"carriage return", '\r', true},
		{"escape", 0x1b, true},
		{"bell", 0x07, true},
		{"delete", 0x7f, true},
		{"CSI", 0x9b, true},
		{"no-break space", 0xa0, false},
		{"right-to-left override", 0x202e, true},
		{"pop directional isolate", 0x2069, true},
		{"letter", 'é', false},
		{"nim-sum", '⊕', false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := controlchar.Is(tc.r); got != tc.want {
				t.Errorf("Is(%U) = %v, want %v", tc.r, got, tc.want)
			}
		})
	}
}

func ExampleIs() {
	for _, r := range "a\t\x1b\u202e" {
		fmt.Printf("%U %v\n", r, controlchar.Is(r))
	}
	// Output:
	// U+0061 false
	// U+0009 false
	// U+001B true
	// U+202E true
}
