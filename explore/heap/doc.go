// Package heap computes heap games: Nim (normal, misère, at most k taken
// per move), subtraction games (a finite set S, or "all-but" S), octal
// and hexadecimal games such as Kayles 0.77 and Dawson's Kayles 0.07, and
// Grundy's game (split a heap into two unequal heaps).
//
// One job: value sequences g(0..upto) of a single heap, fast; periods of
// those sequences with a certificate; their split into rare and common
// values (sparse space); and the outcome and winning moves of positions of
// several heaps.
//
// Conventions (MATH.md "Heap games", SPEC.md):
//
//   - A Game gives the Options of one heap: the lists of non-empty heaps it
//     may become, smaller first. A position is a list of heaps; a move
//     leaves the other heaps in place, writes 0 for an emptied heap and
//     replaces a split heap in place by its parts, smaller first. Lists of
//     positions are sorted lexicographically.
//   - Codes: d0.d1d2…, digit d_k says what taking k tokens may leave:
//     +1 no heap, +2 one heap, +4 two heaps, +8 (hexadecimal) three heaps,
//     all non-empty. d0 is 0 or 4 (0, 4, 8 or c in hexadecimal). ".07" and
//     "0.07" are the same code; "4." is "4.0". A finite subtraction set S
//     is the octal code with digit 3 at each s ∈ S (Subtraction.Octal).
//   - Values are normal-play Grundy values. Under normal play a position
//     is worth the nim-sum of its heaps. Misère Nim and misère bounded Nim
//     use the known rule (seed 004): as normal play unless every heap's
//     remainder is ≤ 1, and then P exactly when the remainders' nim-sum is
//     1. Misère play of every other game is solved on the whole position by
//     the generic solver (package game) over Multiset positions.
//   - Grundy's game (GrundysGame, rule "grundy") is 4. without the splits
//     into equal parts: OEIS A002188. No theorem proves a period of it
//     from finitely many values (MethodGrundy).
//   - Period returns a Certificate in SPEC's sense: the least preperiod n0
//     and least period p, proven from the values, and the largest heap
//     size the proof used. The windows: n0 ≤ n < n0 + max S for a
//     subtraction set; the Guy–Smith bound n0 ≤ n < 2n0 + p + t for octal
//     codes (t = the last non-zero digit), so Kayles gives n0 = 71, p = 12,
//     checked to 167; n0 ≤ n < 3n0 + 2p + t for codes that split a heap
//     into three, by the same argument with thirds (the largest of three
//     parts of N + p − k is ≥ (N + p − k)/3); n0 is raised to 1 in these
//     bounds when it is 0, so that a shortened part stays non-empty. Nim,
//     all-but games and Grundy's game are never reported periodic (g(n) =
//     n; all-but games are arithmetic-periodic; Grundy's game has no
//     window), nor games of other packages. Its search costs O(upto)
//     whatever the values (a Z-function), proven or not.
//   - PeriodValues computes the values in doubling stages 2^12 − 1,
//     2^13 − 1, … and stops at the first whose values prove a period, for
//     sections that show a period alone; a code's stages go on from each
//     other, so that they cost one sweep to the last (Sweep.Stages,
//     Resumed, Steps and PeriodSteps count the work; tests pin it).
//   - Rare and common values (Winning Ways ch. 4, "Sparse space spells
//     speed"; A. Flammenkamp's tables of octal games): for a mask b, a
//     value is rare when it has an even number of ones outside b, common
//     otherwise (range type); for a code with exactly one split digit d_t
//     (or Grundy's game, t = 0: SingleSplitter), position n is in the
//     sparse set when that parity equals the parity of n − t (domain
//     type). FindSparseSpace tries every b below 2^k, k the bit length of
//     the largest value (at most MaxSparseBits), and keeps the split with
//     the fewest rare positions.
//
// Standard forms (standard.go): many codes are one game, some on heaps
// one smaller. Octal.Standard names the code T. Czajka's lookup tables
// list for a code of at most three digits and the shift between their
// values, by the tables' own rules (a heap of 1 that no move takes is no
// heap; moves that change no mex may be added; codes proven periodic from
// 1000 values with equal values are one game); the tests check every such
// code against the published tables and by its values.
//
// Work is bounded by Limits: heap sizes and positions by MaxPositions
// (the job layer's --max-positions), value sweeps by MaxSteps and
// MaxMemory; Estimate says which sweep Values will use and what it needs,
// and Values refuses work over a limit before it starts, naming the limit.
// Splitting codes cost about upto²/4 steps with the bit-set sweep (sets):
// the values of all two-way splits of m are kept as a bit set per m and
// shared by every digit. Past heap 16384, a code that splits into two heaps is
// tried with the sparse-space sweep: the values up to 4096 choose the
// split into rare and common values, the sweep runs on to 16384, and its
// steps per heap there, times the heaps left, are its estimate; it is
// used when that is below the bit-set sweep's. It costs about (rare
// positions + a few thousand) steps a heap, is exact under any split,
// chooses the split again as the heap size doubles, scans a split digit
// whole when its rare parts are half its splits, and stops as soon as its
// cost, projected as it goes, would pass the step limit. Officers (0.6) has
// 1584 rare positions up to 2^21, the last at 20627, so its sweep to 2^20
// takes a few seconds; 0.376 (period 4, last exception 2268247) and 0.354
// (period 1180 from 10061916) are proven from their values in one call.
//
// Codes whose rare values are not rare (issue 20: 0.76, 0.164, 0.244, a
// third of the heaps rare under every split) make the sparse-space sweep
// quadratic, with more steps than every split. Its trial is therefore
// compared with two other sweeps, and its projection as it goes too: the
// dense sweep (dense.go), every split of each heap once, its values kept
// as a bit set and shared by the split digits, about upto²/4 steps, on
// two cores past heap 2048 (densepair.go: a helper computes the splits
// with a large part, which need old values only, ahead of the sweep); and
// for codes whose values stay below 64 (Dawson's Kayles and its kin,
// periodic but with many rare heaps), the bitset sweep (bitset.go), a bit
// set of heaps per value, so that one AND of two words tests 64 splits.
// When the rare positions keep coming, the sparse-space sweep's cost is
// projected as growing (a power of the heap, from its last two measures)
// and it hands over to the dense sweep as soon as that is cheaper.
// ValuesSweep says which sweep ran (Sweep.Algorithm).
//
// Grundy's game is swept the same way: every split up to 16384, then the
// sparse-space sweep (the range type, the last bit ignored: 1274 rare
// positions up to 2^21, none after 82 860). Its sweeps are the longest
// asked for, so they run on two cores (sparsepair.go): heap j needs heap
// j − 1 for one option only, so one worker prepares heap j while the
// other finishes j − 1; steps are counted as on one core. Its values to
// 2^24 (7.5·10¹⁰ steps) take 35 to 45 s on two cores, 51 s on one.
//
// Codes with a single split digit (Officers) run the sparse-space sweep
// with a look-ahead helper (sparselook.go) past heap 4096: the helper
// does, for the heaps just ahead of the sweep, the part of each that the
// values already known decide (every split but the first few, whose
// larger part is not known yet), and the sweep finishes those heaps in a
// fraction of the time, or computes a heap alone when the helper has not
// done it: it never waits for the helper, so a busy machine costs it
// only the helper's share. Steps are counted as on one core.
//
// Where the processor has AVX-512 with VBMI, the scans of the sweep (one
// or two split digits) and of the helper for the rare values still
// missing below C run on the vector unit (scanset_amd64.s): 32 splits a
// turn, the values looked for held as one 512-bit register, when every
// value is below 512 and the last heaps' scans went deep enough to pay.
// They find the same values at the same splits as the Go loops, which run
// everywhere else, so values and step counts do not depend on the
// machine.
//
// Each rule lives in its own file (nim.go, subtraction.go, code.go,
// grundy.go): its registration (Register) and what only it knows, found by
// type assertion. Exported capabilities: Explainer (the rule said to a
// player), Splitter (what taking k may leave, as a digit), SingleSplitter
// (the one split digit, for domain-type sparse spaces), PPositioner and
// PositionSolver. Unexported ones: the cost of Values (estimate), the
// window of a period proof (window), the options counted without listing
// them (optionCount) and values by formula (value). A game of another
// package (a rule written in Starlark) has none: its values come from its
// Options by MexValues, costed at a step a heap (SweepOptions), and it is
// never proven periodic.
//
// Every fast algorithm is tested against the generic solver of package
// game on all small positions.
package heap
