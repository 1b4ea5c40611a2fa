// Package notebook evaluates notebook cells: a Session runs Starlark cells
// with globals kept from cell to cell, exposes the nimbook engine as
// built-ins, and executes whole notebooks (.ipynb or Markdown) headlessly.
//
// Cells are Starlark (go.starlark.net) in the dialect closest to Python in
// a notebook: top-level if/for/while, while loops, recursion, sets and
// reassignment of globals. print writes to the cell's stdout and
// display(value, ...) shows rich values; the value of a cell's last
// expression is its result, as in Jupyter. Errors name the cell's line and
// say what went wrong in one line, never with a Go stack trace. A cell stops
// within a second when its context is cancelled (a Jupyter interrupt), after
// a step budget, and when a memory watchdog sees the process cross the
// memory limit; the session survives all three. The limits the session was
// made with (the command line's --max-steps, --max-positions, --max-memory)
// are a ceiling: limits(...) in a cell may lower them, never raise them.
// Operators and built-ins whose work grows with their operands ([0] * n,
// list(range(n)), x * x on huge ints, s.join(...), .options() of a huge
// heap) check the memory left before they allocate and count their steps,
// so that no single call escapes the budgets (see package sandbox).
//
// As in IPython, a cell that is only name? shows the help of name, one that
// is only exit or quit returns ErrExit, and a cell may start with one of
// the magics users type by habit: %time STATEMENT and %%time (run, then
// print the CPU and wall times as IPython does; %time on the first line of
// a longer cell times the whole cell), %who [TYPE...] (the names the cells
// defined) and %limits (the session's limits and their ceilings). dir()
// lists the names a cell may use: the session's, then the built-ins. IsComplete tells a
// console that a block ends at a blank line, blanks only included.
//
// A result shows as its repr (text/plain), nested at most 100 deep (deeper
// lists, tuples, dicts and sets show as […]) and cut after about 1 MiB with
// the length of the whole; the text is written in time linear in its
// length, counted in the step budget and stopped with the cell
// (sandbox.WriteText), however deep the value.
//
// Built-ins use the family names and parameters of job files (SPEC.md):
// nim, subtraction, octal, hex_game (hexa), wythoff, coins, product and
// nimbers; their analyses are methods named after the job file's show
// list (p-positions is p_positions), so that
//
//	[coins(r=r).values(12) for r in range(1, 10)]
//
// is a table of the "turn at most r coins" values. Analyses run through the
// job engine (package job), so a notebook and a job file compute the same
// results; each result computes like plain data (a list, a table, a record
// of fields) and displays through a Renderer, which cmd/nimbook implements
// with the report renderers, over a text/plain and application/json
// fallback. Nimbers have operators (nimber(2) * 3 is the nim-product) and
// functions nim_add, nim_mul, nim_inv, nim_sqrt, nim_pow on ints.
//
// Every family of the registry (package family) that builds a game from
// its parameters is a built-in of its own, named by its key with "-"
// written "_": node_kayles(graph={"grid": [3, 4]}), cram(board=[4, 5]),
// chomp(rows=[3, 2, 1]), starlark(file=..., name=..., params=...). Its
// parameters are read by kind and checked by the registry; its methods are
// the family's analyses of its start (value, outcome, moves, p_positions,
// graph, plot: the game graph), run by the job engine as a job file's
// section; play(g) plays it. Completion and help (name?) read the
// registry's Signature, Help and parameters (registered.go): a new family
// needs no line in this package.
//
// As pandas' tables do, a result (and a survey(), a variant a row) writes
// itself: r.to_csv(path=None), r.to_markdown(path=None) and
// r.latex(path=None) return the text, or
// write it to a file of the notebook's folder, atomically, refusing a path
// that leaves the folder (export.go). Plots take matplotlib's keywords,
// title, xlabel, ylabel, size (inches) and log ("x", "y", "xy"), on a
// family's plot(), a result's and the module-level plot(result | ys | xs,
// ys) (plot.go); a game graph's figure carries a legend of its marks.
//
// game(moves=f, start=p) defines a game by its move function; positions
// are hashable values (ints, strings, tuples). The generic solver (package
// game) gives its Grundy values, outcomes, winning moves, P-positions and
// graph; a cycle in the moves is an error that shows the cycle, and a
// position budget stops runaway games. Games and built-in families add with
// + into disjunctive sums, whose positions are pairs (p, q).
//
// interact(f, **controls) draws widgets in a Jupyter front end (the comm
// protocol of package kernel, ipywidgets 6's models): a slider per range,
// a checkbox per bool, a menu per list, over an Output widget that shows
// f(**values), run again as a cell runs at each change (interact.go).
//
// Notebooks: package nbformat loads a notebook (.ipynb, or Markdown whose
// ```nimbook fences are its code cells), Session.Run executes every code
// cell, and nbformat writes the executed notebook back.
//
// Cells run in the Starlark sandbox of package sandbox, which also runs
// heap-rule files: its guarded operators and built-ins, step budget,
// memory watchdog and cancellation are the session's, with the session's
// limits.
package notebook
