package reports

import (
	"bytes"
	"strings"
	"testing"
)

// Terminal Markdown stays readable: no backslash before an underscore
// inside a word (f_r, max_take), and the text still renders as itself.
func TestEscapeReadable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"tableau des f_r(n)", "tableau des f_r(n)"},
		{"max_take", "max_take"},
		{"_a_", `\_a\_`},
		{"a *b* c", `a \*b\* c`},
		{"0 ≤ a, b < 16", "0 ≤ a, b < 16"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got := escape(tc.in)
			if got != tc.want {
				t.Errorf("escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
			var b bytes.Buffer
			if err := md.Convert([]byte(got), &b); err != nil {
				t.Fatal(err)
			}
			html := strings.TrimSuffix(strings.TrimPrefix(b.String(), "<p>"), "</p>\n")
			html = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(html)
			if html != tc.in {
				t.Errorf("%q renders as %q", got, html)
			}
		})
	}
}
