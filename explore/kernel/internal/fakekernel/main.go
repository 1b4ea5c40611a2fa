// Command fakekernel is a Jupyter kernel running the toy fakeexec language,
// started like nimbook: `fakekernel kernel --connection-file FILE`. The
// kernel's end-to-end tests build it and drive it with the real Jupyter client.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/kernel/internal/fakeexec"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "kernel" {
		fmt.Fprint(os.Stderr, "usage: fakekernel kernel ...\n")
		os.Exit(2)
	}
	newExec := func() (kernel.Executor, error) { return &fakeexec.Executor{}, nil }
	if err := kernel.Main(context.Background(), os.Args[2:], newExec, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
