package notebook

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/atomicfile"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// A tabular result writes itself as pandas' DataFrame does:
// r.to_csv(path=None) and r.to_markdown(path=None) return the text, or,
// given a path, write it to that file of the notebook's folder and return
// None; r.latex(path=None) likewise. The rows are the result's items:
// values as (n, value), a table's rows under its column numbers,
// positions one a row (a part a column), records one a row (a field a
// column).

// maxExportRows bounds the rows a result writes: more than a table a
// reader opens, and the text counts against the cell's memory.
const maxExportRows = 1 << 20

// exportTable is a result as a table: its header and rows of cells.
type exportTable struct {
	header []string
	rows   [][]string
}

// tableOf lays out the items of r as a table.
func tableOf(r *seqResult) (exportTable, error) {
	n := r.items.Len()
	if n > maxExportRows {
		return exportTable{}, fmt.Errorf("%d rows, more than the %d a result writes", n, maxExportRows)
	}
	items := make([]starlark.Value, n)
	for i := range items {
		items[i] = r.items.Index(i)
	}
	first := 0
	if r.sr != nil && r.sr.Spec != nil && r.kind == "values" {
		if fr, ok := nbFamilies[r.sr.Spec.Family].(firster); ok {
			first = fr.firsts(r.sr.Spec)[0]
		}
	}
	var t exportTable
	switch {
	case allOf[starlark.Int](items):
		index, value := "n", "value"
		switch r.kind {
		case "weights":
			index, value, first = "heads", "P-positions", 0
		case "values":
		default:
			index, value, first = "i", strings.ReplaceAll(r.kind, "-", "_"), 0
		}
		t.header = []string{index, value}
		for i, x := range items {
			t.rows = append(t.rows, []string{strconv.Itoa(first + i), x.String()})
		}
	case r.kind == "table" || r.kind == "distribution":
		width := 0
		for _, x := range items {
			if l, ok := x.(*starlark.List); ok {
				width = max(width, l.Len())
			}
		}
		corner := "a \\ b"
		if r.kind == "distribution" {
			corner = "heads \\ value"
		}
		t.header = []string{corner}
		for c := range width {
			t.header = append(t.header, strconv.Itoa(c))
		}
		for i, x := range items {
			row := []string{strconv.Itoa(i)}
			l, ok := x.(*starlark.List)
			if !ok {
				return exportTable{}, fmt.Errorf("row %d is %s, not a list of values", i, x.Type())
			}
			for c := range l.Len() {
				row = append(row, cellText(l.Index(c)))
			}
			t.rows = append(t.rows, row)
		}
	case allOf[*recResult](items):
		rec := items[0].(*recResult)
		t.header = fieldNames(rec.fields)
		if len(rec.fields) == 0 {
			t.header = []string{rec.Type()}
		}
		for _, x := range items {
			rr := x.(*recResult)
			if len(rr.fields) == 0 {
				t.rows = append(t.rows, []string{rr.String()})
				continue
			}
			var row []string
			for _, h := range t.header {
				v := fieldValue(rr.fields, h)
				if v == nil {
					row = append(row, "")
				} else {
					row = append(row, cellText(v))
				}
			}
			t.rows = append(t.rows, row)
		}
	case sameLengthInts(items):
		// Positions of heaps or coins: a part a column.
		k := len(items[0].(starlark.Tuple))
		for c := range k {
			t.header = append(t.header, fmt.Sprintf("h%d", c+1))
		}
		for _, x := range items {
			var row []string
			for _, y := range x.(starlark.Tuple) {
				row = append(row, y.String())
			}
			t.rows = append(t.rows, row)
		}
	default:
		name := "position"
		if r.kind != "moves" && r.kind != "p-positions" {
			name = strings.ReplaceAll(r.kind, "-", "_")
		}
		t.header = []string{name}
		for _, x := range items {
			t.rows = append(t.rows, []string{cellText(x)})
		}
	}
	return t, nil
}

// cells counts the numbers r holds: its items, and the elements of lists
// and tuples among them.
func cells(r *seqResult) int64 {
	n := int64(r.items.Len())
	for i := range r.items.Len() {
		if x, ok := r.items.Index(i).(starlark.Sequence); ok {
			n += int64(x.Len())
		}
	}
	return n
}

func allOf[T starlark.Value](items []starlark.Value) bool {
	for _, x := range items {
		if _, ok := x.(T); !ok {
			return false
		}
	}
	return len(items) > 0
}

// sameLengthInts says whether items are tuples of ints, all as long.
func sameLengthInts(items []starlark.Value) bool {
	k := -1
	for _, x := range items {
		t, ok := x.(starlark.Tuple)
		if !ok || (k >= 0 && len(t) != k) || len(t) == 0 {
			return false
		}
		k = len(t)
		for _, y := range t {
			if _, ok := y.(starlark.Int); !ok {
				return false
			}
		}
	}
	return k > 0
}

// cellText is a value as a table cell: a string without its quotes, the
// repr of anything else.
func cellText(v starlark.Value) string {
	if s, ok := starlark.AsString(v); ok {
		return s
	}
	return v.String()
}

// csvText writes t as CSV (RFC 4180, as pandas writes it: a header line,
// fields quoted when they need it, \n line ends).
func (t exportTable) csvText() (string, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(t.header); err != nil {
		return "", err
	}
	if err := w.WriteAll(t.rows); err != nil {
		return "", err
	}
	return b.String(), nil
}

// markdownText writes t as a GitHub-flavoured Markdown table (pandas'
// to_markdown), numbers right-aligned.
func (t exportTable) markdownText() string {
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ") }
	numeric := make([]bool, len(t.header))
	for c := range numeric {
		// Right-aligned: a column of whole numbers, blanks aside.
		some, all := false, true
		for _, row := range t.rows {
			if c < len(row) && row[c] != "" {
				_, err := strconv.ParseInt(row[c], 10, 64)
				some, all = true, all && err == nil
			}
		}
		numeric[c] = some && all
	}
	var b strings.Builder
	b.WriteString("|")
	for _, h := range t.header {
		b.WriteString(" " + esc(h) + " |")
	}
	b.WriteString("\n|")
	for c := range t.header {
		if numeric[c] {
			b.WriteString("---:|")
		} else {
			b.WriteString(":---|")
		}
	}
	b.WriteString("\n")
	for _, row := range t.rows {
		b.WriteString("|")
		for c := range t.header {
			cell := ""
			if c < len(row) {
				cell = row[c]
			}
			b.WriteString(" " + esc(cell) + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// exportMethod is to_csv or to_markdown of r.
func exportMethod(r *seqResult, name string) *starlark.Builtin {
	return starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var path starlark.Value = starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path?", &path); err != nil {
			return nil, err
		}
		// The table's text and cells: about 32 bytes a number, asked of
		// the cell's memory before they are made.
		if err := sandbox.NeedMemory(th, name, 32*cells(r)); err != nil {
			return nil, err
		}
		t, err := tableOf(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var text, ext string
		if name == "to_csv" {
			ext = ".csv"
			if text, err = t.csvText(); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		} else {
			ext = ".md"
			text = t.markdownText()
		}
		return writeOrReturn(th, name, path, ext, text)
	})
}

// writeOrReturn returns text when path is None, else writes it to path
// (a file of the notebook's folder whose name ends in ext) and returns
// None, as pandas' to_csv does.
func writeOrReturn(th *starlark.Thread, fn string, path starlark.Value, ext, text string) (starlark.Value, error) {
	if path == starlark.None {
		return starlark.String(text), nil
	}
	p, ok := starlark.AsString(path)
	if !ok {
		return nil, fmt.Errorf("%s: path must be a file name like \"values%s\", not %s", fn, ext, path.Type())
	}
	if err := writeCellFile(th, fn, p, ext, text); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// writeCellFile writes text to path, a file of the notebook's folder (or
// of a folder below it) whose name ends in ext, atomically (a temporary
// file renamed into place: a reader never sees half a table, and an
// interrupted cell leaves the old file). A path that leaves the folder (an
// absolute path elsewhere, .., a link to a file or folder outside) is
// refused before anything is written; so is a name without ext, so that a
// cell cannot overwrite its notebook or a rule file.
func writeCellFile(th *starlark.Thread, fn, path, ext, text string) error {
	s, ctx, _ := sessionOf(th)
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s: "+format, append([]any{fn, path}, a...)...)
	}
	if path == "" || !strings.HasSuffix(strings.ToLower(path), ext) || len(path) == len(ext) {
		return fail("the file's name must end in %s (e.g. values%s)", ext, ext)
	}
	if err := sandbox.NeedMemory(th, fn, int64(len(text))); err != nil {
		return err
	}
	root, err := filepath.Abs(s.dir())
	if err != nil {
		return fail("%v", err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fail("the notebook's folder: %v", err)
	}
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, full)
	}
	outside := fail("outside the notebook's folder: a cell writes files of its notebook's folder and of the folders below it only")
	if !within(root, filepath.Clean(full)) {
		return outside
	}
	// The folder the file goes in, its links followed, and the file a
	// link of that name points to, must be inside too.
	dir, err := filepath.EvalSymlinks(filepath.Dir(full))
	if err != nil {
		return fail("no such folder in the notebook's folder")
	}
	if !within(realRoot, dir) {
		return outside
	}
	target := filepath.Join(dir, filepath.Base(full))
	if fi, err := os.Lstat(target); err == nil {
		if fi.Mode()&os.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(target)
			if err != nil || !within(realRoot, real) {
				return outside
			}
		}
		if fi.IsDir() {
			return fail("a folder, not a file")
		}
	}
	err = atomicfile.Write(ctx, target, atomicfile.Options{}, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %s", fn, strings.TrimPrefix(err.Error(), "atomicfile: "))
	}
	return nil
}

// within says whether p is root or lies below it (both absolute, clean).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
