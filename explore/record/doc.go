// Package record analyses game records: a played sequence of positions of
// an impartial game, positions[0] → positions[1] → …, player 1 moving first
// and the players alternating.
//
// For each move it says whether the move is legal (one of the options the
// move function lists), the Grundy values and P/N outcomes before and after
// it, and whether it was a mistake: a move to an N-position when a move to a
// P-position existed, in which case every winning move that was missed is
// listed in the move function's order. A move from a P-position is never a
// mistake, since every move from there loses against perfect play. At the
// end it says who won, if the last position is terminal.
//
// Outcomes follow the play of Options (normal or misère; see MATH.md,
// "Impartial games"); Grundy values are always the normal-play values.
// Values come from the generic solver, github.com/nimbook/nimbook/explore/game.
//
// An illegal move is a finding, not an error: it is the last analysed move
// and Analysis.Illegal gives its index, since later positions do not come
// from this game. Results are plain structs for a report to render; their
// String methods give a short text summary.
package record
