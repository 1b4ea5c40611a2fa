package notebook_test

import (
	"context"
	"fmt"
	"os"

	_ "github.com/nimbook/nimbook/explore/chomp" // chomp(rows=...), a family of the registry
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/nbformat"
	"github.com/nimbook/nimbook/explore/notebook"
)

// printer is a kernel.Output writing to standard output.
type printer struct{}

func (printer) Stream(_, text string)              { fmt.Print(text) }
func (printer) Display(d *kernel.Display)          { fmt.Println(d.Data["text/plain"]) }
func (printer) Input(string, bool) (string, error) { return "", nil }

func ExampleSession_Execute() {
	s, err := notebook.New(notebook.Options{})
	if err != nil {
		panic(err)
	}
	cells := []string{
		`golay = coins(rule="at-most", r=7, n=24)`,
		`w = golay.weights()
print("octads:", w[8])
golay.steiner()`,
		`[coins(r=r).values(6) for r in range(1, 4)]`,
		`def take(n):
    return [n - s for s in (1, 2, 3) if s <= n]
g = game(moves=take, start=10)
(g.grundy(), (g + nim(5)).grundy((10, (5,))))`,
		`nimber(2) * 3`,
		`y + 1`,
	}
	for _, c := range cells {
		d, err := s.Execute(context.Background(), c, printer{})
		switch {
		case err != nil:
			fmt.Println(err)
		case d != nil:
			fmt.Println(d.Data["text/plain"])
		}
	}
	// Output:
	// octads: 759
	// steiner(holds=True, t=5, k=8, v=24, lambda=1)
	// [[1, 1, 1, 1, 1, 1], [1, 2, 3, 4, 5, 6], [1, 2, 4, 7, 8, 11]]
	// (2, 7)
	// *1
	// NameError: line 1: name y is not defined
}

func ExampleSession_Run() {
	nb, err := nbformat.ParseMarkdown([]byte("# Kayles\n\n```nimbook\noctal(\"0.77\").period(200).period\n```\n"))
	if err != nil {
		panic(err)
	}
	s, _ := notebook.New(notebook.Options{})
	if err := s.Run(context.Background(), nb, notebook.RunOptions{}); err != nil {
		panic(err)
	}
	fmt.Println(nb.Cells[1].Outputs[0].Data["text/plain"])
	// nb.WriteIPYNB(os.Stdout) writes the executed notebook.
	_ = os.Stdout
	// Output:
	// 12
}

// A Python-notebook user's habits: a result written as CSV and Markdown,
// dir() of the cell's names, a registered family's game.
func ExampleSession_Execute_habits() {
	s, err := notebook.New(notebook.Options{})
	if err != nil {
		panic(err)
	}
	cells := []string{
		`kayles = octal("0.77")
print(kayles.values(4).to_csv())`,
		`print(wythoff(3, 3).table().to_markdown())`,
		`dir()[:2]`,
		`g = chomp(rows=[3, 3, 2])
(g.value(), g.outcome(), g.moves())`,
	}
	for _, c := range cells {
		d, err := s.Execute(context.Background(), c, printer{})
		switch {
		case err != nil:
			fmt.Println(err)
		case d != nil:
			fmt.Println(d.Data["text/plain"])
		}
	}
	// Output:
	// n,value
	// 0,0
	// 1,1
	// 2,2
	// 3,3
	// 4,1
	//
	// | a \ b | 0 | 1 | 2 |
	// |---:|---:|---:|---:|
	// | 0 | 0 | 1 | 2 |
	// | 1 | 1 | 2 | 0 |
	// | 2 | 2 | 0 | 1 |
	//
	// ["kayles", "False"]
	// (1, "N", [(3, 1, 1)])
}
