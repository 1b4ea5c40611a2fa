package census_test

import (
	"fmt"

	"github.com/nimbook/nimbook/explore/census"
	"github.com/nimbook/nimbook/explore/job"
)

// Kayles (0.77) proven periodic from its values up to 167: preperiod 71,
// period 12, as published.
func ExampleCompare() {
	row, err := census.Compare("0.77", 1000, &job.Period{Proven: true, Preperiod: 71, Period: 12, CheckedTo: 167})
	if err != nil {
		panic(err)
	}
	fmt.Println(row.Standard, row.Verdict, row.Published.Sources)
	// 0.16 to 2^17 − 1: its published period (149 459 from 105 351) needs
	// more heaps.
	row, _ = census.Compare("0.16", 131071, &job.Period{CheckedTo: 131071})
	fmt.Println(row.Verdict, row.Published.Needs, row.Published.SolvedBy.Who, row.Published.SolvedBy.Year)
	// Output:
	// 0.77 agree [czajka-trivial]
	// beyond 509621 Anil Gangolli, Thane Plambeck 1989
}
