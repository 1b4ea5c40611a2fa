// Package sandbox runs nimbook's Starlark within budgets: the cells of a
// notebook (package notebook) and the heap rules of job files (package
// starrule) alike.
//
// The dialect (FileOptions) is as close to Python as Starlark goes:
// top-level if/for/while, while loops, recursion, sets and reassignment of
// globals. NewThread makes a thread under Limits: a step budget, a memory
// limit that a watchdog (budget.Watch) enforces, and a context whose
// cancellation stops the thread within a second. StateOf gives a running
// thread's budgets and the context engine work must take.
//
// A Starlark thread checks its budget and its cancellation between
// instructions only, and one instruction may do unbounded work ([0] * n,
// list(range(n)), x * x on huge ints). Guard therefore rewrites such
// operators and methods into calls of hidden built-ins, and Builtins
// shadows the built-ins that materialise or scan an iterable: these check
// the memory a result needs before allocating it (NeedMemory), bound the
// size of integers and texts, and count their work against the step
// budget in chunks (Tick), stopping as soon as the thread is stopped.
// Built-ins of other packages do the same with NeedMemory and Tick.
//
// Containers grown a step at a time escape a watchdog too: a dict's hash
// table doubles in one insertion (362 MiB were reached under 256 MiB), a
// list reallocates by a quarter. Guard therefore also rewrites item
// assignment (d[k] = v), the for clauses of comprehensions and |=, and
// the methods that insert come back checked: the growth of a dict, a set
// or a large list is checked against what the limit leaves before it
// happens (growth.go, whose model of Starlark's hash tables a test checks
// against the library). A thread with a memory limit also samples the
// memory itself every 65 536 steps (budget.Check), and LowerMemory lowers
// its watchdog's limit while it runs.
//
// Starlark writes a value's text recursively and rescans, at each list and
// dict, the chain of those that enclose it: a list nested 400 000 deep took
// minutes in one step. str, repr, print, % and format write through
// WriteText instead: the same text, in time linear in its length, counted
// in the step budget and stopped with the thread; Text also bounds the
// depth and length of a text for display.
//
// ExecFile runs a whole file (guarded, with Builtins predeclared) and
// returns its frozen globals; Call calls a Starlark function. Their errors
// are *Error values that name the file and line at fault and wrap the
// reason a stopped thread stopped: ErrSteps, or the context's cause
// (budget.ErrMemory, context.Canceled).
package sandbox
