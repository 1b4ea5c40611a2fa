package nbformat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nimbook/nimbook/explore/atomicfile"
)

// Notebook is a Jupyter notebook (nbformat 4): cells and metadata. Read it
// with ReadIPYNB, ParseMarkdown or ReadFile; write it with WriteIPYNB.
type Notebook struct {
	Cells []*Cell
	// Metadata is the notebook's metadata; kernelspec and language_info
	// are set to nimbook's when the notebook is written.
	Metadata map[string]any
}

// Cell is one cell of a notebook.
type Cell struct {
	ID   string // nbformat 4.5 cell id; made up when missing
	Type string // "code", "markdown" or "raw"
	// Source is the cell's text.
	Source   string
	Metadata map[string]any
	// Attachments of markdown and raw cells, kept as read.
	Attachments map[string]any
	// ExecutionCount is the cell's number once executed (code cells).
	ExecutionCount *int
	Outputs        []Output // code cells
	// Line is, in a Markdown notebook, the line (from 1) of the first line
	// of the cell's code, so that errors can name the line of the file;
	// 0 for cells read from .ipynb. It is not written to .ipynb.
	Line int
}

// Output is one output of a code cell, in nbformat's terms.
type Output struct {
	Type string // "stream", "display_data", "execute_result" or "error"
	// Name and Text of a stream ("stdout" or "stderr").
	Name, Text string
	// Data is a MIME bundle (display_data, execute_result): text values
	// are strings, application/json any JSON value.
	Data     map[string]any
	Metadata map[string]any
	// ExecutionCount of an execute_result.
	ExecutionCount int
	// EName, EValue and Traceback of an error.
	EName, EValue string
	Traceback     []string
}

// KernelSpec is the kernelspec nimbook writes into notebooks.
var KernelSpec = map[string]any{"display_name": "nimbook", "language": "starlark", "name": "nimbook"}

// LanguageInfo is the language_info nimbook writes into notebooks.
var LanguageInfo = map[string]any{
	"codemirror_mode": "python", "file_extension": ".star", "mimetype": "text/x-python",
	"name": "starlark", "pygments_lexer": "python", "version": "1.0",
}

// ReadFile reads a notebook: .ipynb as JSON, .md and .markdown as a
// Markdown notebook.
func ReadFile(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nbformat: %w", err)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown":
		nb, err := ParseMarkdown(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return nb, nil
	}
	nb, err := ReadIPYNB(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nb, nil
}

// ReadIPYNB reads an nbformat 4 notebook. Multi-line strings may be given
// as lists of lines, as Jupyter writes them.
func ReadIPYNB(r io.Reader) (*Notebook, error) {
	var raw struct {
		Cells    []map[string]any `json:"cells"`
		Metadata map[string]any   `json:"metadata"`
		Format   *int             `json:"nbformat"`
	}
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("nbformat: not a Jupyter notebook (invalid JSON: %v)", err)
	}
	if raw.Format == nil {
		return nil, errors.New("nbformat: not a Jupyter notebook (no nbformat field)")
	}
	if *raw.Format != 4 {
		return nil, fmt.Errorf("nbformat: nbformat %d is not supported; convert it to version 4 with jupyter nbconvert --to notebook", *raw.Format)
	}
	nb := &Notebook{Metadata: raw.Metadata}
	if nb.Metadata == nil {
		nb.Metadata = map[string]any{}
	}
	for i, rc := range raw.Cells {
		c := &Cell{}
		c.Type, _ = rc["cell_type"].(string)
		switch c.Type {
		case "code", "markdown", "raw":
		default:
			return nil, fmt.Errorf("nbformat: cell %d: unknown cell_type %q", i+1, c.Type)
		}
		c.ID, _ = rc["id"].(string)
		c.Source = joinLines(rc["source"])
		c.Metadata, _ = rc["metadata"].(map[string]any)
		c.Attachments, _ = rc["attachments"].(map[string]any)
		if c.Type == "code" {
			if n, ok := rc["execution_count"].(json.Number); ok {
				if v, err := n.Int64(); err == nil {
					k := int(v)
					c.ExecutionCount = &k
				}
			}
			outs, _ := rc["outputs"].([]any)
			for _, o := range outs {
				om, ok := o.(map[string]any)
				if !ok {
					continue
				}
				c.Outputs = append(c.Outputs, readOutput(om))
			}
		}
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

func readOutput(m map[string]any) Output {
	o := Output{}
	o.Type, _ = m["output_type"].(string)
	o.Name, _ = m["name"].(string)
	o.Text = joinLines(m["text"])
	if d, ok := m["data"].(map[string]any); ok {
		o.Data = map[string]any{}
		for k, v := range d {
			if isJSONMime(k) {
				o.Data[k] = v
			} else {
				o.Data[k] = joinLines(v)
			}
		}
	}
	o.Metadata, _ = m["metadata"].(map[string]any)
	if n, ok := m["execution_count"].(json.Number); ok {
		v, _ := n.Int64()
		o.ExecutionCount = int(v)
	}
	o.EName, _ = m["ename"].(string)
	o.EValue, _ = m["evalue"].(string)
	if tb, ok := m["traceback"].([]any); ok {
		for _, l := range tb {
			s, _ := l.(string)
			o.Traceback = append(o.Traceback, s)
		}
	}
	return o
}

// joinLines reads nbformat's multi-line string: a string or a list of
// lines.
func joinLines(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, l := range v {
			s, _ := l.(string)
			b.WriteString(s)
		}
		return b.String()
	}
	return ""
}

// splitLines writes a multi-line string as Jupyter does: a list of lines,
// each keeping its newline.
func splitLines(s string) []string {
	out := []string{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func isJSONMime(m string) bool {
	return m == "application/json" || (strings.HasPrefix(m, "application/") && strings.HasSuffix(m, "+json"))
}

// splitMime reports whether nbformat writes a MIME type's string value as a
// list of lines (text types, SVG and JavaScript; not base64 images).
func splitMime(m string) bool {
	return !isJSONMime(m) && (strings.HasPrefix(m, "text/") || m == "image/svg+xml" || m == "application/javascript")
}

var cellIDPattern = regexp.MustCompile(`^[a-zA-Z0-9-_]{1,64}$`)

// fixIDs gives every cell a valid id, unique in the notebook: invalid or
// repeated ids are replaced by cell-N (N its rank), so that the same input
// always gives the same ids.
func (nb *Notebook) fixIDs() {
	seen := map[string]bool{}
	for _, c := range nb.Cells {
		if cellIDPattern.MatchString(c.ID) && !seen[c.ID] {
			seen[c.ID] = true
		} else {
			c.ID = ""
		}
	}
	for i, c := range nb.Cells {
		if c.ID != "" {
			continue
		}
		id := fmt.Sprintf("cell-%d", i+1)
		for k := 2; seen[id]; k++ {
			id = fmt.Sprintf("cell-%d-%d", i+1, k)
		}
		seen[id] = true
		c.ID = id
	}
}

// WriteIPYNB writes the notebook as nbformat 4.5 JSON, the bytes Jupyter
// itself writes: keys sorted, one-space indent, multi-line strings as lists
// of lines, a final newline. It sets the kernelspec to nimbook's and gives
// every cell a valid id.
func (nb *Notebook) WriteIPYNB(w io.Writer) error {
	nb.fixIDs()
	meta := map[string]any{}
	for k, v := range nb.Metadata {
		meta[k] = v
	}
	meta["kernelspec"] = KernelSpec
	meta["language_info"] = LanguageInfo
	cells := make([]any, 0, len(nb.Cells))
	for _, c := range nb.Cells {
		m := map[string]any{
			"cell_type": c.Type,
			"id":        c.ID,
			"metadata":  orEmpty(c.Metadata),
			"source":    splitLines(c.Source),
		}
		switch c.Type {
		case "code":
			if c.ExecutionCount != nil {
				m["execution_count"] = *c.ExecutionCount
			} else {
				m["execution_count"] = nil
			}
			outs := make([]any, 0, len(c.Outputs))
			for _, o := range c.Outputs {
				outs = append(outs, o.toJSON())
			}
			m["outputs"] = outs
		default:
			if c.Attachments != nil {
				m["attachments"] = c.Attachments
			}
		}
		cells = append(cells, m)
	}
	doc := map[string]any{"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("nbformat: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func (o Output) toJSON() map[string]any {
	m := map[string]any{"output_type": o.Type}
	switch o.Type {
	case "stream":
		m["name"] = o.Name
		m["text"] = splitLines(o.Text)
	case "display_data", "execute_result":
		data := map[string]any{}
		for k, v := range o.Data {
			if s, ok := v.(string); ok && splitMime(k) {
				data[k] = splitLines(s)
			} else {
				data[k] = v
			}
		}
		m["data"] = data
		m["metadata"] = orEmpty(o.Metadata)
		if o.Type == "execute_result" {
			m["execution_count"] = o.ExecutionCount
		}
	case "error":
		m["ename"] = o.EName
		m["evalue"] = o.EValue
		tb := o.Traceback
		if tb == nil {
			tb = []string{}
		}
		m["traceback"] = tb
	}
	return m
}

// WriteFile writes the notebook to path atomically (explore/atomicfile),
// so that a failure never leaves half a notebook.
func (nb *Notebook) WriteFile(path string) error {
	if err := atomicfile.Write(context.Background(), path, atomicfile.Options{}, nb.WriteIPYNB); err != nil {
		return fmt.Errorf("nbformat: %w", err)
	}
	return nil
}
