package job

import (
	"fmt"
	"testing"

	"github.com/nimbook/nimbook/explore/heap"
)

// sizes is an octal game that records the heap sizes its values are asked
// to; its embedded code keeps the window that proves periods.
type sizes struct {
	*heap.Octal
	asked []int
}

func (s *sizes) Values(upto int, lim heap.Limits) ([]uint64, error) {
	s.asked = append(s.asked, upto)
	return s.Octal.Values(upto, lim)
}

func (s *sizes) ValuesSweep(upto int, lim heap.Limits) ([]uint64, heap.Sweep, error) {
	s.asked = append(s.asked, upto)
	return s.Octal.ValuesSweep(upto, lim)
}

// A period alone stops the values once it is proven, with the certificate
// all the values would give.
func TestPeriodStopsEarly(t *testing.T) {
	for _, c := range []struct {
		code  string
		upto  int
		asked []int
	}{
		{"0.77", 100000, []int{4096}},              // Kayles: proven to 167
		{"0.07", 3000, []int{3000}},                // below the first stage: one sweep
		{"0.45", 100000, []int{4096}},              // 0.45: proven to 1037
		{"0.156", 100000, []int{4096, 8193}},       // 0.156: proven to 7658
		{"0.6", 10000, []int{4096, 8193, 10000}},   // Officers: no period, every stage
		{"0.356", 40000, []int{4096, 8193, 16387}}, // 0.356: 7315 + 142, proof to 14915
	} {
		t.Run(c.code, func(t *testing.T) {
			g, err := heap.ParseOctal(c.code)
			if err != nil {
				t.Fatal(err)
			}
			s := &sizes{Octal: g}
			r := &runner{}
			early, _, err := r.periodValues(s, c.upto, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(s.asked) != fmt.Sprint(c.asked) {
				t.Errorf("values asked to %v, want %v", s.asked, c.asked)
			}
			all, err := g.Values(c.upto, heap.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			a, b := heap.Period(g, early), heap.Period(g, all)
			if a.Proven != b.Proven || a.Preperiod != b.Preperiod || a.Period != b.Period || a.Proven && a.CheckedTo != b.CheckedTo {
				t.Errorf("certificate %+v, all values give %+v", a, b)
			}
		})
	}
}

// Only a section that shows a period alone stops early; values, rare
// values and P-positions need them all.
func TestEarlyPeriodSections(t *testing.T) {
	for _, c := range []struct{ show string }{
		{"[period]"}, {"[period, values]"}, {"[period, rare]"}, {"[values]"},
	} {
		t.Run(c.show, func(t *testing.T) {
			rep, err := runSrc(t, fmt.Sprintf("sections:\n  - game: {octal: {code: \"0.77\", upto: 20000}}\n    show: %s\n", c.show), Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Sections[0].Results
			if p := res.Period; p != nil && (!p.Proven || p.Preperiod != 71 || p.Period != 12 || p.CheckedTo != 167) {
				t.Errorf("Kayles: %+v", p)
			}
			if c.show == "[period, values]" && len(res.Values) != 20001 {
				t.Errorf("%d values, want 20001", len(res.Values))
			}
		})
	}
}
