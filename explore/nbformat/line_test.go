package nbformat

import "testing"

// TestMarkdownCellLine: a Markdown notebook's code cells know the line of
// the file their code starts on, for error messages.
func TestMarkdownCellLine(t *testing.T) {
	src := "# T\n\n```nimbook\nx = 1\n```\n\ntext\n\n~~~nimbook\ny = 2\nz = 3\n~~~\n"
	nb, err := ParseMarkdown([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, c := range nb.Cells {
		if c.Type == "code" {
			lines = append(lines, c.Line)
		}
	}
	if len(lines) != 2 || lines[0] != 4 || lines[1] != 10 {
		t.Errorf("code cells start on lines %v, want [4 10]", lines)
	}
}
