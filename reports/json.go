package reports

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/explore/job"
)

// JSONFormat names the form of the JSON documents JSON writes, under the
// key "format"; it changes when a key changes meaning or goes.
const JSONFormat = "nimbook/1"

// JSON writes r in the machine-readable form of SPEC.md, indented by two
// spaces, with a trailing newline: the format, the title, and per section
// its title, its game (job.Section.GameJSON: the family and its
// parameters, as in the job file) and its results under SPEC.md's keys.
// Struct fields keep their declared order and maps are sorted, so the
// bytes depend only on the results. See the package documentation for
// the form.
//
// The document is written as it goes: a sequence or table of 10^8 values
// costs a buffer, not its whole text in memory (encoding/json builds the
// whole document before writing a byte). The bytes are those of
// encoding/json with the same indent.
func JSON(w io.Writer, r *job.Report) error {
	if r == nil {
		return fmt.Errorf("reports: nil report")
	}
	j := newJSONWriter(w)
	j.raw("{")
	j.newline(1)
	j.key("format")
	j.value(reflect.ValueOf(JSONFormat), 1)
	j.raw(",")
	j.newline(1)
	j.key("title")
	j.value(reflect.ValueOf(r.Title), 1)
	j.raw(",")
	j.newline(1)
	j.key("sections")
	if len(r.Sections) == 0 {
		j.raw("[]")
	} else {
		j.raw("[")
		for i, sr := range r.Sections {
			if i > 0 {
				j.raw(",")
			}
			j.newline(2)
			j.section(sr)
		}
		j.newline(1)
		j.raw("]")
	}
	j.newline(0)
	j.raw("}\n")
	return j.flush()
}

// section writes one section at depth 2: title, game, results.
func (j *jsonWriter) section(sr *job.SectionResult) {
	if sr == nil {
		j.raw("null")
		return
	}
	j.raw("{")
	j.newline(3)
	j.key("title")
	j.value(reflect.ValueOf(sr.Title), 3)
	if g := sr.Spec.GameJSON(); g != nil {
		j.raw(",")
		j.newline(3)
		j.key("game")
		j.value(reflect.ValueOf(g), 3)
	}
	j.raw(",")
	j.newline(3)
	j.key("results")
	j.value(reflect.ValueOf(&sr.Results), 3)
	j.newline(2)
	j.raw("}")
}

// jsonWriter writes indented JSON value by value, as encoding/json's
// Encoder with SetIndent("", "  ") and SetEscapeHTML(false) would: slices
// and the report's own structs element by element, anything else (small:
// a period, a record, a graph) through an Encoder.
type jsonWriter struct {
	w       *bufio.Writer
	err     error
	scratch bytes.Buffer
	num     []byte
}

func newJSONWriter(w io.Writer) *jsonWriter {
	return &jsonWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jsonWriter) newline(depth int) {
	j.raw("\n")
	for range depth {
		j.raw("  ")
	}
}

func (j *jsonWriter) flush() error {
	if j.err == nil {
		j.err = j.w.Flush()
	}
	if j.err != nil {
		return fmt.Errorf("reports: %w", j.err)
	}
	return nil
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// streamed reports whether the structs of type t are written field by
// field here: the results, which hold the large sequences and tables.
func streamed(t reflect.Type) bool {
	switch t {
	case reflect.TypeFor[job.Results]():
		return true
	}
	return false
}

// value writes v at the given depth of indentation (the line it starts on
// is already indented).
func (j *jsonWriter) value(v reflect.Value, depth int) {
	if j.err != nil {
		return
	}
	if !v.IsValid() {
		j.raw("null")
		return
	}
	t := v.Type()
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		j.encode(v, depth)
		return
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			j.raw("null")
			return
		}
		if v.Kind() == reflect.Pointer && !streamed(t.Elem()) && !sliceLike(t.Elem()) {
			j.encode(v, depth)
			return
		}
		j.value(v.Elem(), depth)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		j.num = strconv.AppendUint(j.num[:0], v.Uint(), 10)
		j.bytes(j.num)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		j.num = strconv.AppendInt(j.num[:0], v.Int(), 10)
		j.bytes(j.num)
	case reflect.Slice, reflect.Array:
		if !sliceLike(t) {
			j.encode(v, depth)
			return
		}
		if v.Kind() == reflect.Slice && v.IsNil() {
			j.raw("null")
			return
		}
		n := v.Len()
		if n == 0 {
			j.raw("[]")
			return
		}
		if v.Kind() == reflect.Slice && v.CanInterface() {
			if s, ok := v.Interface().([]uint64); ok {
				j.uints(s, depth)
				return
			}
		}
		j.raw("[")
		for i := range n {
			if i > 0 {
				j.raw(",")
			}
			j.newline(depth + 1)
			j.value(v.Index(i), depth+1)
			if j.err != nil {
				return
			}
		}
		j.newline(depth)
		j.raw("]")
	case reflect.Struct:
		if !streamed(t) {
			j.encode(v, depth)
			return
		}
		j.object(v, depth)
	default:
		j.encode(v, depth)
	}
}

// uints writes a non-empty sequence of values as value does, one a line,
// straight into the buffer: sequences of millions of values are most of
// what a long sweep's report writes.
func (j *jsonWriter) uints(s []uint64, depth int) {
	sep := make([]byte, 0, 2+2*(depth+1))
	sep = append(sep, ",\n"...)
	for range depth + 1 {
		sep = append(sep, "  "...)
	}
	j.raw("[")
	line := sep[1:] // the first value has no comma before it
	for _, x := range s {
		if j.err != nil {
			return
		}
		if j.w.Available() < len(sep)+20 {
			if j.err = j.w.Flush(); j.err != nil {
				return
			}
		}
		buf := append(j.w.AvailableBuffer(), line...)
		buf = strconv.AppendUint(buf, x, 10)
		_, j.err = j.w.Write(buf)
		line = sep
	}
	j.newline(depth)
	j.raw("]")
}

func (j *jsonWriter) bytes(b []byte) {
	if j.err == nil {
		_, j.err = j.w.Write(b)
	}
}

// sliceLike reports whether a slice or array type is written element by
// element: not []byte, which encoding/json writes as base64.
func sliceLike(t reflect.Type) bool {
	return (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && t.Elem().Kind() != reflect.Uint8
}

// object writes a struct field by field, under encoding/json's rules for
// the tags the report types use: a name, omitempty, and "-".
func (j *jsonWriter) object(v reflect.Value, depth int) {
	t := v.Type()
	first := true
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fv := v.Field(i)
		if hasOpt(opts, "omitempty") && emptyValue(fv) {
			continue
		}
		if hasOpt(opts, "omitzero") && fv.IsZero() {
			continue
		}
		if first {
			j.raw("{")
			first = false
		} else {
			j.raw(",")
		}
		j.newline(depth + 1)
		j.key(name)
		j.value(fv, depth+1)
	}
	if first {
		j.raw("{}")
		return
	}
	j.newline(depth)
	j.raw("}")
}

func (j *jsonWriter) key(name string) {
	j.encode(reflect.ValueOf(name), 0)
	j.raw(": ")
}

func hasOpt(opts, want string) bool {
	for o := range strings.SplitSeq(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// emptyValue is encoding/json's test for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// encode writes a small value with encoding/json, indented to fit at depth.
func (j *jsonWriter) encode(v reflect.Value, depth int) {
	if j.err != nil {
		return
	}
	j.scratch.Reset()
	enc := json.NewEncoder(&j.scratch)
	enc.SetEscapeHTML(false)
	enc.SetIndent(strings.Repeat("  ", depth), "  ")
	if err := enc.Encode(v.Interface()); err != nil {
		j.err = err
		return
	}
	j.bytes(bytes.TrimSuffix(j.scratch.Bytes(), []byte("\n")))
}
