package main

import (
	"fmt"
	"io"

	"github.com/nimbook/nimbook/explore/cellgame"
)

// printMemoFiles says, after a run, what each memo file the run kept
// (node-kayles: {…, memo: FILE}) holds and how many entries other
// processes sharing it gave this one (the tasks of a Slurm array).
func printMemoFiles(stderr io.Writer) {
	for _, st := range cellgame.MemoFiles() {
		fmt.Fprintf(stderr, "nimbook: %s\n", sanitizeLine(st.String()))
	}
}
