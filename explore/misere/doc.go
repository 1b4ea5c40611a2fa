// Package misere computes misère quotients of heap games (Plambeck and
// Siegel, "Misère quotients for impartial games", J. Combin. Theory A 115,
// 2008) and, through a quotient, the misère outcome and winning moves of
// positions of many heaps at once. It also gives the genus of heaps
// (genus.go).
//
// Conventions:
//
//   - Misère play: the player who makes the last move loses. A position
//     is a list of heaps; it is a P-position (the previous player wins)
//     when it has a move and every move leads to an N-position, so the
//     empty position is an N-position.
//   - The quotient Q_h of a game over the heaps 1..h is the set of
//     classes of positions of those heaps, two positions being in one
//     class when adding any position of those heaps to either gives the
//     same outcome; adding positions multiplies classes, so Q_h is a
//     finite commutative monoid (when it is finite), with its P-portion,
//     the classes of P-positions. Pretending[n] is the class of a heap of
//     n (the pretending function).
//   - Elements are written as normal-form words in the generators: a
//     generator is a heap whose class the earlier generators do not
//     generate, named a, b, c, … in heap order; the normal form of an
//     element is its least word, by length then lexicographically ("a b^2"
//     is a·b·b; "1" is the identity). Elements are numbered in that order,
//     so index 0 is the identity. Relations are the least words that are
//     not normal forms, each with its normal form: together they present
//     the monoid.
//   - Parity: the parity of the normal-play value of the positions of an
//     element (a homomorphism to Z/2, the same for every position of the
//     element; the tests check it on the computed quotients).
//   - Tame: the quotient is one of Plambeck and Siegel's T_k, the
//     quotients of misère Nim (T_1 of order 2 for heaps of 1, T_k of order
//     2^k + 2 for heaps below 2^k).
//
// Method. NewQuotient works heap by heap, as Plambeck and Siegel
// describe. For heap n, all of whose options are positions of smaller
// heaps with known elements, it tries in turn:
//
//  1. to map n onto an element x of Q_(n-1): each x that gives the right
//     outcome of n plus a few small positions is put to the proof below;
//  2. to recalibrate one candidate, as Siegel's MisereSolver does (recal.go).
//     A candidate is a presentation: the submonoid of the last candidate
//     that some heaps generate (at first all of Q_(n-1)), plus a free
//     generator z with z^(i+2) = z^i for each other heap (at first n
//     alone, with i = 2). Its P-portion is worked out element by element
//     from the options of the element's least position (by size, more
//     heaps first among equal sizes, so that options come first), and it
//     is reduced by indistinguishability. The proof below proves it or
//     gives a least wrong position X, by size (its options are smaller and
//     right, so X itself is wrong; for codes whose moves may keep the size,
//     the game tree finds the wrong one among X and its options). The next
//     candidate frees heaps of X from the relations the last one gave
//     them, the fewest first and the smaller heaps first, with i the
//     larger of the index of the heap's old element and its copies in X
//     less one, and is kept when it gets X right; then it is put to the
//     proof in turn. The candidates stay single: one at a time, changed
//     only where a wrong position shows it;
//  3. should no freeing put X right (or the candidates pass 2^17 elements
//     before reduction, 2048 after, or 2000 for one heap), to adjoin a
//     generator z for n with z^(p+1) = z^(p-1), p = 1..4, over Q_(n-1)
//     and over deeper types of positions (the pairs (x, S) below, reduced
//     to what the pair search sees, then the pairs of those, up to depth
//     4 and 4096 elements), the P-portion of the elements (y, j) of y and
//     j heaps of n worked out for the least position of y plus j heaps of
//     n from its options, the monoid reduced and put to the proof, again
//     over the old heaps' part of the best refuted candidate;
//  4. and last to learn Q_n as the least automaton that reads a position
//     heap by heap and accepts the P-positions (for a commutative monoid
//     the syntactic congruence is that automaton's), as Angluin's L*
//     learns an automaton: positions as access words and tests, exact
//     outcomes from the game tree (through Q_(n-1) for positions without
//     a heap of n, and through the best refuted candidate below the size
//     where it was proven right), Rivest and Schapire's handling of
//     counterexamples, and a check that the heaps commute.
//
// Recalibration comes before adjoining because it was as fast or faster
// on every game measured (0.75, 0.77, 0.07, 0.137, 0.31, 4.7, 0.15, 0.51,
// Nim) and reaches quotients the others do not; on the tests' games it
// never gives up, so steps 3 and 4 are fallbacks. It differs from
// MisereSolver in details: wrong positions are least by size, not
// lexicographically, least positions likewise, and the free generators
// have period 2 whatever their index.
//
// What guarantees the result. Every hypothesis (a finite commutative
// monoid with a P-portion and the elements of the heaps) is proven or
// refuted by a finite search: give a position X the pair (x, S), x its
// element and S the elements of its options; adding a heap h gives
// (x·h, S·h ∪ x·O(h)), O(h) the elements of h's options, so the pairs of
// all positions are the states reachable from (1, ∅). When every reachable
// pair has x in the P-portion exactly when S is not empty and misses it,
// induction over positions (options before positions) proves every
// predicted outcome right. The hypothesis is then the quotient: its
// elements are told apart by tests (so none may be merged) and every
// element is the class of its access position. When the check fails, the
// search (Dijkstra's, a heap of n weighing n) gives a least position whose
// pair fails; a wrong prediction is there or at one of its options, and
// the hypothesis is also proven right on every smaller position, which
// the learner then uses in place of the game tree.
//
// Periods. For an octal or hexadecimal code with last non-zero digit t
// whose moves leave at most r heaps, if the quotient of the heaps 1..N
// has Pretending[m] = Pretending[m-p] for n0+p <= m <= N with n0 >= 1,
// N+1 >= r(n0+p)+t and N+1-p > t, then the same holds for every m > N and
// Q_N is the quotient of the whole game: by induction on m, the largest
// part left by a move from m is at least (m-t)/r >= n0+p, so shortening it
// by p maps the options of m onto those of m-p with the same elements
// (and back), the pair search above sees the same transitions for m as
// for m-p, and no new state appears (the argument of Guy and Smith for
// normal-play values). NewQuotient stops there and fills Pretending
// through the period; Outcome then takes heaps of any size. For other
// games, or before a period is proven, the quotient holds for the heaps
// up to Heaps, and Element names a larger heap in its error.
//
// Cost. Steps 1 to 3 use no game tree beyond a few small positions (and
// the wrong position's options for codes whose moves may keep the size);
// step 4 asks the game tree for outcomes of positions containing the new
// heap, which grows quickly with their size. Most of the time goes to the
// proofs (pair searches). Measured on a shared 2-core machine, nearly
// idle (benchmarks, CPU time): Dawson's Kayles 0.07 to heap 24 (order 24)
// in about 14 ms; then heap 25 takes 18 refuted candidates (up to 656
// elements) before one of order 144 is proven, heap 27 takes 10 (order
// 176) and heap 30 takes 13 (order 360, as Siegel found with
// MisereSolver; its proof searches 15,660 pairs), so that Q_30 of 0.07
// comes in about 2.3 s (4.4 s wall under a load of 14, 32 MiB resident),
// through orders 24, 144, 144, 176, 176, 176, 360 at heaps 24 to 30.
// Past it, Q_31, Q_32 and Q_33 have orders 520, 552 and 638 (about 19 s
// of CPU time to heap 33, most of it at heap 33, 170 MiB resident); the
// candidates for heap 34 pass 2000 elements and are not proven within
// minutes, so a job that asks for the quotient of 0.07 over 64 heaps
// works until a limit stops it. The quotient of 0.75, proven at heap 21,
// comes in 0.7 ms; 0.137 to heap 30 (order 520) in about 3.5 s, 4.7 to
// heap 20 (order 122) in 1.5 s. Some codes' candidates outgrow what is
// practical: those of 0.06 pass 2000 elements at heap 17 and those of
// 0.14 3000 at heap 22, and a minute does not see them proven.
// EstimateQuotient is an estimate only; NewQuotient also counts its steps
// against Limits.MaxSteps, the tables of its candidates and proofs against
// Limits.MaxMemory, and honours the context.
package misere
