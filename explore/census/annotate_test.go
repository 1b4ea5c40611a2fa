package census

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nimbook/nimbook/explore/survey"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// runSurvey runs a survey file into a fresh database.
func runSurvey(t *testing.T, src string) (*survey.Survey, *survey.Store) {
	t.Helper()
	s, err := survey.Parse("census.yaml", []byte(src), survey.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := survey.Create(filepath.Join(t.TempDir(), "census.db"), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p, err := survey.NewPlan(context.Background(), s, s.Variants, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := survey.Run(context.Background(), s, st, p, survey.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return s, st
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it); got:\n%s", name, got)
	}
}

// The census annotation in a survey's JSON and CSV reports: Kayles agrees,
// Dawson's Kayles (0.07) is 0.4 moved a heap, 0.6 is open as published,
// 0.16 needs more heaps, and 0.1234 is beyond the tables.
func TestAnnotationReports(t *testing.T) {
	s, st := runSurvey(t, `title: Census annotations
survey:
  octal: {codes: ["0.77", "0.07", "0.6", "0.16", "0.1234"], upto: 300}
show: [period, rare]
`)
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
		want  []string
	}{
		{"census.json", func(b *bytes.Buffer) error { return survey.WriteJSON(b, s, st) },
			[]string{`"annotations": {`, `"verdict": "agree"`, `"standard": "0.4"`, `"verdict": "beyond"`, `"verdict": "unlisted"`}},
		{"census.csv", func(b *bytes.Buffer) error { return survey.WriteCSV(b, s, st) },
			[]string{"census.verdict", "census.standard", "census.published.preperiod"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.write(&b); err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("no %q in %s", w, c.name)
				}
			}
			golden(t, c.name, b.Bytes())
		})
	}
}
