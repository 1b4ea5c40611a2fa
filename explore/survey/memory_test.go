package survey

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/budget"
)

// TestStreamedReports: WriteJSON and WriteCSV, which read the rows one at
// a time, write the bytes of Report.JSON and Report.CSV, pending, refused
// and done variants alike.
func TestStreamedReports(t *testing.T) {
	s := mustParse(t, "title: \"Codes <&> \\\"quoted\\\"\"\nsurvey:\n  octal: {digits: 1, upto: \"20..23\"}\nshow: [period, values]\n")
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := Create(path, s)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, n := range []int{0, 3} {
		t.Run(map[int]string{0: "empty", 3: "some rows"}[n], func(t *testing.T) {
			// Every third variant computed, one refused: the others pending.
			if n > 0 {
				p, err := NewPlan(t.Context(), s, s.Select(Shard{I: 0, N: 3}), 1)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Run(t.Context(), s, st, p, RunOptions{}); err != nil {
					t.Fatal(err)
				}
				if err := st.Put(Row{Index: 1, Status: StatusRefused, Error: "too \"large\"", Game: "{}", Params: "{}"}); err != nil {
					t.Fatal(err)
				}
			}
			rows, err := st.Rows()
			if err != nil {
				t.Fatal(err)
			}
			rep := NewReport(s, rows, "")
			var want, got bytes.Buffer
			if err := rep.JSON(&want); err != nil {
				t.Fatal(err)
			}
			if err := WriteJSON(&got, s, st); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("WriteJSON:\n%s\nwant (Report.JSON):\n%s", got.String(), want.String())
			}
			want.Reset()
			got.Reset()
			if err := reportCSV(rep, &want); err != nil {
				t.Fatal(err)
			}
			if err := WriteCSV(&got, s, st); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("WriteCSV:\n%s\nwant (Report.CSV):\n%s", got.String(), want.String())
			}
		})
	}
}

// TestVariantsPastMemory: a survey whose variants would not fit the memory
// limit (VariantBytes each) is refused before they are made, naming the
// count, the limit and what to change; a range is counted, not listed.
func TestVariantsPastMemory(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a range", "limits: {memory: 512MiB, variants: 50000000}\nsurvey:\n  subtraction: {set: [1, 2, 3], upto: \"1..4200000\"}\nshow: [period]\n",
			"survey: the 4200000 variants that 4200000 upto make need about 8 GiB (2 KiB each, all held while the survey runs), more than the memory limit of 512 MiB"},
		{"ranges combined", "limits: {memory: 28MiB, variants: 50000000}\nsurvey:\n  subtraction: {set: [1, 2, 3], upto: \"1..2000\", play: [normal, misere]}\nshow: [period]\n",
			"the 4000 variants that 2000 upto × 2 play make need about 7.8 MiB"},
		{"a generator", "limits: {memory: 32MiB, variants: 50000000}\nsurvey:\n  octal: {digits: 5, upto: 100}\nshow: [period]\n",
			"survey.octal.digits: the 32767 variants that"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := budget.InUse()
			_, err := Parse("s.yaml", []byte(tc.src), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--max-memory or limits: {memory: SIZE}") {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			// Refused from the count: nothing was listed.
			if grew := budget.InUse() - before; grew > 64<<20 {
				t.Errorf("refusing took %s", budget.FormatSize(grew))
			}
		})
	}
	// Under a larger limit the same survey parses, its range listed.
	s, err := Parse("s.yaml", []byte("limits: {memory: 64MiB}\nsurvey:\n  subtraction: {set: [1, 2, 3], upto: \"1..3000\"}\nshow: [period]\n"), Options{})
	if err != nil || len(s.Variants) != 3000 || len(s.Varying) != 1 {
		t.Fatalf("3000 variants under 64 MiB: %v", err)
	}
}
