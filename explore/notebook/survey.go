package notebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"github.com/nimbook/nimbook/explore/heap"
	"github.com/nimbook/nimbook/explore/job"
	"github.com/nimbook/nimbook/explore/kernel"
	"github.com/nimbook/nimbook/explore/sandbox"
	"github.com/nimbook/nimbook/explore/survey"
)

// surveyDoc documents survey(): its families and the survey keys of the
// heap rules, from the registry.
func surveyDoc() doc {
	// Survey keys that make a parameter's values, with the rules that
	// take them: "digits makes every code of octal and hex".
	var keys []string
	rules := map[string][]string{}
	for _, r := range heap.Rules() {
		for _, g := range r.Generators {
			k := g.Key
			if len(g.With) > 0 {
				k += " (with " + strings.Join(g.With, ", ") + ")"
			}
			k += " makes every " + g.Param
			if _, ok := rules[k]; !ok {
				keys = append(keys, k)
			}
			rules[k] = append(rules[k], r.Name)
		}
	}
	made := ""
	for i, k := range keys {
		if i > 0 {
			made += "; "
		}
		made += k + " of " + orList(rules[k], "and")
	}
	if made != "" {
		made = " (" + made + ")"
	}
	return doc{"survey(" + surveyExample() + ", title=None, position=None, max_variants=None, db=None, jobs=0)",
		"Runs a survey, as `nimbook survey` runs a survey file: one family (" + orList(surveyFamilies(), "or") + ") whose parameters may be lists or ranges \"A..B\"" + made + ", each combination a variant analysed with show. Displays the table of variants, the notable ones and figures across them. In memory unless db names a database file, which keeps the results and resumes. Attributes: title, count, done, variants (a dict per variant: index, game, status, error, results)."}
}

// orList writes a, b and c (or a, b or c).
func orList(words []string, and string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + and + " " + words[len(words)-1]
}

// surveyExample is an example of survey's arguments: the first heap rule
// with a survey key (octal={"digits": 2, "upto": 2000}), else the first
// rule over a range of upto.
func surveyExample() string {
	rules := heap.Rules()
	for _, r := range rules {
		for _, g := range r.Generators {
			if len(g.With) > 0 {
				continue
			}
			v := strings.TrimSpace(strings.TrimPrefix(g.Example, g.Key+":"))
			return fmt.Sprintf("%s={%q: %s, \"upto\": 2000}, show=[\"period\"]", r.Name, g.Key, v)
		}
	}
	if len(rules) > 0 {
		return rules[0].Name + `={"upto": [100, 200]}, show=["period"]`
	}
	return `coins={"r": "1..9", "n": 16}, show=["weights"]`
}

// surveyFamilies are the families a survey may hold, as keyword names:
// the heap rules of the registry, the other families and those written as
// a section of their own (nimber tables).
func surveyFamilies() []string { return append(job.Families(), job.SectionFamilies()...) }

// builtinSurvey is survey(FAMILY={...}, show=[...], ...): the survey file's
// keys as keyword arguments, run in the session with its limits and the
// cell's context (an interrupt stops it).
func builtinSurvey(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		return nil, fmt.Errorf("survey: give the family and show by name, e.g. survey(%s)", surveyExample())
	}
	var doc bytes.Buffer
	doc.WriteByte('{')
	var fam, show string
	db, jobs, maxVariants := "", 0, 0
	put := func(key string, v starlark.Value) error {
		if doc.Len() > 1 {
			doc.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		doc.Write(k)
		doc.WriteByte(':')
		return writeJSON(&doc, v, key)
	}
	for _, kv := range kwargs {
		key, _ := starlark.AsString(kv[0])
		v := kv[1]
		switch {
		case slices.Contains(surveyFamilies(), key):
			if fam != "" {
				return nil, fmt.Errorf("survey: one family at a time, not %s and %s", fam, key)
			}
			fam = key
			if doc.Len() > 1 {
				doc.WriteByte(',')
			}
			k, _ := json.Marshal(key)
			doc.WriteString(`"survey":{`)
			doc.Write(k)
			doc.WriteByte(':')
			if err := writeJSON(&doc, v, key); err != nil {
				return nil, err
			}
			doc.WriteByte('}')
		case key == "show":
			if s, ok := v.(starlark.String); ok {
				v = starlark.NewList([]starlark.Value{s})
			}
			show = v.String()
			if err := put("show", v); err != nil {
				return nil, err
			}
		case key == "title" || key == "position":
			if err := put(key, v); err != nil {
				return nil, err
			}
		case key == "db":
			s, ok := starlark.AsString(v)
			if !ok || s == "" {
				return nil, fmt.Errorf("survey: db must be the path of a database file, e.g. db=\"survey.db\", not %s", v)
			}
			db = s
		case key == "jobs" || key == "max_variants":
			n, err := starlark.AsInt32(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("survey: %s must be a positive whole number, not %s", key, v)
			}
			if key == "jobs" {
				jobs = n
			} else {
				maxVariants = n
			}
		default:
			return nil, fmt.Errorf("survey: unexpected keyword argument %s; give one family (%s), show, and optionally title, position, max_variants, db, jobs",
				key, strings.Join(surveyFamilies(), ", "))
		}
	}
	doc.WriteByte('}')
	if fam == "" {
		return nil, fmt.Errorf("survey: give one family with its parameters, e.g. survey(%s)", surveyExample())
	}
	if show == "" {
		return nil, fmt.Errorf("survey: give the analyses of every variant, e.g. show=[\"period\", \"values\"]")
	}
	s, ctx, _ := sessionOf(th)
	// JSON is YAML: the survey file's parser checks the arguments, with
	// its messages.
	sv, err := survey.Parse("survey", doc.Bytes(), survey.Options{Limits: s.opts.Limits, MaxVariants: maxVariants})
	if err != nil {
		return nil, surveyError(err)
	}
	if jobs == 0 {
		jobs = runtime.NumCPU()
	}
	path := ":memory:"
	if db != "" {
		path = db
	}
	st, err := survey.Create(path, sv)
	if err != nil {
		return nil, surveyError(err)
	}
	defer st.Close()
	have, err := st.Statuses()
	if err != nil {
		return nil, err
	}
	plan, err := survey.NewPlan(ctx, sv, survey.Missing(sv.Variants, have, false, false), jobs)
	if err != nil {
		return nil, surveyError(err)
	}
	if _, err := survey.Run(ctx, sv, st, plan, survey.RunOptions{}); err != nil {
		if ctx.Err() != nil {
			return nil, errors.New("interrupted")
		}
		return nil, err
	}
	rows, err := st.Rows()
	if err != nil {
		return nil, err
	}
	return &surveyValue{r: survey.NewReport(sv, rows, "")}, nil
}

// surveyError words a survey file's error for a cell: keyword arguments
// and limits() in place of keys and flags.
func surveyError(err error) error {
	msg := err.Error()
	var je *job.Error
	if errors.As(err, &je) {
		msg = strings.TrimPrefix(je.Path, "survey.")
		if msg != "" {
			msg += ": "
		}
		msg += je.Msg
	}
	msg = strings.TrimPrefix(msg, "survey: ")
	for _, r := range [][2]string{
		{"--max-variants or limits: {variants: N}", "max_variants=N"},
		{"--max-positions or limits: {positions: N}", "limits(positions=N)"},
		{"--max-memory or limits: {memory: SIZE}", "limits(memory=\"8GiB\")"},
		{"survey file", "survey"},
	} {
		msg = strings.ReplaceAll(msg, r[0], r[1])
	}
	return errors.New("survey: " + msg)
}

// writeJSON writes a Starlark value as JSON, keeping the order of dict
// keys (the order of a survey's parameters).
func writeJSON(b *bytes.Buffer, v starlark.Value, path string) error {
	switch v := v.(type) {
	case starlark.NoneType:
		b.WriteString("null")
	case starlark.Bool, starlark.Int:
		b.WriteString(v.String())
	case starlark.Float:
		j, err := json.Marshal(float64(v))
		if err != nil {
			return fmt.Errorf("survey: %s: %v", path, err)
		}
		b.Write(j)
	case starlark.String:
		j, _ := json.Marshal(string(v))
		b.Write(j)
	case *starlark.Dict:
		b.WriteByte('{')
		for i, kv := range v.Items() {
			k, ok := starlark.AsString(kv[0])
			if !ok {
				return fmt.Errorf("survey: %s: keys must be strings, not %s", path, kv[0])
			}
			if i > 0 {
				b.WriteByte(',')
			}
			j, _ := json.Marshal(k)
			b.Write(j)
			b.WriteByte(':')
			if err := writeJSON(b, kv[1], path+"."+k); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case starlark.Iterable:
		// Lists, tuples, ranges: a list of values.
		b.WriteByte('[')
		it := v.Iterate()
		defer it.Done()
		var x starlark.Value
		for i := 0; it.Next(&x); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, x, path); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		return fmt.Errorf("survey: %s: a %s is not a survey value; write numbers, strings, lists or dicts", path, v.Type())
	}
	return nil
}

// surveyValue is what survey() returns: the report of every variant. It
// displays as the table of a survey's report.
type surveyValue struct {
	r        *survey.Report
	variants *starlark.List // made on first use
}

var _ starlark.HasAttrs = (*surveyValue)(nil)

func (v *surveyValue) Type() string         { return "survey" }
func (v *surveyValue) Freeze()              {}
func (v *surveyValue) Truth() starlark.Bool { return true }
func (v *surveyValue) Hash() (uint32, error) {
	return 0, errors.New("unhashable type: survey")
}
func (v *surveyValue) String() string {
	return fmt.Sprintf("survey(%q: %d variants of %s, %d done)", v.r.Title, v.r.Count, v.r.Family, v.r.Done)
}
func (v *surveyValue) AttrNames() []string {
	return []string{"count", "done", "title", "to_csv", "to_markdown", "variants"}
}

// table lays the survey out a variant a row: its index, its parameters,
// its status, each result key (as JSON), then its error.
func (v *surveyValue) table() exportTable {
	var params, results []string
	seenP, seenR := map[string]bool{}, map[string]bool{}
	decoded := make([]map[string]json.RawMessage, len(v.r.Variants))
	for i, vr := range v.r.Variants {
		for _, p := range vr.Params {
			if !seenP[p.Key] {
				seenP[p.Key] = true
				params = append(params, p.Key)
			}
		}
		if len(vr.Results) > 0 && json.Unmarshal(vr.Results, &decoded[i]) == nil {
			keys := make([]string, 0, len(decoded[i]))
			for k := range decoded[i] {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if !seenR[k] {
					seenR[k] = true
					results = append(results, k)
				}
			}
		}
	}
	t := exportTable{header: append(append(append([]string{"index"}, params...), "status"), results...)}
	t.header = append(t.header, "error")
	for i, vr := range v.r.Variants {
		row := []string{strconv.Itoa(vr.Index)}
		for _, k := range params {
			cell := ""
			for _, p := range vr.Params {
				if p.Key == k {
					cell = jsonCell(p.Value)
				}
			}
			row = append(row, cell)
		}
		row = append(row, vr.Status)
		for _, k := range results {
			cell := ""
			if raw, ok := decoded[i][k]; ok {
				cell = strings.Trim(string(raw), `"`)
			}
			row = append(row, cell)
		}
		t.rows = append(t.rows, append(row, vr.Error))
	}
	return t
}

// jsonCell is a parameter's value as a table cell: a string as it is,
// anything else as JSON.
func jsonCell(x any) string {
	if s, ok := x.(string); ok {
		return s
	}
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}

func (v *surveyValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "title":
		return starlark.String(v.r.Title), nil
	case "count":
		return starlark.MakeInt(v.r.Count), nil
	case "done":
		return starlark.MakeInt(v.r.Done), nil
	case "to_csv", "to_markdown":
		return starlark.NewBuiltin(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var path starlark.Value = starlark.None
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path?", &path); err != nil {
				return nil, err
			}
			if err := sandbox.NeedMemory(th, name, 256*int64(len(v.r.Variants)+1)); err != nil {
				return nil, err
			}
			t := v.table()
			if name == "to_markdown" {
				return writeOrReturn(th, name, path, ".md", t.markdownText())
			}
			text, err := t.csvText()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return writeOrReturn(th, name, path, ".csv", text)
		}), nil
	case "variants":
		if v.variants == nil {
			var items []starlark.Value
			for _, vr := range v.r.Variants {
				d := starlark.NewDict(5)
				_ = d.SetKey(starlark.String("index"), starlark.MakeInt(vr.Index))
				_ = d.SetKey(starlark.String("game"), fromJSON(vr.Game))
				_ = d.SetKey(starlark.String("status"), starlark.String(vr.Status))
				_ = d.SetKey(starlark.String("error"), starlark.String(vr.Error))
				res := starlark.Value(starlark.None)
				if len(vr.Results) > 0 {
					res = fromJSON(vr.Results)
				}
				_ = d.SetKey(starlark.String("results"), res)
				items = append(items, d)
			}
			v.variants = starlark.NewList(items)
		}
		return v.variants, nil
	}
	return nil, nil
}

// fromJSON turns canonical JSON into Starlark values (numbers stay exact).
func fromJSON(raw []byte) starlark.Value {
	x, ok := decodeJSON(raw)
	if !ok {
		return starlark.None
	}
	return jsonValue(x)
}

// decodeJSON decodes JSON with its numbers kept exact.
func decodeJSON(raw []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, false
	}
	return x, true
}

func jsonValue(x any) starlark.Value {
	switch x := x.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := starlark.NewDict(len(x))
		for _, k := range keys {
			_ = d.SetKey(starlark.String(k), jsonValue(x[k]))
		}
		return d
	case []any:
		items := make([]starlark.Value, len(x))
		for i, e := range x {
			items[i] = jsonValue(e)
		}
		return starlark.NewList(items)
	case json.Number:
		if n, ok := new(big.Int).SetString(x.String(), 10); ok {
			return starlark.MakeBigInt(n)
		}
		f, _ := x.Float64()
		return starlark.Float(f)
	case string:
		return starlark.String(x)
	case bool:
		return starlark.Bool(x)
	}
	return starlark.None
}

// json is the survey's JSON form, as `nimbook survey --format json`
// writes it.
func (v *surveyValue) json() (any, error) {
	var b bytes.Buffer
	if err := v.r.JSON(&b); err != nil {
		return nil, err
	}
	x, ok := decodeJSON(b.Bytes())
	if !ok {
		return nil, errors.New("this survey has no JSON form")
	}
	return x, nil
}

// bundle displays a survey: the Renderer's table over a plain text and
// JSON fallback.
func (v *surveyValue) bundle(s *Session, d *kernel.Display) *kernel.Display {
	if x, err := v.json(); err == nil {
		d.Data["application/json"] = x
	}
	if s.opts.Renderer != nil {
		rich, err := s.opts.Renderer.Bundle(v.r)
		if err == nil && rich != nil {
			for k, x := range rich.Data {
				d.Data[k] = x
			}
			for k, x := range rich.Metadata {
				d.Metadata[k] = x
			}
		}
	}
	return d
}
