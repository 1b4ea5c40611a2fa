// Command nimbook explores impartial combinatorial games: it runs job files
// and notebooks into reports, answers nimber questions, and serves as a
// Jupyter kernel. See README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "nimbook:", err)
	var u *usageError
	if errors.As(err, &u) {
		os.Exit(2)
	}
	os.Exit(1)
}
