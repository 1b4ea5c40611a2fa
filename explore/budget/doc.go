// Package budget bounds the memory of a computation while it runs and
// counts its progress.
//
// Engine packages refuse work that is too large before they start, from an
// estimate of its size (each names its own limit). This package is the
// safety net behind those estimates and the common vocabulary for limits:
//
//   - Watch starts a memory watchdog: when the memory the Go runtime holds
//     for objects, stacks and metadata, with the program's code resident
//     in memory, crosses the limit, it cancels the context it returned
//     with a *LimitError cause: the limit bounds the resident set size. Every long loop already
//     checks its context, so memory overruns stop the work the same way
//     Ctrl-C does; Err turns a done context into the error to show.
//   - ParseSize and FormatSize read and write byte sizes (512MiB, 4GiB).
//   - Progress is a counter a long computation advances (done of total,
//     with a label); a Snapshot renders it as "done/total, rate, ETA".
//     Computations find it in their context (From), so that signatures need
//     not carry it; a nil *Progress ignores every call.
//
// Sizes are bytes (int64); limits ≤ 0 mean "no limit".
package budget
