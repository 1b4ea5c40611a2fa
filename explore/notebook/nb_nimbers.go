package notebook

import (
	"fmt"
	"github.com/nimbook/nimbook/explore/nimber"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/job"
)

// Nimber tables in a cell: nimbers(op, size), the nim-addition or
// nim-multiplication table, a section of its own in a job file.

func init() {
	registerNB("nimbers", nimbersNB{})
	registerBuiltin("nimbers", builtinNimbers, doc{"nimbers(op=\"product\", size=16)", "The nim-addition (op=\"sum\") or nim-multiplication table of 0..size-1."})
}

type nimbersNB struct{}

// marksP: the zeros of a nimber table are no P-positions, so its heatmap
// marks none.
func (nimbersNB) marksP() bool { return false }

func builtinNimbers(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	op := nimber.OpProduct
	size := 16
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "op?", &op, "size?", &size); err != nil {
		return nil, err
	}
	parsed, err := nimber.ParseOp(op)
	if err != nil {
		return nil, fmt.Errorf("nimbers: unknown operation %q; write op=\"sum\" or op=\"product\"", op)
	}
	op = parsed
	if size < 1 || size > 4096 {
		return nil, fmt.Errorf("nimbers: size = %d is out of range: it must be from 1 to 4096", size)
	}
	sec := &job.Section{Family: "nimbers", Game: &job.NimbersSpec{Op: op, Size: size}, Show: []string{"table"}}
	sr, err := runSection(th, sec)
	if err != nil {
		return nil, fmt.Errorf("nimbers: %w", err)
	}
	return makeResult("table", sr)
}
