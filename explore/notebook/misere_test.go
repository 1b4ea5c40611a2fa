package notebook

import (
	"strings"
	"testing"
)

// TestGenusMethod: octal("0.312").genus(20) is a list of genera that
// prints and computes as such (Plambeck: 1^{031}, 2^{20}, 0^{02},
// 2^{1420}, 0^{02}, 1^{13} from heap 1; 2^{1420} the first wild), in either play; help and
// completion know the method.
func TestGenusMethod(t *testing.T) {
	s := newSession(t)
	tests := []struct{ code, want string }{
		{`str(octal("0.312").genus(6))`, `"[0^{120}, 1^{031}, 2^{20}, 0^{02}, 2^{1420}, 0^{02}, 1^{13}]"`},
		{`[g.tame for g in octal("0.312").genus(4)]`, `[True, True, True, True, False]`},
		{`octal("0.77", play="misere").genus(5)[5].misere`, `[1, 4, 6]`},
		{`octal("0.77").genus(5)[5].normal`, `4`},
		{`len(nim(3).genus(9))`, `10`},
		// Siegel, "The structure and classification of misère quotients":
		// R_8, the one quotient of order 8, is that of 0.75, its pretending
		// function periodic (2 from 8).
		{`q = octal("0.75").quotient(40); (q.order, q.p_portion, q.tame, q.period.period)`, `(8, 2, False, 2)`},
		{`nim(3).quotient(3).tame_name`, `"T_2"`},
	}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			got, _, err := run(t, s, tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	run(t, s, "g = octal('0.312')")
	if got, _, _ := s.Complete("g.gen", 5); strings.Join(got, ",") != "genus" {
		t.Errorf("completion %v, want genus", got)
	}
	if got, _, _ := s.Complete("g.quo", 5); strings.Join(got, ",") != "quotient" {
		t.Errorf("completion %v, want quotient", got)
	}
	if _, _, err := run(t, s, `wythoff(5, 5).genus(3)`); err == nil || !strings.Contains(err.Error(), "does not apply") {
		t.Errorf("genus of Wythoff's game: %v", err)
	}
}
