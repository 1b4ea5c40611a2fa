package notebook

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/family"
	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
)

// The families of the registry (package family) that build a game from
// their parameters (Family.New: node-kayles, cram, chomp, starlark) are
// built-ins of their own, named by their key with "-" written "_"
// (node_kayles(graph={"grid": [3, 4]})), their parameters read by kind
// and checked by the registry, as a job file's are. A family registered
// later is a built-in of the sessions made after it (builtins). Each is a Family
// value whose section is the job file's, so its analyses (value, outcome,
// moves, p_positions, graph, plot) run the job engine on it, and play()
// plays it: nothing here names a family.

// registeredBuiltin is the built-in name of a registered family.
func registeredBuiltin(f *family.Family) string { return strings.ReplaceAll(f.Key, "-", "_") }

// gameFamilies lists the registered families that build games, by the
// registry's order.
func gameFamilies() []*family.Family {
	var out []*family.Family
	for _, f := range family.Families() {
		if f.New != nil {
			out = append(out, f)
		}
	}
	return out
}

// registeredOf returns the registered family whose built-in is name, when
// that built-in is the family's (not a fixed built-in of the same name).
func registeredOf(name string) (*family.Family, bool) {
	builtins() // adds the families registered since
	builtinsMu.Lock()
	defer builtinsMu.Unlock()
	f, ok := famBuilt[name]
	return f, ok
}

// registeredDoc is the help of a registered family's built-in: its call
// form from its parameters, the registry's Help, and each parameter's
// text and example.
func registeredDoc(f *family.Family) doc {
	name := registeredBuiltin(f)
	var args, lines []string
	for _, q := range f.Params {
		arg := q.Keyword() + "=" + pythonExample(q.Example)
		if q.Missing == "" {
			arg = q.Keyword() + "=None"
			if q.Default != nil {
				arg = fmt.Sprintf("%s=%s", q.Keyword(), pythonExample(fmt.Sprint(q.Default)))
			}
		}
		args = append(args, arg)
		line := "  " + q.Keyword() + ": " + q.Text["en"]
		if q.Example != "" {
			line += " (e.g. " + q.Keyword() + "=" + pythonExample(q.Example) + ")"
		}
		lines = append(lines, line)
	}
	args = append(args, `play="normal"`)
	text := f.Help
	if text == "" {
		text = f.Line("en")
	}
	text += "\n\nParameters:\n" + strings.Join(lines, "\n") +
		"\n  play: \"normal\" or \"misere\"" +
		"\n\nMethods: " + strings.Join(methodNames(f.Analyses), ", ") +
		"; play(g) plays it. The same game as the job file's " + f.Signature + "."
	return doc{call: name + "(" + strings.Join(args, ", ") + ")", text: text}
}

// methodNames are the method names of analyses (p-positions is
// p_positions).
func methodNames(analyses []string) []string {
	out := make([]string, len(analyses))
	for i, a := range analyses {
		out[i] = strings.ReplaceAll(a, "-", "_")
	}
	return out
}

// pythonExample writes a job file's example as a cell writes it: a YAML
// flow mapping {grid: [3, 12]} as a dict {"grid": [3, 12]}.
func pythonExample(ex string) string {
	ex = strings.TrimSpace(ex)
	if !strings.HasPrefix(ex, "{") {
		return ex
	}
	var b strings.Builder
	word := -1
	flush := func(i int) {
		if word >= 0 {
			b.WriteString(`"` + ex[word:i] + `"`)
			word = -1
		}
	}
	for i := 0; i < len(ex); i++ {
		c := ex[i]
		isWord := c == '_' || c == '-' || c == '.' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9' && word >= 0)
		switch {
		case isWord && word < 0 && !('0' <= c && c <= '9'):
			word = i
		case isWord:
		default:
			flush(i)
			b.WriteByte(c)
		}
	}
	flush(len(ex))
	return b.String()
}

// registeredConstructor is the built-in of a registered family f.
func registeredConstructor(f *family.Family) builtinFunc {
	return func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return newRegistered(th, f, b.Name(), args, kwargs)
	}
}

// newRegistered reads the arguments of a registered family's built-in:
// its parameters, positionally in the registry's order or by keyword,
// and play=.
func newRegistered(th *starlark.Thread, f *family.Family, name string, args starlark.Tuple, kwargs []starlark.Tuple) (*Family, error) {
	vals := make([]starlark.Value, len(f.Params))
	var pairs []any
	for i, q := range f.Params {
		vals[i] = starlark.None
		pairs = append(pairs, q.Keyword()+"?", &vals[i])
	}
	fa := familyArgs{}
	pairs = append(pairs, "play?", &fa.play)
	if err := starlark.UnpackArgs(name, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	params := family.Params{}
	var kv []any
	for i, q := range f.Params {
		v := vals[i]
		kv = append(kv, q.Keyword(), v)
		if v == starlark.None {
			continue
		}
		if err := checkParamSize(th, name, q.Keyword(), v); err != nil {
			return nil, err
		}
		x, err := paramValue(name, q, v)
		if err != nil {
			return nil, err
		}
		switch q.Kind {
		case heap.File:
			if x, err = cellFile(th, name, q.Keyword(), x.(string)); err != nil {
				return nil, err
			}
		case heap.Map:
			if err := mapFiles(th, name, q.Keyword(), x.(map[string]any)); err != nil {
				return nil, err
			}
		}
		params[q.Key] = x
	}
	rule := &heap.Rule{Name: f.Key, Params: f.Params}
	if err := f.CheckParams(params); err != nil {
		// A family's check may name itself ("chomp: [3 4]: ..."): the
		// built-in's name already says it.
		var pe *family.ParamError
		if errors.As(err, &pe) {
			pe.Msg = strings.TrimPrefix(pe.Msg, f.Key+": ")
		}
		return nil, paramError(name, rule, err)
	}
	kv = append(kv, "play", fa.play)
	fm := &Family{builtin: name, repr: reprArgs(name, nil, kv...),
		sec: job.Section{Family: f.Key, Game: &job.FamilySpec{Family: f, Params: params}}}
	if err := fa.apply(fm); err != nil {
		return nil, err
	}
	return fm, nil
}

// mapFiles checks the strings of a Map parameter that name files (a
// graph's file: "g.dot"): a cell reads the files of its notebook's folder
// and of the folders below it only. A string that names a file there is
// taken from the notebook's folder; one that leaves the folder (an
// absolute path, .., a link to a file outside) is refused before the
// family reads it, whether or not the file exists.
func mapFiles(th *starlark.Thread, fn, key string, m map[string]any) error {
	s, _, _ := sessionOf(th)
	root := s.dir()
	for k, v := range m {
		p, ok := v.(string)
		if !ok || p == "" {
			continue
		}
		outside := filepath.IsAbs(p) || p == ".." || strings.HasPrefix(filepath.ToSlash(p), "../") || strings.Contains(filepath.ToSlash(p), "/../")
		full := filepath.Join(root, p)
		if !outside {
			if _, err := os.Lstat(full); err != nil {
				if !filepath.IsAbs(root) && root == "." {
					continue // no file: a word of the family's (a graph's kind)
				}
				// A name the family would open from the process's folder,
				// not the notebook's, is no file of the notebook.
				if _, err := os.Lstat(p); err == nil {
					return fmt.Errorf("%s: %s.%s: %s is not a file of the notebook's folder %s: a cell reads the files of its notebook's folder and of the folders below it only", fn, key, k, p, root)
				}
				continue
			}
			real, err := filepath.EvalSymlinks(full)
			if err != nil {
				return fmt.Errorf("%s: %s.%s: %s: %v", fn, key, k, p, errors.Unwrap(err))
			}
			r, err := filepath.EvalSymlinks(root)
			if err != nil {
				return fmt.Errorf("%s: %s.%s: the notebook's folder: %v", fn, key, k, err)
			}
			ra, _ := filepath.Abs(r)
			fa, _ := filepath.Abs(real)
			outside = !within(ra, fa)
		}
		if outside {
			return fmt.Errorf("%s: %s.%s: %s is outside the notebook's folder: a cell reads the files of its notebook's folder and of the folders below it only", fn, key, k, p)
		}
		m[k] = full
	}
	return nil
}

// registeredTitle names the game of a registered family's section, as
// the family's game names itself.
func registeredTitle(fs *job.FamilySpec) string {
	g, err := fs.Family.New(fs.Params.Clone(), family.Env{})
	if err != nil {
		return fs.Family.Line("en")
	}
	defer g.Close()
	return g.String()
}

// registryLookup is the registered family of key that builds games.
func registryLookup(key string) (*family.Family, bool) {
	f, ok := family.Lookup(key)
	return f, ok && f.New != nil
}
