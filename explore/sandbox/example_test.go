package sandbox_test

import (
	"context"
	"fmt"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/sandbox"
)

// A file of Starlark run under a step budget: its function is then called
// like any Starlark callable, within the same budget.
func ExampleExecFile() {
	src := `
def squares(n):
    return [n - k * k for k in range(1, n + 1) if k * k <= n]

def forever(n):
    while True:
        n += 1
`
	th, stop := sandbox.NewThread(context.Background(), "rules", sandbox.Limits{MaxSteps: 100_000, MaxMemory: 1 << 30})
	defer stop()
	g, err := sandbox.ExecFile(th, "rules.star", src, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := sandbox.Call(th, g["squares"], starlark.Tuple{starlark.MakeInt(10)}, nil)
	fmt.Println(v, err)
	_, err = sandbox.Call(th, g["forever"], starlark.Tuple{starlark.MakeInt(0)}, nil)
	fmt.Println(err)
	// Output:
	// [9, 6, 1] <nil>
	// rules.star:6: ran past the budget of 100000 steps (a loop that never ends?)
}
