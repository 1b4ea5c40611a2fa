// Package nbformat reads and writes notebooks: Jupyter's nbformat 4
// (.ipynb) and nimbook's Markdown notebooks, whose ```nimbook fences are
// the code cells. It knows the format only, not the cell language, so that
// reports can render an executed notebook without the Starlark session
// that executed it (package notebook).
//
// ReadIPYNB, ParseMarkdown and ReadFile load a Notebook; Notebook.WriteIPYNB
// writes it as nbformat 4.5 with deterministic JSON (sorted keys,
// one-space indent, multi-line strings as lists of lines, as Jupyter writes
// it), and WriteFile writes it atomically. Display is the MIME bundle that
// cells display and renderers return.
package nbformat
