package main

import (
	"context"
	"io"
)

func runJob(ctx context.Context, args []string, stdout, stderr io.Writer) error { return errNotYet }
