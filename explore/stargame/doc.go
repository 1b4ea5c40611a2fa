// Package stargame is the family of games written in Starlark: a job
// file's
//
//	game: {starlark: {file: grids.star, name: node_kayles, params: {rows: 3, cols: 5}}}
//
// where grids.star defines def node_kayles(rows, cols), which returns a
// game made by the built-in game(moves=f, start=p, components=None,
// canonical=None, name=None, show=None, play="normal"): the notebook's own
// built-in, so that one file works in job files, rule files, play and
// notebook cells alike (one dialect). Predeclared gives it to every file
// nimbook runs.
//
// Positions are Starlark values that JSON can hold: ints, strings, and
// tuples or lists of them (lists are read as tuples, so that they can be
// keys). A position's key is its repr. components(p), when given, lists
// the independent parts whose sum p is; canonical(p) one representative of
// p's symmetry class; show(p) the text that play and reports print.
//
// Importing the package registers the family "starlark" (package family).
// Its Check loads the file, calls the function and checks what it returns
// within a step budget, so that a broken file, a function that fails or
// loops, or a start JSON cannot hold is a job-file error naming the .star
// file and its line before any work starts. Every function of the game
// then runs on one sandboxed thread whose step budget is the run's
// (--max-steps, limits.steps).
package stargame
