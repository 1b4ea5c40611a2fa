package reports_test

import (
	"fmt"
	"os"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/reports"
)

func ExampleMarkdown() {
	// A heap game is a registered rule and its parameters, as a job file
	// gives them (job.Parse builds the same).
	rule, _ := heap.Lookup("subtraction")
	sp := &job.Section{Title: "Take 1, 2 or 3", Family: rule.Name, Play: "normal",
		Game: &job.HeapSpec{Rule: rule, Params: heap.Params{"set": []int{1, 2, 3}, "upto": 11}}, Show: []string{"values", "period"}}
	r := &job.Report{Title: "Subtraction games", Sections: []*job.SectionResult{{
		Title: sp.Title, Spec: sp,
		Results: job.Results{
			// seed 002 (Badin de Montjoye): g(n) = n mod 4.
			Values: []uint64{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
			Period: &job.Period{Proven: true, Preperiod: 0, Period: 4, CheckedTo: 6, Method: "a repeated window of max(S) values"},
		},
	}}}
	if err := reports.Markdown(os.Stdout, r, reports.Options{}); err != nil {
		panic(err)
	}
	// Output:
	// # Subtraction games
	//
	// ## Take 1, 2 or 3
	//
	// Game: subtraction game (take s ∈ {1, 2, 3} from one heap); normal play (whoever cannot move loses).
	//
	// ### Grundy values
	//
	// Grundy value g(n) of a single heap of n, for n = 0 to 11.
	//
	// | n      |    +0 |  +1 |  +2 |  +3 |    +4 |  +5 |  +6 |  +7 |    +8 |  +9 |
	// | :----- | ----: | --: | --: | --: | ----: | --: | --: | --: | ----: | --: |
	// | 0..9   | **0** |   1 |   2 |   3 | **0** |   1 |   2 |   3 | **0** |   1 |
	// | 10..11 |     2 |   3 |     |     |       |     |     |     |       |     |
	//
	// *Values 0 (P-positions) are in bold.*
	//
	// Matches OEIS A010873 (n mod 4) for n = 0 to 11.
	//
	// ### Period
	//
	// Periodic with period 4 from n = 0 (no exception); proved by a repeated window of max(S) values using values up to 6.
	//
	// One period, from n = 0: 0 1 2 3.
}

func ExampleJSON() {
	nim, _ := heap.Lookup("nim")
	game := &job.Section{Family: nim.Name, Game: &job.HeapSpec{Rule: nim, Params: heap.Params{"heaps": []int{1, 3, 5, 5}, "upto": 20}}, Play: "normal", Show: []string{"outcome", "moves"}}
	r := &job.Report{Title: "Nim", Sections: []*job.SectionResult{{
		Title:   "(1, 3, 5, 5)",
		Spec:    game,
		Results: job.Results{Outcome: "N", Moves: [][]int{{1, 1, 5, 5}}},
	}}}
	if err := reports.JSON(os.Stdout, r); err != nil {
		panic(err)
	}
	// Output:
	// {
	//   "format": "nimbook/1",
	//   "title": "Nim",
	//   "sections": [
	//     {
	//       "title": "(1, 3, 5, 5)",
	//       "game": {
	//         "nim": {
	//           "heaps": [
	//             1,
	//             3,
	//             5,
	//             5
	//           ],
	//           "upto": 20
	//         }
	//       },
	//       "results": {
	//         "outcome": "N",
	//         "moves": [
	//           [
	//             1,
	//             1,
	//             5,
	//             5
	//           ]
	//         ]
	//       }
	//     }
	//   ]
	// }
}

func ExampleBundler_LaTeX() {
	// A notebook result's .latex(): its table for a paper, with booktabs
	// rules (\usepackage{booktabs}); P-positions in bold.
	rule, _ := heap.Lookup("subtraction")
	sp := &job.Section{Family: rule.Name, Play: "normal",
		Game: &job.HeapSpec{Rule: rule, Params: heap.Params{"set": []int{1, 2, 3}, "upto": 11}}, Show: []string{"values"}}
	sr := &job.SectionResult{Spec: sp, Results: job.Results{Values: []uint64{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}}}
	tex, err := reports.Bundler{}.LaTeX(sr)
	if err != nil {
		panic(err)
	}
	fmt.Print(tex)
	// Output:
	// {\small\setlength{\tabcolsep}{5pt}
	// \begin{tabular}{lrrrrrrrrrr}
	// \toprule
	// \(n\) & +0 & +1 & +2 & +3 & +4 & +5 & +6 & +7 & +8 & +9 \\
	// \midrule
	// 0--9 & \textbf{0} & 1 & 2 & 3 & \textbf{0} & 1 & 2 & 3 & \textbf{0} & 1 \\
	// 10--11 & 2 & 3 &  &  &  &  &  &  &  &  \\
	// \bottomrule
	// \end{tabular}}
}
