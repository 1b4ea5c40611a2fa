package notebook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExport writes results as CSV and Markdown, as pandas' to_csv and
// to_markdown do: the text, or a file of the notebook's folder.
func TestExport(t *testing.T) {
	tests := []struct {
		name, cell, want string
	}{
		{"values as CSV", `octal("0.07").values(5).to_csv()`, "n,value\n0,0\n1,0\n2,1\n3,1\n4,2\n5,0\n"},
		{"coins from their first (Turning Turtles: coin n is worth n)", `coins(r=2, n=3).values().to_csv()`, "n,value\n1,1\n2,2\n3,3\n"},
		{"values as Markdown", `octal("0.07").values(2).to_markdown()`, "| n | value |\n|---:|---:|\n| 0 | 0 |\n| 1 | 0 |\n| 2 | 1 |\n"},
		{"a table", `wythoff(3, 3).table().to_csv()`, "a \\ b,0,1,2\n0,0,1,2\n1,1,2,0\n2,2,0,1\n"},
		{"a table in Markdown", `wythoff(2, 2).table().to_markdown()`, "| a \\ b | 0 | 1 |\n|---:|---:|---:|\n| 0 | 0 | 1 |\n| 1 | 1 | 2 |\n"},
		{"positions a part a column", `wythoff(10, 10).p_positions().to_csv()`, "h1,h2\n0,0\n1,2\n2,1\n3,5\n4,7\n5,3\n7,4\n"},
		{"weights", `coins(r=2, n=4).weights().to_csv()`, "heads,P-positions\n0,1\n1,0\n2,0\n3,"},
		{"game values", "g = game(moves=lambda n: [n - 1] if n else [], start=3)\ng.values(3).to_csv()", "n,value\n0,0\n1,1\n2,0\n3,1\n"},
		{"row periods", `wythoff(12, 12).row_periods(3, 12).to_csv()`, "row,period,start\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t)
			v, _, err := evalValue(t, s, tc.cell)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(v, tc.want) {
				t.Errorf("got\n%s\nwant it to start with\n%s", v, tc.want)
			}
		})
	}
}

// TestExportFiles writes into the notebook's folder only, atomically, and
// refuses any path that leaves it, any other kind of file, before writing.
func TestExportFiles(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "away")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x.csv"), filepath.Join(dir, "link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "old.md"), []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cell, file, want string }{
		{`octal("0.07").values(2).to_csv("v.csv")`, "v.csv", "n,value\n0,0\n1,0\n2,1\n"},
		{`octal("0.07").values(1).to_markdown(path="out/v.md")`, "out/v.md", "| n | value |\n|---:|---:|\n| 0 | 0 |\n| 1 | 0 |\n"},
		{`octal("0.07").values(1).to_markdown("old.md")`, "old.md", "| n | value |"},
		{`octal("0.07").values(0).to_csv("` + filepath.Join(dir, "abs.csv") + `")`, "abs.csv", "n,value\n0,0\n"},
	} {
		got, _, err := run(t, s, tc.cell)
		if err != nil || got != "" {
			t.Errorf("%s: %q, %v; want None", tc.cell, got, err)
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil || !strings.HasPrefix(string(b), tc.want) {
			t.Errorf("%s wrote %q (%v), want %q", tc.cell, b, err, tc.want)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "old.md")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("old.md rewritten: %v %v, want its mode 0600 kept", fi, err)
	}
	for _, tc := range []struct{ cell, err string }{
		{`octal("0.07").values(2).to_csv("../x.csv")`, "outside the notebook's folder"},
		{`octal("0.07").values(2).to_csv("` + filepath.Join(outside, "x.csv") + `")`, "outside the notebook's folder"},
		{`octal("0.07").values(2).to_csv("away/x.csv")`, "outside the notebook's folder"},
		{`octal("0.07").values(2).to_csv("link.csv")`, "outside the notebook's folder"},
		{`octal("0.07").values(2).to_csv("nb.ipynb")`, "must end in .csv"},
		{`octal("0.07").values(2).to_markdown("v.csv")`, "must end in .md"},
		{`octal("0.07").values(2).to_csv("none/x.csv")`, "no such folder"},
		{`octal("0.07").values(2).to_csv(3)`, "path must be a file name"},
	} {
		if _, _, err := run(t, s, tc.cell); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error about %q", tc.cell, err, tc.err)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("files written outside: %v", ents)
	}
}

// evalValue runs cell, whose last line is an expression, and returns that
// expression's string value (printed).
func evalValue(t *testing.T, s *Session, cell string) (string, string, error) {
	t.Helper()
	lines := strings.Split(cell, "\n")
	last := len(lines) - 1
	lines[last] = "print(" + lines[last] + ")"
	_, out, err := run(t, s, strings.Join(lines, "\n"))
	return strings.TrimSuffix(out, "\n"), "", err
}
