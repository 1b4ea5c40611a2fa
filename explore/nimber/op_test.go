package nimber

import "testing"

func TestParseOp(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"sum", OpSum}, {"add", OpSum}, {"addition", OpSum},
		{"product", OpProduct}, {"mul", OpProduct}, {"multiplication", OpProduct},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got, err := ParseOp(tc.in); err != nil || got != tc.want {
				t.Errorf("ParseOp(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
	if _, err := ParseOp("xor"); err == nil || err.Error() != `unknown operation "xor"; write sum or product` {
		t.Errorf("ParseOp(xor): %v", err)
	}
}
