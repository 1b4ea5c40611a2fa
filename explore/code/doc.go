// Package code studies the P-positions of a coin-turning game as a binary
// linear code: weight distributions, minimum distance, the design formed
// by the minimum-weight words, and the permutation automorphism group.
//
// # Conventions
//
// The input is the value v_i of a single head on each coin (computed by
// explore/coins; see MATH.md, "Coin-turning games"). A row of n ≤ 64
// coins is a uint64 bit mask whose bit i is the coin values[i], counted
// from 0 whatever numbering the game uses; callers add their first coin
// number. The Grundy value of a row is the XOR of the values of its heads,
// so the P-positions (value 0) form the kernel of a GF(2)-linear map: a
// linear code of length n and dimension k = n − rank, with 2^k words. For
// "turn at most r coins" this is the lexicode of minimum distance r + 1:
// Hamming [7,4] for r = 2 on 7 coins, extended Hamming [8,4] for r = 3 on
// 8, and the extended Golay code for r = 7 on 24 (seed 000).
//
// Every analysis names the method that ran, and every walk whose size is
// known beforehand is checked against a Limits value first; the error
// wraps ErrLimit and names the limit.
//
// # Distributions
//
// Enumerate visits all 2^n rows in Gray-code order, so each step turns one
// coin and costs one XOR; the Gray range is cut into contiguous pieces,
// one goroutine per CPU, whose (weight, value) tallies are summed in a
// fixed order. LinearAlgebra finds a basis of the code by Gaussian
// elimination of the n values (each value carries the set of coins it is
// the XOR of, so a value reducing to 0 yields a codeword), walks the 2^k
// codewords in Gray order over the basis for the weights, and fills the
// (weight, value) table by a dynamic programme adding one coin at a time,
// O(n²·2^rank). Values are stored as coordinates over a reduced echelon
// basis of their span, which keeps the table at 2^rank columns and sorts
// them as the values sort. Distribution chooses enumeration while 2^n is
// within the limits.
//
// # Designs
//
// Design lists the minimum-weight words (from the 2^k codewords, or from
// coin subsets of growing size when 2^k is too large) and finds the
// largest t for which every t-subset of the coins lies in the same number
// λ ≥ 1 of them, trying t from the block size down, after the counting
// condition b·C(k,t) = λ·C(n,t).
//
// # Automorphisms
//
// The group order is computed, never looked up, along the stabiliser
// chain of the base 0, 1, …, n−1: |Aut| = ∏ |orbit of i under the
// permutations fixing 0..i−1|. Levels are handled from the last to the
// first, so every automorphism already found fixes the points of the
// current level's prefix and its orbits can be merged for free: for each
// point g not yet known to be in the orbit of i (or known not to be), a
// backtracking search decides whether some automorphism fixes 0..i−1 and
// maps i to g. A success adds a generator; a failure rules out the whole
// known orbit of g.
//
// The search individualises and refines. The structure refined is the
// incidence of coins with invariant words: whole weight classes of the
// lightest nonzero words of the code and of its dual (Aut of a code is Aut
// of its dual, and a permutation keeps weights), taken until they span and
// number at least 2n. Source and target colourings are refined side by
// side by the same label-free rule (a block's colour hashes the multiset of
// its points' colours, a point's hashes the multiset of its blocks'
// colours), so any automorphism consistent with the choices made maps each
// source colour class onto the target class of that colour; the branch is
// cut as soon as the class sizes differ. When every class is a single
// point the permutation is read off and kept only if it maps each basis
// word into the code. The invariant words only prune: correctness rests on
// that final check and on the search being exhaustive. For the Golay code
// the 759 octads make the group M24 (order 244 823 040) a matter of a few
// hundred search nodes.
package code
