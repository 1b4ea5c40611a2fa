package notebook

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/job"
)

// Coin-turning games in a cell: coins(rule, r, n, first), a position the
// list of heads.

func init() {
	registerNB("coins", coinsNB{})
	registerBuiltin("coins", builtinCoins, doc{"coins(rule=\"at-most\", r=None, n=None, first=1, play=\"normal\", position=None)",
		"A coin-turning game: rule at-most, exactly or ruler; r coins turned; n coins numbered from first (0 or 1). Methods: values(n), p_positions(n), weights(n), distribution(n), code(n), steiner(n), automorphisms(n), outcome(heads), moves(heads), graph(heads), grundy(heads), plot(). Example: coins(r=7, n=24).weights() is the Golay code's weight distribution."})
}

type coinsNB struct{}

func (coinsNB) title(s *job.Section) string {
	if g, err := s.Coins().NewGame(); err == nil {
		return g.String()
	}
	return ""
}

func (coinsNB) sizeArgs(name string, sec *job.Section, args starlark.Tuple, kwargs []starlark.Tuple) error {
	cs := sec.Coins()
	n := starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(name, args, kwargs, "n?", &n); err != nil {
		return err
	}
	if err := setInt(name, "n", n, &cs.N, 1, maxCoins); err != nil {
		return err
	}
	if cs.N == 0 {
		return fmt.Errorf("%s: how many coins? write %s(n=16), or give n= to coins()", name, name)
	}
	return nil
}

func (coinsNB) position(fn string, v starlark.Value, sec *job.Section) (any, error) {
	c := sec.Coins()
	hi := c.First + maxCoins - 1
	if c.N > 0 {
		hi = c.First + c.N - 1
	}
	hs, err := intList(fn, v, c.First, hi)
	if err != nil {
		return nil, fmt.Errorf("%s (the coins are numbered %d..%d)", err, c.First, hi)
	}
	sort.Ints(hs)
	for i := 1; i < len(hs); i++ {
		if hs[i] == hs[i-1] {
			return nil, fmt.Errorf("%s: coin %d is listed twice; list each head once", fn, hs[i])
		}
	}
	return hs, nil
}

func (coinsNB) mover(f *Family, conv func(*starlark.Thread, starlark.Value) (any, error)) (mover, error) {
	cs := f.sec.Coins()
	g, err := cs.NewGame()
	if err != nil {
		return nil, err
	}
	return func(th *starlark.Thread, pos starlark.Value) ([]starlark.Value, error) {
		p, err := conv(th, pos)
		if err != nil {
			return nil, err
		}
		hs := p.([]int)
		n := cs.N
		if n == 0 {
			n = 1
			for _, h := range hs {
				n = max(n, h-cs.First+1)
			}
		}
		_, cl := engineLimits(th)
		ms, err := g.WithLimits(cl).Moves(n, hs)
		return tuples(ms), err
	}, nil
}

func (coinsNB) grundy(th *starlark.Thread, f *Family, p any) (uint64, error) {
	g, err := f.sec.Coins().NewGame()
	if err != nil {
		return 0, err
	}
	_, cl := engineLimits(th)
	v, err := g.WithLimits(cl).RowValue(p.([]int))
	if err != nil {
		return 0, fmt.Errorf("grundy: %v", err)
	}
	return v, nil
}

// firsts: a coin row's values start at its first coin.
func (coinsNB) firsts(s *job.Section) [2]int {
	if c := s.Coins(); c != nil {
		return [2]int{c.First, 0}
	}
	return [2]int{}
}

// fit gives a coin row without n the length its heads need.
func (coinsNB) fit(sec *job.Section) {
	cs := sec.Coins()
	if cs == nil || cs.N > 0 {
		return
	}
	n := 1
	fit := func(p any) {
		for _, h := range p.([]int) {
			n = max(n, h-cs.First+1)
		}
	}
	if sec.Position != nil {
		fit(sec.Position)
	}
	for _, p := range sec.Record {
		fit(p)
	}
	cs.N = n
}

// checkPlay gives a coin row without n the length of its start, which
// play needs.
func (c coinsNB) checkPlay(sec *job.Section) error {
	if sec.Coins().N != 0 {
		return nil
	}
	c.fit(sec)
	if sec.Position == nil {
		return errors.New("play: how many coins? write e.g. play(coins(r=3, n=10), position=(2, 5, 9))")
	}
	return nil
}

// coinsSpec reads rule, r, n and first like a job file's coins map.
func coinsSpec(name string, rule string, r, n, first starlark.Value, needN bool) (*job.CoinsSpec, error) {
	cs := &job.CoinsSpec{Rule: rule, First: 1}
	if cs.Rule == "" {
		cs.Rule = "at-most"
	}
	switch cs.Rule {
	case "at-most", "exactly", "ruler":
	default:
		return nil, fmt.Errorf("%s: unknown rule %q; write at-most, exactly or ruler", name, cs.Rule)
	}
	if cs.Rule == "ruler" {
		if r != starlark.None {
			return nil, fmt.Errorf("%s: the ruler game turns any run of coins: remove r", name)
		}
	} else {
		if r == starlark.None {
			return nil, fmt.Errorf("%s: how many coins does a move turn? write e.g. %s(rule=%q, r=3)", name, name, cs.Rule)
		}
		if err := setInt(name, "r", r, &cs.R, 1, maxCoins); err != nil {
			return nil, err
		}
	}
	if err := setInt(name, "first", first, &cs.First, 0, 1); err != nil {
		return nil, fmt.Errorf("%v (the number of the leftmost coin)", err)
	}
	if cs.Rule == "ruler" && cs.First != 1 {
		return nil, fmt.Errorf("%s: the ruler game numbers coins from 1; remove first", name)
	}
	if err := setInt(name, "n", n, &cs.N, 1, maxCoins); err != nil {
		return nil, err
	}
	if _, err := cs.NewGame(); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "coins: "))
	}
	return cs, nil
}

func builtinCoins(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var rule string
	var r, n, first starlark.Value = starlark.None, starlark.None, starlark.None
	fa := familyArgs{}
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "rule?", &rule, "r?", &r, "n?", &n, "first?", &first, "play?", &fa.play, "position?", &fa.position); err != nil {
		return nil, err
	}
	cs, err := coinsSpec("coins", rule, r, n, first, false)
	if err != nil {
		return nil, err
	}
	f := &Family{builtin: "coins", repr: reprArgs("coins", nil, "rule", rule, "r", r, "n", n, "first", first, "play", fa.play, "position", fa.position),
		sec: job.Section{Family: "coins", Game: cs}}
	return f, fa.apply(f)
}
