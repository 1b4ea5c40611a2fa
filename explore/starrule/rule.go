package starrule

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/sandbox"
)

// Keys of the rule's parameters in a job file.
const (
	keyFile   = "file"
	keyName   = "name"
	keyParams = "params"
)

func init() {
	heap.Register(&heap.Rule{
		Name:  "rule",
		Order: 60,
		Text: heap.Texts(
			"a heap rule written in Starlark: a function of a file returns the options of a heap of n",
			"une règle de tas écrite en Starlark : une fonction d’un fichier donne les options d’un tas de n"),
		Describe: heap.Texts(
			"Starlark rule {{.Name}}",
			"règle Starlark {{.Name}}"),
		Params: []heap.Param{
			{Key: keyFile, Kind: heap.File, Example: "rules.star",
				Missing: "the Starlark file that defines the rule, e.g. file: rules.star",
				Text:    heap.Texts("the Starlark file that defines the rule", "le fichier Starlark qui définit la règle")},
			{Key: keyName, Kind: heap.String, Example: "squares",
				Missing: "the name of the rule's function in the file, e.g. name: squares",
				Text:    heap.Texts("the function of the file that lists the options of a heap of n", "la fonction du fichier qui donne les options d’un tas de n")},
			{Key: keyParams, Kind: heap.Map, Example: "{k: 3}",
				Text: heap.Texts("the function's other parameters, by name", "les autres paramètres de la fonction, par nom")},
			heap.UptoParam(100),
		},
		Check: func(p heap.Params) error {
			_, err := Load(p.String(keyFile), p.String(keyName), p.Map(keyParams))
			return err
		},
		New: func(p heap.Params) (heap.Game, error) {
			return Load(p.String(keyFile), p.String(keyName), p.Map(keyParams))
		},
		Signature: `rule(file, name, params={}, upto=100, play="normal", position=None)`,
		Help: "A heap rule written in Starlark: def name(n, ...) in file returns the options of a heap of n, a list of lists of heaps, each smaller than n ([] removes the heap); params are its other parameters, by name. " +
			"Methods: values(upto), period() (observed, never proven), genus(upto) and quotient(upto) (misère play), p_positions(upto), outcome(p), moves(p), graph(p), grundy(p), plot().",
	})
}

// Load runs the Starlark file at path in the sandbox and returns the game
// whose options are its function name called as name(n, **params).
// params hold ints, strings, bools and lists of ints. The function must
// take the heap size first, then every one of params by name, and no
// other parameter without a default. The error, a *heap.ParamError whose
// key is file, name or params, names the file and its line.
func Load(path, name string, params map[string]any) (*Game, error) {
	globals, err := load(path, "")
	if err != nil {
		return nil, &heap.ParamError{Key: keyFile, Msg: err.Error()}
	}
	v, ok := globals[name]
	if !ok {
		return nil, &heap.ParamError{Key: keyName, Msg: fmt.Sprintf("%s defines no %s; its functions: %s", path, name, sandbox.Functions(globals))}
	}
	fn, ok := v.(*starlark.Function)
	if !ok {
		return nil, &heap.ParamError{Key: keyName, Msg: fmt.Sprintf("%s: %s is %s, not a function; its functions: %s", path, name, article(v.Type()), sandbox.Functions(globals))}
	}
	kwargs, err := Kwargs(params)
	if err != nil {
		return nil, &heap.ParamError{Key: keyParams, Msg: err.Error()}
	}
	names := make([]string, len(kwargs))
	for i, kv := range kwargs {
		names[i] = string(kv[0].(starlark.String))
	}
	if err := checkSignature(fn, names); err != nil {
		return nil, err
	}
	threads := func(ctx context.Context, lim sandbox.Limits) (*starlark.Thread, func()) {
		return sandbox.NewThread(ctx, "rule "+name, lim)
	}
	return newGame(fn, kwargs, threads), nil
}

// Kwargs makes a rule's own parameters (ints, strings, bools, lists of
// ints: a job file's params, a notebook's keyword arguments) the keyword
// arguments of its function, sorted by name; lists are frozen, so that the
// function cannot change them between calls.
func Kwargs(params map[string]any) ([]starlark.Tuple, error) {
	return sandbox.Kwargs(params, sandbox.FrozenLists)
}

// checkSignature checks that fn takes the heap size first, then the
// parameters names by name, and no other parameter without a default:
// the error, a *heap.ParamError, names the line of its def.
func checkSignature(fn *starlark.Function, names []string) error {
	pos := fn.Position()
	at := fmt.Sprintf("%s:%d", pos.Filename(), pos.Line)
	last := fn.NumParams() // parameters but *args and **kwargs
	if fn.HasVarargs() {
		last--
	}
	if fn.HasKwargs() {
		last--
	}
	if last-fn.NumKwonlyParams() < 1 {
		return &heap.ParamError{Key: keyName, Msg: fmt.Sprintf("%s: %s must take the heap size as its first parameter: def %s(n, ...)", at, fn.Name(), fn.Name())}
	}
	first, _ := fn.Param(0)
	var takes []string
	for i := 1; i < last; i++ {
		p, _ := fn.Param(i)
		takes = append(takes, p)
	}
	sig := fmt.Sprintf("%s(%s)", fn.Name(), strings.Join(append([]string{first}, takes...), ", "))
	for _, name := range names {
		switch {
		case name == first:
			return &heap.ParamError{Key: keyParams, Msg: fmt.Sprintf("%s: %s: %s is the heap size, not a parameter to give", at, sig, name)}
		case !slices.Contains(takes, name) && !fn.HasKwargs():
			return &heap.ParamError{Key: keyParams, Msg: fmt.Sprintf("%s: %s takes no parameter %s", at, sig, name)}
		}
	}
	for i := 1; i < last; i++ {
		p, _ := fn.Param(i)
		if fn.ParamDefault(i) == nil && !slices.Contains(names, p) {
			return &heap.ParamError{Key: keyParams, Msg: fmt.Sprintf("%s: %s needs %s: give it in params, e.g. params: {%s: 3}", at, sig, p, p)}
		}
	}
	return nil
}
