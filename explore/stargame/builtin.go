package stargame

import (
	"errors"
	"fmt"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/game"
)

// Spec is what game() returns in a file: a game given by its functions,
// not yet bound to a run. Its Starlark type is "game".
type Spec struct {
	Moves      starlark.Callable
	Start      starlark.Value // nil: none
	Components starlark.Callable
	Canonical  starlark.Callable
	Show       starlark.Callable
	Name       string
	Play       game.Play
}

var _ starlark.Value = (*Spec)(nil)

func (s *Spec) String() string        { return s.Name }
func (s *Spec) Type() string          { return "game" }
func (s *Spec) Freeze()               {}
func (s *Spec) Truth() starlark.Bool  { return true }
func (s *Spec) Hash() (uint32, error) { return 0, errors.New("unhashable type: game") }

// Signature is game()'s, as help prints it.
const Signature = `game(moves, start=None, components=None, canonical=None, name=None, show=None, play="normal", max_positions=0)`

// ParseArgs reads the arguments of game(): the notebook's built-in and
// this package's share it, so that they accept the same calls. maxPos is
// the notebook's max_positions (0 when not given).
func ParseArgs(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (s *Spec, maxPos int, err error) {
	var moves starlark.Callable
	var start, comps, canon, show, name starlark.Value = starlark.None, starlark.None, starlark.None, starlark.None, starlark.None
	var play string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "moves", &moves, "start?", &start, "play?", &play,
		"max_positions?", &maxPos, "name?", &name, "components?", &comps, "canonical?", &canon, "show?", &show); err != nil {
		return nil, 0, err
	}
	p, err := game.ParsePlay(play)
	if err != nil {
		return nil, 0, fmt.Errorf("game: unknown play %q: write play=\"normal\" or play=\"misere\"", play)
	}
	if maxPos < 0 {
		return nil, 0, fmt.Errorf("game: max_positions must be positive, not %d", maxPos)
	}
	s = &Spec{Moves: moves, Play: p}
	fns := []struct {
		key string
		v   starlark.Value
		to  *starlark.Callable
	}{{"components", comps, &s.Components}, {"canonical", canon, &s.Canonical}, {"show", show, &s.Show}}
	for _, f := range fns {
		if f.v == starlark.None {
			continue
		}
		c, ok := f.v.(starlark.Callable)
		if !ok {
			return nil, 0, fmt.Errorf("game: %s= wants a function of a position, not %s %s", f.key, f.v.Type(), f.v)
		}
		*f.to = c
	}
	switch n := name.(type) {
	case starlark.NoneType:
		s.Name = fmt.Sprintf("game(moves=%s)", moves.Name())
	case starlark.String:
		s.Name = string(n)
	default:
		return nil, 0, fmt.Errorf("game: name= wants a string, not %s", name.Type())
	}
	if start != starlark.None {
		if _, err := Normalize(start); err != nil {
			return nil, 0, fmt.Errorf("game: start: %w", err)
		}
		s.Start = start
	}
	return s, maxPos, nil
}

// builtin is game() for files run outside a notebook.
func builtin(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	s, _, err := ParseArgs(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Predeclared is what every Starlark file nimbook runs outside a notebook
// sees besides the sandbox's built-ins: game().
func Predeclared() starlark.StringDict {
	return starlark.StringDict{"game": starlark.NewBuiltin("game", builtin)}
}

// Normalize returns v as a position: ints and strings as they are, lists
// read as tuples (recursively). Any other value is an error saying what a
// position may be: JSON must hold it.
func Normalize(v starlark.Value) (starlark.Value, error) {
	switch x := v.(type) {
	case starlark.Int, starlark.String:
		return v, nil
	case starlark.Tuple:
		out := make(starlark.Tuple, len(x))
		for i, e := range x {
			var err error
			if out[i], err = Normalize(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *starlark.List:
		out := make(starlark.Tuple, x.Len())
		for i := range out {
			var err error
			if out[i], err = Normalize(x.Index(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s %s cannot be a position: a position is an int, a string, or a tuple or list of them (JSON must hold it)", v.Type(), short(v))
}

// short is v's text, cut to a line.
func short(v starlark.Value) string {
	s := v.String()
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// toJSON converts a normalized position to the JSON value it is.
func toJSON(v starlark.Value) any {
	switch x := v.(type) {
	case starlark.Int:
		if n, ok := x.Int64(); ok {
			return n
		}
		return x.String()
	case starlark.String:
		return string(x)
	case starlark.Tuple:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toJSON(e)
		}
		return out
	}
	return v.String()
}
