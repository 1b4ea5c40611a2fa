package main

import (
	"fmt"
	"io"

	"github.com/nimbook/nimbook/explore/cellgame"
)

// memoFiles returns what prints, after a command, what each memo file
// it kept (node-kayles: {…, memo: FILE}) holds and how many entries
// other processes sharing it gave (the tasks of a Slurm array): the
// counters since now, so that a command run in a process that ran others
// (the tests) says its own.
func memoFiles() (print func(stderr io.Writer)) {
	before := map[string]cellgame.KeptStats{}
	for _, st := range cellgame.MemoFiles() {
		before[st.File] = st
	}
	return func(stderr io.Writer) {
		for _, st := range cellgame.MemoFiles() {
			b, seen := before[st.File]
			st.Loaded -= b.Loaded
			st.Taken -= b.Taken
			st.Skipped -= b.Skipped
			st.Solved -= b.Solved
			st.Saves -= b.Saves
			if seen && st.Loaded == 0 && st.Saves == 0 {
				continue // not used by this command
			}
			fmt.Fprintf(stderr, "nimbook: %s\n", sanitizeLine(st.String()))
		}
	}
}
