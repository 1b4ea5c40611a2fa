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
// # Parts and symmetries
//
// A Mover may have two optional capabilities, found by type assertion (as
// gonum/plot finds a plotter's optional interfaces):
//
//   - Splitter: Components(p) lists the independent parts whose
//     disjunctive sum p is (the connected pieces of a graph, the heaps of a
//     heap game, the heads of a coin-turning row). The solver solves each
//     part on its own and nim-sums their values (Sprague–Grundy), for
//     Grundy values and normal-play outcomes only.
//   - Canonicalizer: Canonical(p) returns one representative of p's
//     symmetry class (a reflection of a grid, an order of heaps). It must
//     be a symmetry of the game (the same game tree), so it is used for
//     misère outcomes too.
//
// The memo is keyed by the canonical form of each part, so a solver asked
// about a range of positions (Node Kayles on 3 × n for n = 1..24) reuses
// every part that the smaller ones needed: one Solver should serve a
// whole parameter range. Reachable, PPositions and WinningMoves list
// positions as the move function gives them, unsplit and unfolded.
// WithCapabilities adds the capabilities to a mover written as functions,
// Plain removes them. A mover that has the methods whether or not it has
// parts or symmetries to offer (returning p as its only part, or as its
// own canonical form) is solved correctly, but pays a call (and a step)
// per option for nothing: build it with WithCapabilities, which asserts
// only the capabilities given. A solver meant to ignore them (the
// reference of a check) must be given Plain(m).
//
// A Components or Canonical that lies gives wrong values silently;
// CheckCapabilities compares, on sampled small positions and all the
// positions below them, the values with and without them, and names the
// first position where they differ. Callers that take the capabilities
// from users (a game written in Starlark) run it before they trust them.
//
// # Misère play
//
// The misère outcome of a sum is not determined by the outcomes or values
// of its parts, so under misère play the solver never splits: it solves
// whole positions (folded by Canonical), and a game that splits into many
// parts costs as much as without the Splitter. Grundy always returns the
// normal-play value, whatever Options.Play says.
//
// # Budgets
//
// The solver is iterative (a long chain of moves does not exhaust the Go
// stack) and reports a cycle in the move function (or in parts and
// canonical forms that contradict it) as a *CycleError that shows it.
// Its budgets count over the solver's life, so a solver shared by a
// parameter range shares them:
//
//   - MaxPositions bounds the parts in the memo (ErrTooManyPositions).
//   - MaxSteps bounds the calls of the move function, of Components and of
//     Canonical, plus one per position expanded (ErrTooManySteps), so that
//     a move function without end, or a slow one, stops at the limit.
//   - MaxMemory bounds the memo and the positions being solved, estimated
//     as they grow. The memo is never evicted: when it is full the search
//     stops with an error wrapping budget.ErrMemory that names the limit.
//     Eviction would keep the search going, but an evicted part is solved
//     again each time it is met, so the work can grow exponentially while
//     appearing to progress, and the step budget would then stop it less
//     clearly; a researcher is better served by a refusal that says which
//     limit to raise.
//   - Context: a cancelled context stops every worker at its next step
//     (each step checks it), within a second even for a move function
//     that takes a millisecond a call; the error wraps budget.Err of it.
//
// Progress, when set, receives the solver's Stats (positions expanded and
// solved, steps, memo bytes, depth) at most about four times a second,
// from the calling goroutine.
//
// # Workers
//
// With Options.Workers > 1, the move function, Components and Canonical
// are called from several goroutines at once, so they must be safe for
// concurrent use (pure functions of the position are; a mover that runs
// a Starlark thread is not, and keeps one worker). Several goroutines
// search the same root at once, sharing one memo split into 64 locked shards: each worker but the
// first takes the options of every position in a rotated order of its own,
// so the workers spread over different subtrees (different parts and
// options of the position asked for) and meet mostly in the memo. Each
// worker keeps the values it has seen in a cache of 32768 slots (counted
// against MaxMemory), so that the small parts met again and again cost no
// lock. A part two workers reach at the same moment is solved by both,
// which is rare (on 3 × 1..21 Node Kayles, 24071 of 81964154 steps). The
// workers count steps and memo bytes by the hundred, so with several the
// limits may be passed by a few hundred steps. Values do not depend on the
// number of workers; step counts do, slightly.
//
// # Estimates
//
// Estimate predicts what solving a position will take before the work
// starts: a pilot solve of 20000 steps measures small games exactly;
// beyond, random walks in the graph of parts predict its size level by
// level (Chao's estimator of the parts not met, capped by Knuth's tree
// size). Cost.Check then refuses work over a limit, naming it. On the
// test games (ratio of predicted to actual positions, steps in brackets,
// 1000 walks):
//
//	Nim (30, 30, 30), 29791 positions    1.36 (1.36)
//	Nim (40, 40, 40), 68921 positions    1.14 (1.14)
//	Chomp (40, 40, 40), 12340 positions  0.83 (0.83)
//	Node Kayles 3 × 8, whole positions   0.91 (0.91)
//	Node Kayles 3 × 10, whole positions  0.90 (0.90)
//	Node Kayles 3 × 10, parts            1.46 (1.16)
//	Node Kayles 3 × 12, parts            0.84 (0.65)
//	Node Kayles 3 × 14, parts            0.48 (0.36)
//	Node Kayles 3 × 16, parts            0.23 (0.16)
//	Node Kayles 3 × 18, parts            0.08 (0.06)
//	Node Kayles 3 × 20, parts            0.03 (0.02)
//
// Games of whole positions are predicted within a factor of 1.5. Games
// that split into many small parts are underestimated, more so the more
// parts there are: the walks meet each big part about once, and no
// estimator recovers the many never met. For those, the growth of the
// figures over a parameter range (3 × n Node Kayles: 1.84 times the
// positions per column) predicts better: Forecast extends it to the next
// term (3 × 16 within 10%). The step budget stops what an estimate let
// through.
//
// Every fast formula elsewhere in nimbook (nim-sums, octal sequences, coin
// values, nim-products, Wythoff tables) is tested against this solver.
package game
