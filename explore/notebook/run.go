package notebook

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/nbformat"
)

// RunOptions tune Session.Run.
type RunOptions struct {
	// AllowErrors keeps running the cells after one fails; the error is in
	// the failed cell's outputs either way.
	AllowErrors bool
	// Progress, when not nil, is told before each code cell runs (index in
	// nb.Cells, number of cells).
	Progress func(index, total int)
}

// RunError is the error of Run when a cell fails: the notebook keeps the
// outputs up to that cell, the failed cell's error included.
type RunError struct {
	Index int    // index of the cell in nbformat.Notebook.Cells
	Count int    // its execution count
	Line  string // the first line of its source, to find it
	Err   *kernel.CellError
}

func (e *RunError) Error() string {
	return fmt.Sprintf("cell %d (%q): %s", e.Count, e.Line, e.Err)
}

func (e *RunError) Unwrap() error { return e.Err }

// Run executes every code cell of nb in order with this session, replacing
// their outputs and execution counts: the executed notebook, as Jupyter's
// "run all" leaves it. Empty code cells are skipped, as Jupyter does. It
// stops at the first failing cell (unless opts.AllowErrors) and returns a
// *RunError; the cells after it are left without outputs. A cancelled ctx
// interrupts the running cell and stops.
func (s *Session) Run(ctx context.Context, nb *nbformat.Notebook, opts RunOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	for _, c := range nb.Cells {
		if c.Type == "code" {
			c.Outputs, c.ExecutionCount = nil, nil
		}
	}
	count := 0
	for i, c := range nb.Cells {
		if c.Type != "code" || strings.TrimSpace(c.Source) == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("notebook: stopped before cell %d: %w", count+1, err)
		}
		if opts.Progress != nil {
			opts.Progress(i, len(nb.Cells))
		}
		count++
		n := count
		c.ExecutionCount = &n
		rec := &cellOutputs{}
		d, err := s.Execute(ctx, c.Source, rec)
		if errors.Is(err, ErrExit) {
			// The notebook ends here, as a script that calls exit.
			c.Outputs = rec.outs
			return nil
		}
		if d != nil {
			rec.add(nbformat.Output{Type: "execute_result", Data: d.Data, Metadata: d.Metadata, ExecutionCount: n})
		}
		if err != nil {
			var ce *kernel.CellError
			if !errors.As(err, &ce) {
				ce = &kernel.CellError{Name: "Error", Value: err.Error()}
			}
			tb := ce.Traceback
			if len(tb) == 0 {
				tb = []string{ce.Error()}
			}
			rec.add(nbformat.Output{Type: "error", EName: ce.Name, EValue: ce.Value, Traceback: tb})
			c.Outputs = rec.outs
			if ctx.Err() != nil {
				return fmt.Errorf("notebook: cell %d interrupted: %w", n, ctx.Err())
			}
			line, _, _ := strings.Cut(strings.TrimSpace(c.Source), "\n")
			cerr := &RunError{Index: i, Count: n, Line: line, Err: ce}
			if !opts.AllowErrors {
				return cerr
			}
			continue
		}
		c.Outputs = rec.outs
	}
	return nil // with AllowErrors, errors are outputs, not failures
}

// cellOutputs collects a cell's outputs in nbformat's form; consecutive
// writes to one stream form one output, as frontends show them.
type cellOutputs struct {
	mu   sync.Mutex
	outs []nbformat.Output
}

func (c *cellOutputs) add(o nbformat.Output) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.outs = append(c.outs, o)
}

func (c *cellOutputs) Stream(name, text string) {
	if name != "stderr" {
		name = "stdout"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.outs); n > 0 && c.outs[n-1].Type == "stream" && c.outs[n-1].Name == name {
		c.outs[n-1].Text += text
		return
	}
	c.outs = append(c.outs, nbformat.Output{Type: "stream", Name: name, Text: text})
}

func (c *cellOutputs) Display(d *kernel.Display) {
	if d == nil {
		return
	}
	c.add(nbformat.Output{Type: "display_data", Data: d.Data, Metadata: d.Metadata})
}

func (c *cellOutputs) Input(string, bool) (string, error) {
	return "", errors.New("input() is not available when a notebook runs headlessly")
}
