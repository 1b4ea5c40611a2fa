// Package starrule is the heap rule written in Starlark: a job file's
//
//	game: {rule: {file: rules.star, name: squares, params: {k: 3}, upto: 500}}
//
// where rules.star defines def squares(n, k): ..., which returns the options
// of one heap of n as a list of lists, each the heaps that replace it ([]
// when the heap is removed). Zeros are dropped, the parts of an option may
// come in any order, and each must be smaller than n, so that every game
// ends; Options sorts them, smaller first, and drops repeated options.
//
// Importing the package registers the rule "rule" with package heap (as a
// database/sql driver registers itself): its Check loads the file and
// checks the function's parameters before any work starts, so that a
// broken rule file is a job-file error naming the .star file and its line.
// Load does the same for a caller of its own, and FromCallable makes the
// game of a Starlark function already defined, such as one of a notebook
// cell.
//
// The function runs in the sandbox of notebook cells (package sandbox):
// the same dialect, guarded operators and built-ins, step budget, memory
// watchdog and cancellation. Game.Values computes the Grundy values by the
// mex of each heap's options, an option being worth the nim-sum of its
// heaps, with the function's steps and the options examined counted
// against heap.Limits.MaxSteps. Errors name the function, the heap, and
// the file and line at fault. print in a rule file writes to standard
// error, for debugging.
//
// Every Starlark file nimbook reads goes through ReadSource: a regular
// .star file of at most a MiB (a device, a FIFO, a folder or a file of
// another kind is refused at once, naming it, so that no error quotes
// another file's content), and for a notebook's cells one in the
// notebook's folder or below, links resolved. A file run is protected
// from the process's outputs (atomicfile.Protect). An analysis that lists
// options through heap.Game (a misère genus, quotient or outcome) takes
// the game Within its context and limits: one thread, its steps shared
// by the calls (CallSteps at most each), its memory limit the process's,
// and the rule's first error stops the analysis.
package starrule
