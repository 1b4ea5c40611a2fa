// Package misere computes misère quotients of heap games (Plambeck and
// Siegel, "Misère quotients for impartial games", J. Combin. Theory A 115,
// 2008) and, through a quotient, the misère outcome and winning moves of
// positions of many heaps at once.
package misere
