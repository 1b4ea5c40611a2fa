package notebook

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/coins"
	"github.com/nimbook/nimbook/explore/job"
)

// Tartan products of coin games in a cell: product(g, h, k), a position
// the list of cells with heads.

func init() {
	registerNB("product", productNB{})
	registerBuiltin("product", builtinProduct, doc{"product(g, h, k=None, size=None, play=\"normal\", position=None)",
		"The tartan product of two or three coin games, e.g. product(coins(r=2), coins(rule=\"ruler\"), size=[8, 8]). Methods: table(*sizes), outcome(cells), moves(cells), grundy(cells), plot()."})
}

type productNB struct{}

func (productNB) title(s *job.Section) string {
	var parts []string
	for _, c := range s.Product().Factors {
		if g, err := c.NewGame(); err == nil {
			parts = append(parts, g.String())
		}
	}
	return "tartan product of " + strings.Join(parts, " × ")
}

func (productNB) plotsTable() bool { return true }

func (productNB) sizeArgs(name string, sec *job.Section, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if len(kwargs) > 0 {
		return fmt.Errorf("%s: unexpected keyword argument %s; give one size per factor, e.g. %s(8, 8)", name, kwargs[0][0], name)
	}
	if len(args) > 0 {
		size, err := intList(name, args, 1, maxCoins)
		if err != nil {
			return err
		}
		if len(size) != len(sec.Product().Factors) {
			return fmt.Errorf("%s: want %d sizes, one per factor", name, len(sec.Product().Factors))
		}
		sec.Product().Size = size
	}
	return nil
}

func (productNB) position(fn string, v starlark.Value, sec *job.Section) (any, error) {
	p := sec.Product()
	it, ok := v.(starlark.Iterable)
	if !ok || isString(v) {
		return nil, fmt.Errorf("%s: want a list of cells, e.g. [(1, 2), (3, 3)]", fn)
	}
	cells := [][]int{}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		cell, err := intList(fn, x, 0, maxSide)
		if err != nil {
			return nil, err
		}
		if len(cell) != len(p.Factors) {
			return nil, fmt.Errorf("%s: a cell has %d coordinates, one per factor", fn, len(p.Factors))
		}
		for k, c := range cell {
			lo := p.Factors[k].First
			if c < lo || c >= lo+p.Size[k] {
				return nil, fmt.Errorf("%s: coordinate %d is %d, outside %d..%d (the size and first coin of factor %d)", fn, k+1, c, lo, lo+p.Size[k]-1, k+1)
			}
		}
		cells = append(cells, cell)
	}
	return cells, nil
}

func (productNB) mover(f *Family, conv func(*starlark.Thread, starlark.Value) (any, error)) (mover, error) {
	p, err := productOf(&f.sec)
	if err != nil {
		return nil, err
	}
	return func(th *starlark.Thread, pos starlark.Value) ([]starlark.Value, error) {
		c, err := conv(th, pos)
		if err != nil {
			return nil, err
		}
		_, cl := engineLimits(th)
		ms, err := p.WithLimits(cl).Moves(c.([][]int))
		return tuples(ms), err
	}, nil
}

func (productNB) grundy(th *starlark.Thread, f *Family, p any) (uint64, error) {
	pr, err := productOf(&f.sec)
	if err != nil {
		return 0, err
	}
	_, cl := engineLimits(th)
	v, err := pr.WithLimits(cl).Value(p.([][]int))
	if err != nil {
		return 0, fmt.Errorf("grundy: %v", err)
	}
	return v, nil
}

// firsts: a product's table starts at its first two factors' first coins.
func (productNB) firsts(s *job.Section) [2]int {
	var f [2]int
	pr := s.Product()
	for i := 0; pr != nil && i < 2 && i < len(pr.Factors); i++ {
		f[i] = pr.Factors[i].First
	}
	return f
}

// productOf is the engine's product of the section's coin games.
func productOf(sec *job.Section) (*coins.Product, error) {
	var gs []*coins.Game
	for _, c := range sec.Product().Factors {
		g, err := c.NewGame()
		if err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return coins.NewProduct(gs...)
}

func builtinProduct(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var size starlark.Value = starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "size?", &size, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	if len(args) < 2 || len(args) > 3 {
		return nil, fmt.Errorf("product: want 2 or 3 coin games, e.g. product(coins(r=2), coins(rule=\"ruler\")), got %d", len(args))
	}
	ps := &job.ProductSpec{}
	var reprs []string
	for i, a := range args {
		c, ok := a.(*Family)
		if !ok || c.sec.Coins() == nil {
			return nil, fmt.Errorf("product: factor %d is %s, not a coin game; write coins(...)", i+1, a.Type())
		}
		fc := *c.sec.Coins()
		ps.Factors = append(ps.Factors, fc)
		n := fc.N
		if n == 0 {
			n = 8
		}
		ps.Size = append(ps.Size, n)
		reprs = append(reprs, c.repr)
	}
	if size != starlark.None {
		sz, err := intList("product", size, 1, maxCoins)
		if err != nil {
			return nil, err
		}
		if len(sz) != len(ps.Factors) {
			return nil, fmt.Errorf("product: size wants %d sides, one per factor", len(ps.Factors))
		}
		ps.Size = sz
	}
	for i := range ps.Factors {
		ps.Factors[i].N = 0
	}
	f := &Family{builtin: "product", repr: reprArgs("product", reprs, "size", size, "play", fa.play, "position", fa.position),
		sec: job.Section{Family: "product", Game: ps}}
	if _, err := productOf(&f.sec); err != nil {
		return nil, fmt.Errorf("product: %s", strings.TrimPrefix(err.Error(), "coins: "))
	}
	return f, fa.apply(f)
}
