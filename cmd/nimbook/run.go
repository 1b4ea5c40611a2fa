package main

import (
	"context"
	"fmt"
	"io"
)

// usageError is a command line the program cannot understand; it exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg + " (see nimbook help)" }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

const usage = `nimbook explores impartial combinatorial games.

Usage:
  nimbook run FILE [-o OUT] [--format md|html|json|ipynb|pdf] [--lang en|fr]
                   [--max-positions N] [--max-memory SIZE] [--quiet]
  nimbook eval [--json] 'CODE'
  nimbook nim add|mul|inv|sqrt|pow ARGS
  nimbook kernel install [--user] [--prefix DIR]
  nimbook kernel --connection-file FILE
  nimbook help
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usagef("no command given")
	}
	switch args[0] {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usagef("unknown command %q", args[0])
}
