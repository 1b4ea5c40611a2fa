package notebook

import (
	"errors"
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/nimbook/nimbook/explore/nimber"
)

// Nimber is a 64-bit nimber in a cell: + and - are the nim-sum ⊕, * the
// nim-product ⊗, / multiplies by the nim-inverse; n.pow(e) is the e-th
// nim-power (Starlark has no ** operator) and n.inv(), n.sqrt() the
// inverse and the square root.
// An int operand is read as a nimber. It prints in Conway's star notation,
// *5.
type Nimber uint64

var (
	_ starlark.HasBinary  = Nimber(0)
	_ starlark.Comparable = Nimber(0)
	_ starlark.HasAttrs   = Nimber(0)
)

func (n Nimber) String() string        { return fmt.Sprintf("*%d", uint64(n)) }
func (n Nimber) Type() string          { return "nimber" }
func (n Nimber) Freeze()               {}
func (n Nimber) Truth() starlark.Bool  { return n != 0 }
func (n Nimber) Hash() (uint32, error) { return uint32(n ^ n>>32), nil }

// CompareSameType orders nimbers as integers (== is what matters).
func (n Nimber) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	m := y.(Nimber)
	switch op {
	case syntax.EQL:
		return n == m, nil
	case syntax.NEQ:
		return n != m, nil
	case syntax.LT:
		return n < m, nil
	case syntax.LE:
		return n <= m, nil
	case syntax.GT:
		return n > m, nil
	case syntax.GE:
		return n >= m, nil
	}
	return false, fmt.Errorf("nimber: unsupported comparison %s", op)
}

// Attr gives n.value (the plain int), n.inv(), n.sqrt().
func (n Nimber) Attr(name string) (starlark.Value, error) {
	switch name {
	case "value":
		return starlark.MakeUint64(uint64(n)), nil
	case "inv":
		return starlark.NewBuiltin("inv", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			v, err := nimber.Inv(uint64(n))
			if err != nil {
				return nil, errors.New("inv: *0 has no inverse")
			}
			return Nimber(v), nil
		}), nil
	case "pow":
		return starlark.NewBuiltin("pow", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			es, err := nimberArgs("pow", args, kwargs, 1, 1)
			if err != nil {
				return nil, err
			}
			return Nimber(nimber.Pow(uint64(n), es[0])), nil
		}), nil
	case "sqrt":
		return starlark.NewBuiltin("sqrt", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return Nimber(nimber.Sqrt(uint64(n))), nil
		}), nil
	}
	return nil, nil
}

// AttrNames lists the attributes for completion.
func (n Nimber) AttrNames() []string { return []string{"inv", "pow", "sqrt", "value"} }

// Binary implements ⊕, ⊗, division and powers, with ints read as nimbers.
func (n Nimber) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	var m uint64
	switch y := y.(type) {
	case Nimber:
		m = uint64(y)
	case starlark.Int:
		v, err := toUint64(op.String(), y)
		if err != nil {
			return nil, err
		}
		m = v
	default:
		return nil, nil
	}
	a, b := uint64(n), m
	if side == starlark.Right {
		a, b = b, a
	}
	switch op {
	case syntax.PLUS, syntax.MINUS, syntax.CIRCUMFLEX:
		return Nimber(nimber.Add(a, b)), nil
	case syntax.STAR:
		return Nimber(nimber.Mul(a, b)), nil
	case syntax.SLASH, syntax.SLASHSLASH:
		inv, err := nimber.Inv(b)
		if err != nil {
			return nil, errors.New("nimber division by *0")
		}
		return Nimber(nimber.Mul(a, inv)), nil
	}
	return nil, nil
}

// toUint64 reads a Starlark int or nimber as a 64-bit nimber.
func toUint64(fn string, v starlark.Value) (uint64, error) {
	switch v := v.(type) {
	case Nimber:
		return uint64(v), nil
	case starlark.Int:
		u, ok := v.Uint64()
		if !ok {
			return 0, fmt.Errorf("%s: %s is not a 64-bit nimber (want 0 ≤ n < 2^64)", fn, v)
		}
		return u, nil
	}
	return 0, fmt.Errorf("%s: want an int or a nimber, not %s", fn, v.Type())
}

// nimberArgs reads positional ints or nimbers.
func nimberArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple, min, max int) ([]uint64, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("%s: unexpected keyword argument %s", fn, kwargs[0][0])
	}
	if len(args) < min || (max >= 0 && len(args) > max) {
		switch {
		case max == min:
			return nil, fmt.Errorf("%s: want %d arguments, got %d", fn, min, len(args))
		case max < 0:
			return nil, fmt.Errorf("%s: want at least %d arguments, got %d", fn, min, len(args))
		}
		return nil, fmt.Errorf("%s: want %d to %d arguments, got %d", fn, min, max, len(args))
	}
	out := make([]uint64, len(args))
	for i, a := range args {
		v, err := toUint64(fn, a)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// result returns an int, or a nimber when any argument was one.
func nimResult(args starlark.Tuple, v uint64) starlark.Value {
	for _, a := range args {
		if _, ok := a.(Nimber); ok {
			return Nimber(v)
		}
	}
	return starlark.MakeUint64(v)
}

func builtinNimber(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vs, err := nimberArgs(b.Name(), args, kwargs, 1, 1)
	if err != nil {
		return nil, err
	}
	return Nimber(vs[0]), nil
}

func builtinNimAdd(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vs, err := nimberArgs(b.Name(), args, kwargs, 0, -1)
	if err != nil {
		return nil, err
	}
	return nimResult(args, nimber.Sum(vs...)), nil
}

func builtinNimMul(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vs, err := nimberArgs(b.Name(), args, kwargs, 0, -1)
	if err != nil {
		return nil, err
	}
	return nimResult(args, nimber.Product(vs...)), nil
}

func builtinNimInv(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vs, err := nimberArgs(b.Name(), args, kwargs, 1, 1)
	if err != nil {
		return nil, err
	}
	v, err := nimber.Inv(vs[0])
	if err != nil {
		return nil, errors.New("nim_inv: 0 has no nim-inverse")
	}
	return nimResult(args, v), nil
}

func builtinNimSqrt(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vs, err := nimberArgs(b.Name(), args, kwargs, 1, 1)
	if err != nil {
		return nil, err
	}
	return nimResult(args, nimber.Sqrt(vs[0])), nil
}

func builtinNimPow(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	vs, err := nimberArgs(b.Name(), args, kwargs, 2, 2)
	if err != nil {
		return nil, err
	}
	return nimResult(args[:1], nimber.Pow(vs[0], vs[1])), nil
}
