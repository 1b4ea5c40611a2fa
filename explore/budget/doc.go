// Package budget bounds the memory of a computation while it runs and
// counts its progress.
//
// Engine packages refuse work that is too large before they start, from an
// estimate of its size (each names its own limit). This package is the
// safety net behind those estimates and the common vocabulary for limits:
//
//   - Watch starts a memory watchdog: when the resident set size of the
//     process (Used: the Go runtime's memory, free pages not yet given
//     back, the program's code and what other allocators hold) comes
//     within Margin of the limit, it cancels the context it returned with
//     a *LimitError cause, so that the resident set size stays at or
//     under the limit itself. Every long loop already checks its context,
//     so memory overruns stop the work the same way Ctrl-C does; Err
//     turns a done context into the error to show. Lower lowers a running
//     watchdog's limit (a notebook cell's limits(memory=...)); Check
//     samples at once, for loops that allocate faster than the watchdog's
//     goroutine may be scheduled; Available is what an allocation may
//     still take, two margins below the limit.
//   - ParseSize and FormatSize read and write byte sizes (512MiB, 4GiB).
//   - Progress is a counter a long computation advances (done of total,
//     with a label); a Snapshot renders it as "done/total, rate, ETA".
//     Computations find it in their context (From), so that signatures need
//     not carry it; a nil *Progress ignores every call.
//
// Sizes are bytes (int64); limits ≤ 0 mean "no limit".
package budget
