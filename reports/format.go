package reports

import (
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"strings"

	"github.com/nimbook/nimbook/templates"
)

// node is a position as the engine hands it over (an any holding ints,
// slices of ints, or slices of those), reduced to one shape: a leaf number
// or a list of nodes.
type node struct {
	leaf  bool
	n     int64
	items []node
}

// toNode reads v by reflection, so that []int, [][]int, [2]int and the
// []any of decoded JSON all render the same way.
func toNode(v any) (node, bool) {
	if v == nil {
		return node{}, false
	}
	return reflectNode(reflect.ValueOf(v))
}

func reflectNode(rv reflect.Value) (node, bool) {
	switch rv.Kind() {
	case reflect.Interface, reflect.Pointer:
		if rv.IsNil() {
			return node{}, false
		}
		return reflectNode(rv.Elem())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return node{leaf: true, n: rv.Int()}, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return node{leaf: true, n: int64(rv.Uint())}, true
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if f != float64(int64(f)) {
			return node{}, false
		}
		return node{leaf: true, n: int64(f)}, true
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return node{items: []node{}}, true
		}
		out := node{items: make([]node, 0, rv.Len())}
		for i := 0; i < rv.Len(); i++ {
			c, ok := reflectNode(rv.Index(i))
			if !ok {
				return node{}, false
			}
			out.items = append(out.items, c)
		}
		return out, true
	}
	return node{}, false
}

// ints returns the leaves of a flat list.
func (n node) ints() ([]int64, bool) {
	if n.leaf {
		return nil, false
	}
	out := make([]int64, 0, len(n.items))
	for _, c := range n.items {
		if !c.leaf {
			return nil, false
		}
		out = append(out, c.n)
	}
	return out, true
}

// plain writes any node without knowing the family: numbers as they are,
// lists as tuples.
func plain(n node) string {
	if n.leaf {
		return strconv.FormatInt(n.n, 10)
	}
	if xs, ok := n.ints(); ok {
		return templates.Tuple(xs)
	}
	parts := make([]string, len(n.items))
	for i, c := range n.items {
		parts[i] = plain(c)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// coinRow draws n coins numbered from first with heads at the given
// numbers: ● heads, ○ tails, left to right.
func coinRow(heads []int64, n, first int) string {
	row := []rune(strings.Repeat("○", n))
	for _, h := range heads {
		if i := int(h) - first; i >= 0 && i < n {
			row[i] = '●'
		}
	}
	return string(row)
}

// group writes a decimal string with its digits in groups of three,
// separated by sep (a narrow no-break space by default, as the seeds'
// "244 823 040"); numbers of four digits or fewer stay whole.
func group(digits, sep string) string {
	if sep == "" || len(digits) <= 4 || strings.Trim(digits, "0123456789") != "" {
		return digits
	}
	var b strings.Builder
	lead := len(digits) % 3
	if lead > 0 {
		b.WriteString(digits[:lead])
	}
	for i := lead; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// percent writes 100·a/b with at most two decimals, in the language's
// decimal notation.
func percent(a, b uint64, lang string) string {
	if b == 0 {
		return ""
	}
	s := strconv.FormatFloat(100*float64(a)/float64(b), 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if lang == "fr" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// boundString writes a bound as a job file may give it: 2^k for a power
// of two past 1000, else in decimal.
func boundString(x uint64) string {
	if x > 1000 && x&(x-1) == 0 {
		return "2^" + strconv.Itoa(bits.TrailingZeros64(x))
	}
	return strconv.FormatUint(x, 10)
}
func utoa(n uint64) string { return strconv.FormatUint(n, 10) }

// sprint writes a value the engine hands over in no known shape (the
// positions of a game defined in a cell): lists as Starlark writes them,
// with commas, so that they can be pasted back into a cell.
func sprint(v any) string {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return fmt.Sprint(v)
	}
	parts := make([]string, rv.Len())
	for i := range parts {
		parts[i] = sprint(rv.Index(i).Interface())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}
