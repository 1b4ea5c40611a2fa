package main

import "io"

func runNim(args []string, stdout io.Writer) error { return errNotYet }
