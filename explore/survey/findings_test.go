package survey

import (
	"path/filepath"
	"reflect"
	"testing"
)

// Octal games that take one to k from a heap without splitting it:
// 0.33 is S = {1, 2}, 0.333 is S = {1, 2, 3}, 0.3333 is S = {1..4}, with
// g(n) = n mod (k + 1) (MATH.md), so their first three values agree and
// their periods are 3, 4, 5 from 0. The period of 0.6 is an open problem:
// no period is proven within 300 heaps.
const findingsSurvey = `title: Findings
survey:
  octal: {codes: ["0.33", "0.333", "0.3333", "0.6"], upto: 300}
show: [period, values]
`

func TestNewFindings(t *testing.T) {
	s := mustParse(t, findingsSurvey)
	path := filepath.Join(t.TempDir(), "f.db")
	runAll(t, s, path, Shard{}, 2)
	st, err := OpenRead(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.Rows()
	if err != nil {
		t.Fatal(err)
	}
	rep := NewReport(s, rows, "")
	tests := []struct {
		name     string
		compare  int
		compared int
		same     [][]int
	}{
		{"every value", 0, 301, nil},
		{"three values", 3, 3, [][]int{{0, 1, 2}}},
		{"four values", 4, 4, [][]int{{1, 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := NewFindings(rep, tc.compare)
			if err != nil {
				t.Fatal(err)
			}
			if f.Done != 4 || f.Refused+f.Errors+f.Pending != 0 {
				t.Errorf("counts: %d done, %d refused, %d errors, %d pending; want 4 done", f.Done, f.Refused, f.Errors, f.Pending)
			}
			if f.WithPeriod != 4 || f.Proven != 3 || !reflect.DeepEqual(f.NotProven, []int{3}) {
				t.Errorf("periods: %d with a period, %d proven, not proven %v; want 4, 3, [3] (0.6)", f.WithPeriod, f.Proven, f.NotProven)
			}
			if f.MaxPeriod != 5 || !reflect.DeepEqual(f.LongestPeriod, []int{2}) {
				t.Errorf("longest period %d by %v, want 5 by [2] (0.3333)", f.MaxPeriod, f.LongestPeriod)
			}
			if f.MaxPreperiod != 0 || f.LongestPreperiod != nil {
				t.Errorf("longest preperiod %d by %v, want none (every period starts at 0)", f.MaxPreperiod, f.LongestPreperiod)
			}
			if f.Compared != tc.compared || !reflect.DeepEqual(f.Same, tc.same) {
				t.Errorf("compared %d values, same %v; want %d, %v", f.Compared, f.Same, tc.compared, tc.same)
			}
			for i, r := range f.Results {
				if r == nil || len(r.Values) != 301 {
					t.Errorf("variant %d: results not decoded", i)
				}
			}
		})
	}
}

func TestFindingsPending(t *testing.T) {
	s := mustParse(t, findingsSurvey)
	rep := NewReport(s, nil, "")
	f, err := NewFindings(rep, 0)
	if err != nil {
		t.Fatal(err)
	}
	if f.Pending != 4 || f.Done != 0 || f.WithPeriod != 0 || f.Same != nil || f.Compared != 0 {
		t.Errorf("an empty database: %+v; want 4 pending and nothing found", f)
	}
	if got := rep.Fixed(); len(got) != 1 || got[0].Key != "upto" || Compact(got[0].Value) != "300" {
		t.Errorf("Fixed() = %v, want [upto 300]", got)
	}
	if got := rep.VaryingParams(&rep.Variants[1]); len(got) != 1 || got[0].Key != "code" || Compact(got[0].Value) != "0.333" {
		t.Errorf("VaryingParams = %v, want [code 0.333]", got)
	}
}
