// Package game is the generic solver of nimbook: it computes Grundy values,
// outcomes, P-positions and winning moves of any finite impartial game given
// by a move function over comparable positions.
//
// Conventions (see MATH.md): a terminal position has Grundy value 0; the
// Grundy value of a position is the mex of the values of its options; a
// P-position is one where the previous player wins. Under normal play that
// is g = 0; under misère play (the last player to move loses) a terminal
// position is an N-position and outcomes are computed on the whole game
// graph, never from nim-sums.
//
// The solver is iterative (a long chain of moves does not exhaust the Go
// stack), memoises every position it meets, refuses to visit more positions
// than its budget, reports a cycle in the move function as an error that
// shows the cycle, and stops when its context is cancelled.
//
// Every fast formula elsewhere in nimbook (nim-sums, octal sequences, coin
// values, nim-products, Wythoff tables) is tested against this solver.
package game
