package stargame

import (
	"github.com/nimbook/nimbook/explore/family"
)

// Keys of the family's parameters in a job file.
const (
	keyFile   = "file"
	keyName   = "name"
	keyParams = "params"
)

// Key is the family's job-file key.
const Key = "starlark"

func init() {
	family.Register(&family.Family{
		Key:   Key,
		Order: 100,
		Text: family.Texts(
			"a game written in Starlark: a function of a file returns game(moves=…, start=…)",
			"un jeu écrit en Starlark : une fonction d’un fichier renvoie game(moves=…, start=…)"),
		Params: []family.Param{
			{Key: keyFile, Kind: family.File, Example: "games.star",
				Missing: "the Starlark file that defines the game, e.g. file: games.star",
				Text:    family.Texts("the Starlark file that defines the game", "le fichier Starlark qui définit le jeu")},
			{Key: keyName, Kind: family.String, Example: "node_kayles",
				Missing: "the function of the file that returns the game, e.g. name: node_kayles",
				Text:    family.Texts("the function of the file that returns game(moves=…, start=…)", "la fonction du fichier qui renvoie game(moves=…, start=…)")},
			{Key: keyParams, Kind: family.Map, Example: "{rows: 3, cols: 5}", Default: map[string]any{},
				Text: family.Texts("the function's parameters, by name; one or two may range (cols: \"1..16\")", "les paramètres de la fonction, par nom ; un ou deux peuvent parcourir un intervalle (cols: \"1..16\")")},
		},
		Ranged:   []string{keyParams},
		Analyses: family.PositionAnalyses,
		Check:    check,
		Cost:     cost,
		New: func(p family.Params, env family.Env) (family.Game, error) {
			return Load(p.String(keyFile), p.String(keyName), p.Map(keyParams), env)
		},
		Signature: `starlark: {file: games.star, name: f, params: {k: 3}}`,
		Help:      "A game written in Starlark: def f(...) in file returns " + Signature + "; params are f's parameters, by name.",
	})
}

// check loads the file and makes the game within a small step budget, and
// lists the moves of its start, so that a broken file, a function that
// fails or loops, or a start JSON cannot hold is reported, with its file
// and line, before any work starts.
func check(p family.Params) error {
	g, err := Load(p.String(keyFile), p.String(keyName), p.Map(keyParams), family.Env{MaxSteps: loadSteps, MaxMemory: loadMemory})
	if err != nil {
		return err
	}
	defer g.Close()
	if _, err := g.Moves(g.Start()); err != nil {
		return err
	}
	return nil
}
