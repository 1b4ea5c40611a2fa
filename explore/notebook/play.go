package notebook

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/play"
)

// play(game) lets the person at the notebook play against the computer: the
// loop of package play, its lines read through Jupyter's stdin channel
// (input_request) and everything it shows written to the cell's stdout. The
// game is a built-in family, or a game defined with game(moves=...,
// start=...) or a sum of games, solved before the first move (userplay.go).

// inputLines adapts a cell's Output to play.LineReader: each line is one
// input_request, its prompt the loop's.
type inputLines struct{ out kernel.Output }

func (r inputLines) ReadLine(prompt string) (string, error) {
	return r.out.Input(prompt, false)
}

// streamWriter writes to the cell's stdout.
type streamWriter struct{ out kernel.Output }

func (w streamWriter) Write(p []byte) (int, error) {
	w.out.Stream("stdout", string(p))
	return len(p), nil
}

func builtinPlay(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var g starlark.Value
	var pos starlark.Value = starlark.None
	first, level := "human", "perfect"
	hint := false
	seed := 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "game", &g, "position?", &pos, "first?", &first,
		"hint?", &hint, "level?", &level, "seed?", &seed); err != nil {
		return nil, err
	}
	who, err := play.ParsePlayer(first)
	if err != nil {
		return nil, fmt.Errorf("play: first=%q: write first=\"human\" or first=\"computer\"", first)
	}
	lv, err := play.ParseLevel(level)
	if err != nil {
		return nil, err
	}
	opts := play.Options{First: who, Hint: hint, Level: lv, Seed: uint64(seed)}
	// A game defined with game(moves=..., start=...), or a sum of games.
	if ug, ok := g.(*Game); ok {
		pg, start, err := playUserGame(th, ug, pos, b.Name(), "write play(game, position=...)")
		if err != nil {
			return nil, err
		}
		return runPlay(th, pg, start, opts)
	}
	f, ok := g.(*Family)
	if !ok || !play.Playable(f.sec.Family) {
		var fams []string
		for _, f := range gameFamilies() {
			fams = append(fams, registeredBuiltin(f))
		}
		return nil, fmt.Errorf("play: cannot play %s; play a built-in game: nim, subtraction, octal, hex_game, wythoff, coins, product, %s, e.g. play(nim(1, 3, 5, 7)), or a game(moves=..., start=...)", g.Type(), strings.Join(fams, ", "))
	}
	sec, _, err := f.section(th)
	if err != nil {
		return nil, err
	}
	if pos != starlark.None && sec.Registered() != nil {
		return nil, fmt.Errorf("play: %s starts from the start its parameters give; build the game of another start instead of position=", f.repr)
	}
	if pos != starlark.None {
		p, err := f.position(b.Name(), pos, sec)
		if err != nil {
			return nil, err
		}
		sec.Position = p
	}
	if pc, ok := nbFamilies[sec.Family].(playChecker); ok {
		if err := pc.checkPlay(sec); err != nil {
			return nil, err
		}
	}
	pg, start, err := play.FromSection(sec)
	if err != nil {
		return nil, err
	}
	if start == nil {
		return nil, fmt.Errorf("play: from which position? write play(%s, position=%s)", f.repr, strings.TrimSpace(strings.SplitN(positionExample(sec.Family), "#", 2)[0]))
	}
	return runPlay(th, pg, start, opts)
}

// runPlay plays pg from start in the cell of th.
func runPlay(th *starlark.Thread, pg play.Game, start []int, opts play.Options) (starlark.Value, error) {
	_, ctx, out := sessionOf(th)
	_, err := play.Run(ctx, pg, start, inputLines{out}, streamWriter{out}, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errors.New("interrupted")
		}
		return nil, fmt.Errorf("play: %s", strings.TrimPrefix(err.Error(), "play: "))
	}
	return starlark.None, nil
}
