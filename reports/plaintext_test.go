package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/job"
)

// The plain-text form (--format text, and a notebook result's text/plain):
// the same documents as Markdown, without markup.
func TestPlainTextGolden(t *testing.T) {
	fx := fixtures()
	for _, name := range fixtureNames() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := PlainText(&b, fx[name], Options{}); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".txt", b.Bytes())
			// No Markdown: no bold, no pipe tables, no headings, no fences,
			// and no note about a bold that is not there.
			for _, bad := range []string{"**", "| ", "\n#", "```", "in bold", "en gras"} {
				if bytes.Contains(b.Bytes(), []byte(bad)) {
					t.Errorf("plain text holds %q", bad)
				}
			}
		})
	}
}

// Positions in no known shape (a game defined in a cell) print as Starlark
// lists, with commas: they paste back into a cell.
func TestSprintCommas(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{[]int{0, 2, 7, 9}, "[0, 2, 7, 9]"},
		{[]string{"(0, 4)", "(2, 4)"}, "[(0, 4), (2, 4)]"},
		{[]any{1, []any{2, "x"}}, "[1, [2, x]]"},
		{[]int{}, "[]"},
		{"(1, 2)", "(1, 2)"},
		{7, "7"},
	}
	for _, tt := range tests {
		if got := sprint(tt.in); got != tt.want {
			t.Errorf("sprint(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Through a report: the P-positions of such a game.
	sr := &job.SectionResult{Results: job.Results{PPositions: &job.PPositions{Count: 3, List: []string{"a", "b", "c"}}}}
	var b bytes.Buffer
	if err := PlainText(&b, &job.Report{Sections: []*job.SectionResult{sr}}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "[a, b, c]") {
		t.Errorf("P-positions without commas:\n%s", b.String())
	}
}
