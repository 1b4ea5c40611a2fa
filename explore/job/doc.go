// Package job reads nimbook job files (YAML, see SPEC.md), checks them
// completely before any work starts, and runs their sections into typed
// results that the report renderers and the JSON form consume.
//
// Every error names the file, the line and the key, and says what to write
// instead. Work whose size is known in advance (positions to enumerate,
// table cells, heap sizes) is compared with the job's limits before it
// starts; a refusal names the limit and the flag or key that raises it.
//
// A time limit (limits.time) is the exception that gives instead of
// refusing: a heap game's values are then computed in doubling stages and
// kept to the last stage that ended in time (Results.Reached says where),
// so that a survey of codes whose sweeps no machine finishes to upto can
// spend a night on them evenly (timedValues).
//
// A game given by its moves (a registered family's Game, a Starlark
// game) is solved by the generic solver of package game, with the
// components and canonical forms the game offers (checked first on
// sampled small positions, game.CheckCapabilities), one worker (a
// Starlark thread is not shareable), the step limit (limits.steps,
// --max-steps) and the run's progress line. The sections of a parameter
// range share one solver, so that Node Kayles on 3 × 16 reuses every
// part 3 × 15 needed (sharedSolver, which says when it gives that up).
package job
