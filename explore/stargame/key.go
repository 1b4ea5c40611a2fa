package stargame

import (
	"fmt"
	"math/big"
	"strconv"

	"go.starlark.net/starlark"
)

// maxHeld bounds the positions a game keeps as Starlark values, besides
// their keys: a position not held is read back from its key (parseKey),
// so that a search of millions of positions holds strings, not values
// that keep the collector busy (3 × 12 Node Kayles: half the time went
// to collecting them).
const maxHeld = 1 << 16

// parseKey reads a position back from its key, the repr of a normalized
// position: ints, strings and tuples of them.
func parseKey(key string) (starlark.Value, error) {
	p := keyParser{s: key}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, fmt.Errorf("stargame: bad position key %q", key)
	}
	return v, nil
}

type keyParser struct {
	s string
	i int
}

func (p *keyParser) value() (starlark.Value, error) {
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("stargame: bad position key %q", p.s)
	}
	switch c := p.s[p.i]; {
	case c == '(':
		p.i++
		var t starlark.Tuple
		for p.i < len(p.s) && p.s[p.i] != ')' {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			t = append(t, v)
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				if p.i < len(p.s) && p.s[p.i] == ' ' {
					p.i++
				}
			}
		}
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("stargame: bad position key %q", p.s)
		}
		p.i++
		if t == nil {
			t = starlark.Tuple{}
		}
		return t, nil
	case c == '"':
		j := p.i + 1
		for j < len(p.s) && p.s[j] != '"' {
			if p.s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(p.s) {
			return nil, fmt.Errorf("stargame: bad position key %q", p.s)
		}
		str, err := strconv.Unquote(p.s[p.i : j+1])
		if err != nil {
			return nil, fmt.Errorf("stargame: bad position key %q: %w", p.s, err)
		}
		p.i = j + 1
		return starlark.String(str), nil
	default:
		j := p.i
		if j < len(p.s) && p.s[j] == '-' {
			j++
		}
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		num := p.s[p.i:j]
		p.i = j
		if n, err := strconv.ParseInt(num, 10, 64); err == nil {
			return starlark.MakeInt64(n), nil
		}
		b, ok := new(big.Int).SetString(num, 10)
		if !ok {
			return nil, fmt.Errorf("stargame: bad position key %q", p.s)
		}
		return starlark.MakeBigInt(b), nil
	}
}
