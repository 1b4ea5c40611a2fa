package notebook

import (
	"fmt"
	"strconv"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/wythoff"
)

// Wythoff's game in a cell: wythoff(rows, cols), its table bounded by
// rows × cols.

func init() {
	registerNB("wythoff", wythoffNB{})
	registerBuiltin("wythoff", builtinWythoff, doc{"wythoff(rows=10, cols=rows, play=\"normal\", position=None)",
		"Wythoff's game; rows × cols bound its table, e.g. wythoff(20, 20). Methods: table(rows, cols), p_positions(), row_periods(), outcome((a, b)), moves((a, b)), graph((a, b)), grundy((a, b)), plot()."})
}

type wythoffNB struct{}

func (wythoffNB) title(*job.Section) string { return "Wythoff's game" }

func (wythoffNB) plotsTable() bool { return true }

func (wythoffNB) sizeArgs(name string, sec *job.Section, args starlark.Tuple, kwargs []starlark.Tuple) error {
	ws := sec.Wythoff()
	rows, cols := starlark.Value(starlark.None), starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(name, args, kwargs, "rows?", &rows, "cols?", &cols); err != nil {
		return err
	}
	if err := setInt(name, "rows", rows, &ws.Size[0], 1, maxSide); err != nil {
		return err
	}
	if cols == starlark.None && rows != starlark.None {
		cols = rows
	}
	return setInt(name, "cols", cols, &ws.Size[1], 1, maxSide)
}

func (wythoffNB) position(fn string, v starlark.Value, _ *job.Section) (any, error) {
	hs, err := intList(fn, v, 0, wythoff.MaxHeap)
	if err != nil {
		return nil, err
	}
	if len(hs) != 2 {
		return nil, fmt.Errorf("%s: Wythoff's game has two heaps; write e.g. (3, 5)", fn)
	}
	return hs, nil
}

func (wythoffNB) mover(_ *Family, conv func(*starlark.Thread, starlark.Value) (any, error)) (mover, error) {
	return func(th *starlark.Thread, pos starlark.Value) ([]starlark.Value, error) {
		p, err := conv(th, pos)
		if err != nil {
			return nil, err
		}
		hs := p.([]int)
		s, ctx, _ := sessionOf(th)
		ms, err := wythoff.MovesOptions([2]int{hs[0], hs[1]}, wythoff.Options{
			MaxCells: clampPositions(s.opts.Limits.Positions), MaxMemory: memoryLeft(th), Context: ctx})
		if err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(ms))
		for i, m := range ms {
			out[i] = starlark.Tuple{starlark.MakeInt(m[0]), starlark.MakeInt(m[1])}
		}
		return out, nil
	}, nil
}

func (wythoffNB) grundy(th *starlark.Thread, _ *Family, p any) (uint64, error) {
	hs := p.([]int)
	s, ctx, _ := sessionOf(th)
	t, err := wythoff.NewTableOptions(hs[0]+1, hs[1]+1, wythoff.Options{MaxCells: int(min(s.opts.Limits.Positions, 1<<40)), Context: ctx})
	if err != nil {
		return 0, fmt.Errorf("grundy: %v", err)
	}
	return t.At(hs[0], hs[1]), nil
}

func builtinWythoff(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var rows, cols, size starlark.Value = starlark.None, starlark.None, starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "rows?", &rows, "cols?", &cols, "size?", &size, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	ws := &job.WythoffSpec{Size: [2]int{10, 10}}
	if size != starlark.None {
		sz, err := intList("wythoff", size, 1, maxSide)
		if err != nil {
			return nil, err
		}
		if len(sz) != 2 {
			return nil, fmt.Errorf("wythoff: size wants two sides, e.g. size=[20, 20]")
		}
		ws.Size = [2]int{sz[0], sz[1]}
	}
	if err := setInt("wythoff", "rows", rows, &ws.Size[0], 1, maxSide); err != nil {
		return nil, err
	}
	if cols == starlark.None && rows != starlark.None {
		cols = rows
	}
	if err := setInt("wythoff", "cols", cols, &ws.Size[1], 1, maxSide); err != nil {
		return nil, err
	}
	var pos []string
	if rows != starlark.None || size != starlark.None {
		pos = []string{strconv.Itoa(ws.Size[0]), strconv.Itoa(ws.Size[1])}
	}
	f := &Family{builtin: "wythoff", repr: reprArgs("wythoff", pos, "play", fa.play, "position", fa.position), sec: job.Section{Family: "wythoff", Game: ws}}
	return f, fa.apply(f)
}
