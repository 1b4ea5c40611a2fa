// Package graph turns a small impartial game into an explicit game graph
// and draws it: one node per position reachable from a start position, one
// edge per move, each node with its label, Grundy value and P/N outcome.
//
// Conventions (see MATH.md, "Game graphs"): node IDs are the breadth-first
// order from the start (the start is 0), so they are stable for a
// deterministic move function; Edges are sorted by origin then destination.
// The P-positions are the kernel ("core") of the graph, as seed 003 draws
// it: no move joins two P-positions and every N-position has a move to one.
// Values come from the generic solver, github.com/nimbook/nimbook/explore/game,
// which also checks that the moves form no cycle.
//
// The graph is a gonum simple.DirectedGraph, and DOT output is written by
// gonum's dot.Marshal from node and edge attributes: P-positions are filled
// double circles, winning moves (to a P-position) are bold, and the graph's
// label is a legend. Labels and the graph's name are quoted whenever they
// are not plain identifiers or numbers, so that any label (quotes, "<…>",
// line breaks) reads back as itself. The same graph always gives the same
// bytes.
//
// Build refuses a game with more positions than its budget, with an error
// naming the limit, before any graph is built.
package graph
