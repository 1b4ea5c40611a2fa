package reports_test

import (
	"context"
	"os"
	"path/filepath"

	"github.com/nimbook/nimbook/explore/survey"
	"github.com/nimbook/nimbook/reports"
)

// The subtraction games take 1 or 2, take 1 or 3 and take 1, 2 or 3 (seed
// 002: g(n) = n mod 4 for the last), run into a database and reported.
func ExampleSurveyMarkdown() {
	src := `title: Three subtraction games
survey:
  subtraction: {set: [[1, 2], [1, 3], [1, 2, 3]], upto: 30}
show: [period]
`
	s, err := survey.Parse("three.yaml", []byte(src), survey.Options{})
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "survey")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	st, err := survey.Create(filepath.Join(dir, "three.db"), s)
	if err != nil {
		panic(err)
	}
	defer st.Close()
	plan, err := survey.NewPlan(context.Background(), s, s.Variants, 1)
	if err != nil {
		panic(err)
	}
	if _, err := survey.Run(context.Background(), s, st, plan, survey.RunOptions{}); err != nil {
		panic(err)
	}
	rows, err := st.Rows()
	if err != nil {
		panic(err)
	}
	if err := reports.SurveyMarkdown(os.Stdout, survey.NewReport(s, rows, ""), reports.Options{}); err != nil {
		panic(err)
	}
	// Output:
	// # Three subtraction games
	//
	// ## Overview
	//
	// 3 variants of subtraction games, one for each set; all with upto = 30. Analyses: period.
	//
	// All 3 variants are computed.
	//
	// ### Notable variants
	//
	// - Period proven for 3 of 3 variants.
	// - Longest period: 4, of [1,2,3].
	//
	// ## Figures
	//
	// *Figures are drawn in the HTML and PDF forms.*
	//
	// ## Variants
	//
	// *One row per variant, in survey order; # is its index, as in the CSV form and --shard.*
	//
	// | #   | set     | preperiod | period | proven | checked to |
	// | :-- | :------ | --------: | -----: | :----- | ---------: |
	// | 0   | [1,2]   |         0 |      3 | ✓      |          4 |
	// | 1   | [1,3]   |         0 |      2 | ✓      |          4 |
	// | 2   | [1,2,3] |         0 |      4 | ✓      |          6 |
	//
	// *✓: period proven; ✗: no period proven up to the n of “checked to”.*
}
